package suite_test

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/suite"
	"github.com/trajeval/trajeval/internal/suite/dialects"
)

// FuzzLoad checks LoadFile on any file:
//  1. it never panics and is deterministic (the same cases, the same
//     errors);
//  2. every error is a SpecError matching ErrConfig that names the file,
//     placed inside it when placed (a line of the file, a column within
//     that line or just past its end);
//  3. a file the user named gives a suite or an error, never neither;
//  4. a loaded suite's cases have distinct, non-empty ids and something
//     to score (evaluators or turns), each evaluator with a threshold and
//     a weight that are numbers in range.
func FuzzLoad(f *testing.F) {
	for _, s := range []string{
		"evalcases:\n  - id: a" + okEval,
		"tests:\n  - id: a\n    assertions:\n      - {type: composite, evaluators: [{type: tool-trajectory, expected: [a]}]}\n",
		"execution:\n  evaluators:\n    - {type: execution_metrics, max_tool_calls: 1}\nevalcases:\n  - {id: a, skip_defaults: true}\n",
		"evalcases:\n  - id: a\n    turns:\n      - input: hi\n        evaluators: [{type: tool_trajectory, expected: [{tool: x, args: {q: {$regex: a}}}]}]\n",
		"targets:\n  - {name: t, provider: cli, command: 'cat {EVAL_ID}.json', timeout_seconds: 3, env: {A: b}}\nexecution:\n  target: t\nevalcases:\n  - id: a\n    input: hi" + okEval,
		"{\"eval_set_id\": \"x\", \"eval_cases\": []}",
		"evalcases: [oops", "",
		"tests:\n  - id: a\n    workspace: {template: x}\n    depends_on: [b]\n    assertions: [{type: tool_trajectory, mode: in_order, expected: [{tool: s, input: {q: 1}, output: {r: [{l: x}], s: {$regex: a}}}]}]\n",
		"targets:\n  - {name: r, provider: replay, fixtures: f.jsonl, source_target: x}\n  - {name: t, provider: cli, command: x, healthcheck: {command: y}, grader_target: g}\nexecution:\n  target: t\ntests:\n  - id: a" + okEval,
		`{"id": "a", "reference_trajectory": [{"tool_name": "x", "tool_input": {"k": 1}}], "predicted_trajectory": []}` + "\n{\"reference_trajectory\": []}\n",
	} {
		f.Add([]byte(s))
	}
	// The bundled examples' JSON dialects (an ADK eval set, a UiPath set),
	// and real files of AgentV and ADK.
	for _, p := range []string{"../../examples/adk-shopping/shopping.evalset.json", "../../examples/uipath-orders/evaluations/eval-sets/orders.json", "../../examples/tau2/tasks.json",
		"../../testdata/real/dialects/agentv/tool-trajectory-advanced/evals/trace-file-demo.eval.yaml",
		"../../testdata/real/dialects/adk/adk-samples/long-horizon-harness/basic.evalset.json"} {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		// As YAML, under a name the ADK dialect claims, and as JSON Lines.
		for _, name := range []string{"fuzz.yaml", "fuzz.evalset.json", "fuzz.jsonl"} {
			checkLoad(t, filepath.Join(dir, name), data)
		}
	})
}

// checkLoad writes data to path and checks what FuzzLoad promises of
// LoadFile on it.
func checkLoad(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	s, errs := suite.LoadFile(path, suite.Options{Dialects: dialects.All()}, true)
	s2, errs2 := suite.LoadFile(path, suite.Options{Dialects: dialects.All()}, true)
	if fmt.Sprint(errs) != fmt.Sprint(errs2) || describeSuite(s) != describeSuite(s2) {
		t.Fatalf("LoadFile twice: %s %v, then %s %v", describeSuite(s), errs, describeSuite(s2), errs2)
	}
	for _, err := range errs {
		var se *trajeval.SpecError
		if !errors.As(err, &se) || !errors.Is(err, trajeval.ErrConfig) {
			t.Fatalf("error %v (%T) is not a SpecError matching ErrConfig", err, err)
		}
		if se.File != path {
			t.Fatalf("error %v does not name the file", err)
		}
		if msg := misplaced(data, se.Line, se.Col); msg != "" {
			t.Fatalf("error %v: %s", err, msg)
		}
	}
	if s == nil && len(errs) == 0 {
		t.Fatal("no suite and no error for a file the user named")
	}
	if s == nil || len(errs) > 0 {
		return
	}
	ids := map[string]bool{}
	for _, c := range s.Cases {
		if c.ID == "" || ids[c.ID] {
			t.Fatalf("case id %q is empty or given twice: %s", c.ID, describeSuite(s))
		}
		ids[c.ID] = true
		if len(c.Evaluators) == 0 && len(c.Turns()) == 0 {
			t.Fatalf("case %s loaded with nothing to score", c.ID)
		}
		for _, e := range c.Evaluators {
			if !(e.Threshold >= 0 && e.Threshold <= 1) || !(e.Weight >= 0) || math.IsInf(e.Weight, 0) {
				t.Fatalf("case %s: evaluator %s has threshold %v and weight %v", c.ID, e.Name, e.Threshold, e.Weight)
			}
		}
	}
}

// describeSuite writes out what a suite holds, for comparing two loads.
func describeSuite(s *suite.Suite) string {
	if s == nil {
		return "<nil>"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s %s %q|", s.Name, s.Dialect, s.Traces, s.Warnings)
	for _, c := range s.Cases {
		fmt.Fprintf(&b, "%s %q %q %s %d:", c.ID, c.Input, c.ExpectedOutcome(), c.Trace(), len(c.Turns()))
		for _, e := range c.Evaluators {
			fmt.Fprintf(&b, " %s/%s/%v/%v/%v/%v", e.Name, e.Type, e.Threshold, e.Weight, e.Required, e.Negate)
		}
		b.WriteString(";")
	}
	return b.String()
}

// misplaced returns what is wrong with the position line:col in data, or
// "" when it lies inside it: line 0 (the whole file) or a line of data, at
// a column within that line or just past its end (1-based, in bytes). In
// YAML, \n, \r\n and a lone \r end a line; in JSON (an eval set, a UiPath
// set) only \n does, a lone \r being white space: a position is inside the
// file when it is inside it under either rule.
func misplaced(data []byte, line, col int) string {
	yaml := bytes.ReplaceAll(bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n")), []byte("\r"), []byte("\n"))
	why := misplacedIn(bytes.Split(yaml, []byte("\n")), line, col)
	if why != "" && misplacedIn(bytes.Split(data, []byte("\n")), line, col) == "" {
		return ""
	}
	return why
}

func misplacedIn(lines [][]byte, line, col int) string {
	switch {
	case line == 0 && col != 0:
		return fmt.Sprintf("column %d without a line", col)
	case line < 0 || line > len(lines):
		return fmt.Sprintf("line %d outside the file's %d lines", line, len(lines))
	case col < 0 || line > 0 && col > len(lines[line-1])+1:
		return fmt.Sprintf("column %d outside line %d (%d bytes)", col, line, len(lines[line-1]))
	}
	return ""
}
