package dialects_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/suite"
	"github.com/trajeval/trajeval/internal/suite/dialects"
	"github.com/trajeval/trajeval/internal/trace"
)

const real = "../../../testdata/real/dialects/"

// TestRealDialects loads every real file of testdata/real/dialects (see
// its README for where each comes from) as trajeval's users would.
func TestRealDialects(t *testing.T) {
	tests := []struct {
		file     string
		config   string   // --config, "" for none
		cases    int      // cases loaded
		warnings []string // warnings that must be given
		reason   string
	}{
		{"agentv/tool-trajectory-advanced/evals/trace-file-demo.eval.yaml", "", 6,
			[]string{"grader_target has no effect here", "healthcheck has no effect here"},
			"AgentV's example runs unchanged: its target's grader_target and healthcheck are warnings, input and output on expected calls are read"},
		{"agentv/tool-trajectory-simple/evals/dataset.eval.yaml", "", 0,
			[]string{"grader_target has no effect here", "healthcheck has no effect here"}, "the simple example loads whole"},
		{"agentv/trace-evaluation/evals/coding-agent-replay.eval.yaml", "", 2, nil,
			"the replay provider's fixtures: are the suite's traces"},
		{"adk/adk-python/home_automation_agent/simple_test.test.json", "", 0, nil, "ADK's own fixture and its test_config.json"},
		{"adk/adk-samples/customer-service/simple.test.json", "", 0, nil, "an ADK sample's eval set and config"},
		{"adk/adk-samples/long-horizon-harness/basic.evalset.json", "adk/adk-samples/long-horizon-harness/eval_config.json", 2,
			[]string{"includeIntermediateResponsesInFinal has no effect here"},
			"an ADK 2.x camelCase config with includeIntermediateResponsesInFinal loads, with a warning"},
		{"uipath/weather_tools/evaluations/eval-sets/default.json", "", 0, nil, "UiPath's tool-call sample project"},
		{"uipath/calculator/evaluations/eval-sets/trajectory-multi-model.json", "", 0, nil,
			"the evaluators folder holds exact-match and contains evaluators, which this set does not reference: they are not read"},
		{"uipath/calculator/evaluations/eval-sets/multi-model.json", "", 0, nil, "output judges with targetOutputKey *"},
	}
	// The AgentV examples run their graders with bun, which this machine
	// need not have: a stand-in that is never run lets them load.
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "bun"), []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			opts := suite.Options{Dialects: dialects.All()}
			if tt.config != "" {
				opts.Config = real + tt.config
			}
			s, errs := suite.LoadFile(real+tt.file, opts, true)
			if len(errs) > 0 {
				t.Fatalf("errors %v (%s)", errs, tt.reason)
			}
			if tt.cases > 0 && len(s.Cases) != tt.cases {
				t.Errorf("%d cases, want %d (%s)", len(s.Cases), tt.cases, tt.reason)
			}
			if len(s.Cases) == 0 {
				t.Errorf("no cases (%s)", tt.reason)
			}
			var ws []string
			for _, w := range s.Warnings {
				ws = append(ws, w.String())
			}
			for _, w := range tt.warnings {
				if !strings.Contains(strings.Join(ws, "\n"), w) {
					t.Errorf("warnings %q lack %q (%s)", ws, w, tt.reason)
				}
			}
		})
	}
}

// TestRealDialects_replay checks that a replay target's fixtures file is
// the suite's traces file, relative to the file that defines the target.
func TestRealDialects_replay(t *testing.T) {
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "bun"), []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	s, errs := suite.LoadFile(real+"agentv/trace-evaluation/evals/coding-agent-replay.eval.yaml", suite.Options{Dialects: dialects.All()}, true)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	want, _ := filepath.Abs(real + "agentv/trace-evaluation/fixtures/replay-target-output.jsonl")
	got, _ := filepath.Abs(s.Traces)
	if got != want || s.Target != nil {
		t.Errorf("traces %s, target %v; want the fixtures file %s and no command to run", got, s.Target, want)
	}
	for _, c := range s.Cases {
		if src := s.Source(c, ""); src != suite.FromSuite {
			t.Errorf("case %s takes its trace from %q, want the fixtures (%q)", c.ID, src, suite.FromSuite)
		}
	}
}

// TestRealDialects_inputOutput runs AgentV's tool-trajectory-advanced
// example on the output its target writes (the example's cat-trace.ts
// turns static-trace.json into AgentV's output shape; agentvOutput does
// the same). Every case passes, as its author meant; a changed argument
// fails tool-input-validation and a changed result fails
// tool-output-validation, which AgentV, dropping input and output, would
// pass.
func TestRealDialects_inputOutput(t *testing.T) {
	s, errs := suite.LoadFile(real+"agentv/tool-trajectory-advanced/evals/trace-file-demo.eval.yaml", suite.Options{Dialects: dialects.All()}, true)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	data, err := os.ReadFile(real + "agentv/tool-trajectory-advanced/static-trace.json")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		edit   func(events []map[string]any)
		failed []string // the cases that must fail; every other passes
		reason string
	}{
		{"as recorded", func([]map[string]any) {}, nil, "the recorded run does what every case expects"},
		{"another query", func(evs []map[string]any) { evs[0]["input"].(map[string]any)["query"] = "Dell XPS 13" },
			[]string{"tool-input-validation"}, "input on an expected call is the arguments, and is compared"},
		{"another result", func(evs []map[string]any) {
			evs[1]["output"].(map[string]any)["results"].([]any)[0].(map[string]any)["link"] = "https://example.com"
		}, []string{"tool-output-validation"}, "output on an expected call is the result, and is compared"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var static struct {
				Text  string           `json:"text"`
				Trace []map[string]any `json:"trace"`
			}
			if err := json.Unmarshal(data, &static); err != nil {
				t.Fatal(err)
			}
			tt.edit(static.Trace)
			tr := readOne(t, agentvOutput(t, static.Text, static.Trace))
			for _, c := range s.Cases {
				pass := true
				for _, e := range c.Evaluators {
					r := e.Run(context.Background(), tr)
					pass = pass && r.Status == trajeval.StatusPass
				}
				wantFail := false
				for _, f := range tt.failed {
					wantFail = wantFail || f == c.ID
				}
				if pass == wantFail {
					t.Errorf("case %s passed: %v, want %v (%s)", c.ID, pass, !wantFail, tt.reason)
				}
			}
		})
	}
}

// agentvOutput writes what the example's cat-trace.ts writes for a static
// trace: one assistant message whose tool calls carry their input and the
// output of the tool_result with the same id.
func agentvOutput(t *testing.T, text string, events []map[string]any) string {
	t.Helper()
	results := map[any]any{}
	for _, ev := range events {
		if ev["type"] == "tool_result" {
			results[ev["id"]] = ev["output"]
		}
	}
	var calls []map[string]any
	for _, ev := range events {
		if ev["type"] != "tool_call" {
			continue
		}
		c := map[string]any{"tool": ev["name"], "input": ev["input"], "id": ev["id"], "start_time": ev["startTime"]}
		if out, ok := results[ev["id"]]; ok {
			c["output"] = out
		}
		calls = append(calls, c)
	}
	out := map[string]any{"text": text, "output": []any{map[string]any{"role": "assistant", "content": text, "tool_calls": calls}}}
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "output.json")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func readOne(t *testing.T, path string) *trajeval.Trajectory {
	t.Helper()
	var got []*trajeval.Trajectory
	err := trace.Read(context.Background(), path, trace.Options{}, func(tr *trajeval.Trajectory) error {
		got = append(got, tr)
		return nil
	})
	if err != nil || len(got) != 1 {
		t.Fatalf("reading %s: %v, %d trajectories", path, err, len(got))
	}
	return got[0]
}
