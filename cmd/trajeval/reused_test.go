package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/judge/judgetest"
	"github.com/trajeval/trajeval/internal/run"
)

// reusedSuites are suites over the traces of reusedTraces, each run alone
// (a trajectory two suites score is never given back): one of the
// evaluators that let the reader keep arguments and results as text (see
// trajeval.Decoded), one of those that are handed them decoded, and a
// judged one whose judge quotes its prompt back.
var reusedSuites = map[string]string{
	"text.yaml": `name: text
execution:
  evaluators:
    - {name: order, type: tool_trajectory, mode: in_order, args_match: superset, expected: [{tool: search, args: {query: {$regex: "a"}}}, {tool: read}, {tool: write}]}
    - {name: from, type: tool_trajectory, mode: any_order, expected: [{tool: read, args: {id: {$from: "search.result.items[*].id"}}}, {tool: delete}]}
    - {name: output, type: tool_trajectory, mode: any_order, expected: [{tool: read, output: {title: {$regex: "^b"}}}]}
    - {name: rules, type: tool_rules, rules: [{never: {tool: delete, args: {force: true}}}, {at_most: {search: 3}}, {before: [search, write]}, {within: {after: error, then: search, steps: 2}}]}
    - {name: errors, type: tool_error, pattern: "(?i)denied|lost"}
    - {name: budget, type: execution_metrics, max_tool_calls: 12, max_duration_ms: 900}
    - {name: both, type: composite, aggregator: min, evaluators: [{name: flow, type: tool_trajectory, mode: superset, expected: [search, read]}, {name: calls, type: execution_metrics, max_tool_calls: 8}]}
    - {name: correct, type: tool_correctness, match: names_and_args, expected: [{tool: search, args: {query: alpha}}, {tool: read}]}
    - {name: uorder, type: tool_call_order, tool_calls_order: [search, read, write]}
    - {name: ucount, type: tool_call_count, tool_calls_count: {search: [">=", 1], delete: 0}}
    - {name: uargs, type: tool_call_args, tool_calls: [{name: search, args: {query: alpha beta}}], subset: true}
    - {name: uout, type: tool_call_output, tool_outputs: [{name: read, output: {title: bravo}}]}
    - {name: action, type: tau2_action, actions: [{name: write, arguments: {id: doc-1, text: charlie}, compare_args: [id]}]}
    - {name: say, type: tau2_communicate, communicate_info: ["delta"]}
    - {name: exact, type: trajectory_exact_match, reference_trajectory: [{tool_name: search, tool_input: {query: alpha}}]}
    - {name: precision, type: trajectory_precision, reference_trajectory: [{tool_name: search, tool_input: {query: alpha}}, {tool_name: read, tool_input: {id: doc-1}}]}
    - {name: single, type: trajectory_single_tool_use, tool_name: delete}
    - {name: deepeval, type: deepeval_tool_correctness, expected_tools: [{name: search, input_parameters: {query: alpha}}], evaluation_params: [input_parameters], threshold: 0.5}
    - {name: ragas, type: ragas_tool_call_accuracy, reference_tool_calls: [{name: search, args: {query: alpha}}, {name: read, args: {id: doc-2}}]}
`,
	"decoded.yaml": `name: decoded
execution:
  evaluators:
    - {name: grounded, type: grounding}
    - {name: valid, type: tool_call_validity, tools: [{name: search, parameters: {type: object, properties: {query: {type: string}}, required: [query]}}, {name: read, parameters: {type: object, properties: {id: {type: string, pattern: "^doc-[0-2]$"}}}}]}
    - {name: repeats, type: tool_efficiency}
    - {name: f1, type: ragas_tool_call_f1, reference_tool_calls: [{name: search, args: {query: alpha}}, {name: write, args: {id: doc-1}}]}
`,
	"judged.yaml": `name: judged
execution:
  evaluators:
    - {name: judged, type: llm_judge, prompt: "Does {{candidate_answer}} answer {{input}}? The calls: {{tool_calls}}"}
    - {name: order, type: tool_trajectory, mode: in_order, expected: [search, read]}
`,
}

// reusedTraces returns n AgentV traces whose texts differ from one to the
// next (arguments, results, error messages, answers), so that memory one
// trace's steps used, reused for another's, holds other bytes.
func reusedTraces(n int) string {
	rng := rand.New(rand.NewPCG(20, 11))
	words := []string{"alpha", "beta", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india"}
	text := func() string {
		var w []string
		for range 1 + rng.IntN(6) {
			w = append(w, words[rng.IntN(len(words))])
		}
		return strings.Join(w, " ")
	}
	tools := []string{"search", "read", "write", "delete"}
	var lines []string
	for i := range n {
		// Compact, as AgentV writes it, times included: the reader reads
		// such a record straight into steps from the pool, and keeps its
		// texts in memory it reuses (see the agentv reader's recycler).
		msgs := []string{fmt.Sprintf(`{"role":"user","content":%q}`, "find "+text())}
		for k := range rng.IntN(16) {
			tool := tools[rng.IntN(len(tools))]
			status, output := "ok", fmt.Sprintf(`{"items":[{"id":"doc-%d","title":%q}],"text":%q}`, rng.IntN(3), text(), text())
			if rng.IntN(6) == 0 {
				status, output = "error", fmt.Sprintf("%q", "access "+[]string{"denied", "lost", "refused"}[rng.IntN(3)]+": "+text())
			}
			msgs = append(msgs, fmt.Sprintf(`{"role":"assistant","tool_calls":[{"tool":%q,"id":"c%d-%d","input":{"force":%v,"id":"doc-%d","query":%q,"text":%q},"output":%s,"status":%q,"start_time":"2026-01-01T00:00:%02d.000Z","end_time":"2026-01-01T00:00:%02d.100Z","duration_ms":%d}]}`,
				tool, i, k, rng.IntN(5) == 0, rng.IntN(3), text(), text(), output, status, k, k, rng.IntN(200)))
		}
		msgs = append(msgs, fmt.Sprintf(`{"role":"assistant","content":%q}`, "the answer: "+text()))
		lines = append(lines, fmt.Sprintf(`{"id":"t%d","output":[%s]}`, i, strings.Join(msgs, ",")))
	}
	return strings.Join(lines, "\n") + "\n"
}

// TestEval_reusedMemory: a run reuses the memory of the trajectories it
// has scored (run.RecycleSteps: the step slices, what their steps point
// at, and the text the reader kept) once nothing holds it, so its reports
// are those of the same run that makes everything new: every format (the
// ones that hold every row until the run is over among them), the run
// history's rows and show, for evaluators of every kind the suites name
// that need no program and no more than a judge. A result that kept a
// reference into a step's memory (a string or text sharing the reader's
// bytes, a step's flags) would show a later trace's bytes; under -race,
// a later trace's reading writing memory a report still reads.
func TestEval_reusedMemory(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"traces.jsonl": reusedTraces(600)}
	for name, content := range reusedSuites {
		files[name] = content
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The judge quotes the end of its prompt back: the calls' texts, in
	// the row's reasoning.
	judge := judgetest.New(t, func(c judgetest.Chat) string {
		return judgetest.Verdict(0.5, c.User[max(0, len(c.User)-300):])
	})
	env := judge.Env()
	for _, k := range []string{"OPENAI_API_KEY", "OPENAI_BASE_URL", "TRAJEVAL_JUDGE_MODEL"} {
		t.Setenv(k, env(k))
	}
	// eval runs suite with args, and returns its standard output and
	// error, and, with a history, show's of the run in text and in JSON
	// Lines.
	eval := func(t *testing.T, recycle bool, suite string, args ...string) string {
		defer func(old bool) { run.RecycleSteps = old }(run.RecycleSteps)
		run.RecycleSteps = recycle
		db := ""
		if !strings.Contains(strings.Join(args, " "), "--no-db") {
			db = filepath.Join(t.TempDir(), "runs.db")
			args = append(args, "--db", db)
		}
		args = append([]string{"eval", filepath.Join(dir, suite), "--traces", filepath.Join(dir, "traces.jsonl"), "--workers", "4", "--no-cache", "--cache-dir", t.TempDir()}, args...)
		code, stdout, stderr := runArgs(t, args...)
		if code > 1 {
			t.Fatalf("eval: exit %d\n%s", code, stderr)
		}
		out := blankTimes(stdout) + "\n-- stderr --\n" + blankTimes(stderr)
		if db != "" {
			for _, format := range []string{"text", "jsonl"} {
				code, stdout, stderr := runArgs(t, "show", "last", "--db", db, "--format", format, "-v")
				if code > 1 {
					t.Fatalf("show: exit %d\n%s", code, stderr)
				}
				out += "\n-- show " + format + " --\n" + blankTimes(stdout) + blankTimes(stderr)
			}
		}
		return out
	}
	tests := []struct {
		name   string
		args   []string
		reason string
	}{
		{"jsonl", []string{"--format", "jsonl", "--no-db"}, "each row written as it comes, its details given back once written"},
		{"text", []string{"--format", "text", "-v", "--no-db"}, "every row held until the summary"},
		{"json", []string{"--format", "json", "--no-db"}, "every row held until the end"},
		{"junit", []string{"--format", "junit", "--no-db"}, "every row held until the end"},
		{"markdown", []string{"--format", "markdown", "-v", "--no-db"}, "every row held until the end"},
		{"html", []string{"--format", "html", "--no-db"}, "every row held until the end"},
		{"history", []string{"--format", "jsonl", "--keep-failing", "all"}, "the failing cases' trajectories lent to the recorder, given back once encoded"},
		{"history, include-trace", []string{"--format", "jsonl", "--include-trace"}, "every row keeps its trajectory: none given back"},
	}
	for _, suite := range []string{"text.yaml", "decoded.yaml", "judged.yaml"} {
		for _, tt := range tests {
			if suite == "judged.yaml" && tt.name != "jsonl" && tt.name != "text" && tt.name != "history" {
				continue // the judge's texts reach each format alike
			}
			t.Run(strings.TrimSuffix(suite, ".yaml")+"/"+tt.name, func(t *testing.T) {
				want := eval(t, false, suite, tt.args...)
				got := eval(t, true, suite, tt.args...)
				if got != want {
					t.Errorf("the report differs from that of a run that reuses no memory (%s):\n%s", tt.reason, firstDiff(got, want))
				}
			})
		}
	}
}

// timed matches what differs from run to run in a report of any format:
// when a case started and how long a case or the run took.
var timed = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)|"duration_ms": ?[0-9.e+-]+|(time|timestamp)="[^"]*"|\b\d+(\.\d+)? ?(ms|s|µs)\b`)

// blankTimes returns report with what timed matches blanked out.
// The progress line, printed when a run is slow, goes too.
func blankTimes(report string) string {
	return timed.ReplaceAllString(progressLine.ReplaceAllString(report, ""), "…")
}

// progressLine matches the progress eval prints on a slow run.
var progressLine = regexp.MustCompile(`(?m)^progress: .*\n?`)
