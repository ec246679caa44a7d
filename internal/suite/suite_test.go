package suite_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/eval/trajectory"
	"github.com/trajeval/trajeval/internal/suite"
	"github.com/trajeval/trajeval/internal/suite/dialects"
)

// write creates files (name → content) in a new temporary folder and
// returns the folder.
func write(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func load(t *testing.T, yaml string) (*suite.Suite, []error) {
	t.Helper()
	dir := write(t, map[string]string{"suite.yaml": yaml})
	return suite.LoadFile(filepath.Join(dir, "suite.yaml"), suite.Options{Dialects: dialects.All()}, true)
}

func mustLoad(t *testing.T, yaml string) *suite.Suite {
	t.Helper()
	s, errs := load(t, yaml)
	if len(errs) > 0 || s == nil {
		t.Fatalf("LoadFile: %v", errs)
	}
	return s
}

const okEval = `
    execution:
      evaluators:
        - type: tool_trajectory
          mode: in_order
          expected: [{tool: search}]
`

func TestLoadFile_errors(t *testing.T) {
	tests := []struct {
		name      string
		yaml      string
		line, col int
		msg, hint string
		reason    string
	}{
		{"unknown top key", "evalcases:\n  - id: a" + okEval + "descripton: x\n", 8, 1, `unknown key "descripton"`, `did you mean "description"?`, "a misspelt top-level key"},
		{"unknown top key cases", "evalcase:\n  - id: a" + okEval, 1, 1, `unknown key "evalcase"`, `did you mean "evalcases"?`, "a misspelt cases key"},
		{"unknown case key", "evalcases:\n  - id: a\n    expcted_outcome: x" + okEval, 3, 5, `unknown key "expcted_outcome"`, `did you mean "expected_outcome"?`, "a misspelt case key"},
		{"unknown evaluator key", "evalcases:\n  - id: a\n    execution:\n      evaluators:\n        - type: tool_trajectory\n          mode: in_order\n          expcted: [{tool: search}]\n", 7, 11, `unknown key "expcted"`, `did you mean "expected"?`, "the brief's example"},
		{"unknown type", "evalcases:\n  - id: a\n    execution:\n      evaluators:\n        - type: tool_trajectry\n          expected: [{tool: s}]\n", 5, 17, `unknown evaluator type "tool_trajectry"`, `did you mean "tool_trajectory"?`, "a misspelt type"},
		{"unknown mode", "evalcases:\n  - id: a\n    execution:\n      evaluators:\n        - type: tool_trajectory\n          mode: inorder\n          expected: [{tool: s}]\n", 6, 17, `unknown value "inorder"`, `did you mean "in_order"?`, "a misspelt mode"},
		{"any_order bare", "evalcases:\n  - id: a\n    execution:\n      evaluators:\n        - type: tool_trajectory\n          mode: any_order\n", 5, 11, "mode any_order needs expected or minimums", "add expected", "nothing to check"},
		{"in_order bare", "evalcases:\n  - id: a\n    execution:\n      evaluators:\n        - type: tool_trajectory\n          mode: in_order\n          minimums: {a: 1}\n", 7, 22, "minimums only count in any_order", "", "minimums with in_order"},
		{"in_order no expected", "evalcases:\n  - id: a\n    execution:\n      evaluators:\n        - type: tool_trajectory\n          mode: in_order\n", 5, 11, "mode in_order needs expected", "", "in_order without expected"},
		{"same name", "evalcases:\n  - id: a\n    execution:\n      evaluators:\n        - {name: t, type: tool_trajectory, expected: [{tool: a}]}\n        - {name: t, type: tool_trajectory, expected: [{tool: b}]}\n", 6, 12, `two evaluators are named "t"`, "the other is at line 5", "names are unique in a case"},
		{"same name across suite and case", "execution:\n  evaluators:\n    - {name: t, type: tool_trajectory, expected: [{tool: a}]}\nevalcases:\n  - id: a\n    execution:\n      evaluators:\n        - {name: t, type: tool_trajectory, expected: [{tool: b}]}\n", 8, 12, `two evaluators are named "t"`, "", "the suite's evaluators count"},
		{"duplicate ids", "evalcases:\n  - id: a" + okEval + "  - id: a" + okEval, 8, 5, `case id "a" is used twice`, "the other is at line 2", "ids match traces"},
		{"no id", "evalcases:\n  - input: hi" + okEval, 2, 5, "case has no id", "add id", "every case needs an id"},
		{"empty id", "evalcases:\n  - id: \"\"" + okEval, 2, 9, "case id is empty", "", "an empty id"},
		{"no evaluators", "evalcases:\n  - id: a\n", 2, 5, `case "a" has no evaluators`, "", "a case must be scored by something"},
		{"malformed", "evalcases:\n  - id: a\n    input: [unclosed\n", 3, 12, "invalid YAML", "", "a syntax error"},
		{"empty", "", 1, 1, "empty", "", "an empty file"},
		{"binary", "\x00\x01\x02\x03", 1, 1, "binary", "", "a binary file"},
		{"not a map", "- a\n- b\n", 1, 1, "a suite is a map", "", "a list is not a suite"},
		{"threshold range", "evalcases:\n  - id: a\n    execution:\n      evaluators:\n        - {type: tool_trajectory, expected: [{tool: a}], threshold: 2}\n", 5, 69, "threshold must be between 0 and 1", "", "a threshold is a fraction"},
		{"bad operator", "evalcases:\n  - id: a\n    execution:\n      evaluators:\n        - type: tool_trajectory\n          expected:\n            - tool: s\n              args: {q: {$regx: x}}\n", 8, 26, "unknown operator $regx", "", "argument operators are checked at load"},
		{"composite member type", "evalcases:\n  - id: a\n    execution:\n      evaluators:\n        - type: composite\n          evaluators:\n            - {type: tool_trajectry, expected: [{tool: a}]}\n", 7, 22, `unknown evaluator type "tool_trajectry"`, `did you mean "tool_trajectory"?`, "members are checked too"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errs := load(t, tt.yaml)
			if len(errs) == 0 {
				t.Fatalf("LoadFile succeeded, want %q: %s", tt.msg, tt.reason)
			}
			var se *trajeval.SpecError
			if !errors.As(errs[0], &se) {
				t.Fatalf("error %v (%T) is not a SpecError", errs[0], errs[0])
			}
			if filepath.Base(se.File) != "suite.yaml" || se.Line != tt.line || se.Col != tt.col {
				t.Errorf("error at %s:%d:%d, want suite.yaml:%d:%d: %v", filepath.Base(se.File), se.Line, se.Col, tt.line, tt.col, errs[0])
			}
			if !strings.Contains(se.Msg, tt.msg) || !strings.Contains(se.Hint, tt.hint) {
				t.Errorf("error %q (hint %q), want %q with hint %q: %s", se.Msg, se.Hint, tt.msg, tt.hint, tt.reason)
			}
			if !strings.Contains(errs[0].Error(), fmt.Sprintf("suite.yaml:%d:%d: ", se.Line, se.Col)) {
				t.Errorf("error %q does not start with file:line:col", errs[0])
			}
		})
	}
}

func TestLoadFile_allErrors(t *testing.T) {
	_, errs := load(t, "evalcases:\n  - id: a\n    execution:\n      evaluators:\n        - {type: tool_trajectry}\n  - id: b\n    execution:\n      evaluators:\n        - {type: tool_trajectory, mode: inorder, expected: [{tool: a}]}\n")
	if len(errs) != 2 {
		t.Errorf("%d errors %v, want 2: every configuration error is reported, not only the first", len(errs), errs)
	}
}

func TestLoad_folder(t *testing.T) {
	t.Run("no suites", func(t *testing.T) {
		dir := write(t, map[string]string{"notes.txt": "x", "data.json": `{"a":1}`})
		_, errs := suite.Load([]string{dir}, suite.Options{Dialects: dialects.All()})
		if len(errs) != 1 || !strings.Contains(errs[0].Error(), "no suite files") {
			t.Errorf("Load(empty folder) = %v, want one 'no suite files' error", errs)
		}
	})
	t.Run("missing path", func(t *testing.T) {
		_, errs := suite.Load([]string{filepath.Join(t.TempDir(), "nope.yaml")}, suite.Options{Dialects: dialects.All()})
		if len(errs) != 1 || !strings.Contains(errs[0].Error(), "cannot read") {
			t.Errorf("Load(missing) = %v", errs)
		}
	})
	t.Run("duplicate ids across files", func(t *testing.T) {
		c := "evalcases:\n  - id: same" + okEval
		named := "name: one\nevalcases:\n  - id: same" + okEval
		tests := []struct {
			name   string
			files  map[string]string
			traces string
			want   string
			reason string
		}{
			{"apart", map[string]string{"a.yaml": c, "sub/b.yaml": c}, "", "",
				"results are keyed by suite and id: suites a and b may share an id"},
			{"same name", map[string]string{"a.yaml": named, "sub/b.yaml": named}, "", "a suite of the same name",
				"two rows with the same suite and id could not be told apart"},
			{"one --traces file", map[string]string{"a.yaml": c, "sub/b.yaml": c}, "runs.jsonl", "both take their trace from runs.jsonl",
				"a trace matched by id would score either case"},
			{"one traces file", map[string]string{"a.yaml": c, "b.yaml": c, "traces.jsonl": "{}"}, "", "traces.jsonl",
				"the suites share the traces file beside them"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				dir := write(t, tt.files)
				suites, errs := suite.Load([]string{dir}, suite.Options{Dialects: dialects.All(), Traces: tt.traces})
				if len(suites) != 2 {
					t.Fatalf("Load = %d suites, want 2", len(suites))
				}
				if tt.want == "" {
					if len(errs) > 0 {
						t.Errorf("errors %v, want none (%s)", errs, tt.reason)
					}
					return
				}
				if len(errs) != 1 || !strings.Contains(errs[0].Error(), `case id "same" is used twice`) || !strings.Contains(errs[0].Error(), tt.want) {
					t.Errorf("errors %v, want one duplicate-id error saying %q (%s)", errs, tt.want, tt.reason)
				}
			})
		}
	})
	t.Run("duplicate ids in one file of a dialect", func(t *testing.T) {
		task := `{"id": "same", "evaluation_criteria": {"communicate_info": ["hi"], "reward_basis": ["COMMUNICATE"]}}`
		dir := write(t, map[string]string{"tasks.json": "[\n" + task + ",\n" + task + "\n]\n"})
		_, errs := suite.Load([]string{dir}, suite.Options{Dialects: dialects.All()})
		if len(errs) != 1 || !strings.Contains(errs[0].Error(), `case id "same" is used twice (the other is at line 2)`) {
			t.Errorf("errors %v, want one saying where the other case is: the two are in one file, not two suites of one name", errs)
		}
	})
	t.Run("skips non-suites", func(t *testing.T) {
		dir := write(t, map[string]string{
			"s.yaml":              "evalcases:\n  - id: a" + okEval,
			"targets.yaml":        "targets: [{name: x}]\n",
			"traces.jsonl":        `{"id":"a","output":[]}` + "\n",
			"blob.bin.yaml":       "\x00\x01",
			".hidden/x.yaml":      "evalcases: [oops",
			"testdata/bad.yaml":   "evalcases: [oops",
			"node_modules/m.yaml": "evalcases: [oops",
		})
		suites, errs := suite.Load([]string{dir}, suite.Options{Dialects: dialects.All()})
		if len(suites) != 1 || len(errs) != 0 {
			t.Errorf("Load = %d suites, %v; want the one suite, other files skipped", len(suites), errs)
		}
	})
}

// shape writes out what a suite loaded: each case's id, input and
// expected outcome, and each evaluator's shared settings, a tool_trajectory's
// mode and expected calls, and whether the evaluator passes trajectories of
// 3 and 4 calls to get_weather{city: Paris} (which shows a budget's limit).
func shape(s *suite.Suite) string {
	var b strings.Builder
	for _, c := range s.Cases {
		fmt.Fprintf(&b, "%s|%q|%q|", c.ID, c.Input, c.ExpectedOutcome())
		for _, e := range c.Evaluators {
			fmt.Fprintf(&b, "%s:%s threshold=%v weight=%v required=%v negate=%v", e.Name, e.Type, e.Threshold, e.Weight, e.Required, e.Negate)
			if tr, ok := e.Eval.(*trajectory.Evaluator); ok {
				fmt.Fprintf(&b, " mode=%s", tr.Mode)
				for _, call := range tr.Calls {
					args, _ := json.Marshal(call.Args)
					fmt.Fprintf(&b, " %s%s", call.Tool, args)
				}
			}
			for _, n := range []int{3, 4} {
				t := &trajeval.Trajectory{ID: c.ID}
				for range n {
					t.Steps = append(t.Steps, trajeval.Step{Turn: 1, Name: "get_weather", Args: map[string]any{"city": "Paris"}})
				}
				t.Finish()
				fmt.Fprintf(&b, " %d-calls=%s", n, e.Run(context.Background(), t).Status)
			}
			b.WriteString(", ")
		}
		b.WriteString(";")
	}
	return b.String()
}

func TestLoadFile_spellings(t *testing.T) {
	classic := `
evalcases:
  - id: weather
    expected_outcome: Reports the weather
    input_messages:
      - {role: system, content: be brief}
      - {role: user, content: Weather in Paris?}
    execution:
      evaluators:
        - name: calls
          type: tool_trajectory
          mode: in_order
          expected: [{tool: get_weather, args: {city: Paris}}]
        - name: budget
          type: execution_metrics
          max_tool_calls: 3
`
	tests := []struct {
		name   string
		yaml   string
		reason string
	}{
		{"newer", `
tests:
  - id: weather
    criteria: Reports the weather
    input: Weather in Paris?
    assertions:
      - name: calls
        type: tool-trajectory
        mode: in-order
        expected: [{tool: get_weather, args: {city: Paris}}]
      - name: budget
        type: execution-metrics
        max-tool-calls: 3
`, "tests, criteria, input as a string, assertions and kebab-case load the same"},
		{"camel", `
eval_cases:
  - id: weather
    expectedOutcome: Reports the weather
    input: [{role: user, content: Weather in Paris?}]
    execution:
      assertions:
        - name: calls
          type: toolTrajectory
          mode: IN_ORDER
          expected: [{tool: get_weather, args: {city: Paris}}]
        - name: budget
          type: execution_metrics
          maxToolCalls: 3
`, "eval_cases, camelCase keys and types, upper-case modes"},
	}
	// Written out, not loaded: the classic spelling is a row like the others.
	const want = `weather|"Weather in Paris?"|"Reports the weather"|` +
		`calls:tool_trajectory threshold=1 weight=1 required=true negate=false mode=in_order get_weather{"city":"Paris"} 3-calls=pass 4-calls=pass, ` +
		`budget:execution_metrics threshold=1 weight=1 required=true negate=false 3-calls=pass 4-calls=fail, ;`
	tests = append(tests, struct {
		name   string
		yaml   string
		reason string
	}{"classic", classic, "evalcases, expected_outcome, input_messages (the user's text only), snake_case"})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := shape(mustLoad(t, tt.yaml)); got != want {
				t.Errorf("suite\n got %s\nwant %s\n%s", got, want, tt.reason)
			}
		})
	}
}

func TestLoadFile_compositeMembers(t *testing.T) {
	for _, typ := range []string{"tool_trajectory", "tool-trajectory"} {
		for _, ag := range []string{"weighted_average", "weighted-average"} {
			t.Run(typ+"/"+ag, func(t *testing.T) {
				s := mustLoad(t, fmt.Sprintf(`
evalcases:
  - id: a
    execution:
      evaluators:
        - type: composite
          aggregator: {type: %s, weights: {order: 2, budget: 1}}
          evaluators:
            - {name: order, type: %s, mode: in_order, expected: [{tool: a}]}
            - {name: budget, type: execution-metrics, max_tool_calls: 2}
`, ag, typ))
				if e := s.Cases[0].Evaluators; len(e) != 1 || e[0].Type != "composite" {
					t.Errorf("evaluators %v, want one composite", e)
				}
			})
		}
	}
}

func TestLoadFile_skipDefaults(t *testing.T) {
	s := mustLoad(t, `
execution:
  evaluators:
    - {name: suite-wide, type: tool_trajectory, expected: [{tool: a}]}
evalcases:
  - id: inherits
    execution:
      evaluators:
        - {name: own, type: tool_trajectory, expected: [{tool: b}]}
  - id: skips
    skip_defaults: true
    execution:
      evaluators:
        - {name: own, type: tool_trajectory, expected: [{tool: b}]}
  - id: skips-under-execution
    execution:
      skip_defaults: true
      evaluators:
        - {name: own, type: tool_trajectory, expected: [{tool: b}]}
`)
	var got []string
	for _, c := range s.Cases {
		var names []string
		for _, e := range c.Evaluators {
			names = append(names, e.Name)
		}
		got = append(got, c.ID+"="+strings.Join(names, "+"))
	}
	if want := "inherits=suite-wide+own skips=own skips-under-execution=own"; strings.Join(got, " ") != want {
		t.Errorf("evaluators %q, want %q: suite evaluators first, dropped by skip_defaults", got, want)
	}
}

func TestLoadFile_traces(t *testing.T) {
	cases := "evalcases:\n  - id: a\n    trace: runs/a.json" + okEval
	tests := []struct {
		name      string
		files     map[string]string
		suiteFile string
		want      string // the suite's Traces, relative to the folder ("" none)
		reason    string
	}{
		{"none", map[string]string{"s.yaml": cases}, "s.yaml", "", "no traces file"},
		{"traces key", map[string]string{"dir/s.yaml": "traces: rec/t.jsonl\n" + cases}, "dir/s.yaml", "dir/rec/t.jsonl", "relative to the suite file"},
		{"traces key wins", map[string]string{"s.yaml": "traces: mine.jsonl\n" + cases, "traces.jsonl": "{}"}, "s.yaml", "mine.jsonl", "the key beats a sidecar"},
		{"named sidecar", map[string]string{"s.yaml": cases, "s.traces.jsonl": "{}", "traces.jsonl": "{}"}, "s.yaml", "s.traces.jsonl", "NAME.traces.jsonl first"},
		{"plain sidecar", map[string]string{"sub/s.yml": cases, "sub/traces.jsonl": "{}"}, "sub/s.yml", "sub/traces.jsonl", "then traces.jsonl"},
		{"other suite's sidecar", map[string]string{"s.yaml": cases, "other.traces.jsonl": "{}"}, "s.yaml", "", "another suite's sidecar is not ours"},
		{"sidecar folder", map[string]string{"s.yaml": cases, "traces.jsonl/x": "{}"}, "s.yaml", "", "a folder is not a traces file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := write(t, tt.files)
			s, errs := suite.LoadFile(filepath.Join(dir, tt.suiteFile), suite.Options{Dialects: dialects.All()}, true)
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			want := ""
			if tt.want != "" {
				want = filepath.Join(dir, tt.want)
			}
			if s.Traces != want {
				t.Errorf("Traces = %q, want %q: %s", s.Traces, want, tt.reason)
			}
			if wantTrace := filepath.Join(dir, filepath.Dir(tt.suiteFile), "runs/a.json"); s.Cases[0].Trace() != wantTrace {
				t.Errorf("case trace = %q, want %q: trace paths are relative to the suite file", s.Cases[0].Trace(), wantTrace)
			}
		})
	}
}

func TestLoadFile_caseFields(t *testing.T) {
	s := mustLoad(t, `
name: demo
evalcases:
  - id: 42
    input: [{role: user, content: first}, {role: assistant, content: x}, {role: user, content: second}]
    expected_outcome: done
    trace: /abs/trace.json`+okEval)
	c := s.Cases[0]
	if s.Name != "demo" || c.ID != "42" || c.Input != "first\nsecond" || c.ExpectedOutcome() != "done" || c.Trace() != "/abs/trace.json" {
		t.Errorf("suite %q case %+v", s.Name, c)
	}
	if c.Place.Line != 4 {
		t.Errorf("case place %v, want the case's place (line 4)", c.Place)
	}
}

func ExampleLoadFile() {
	dir, _ := os.MkdirTemp("", "suite")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "weather.yaml")
	os.WriteFile(path, []byte(`
evalcases:
  - id: paris
    execution:
      evaluators:
        - type: tool_trajectory
          mode: inorder
          expected: [{tool: get_weather}]
`), 0o644)
	_, errs := suite.LoadFile(path, suite.Options{Dialects: dialects.All()}, true)
	for _, err := range errs {
		fmt.Println(strings.TrimPrefix(err.Error(), dir+string(filepath.Separator)))
	}
	// Output: weather.yaml:7:17: evalcases[0].execution.evaluators[0].mode: unknown value "inorder" (did you mean "in_order"?)
}

// TestSuite_Open: a suite with evaluators and no cases loads, to score
// every trajectory of its traces; one with neither is an error.
func TestSuite_Open(t *testing.T) {
	tests := []struct {
		name   string
		yaml   string
		open   bool
		err    string
		reason string
	}{
		{"no cases key", "execution:\n  evaluators:\n    - {type: tool_trajectory, mode: in_order, expected: [search]}\n", true, "", "evaluators alone score every trajectory"},
		{"empty cases", "evalcases: []\nexecution:\n  evaluators:\n    - {type: tool_trajectory, mode: in_order, expected: [search]}\n", true, "", "an empty list is no cases too"},
		{"cases", "evalcases:\n  - id: a" + okEval, false, "", "a suite with cases scores its cases"},
		{"nothing", "name: x\n", false, "suite has no cases", "neither cases nor evaluators: nothing to score"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, errs := load(t, tt.yaml)
			if tt.err != "" {
				if len(errs) == 0 || !strings.Contains(errs[0].Error(), tt.err) {
					t.Fatalf("errors %v, want %q: %s", errs, tt.err, tt.reason)
				}
				return
			}
			if len(errs) > 0 {
				t.Fatalf("errors %v: %s", errs, tt.reason)
			}
			if s.Open() != tt.open {
				t.Errorf("Open() = %v, want %v: %s", s.Open(), tt.open, tt.reason)
			}
		})
	}
}

// TestLoadFile_idAndInput: a case of only id and input, which the loader
// reads without looking for its other keys, loads as any other case, and a
// case with one key more still has that key read and checked.
func TestLoadFile_idAndInput(t *testing.T) {
	const suiteEvals = "execution:\n  evaluators:\n    - {name: t, type: tool_trajectory, expected: [{tool: search}]}\n"
	tests := []struct {
		name, cases string
		input, msg  string
		reason      string
	}{
		{"id and input", "  - {id: a, input: hi}\n", "hi", "", "the suite's evaluators, the input"},
		{"id alone", "  - {id: a}\n", "", "", "no input is a case too"},
		{"input first", "  - {input: hi, id: a}\n", "hi", "", "the keys in any order"},
		{"other spelling", "  - {ID: a, Input: hi}\n", "hi", "", "keys spelt otherwise take the usual way"},
		{"one key more", "  - {id: a, input: hi, vars: {x: 1}}\n", "", "vars are not supported", "a third key is read and checked"},
		{"execution", "  - {id: a, input: hi, execution: {threshold: 2}}\n", "", "threshold must be between 0 and 1", "the case's execution is read"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, errs := load(t, suiteEvals+"evalcases:\n"+tt.cases)
			if tt.msg != "" {
				if len(errs) == 0 || !strings.Contains(errs[0].Error(), tt.msg) {
					t.Fatalf("errors %v, want %q: %s", errs, tt.msg, tt.reason)
				}
				return
			}
			if len(errs) > 0 {
				t.Fatalf("errors %v: %s", errs, tt.reason)
			}
			c := s.Cases[0]
			if c.ID != "a" || c.Input != tt.input || len(c.Evaluators) != 1 || c.Trace() != "" || len(c.Turns()) != 0 {
				t.Errorf("case %q input %q, %d evaluators, trace %q, %d turns; want a, %q, 1, none, none: %s",
					c.ID, c.Input, len(c.Evaluators), c.Trace(), len(c.Turns()), tt.input, tt.reason)
			}
		})
	}
}
