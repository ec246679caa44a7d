package adk_test

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/adk"
	"github.com/trajeval/trajeval/internal/format/formattest"
)

func TestReadErrors(t *testing.T) {
	tests := []struct {
		name string
		f    trajeval.Format
		in   string
		line int
		col  int
		msg  string
	}{
		{"evalset syntax", adk.EvalSetFormat, "{\"eval_cases\": [\n  {\"eval_id\": x}]}", 2, 15, "invalid JSON"},
		{"evalset truncated before any case", adk.EvalSetFormat, "{\"eval_cases\": [\n  {\"eval_id\": \"a\"", 2, 18, "cut off"},
		{"evalset cases not a list", adk.EvalSetFormat, "{\"eval_cases\": {}}", 1, 16, "not a list"},
		{"evalset no cases", adk.EvalSetFormat, `{"eval_set_id": "x", "eval_cases": []}`, 0, 0, "no eval cases"},
		{"evalset neither", adk.EvalSetFormat, `{"hello": 1}`, 1, 1, "not an ADK eval set"},
		{"evalset a number", adk.EvalSetFormat, `42`, 1, 1, "not an ADK eval set"},
		{"evalset trailing data", adk.EvalSetFormat, "{\"eval_id\": \"a\"}\n{}", 2, 1, "unexpected data"},
		{"session syntax", adk.SessionFormat, "{\"events\": [\n,]}", 2, 1, "invalid JSON"},
		{"session no events", adk.SessionFormat, `{"id": "s"}`, 1, 1, "no \"events\""},
		{"session empty list", adk.SessionFormat, `[]`, 0, 0, "no sessions"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := formattest.Read(tt.f, "x.json", []byte(tt.in))
			var te *trajeval.TraceError
			if !errors.As(err, &te) {
				t.Fatalf("err = %v, want a TraceError", err)
			}
			if te.Line != tt.line || te.Col != tt.col || !strings.Contains(te.Msg, tt.msg) {
				t.Errorf("err = %d:%d %q, want %d:%d containing %q", te.Line, te.Col, te.Msg, tt.line, tt.col, tt.msg)
			}
		})
	}
}

func TestDecodeEvalSet(t *testing.T) {
	data, err := os.ReadFile("testdata/adk-evalset/weather.evalset.json")
	if err != nil {
		t.Fatal(err)
	}
	set, err := adk.DecodeEvalSet(data, "weather.evalset.json")
	if err != nil {
		t.Fatal(err)
	}
	if set.ID != "weather_set" || set.Name != "Weather agent" || set.Legacy || len(set.Cases) != 2 || len(set.Warnings) != 0 {
		t.Fatalf("set = %+v", set)
	}
	c := set.Cases[0]
	if c.ID != "two_turns" || c.Line != 6 || len(c.Invocations) != 2 {
		t.Fatalf("case = %+v", c)
	}
	inv := c.Invocations[0]
	if inv.ID != "e-1" || *inv.User != "Wie ist das Wetter in München? 🌦" || *inv.FinalResponse != "In München sind es 12 °C." {
		t.Errorf("invocation = %+v", inv)
	}
	if len(inv.Calls) != 1 || inv.Calls[0].Name != "get_weather" || inv.Calls[0].ID != "call-1" {
		t.Errorf("calls = %+v", inv.Calls)
	}
	if got := set.Cases[1].Invocations[0].Calls; len(got) != 4 || got[0].ParallelGroup != 1 || got[1].ParallelGroup != 1 || got[2].ParallelGroup != 0 {
		t.Errorf("batched calls = %+v", got)
	}
	tr := c.Trajectory()
	if tr.ID != "two_turns" || len(tr.Turns) != 2 || len(tr.Steps) != 2 || tr.Steps[1].Turn != 2 || tr.Steps[1].Index != 2 {
		t.Errorf("trajectory = %+v", tr)
	}
	if tr.Metrics.DurationMS == nil || *tr.Metrics.DurationMS != 1750 || *tr.Metrics.LLMCalls != 3 {
		t.Errorf("metrics = %+v", tr.Metrics)
	}

	legacy, err := adk.DecodeEvalSet([]byte(`[{"query": "q", "expected_tool_use": [{"tool_name": "t", "tool_input": {"a": 1}}], "reference": "r"}]`), "old.test.json")
	if err != nil {
		t.Fatal(err)
	}
	if !legacy.Legacy || len(legacy.Cases) != 1 || legacy.Cases[0].ID != "case-1" || legacy.Cases[0].Invocations[0].Calls[0].Name != "t" {
		t.Errorf("legacy = %+v", legacy)
	}

	// A suite must not run on a cut-off eval set: unlike Read, DecodeEvalSet
	// fails on it.
	cut, _ := os.ReadFile("testdata/adk-evalset/truncated.evalset.json")
	_, err = adk.DecodeEvalSet(cut, "truncated.evalset.json")
	var te *trajeval.TraceError
	if !errors.As(err, &te) || te.File != "truncated.evalset.json" || te.Line == 0 {
		t.Errorf("DecodeEvalSet(truncated) = %v, want a placed TraceError", err)
	}
}

func TestSniffRejects(t *testing.T) {
	formattest.SniffRejects(t, []string{
		`{"output": [{"role": "assistant"}]}`,
		`[{"role": "user", "content": "hi"}]`,
		`{"type": "thread.started", "thread_id": "x"}`,
		`{"resourceSpans": []}`,
		`{"events": []}`,
	}, formats...)
}

var formats = []trajeval.Format{adk.EvalSetFormat, adk.SessionFormat}

func TestGolden(t *testing.T) { formattest.Golden(t, formats...) }

func TestDetect(t *testing.T) { formattest.Detect(t, formats...) }

func FuzzRead(f *testing.F) {
	formattest.Fuzz(f, formats, checkDecodeEvalSet)
}

// TestSession_Read_thrownTool checks which responses make a step failed:
// only the one ADK wrote itself for a tool that threw.
func TestSession_Read_thrownTool(t *testing.T) {
	tests := []struct {
		name     string
		response string
		want     string // "true", or "null" for an unknown error flag
		reason   string
	}{
		{"thrown", `{"error":"Error in tool 'read_file': File not found: missing.txt"}`, "true",
			"ADK for TypeScript answers a tool that threw with its FunctionTool's wording"},
		{"returned error", `{"error":"File not found: missing.txt"}`, "null",
			"a tool may return an error field of its own; ADK vouches for nothing"},
		{"another tool's name", `{"error":"Error in tool 'run_shell_command': boom"}`, "null",
			"the wording names the tool that threw"},
		{"more fields", `{"error":"Error in tool 'read_file': x","output":""}`, "null",
			"ADK writes the error alone"},
		{"status error", `{"status":"error","error_message":"no such file"}`, "null",
			"ADK's convention for a tool's own failure is no flag"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := `{"id":"s","appName":"app","userId":"user","events":[` +
				`{"invocationId":"e-1","author":"user","content":{"role":"user","parts":[{"text":"read it"}]}},` +
				`{"invocationId":"e-1","author":"helper","content":{"role":"model","parts":[{"functionCall":{"id":"c1","name":"read_file","args":{"file_path":"missing.txt"}}}]}},` +
				`{"invocationId":"e-1","author":"helper","content":{"role":"user","parts":[{"functionResponse":{"id":"c1","name":"read_file","response":` + tt.response + `}}]}}]}`
			out, _, err := formattest.Read(adk.SessionFormat, "s.json", []byte(in))
			if err != nil {
				t.Fatal(err)
			}
			if got := `"error":` + tt.want + `,`; !strings.Contains(string(out), got) {
				t.Errorf("read %s\nwant a step with %s (%s)", out, got, tt.reason)
			}
		})
	}
}
