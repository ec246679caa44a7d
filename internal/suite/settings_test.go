package suite_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval"
	"github.com/trajeval/trajeval/internal/eval/builtin"
	"github.com/trajeval/trajeval/internal/eval/spec"
	"github.com/trajeval/trajeval/internal/suite"
	"github.com/trajeval/trajeval/internal/suite/dialects"
)

// seen records what an evaluator of type test_seen was told of its case,
// by the evaluator's name.
var seen = map[string]eval.Case{}

func init() {
	builtin.Register(spec.Spec{Type: "test_seen", Build: func(n *config.Node, env *spec.Env) (trajeval.Evaluator, error) {
		name, _ := n.Get("name").Str()
		seen[name] = env.Case
		return nothing{}, nil
	}})
}

type nothing struct{}

func (nothing) Evaluate(context.Context, *trajeval.Trajectory) (trajeval.Outcome, error) {
	return trajeval.Outcome{Score: 1}, nil
}

func loadWith(t *testing.T, yaml string, opts suite.Options) (*suite.Suite, []error) {
	t.Helper()
	dir := write(t, map[string]string{"suite.yaml": yaml})
	return suite.LoadFile(filepath.Join(dir, "suite.yaml"), opts, true)
}

// TestLoadFile_threshold: the default threshold of an evaluator that sets
// none is, first set first: --threshold, the turn's, the case's, the
// suite's execution.threshold (or threshold), the type's default. An
// evaluator's own threshold always wins.
func TestLoadFile_threshold(t *testing.T) {
	const own = "        - {name: own, type: tool_trajectory, expected: [{tool: a}], threshold: 0.9}\n"
	const plain = "        - {name: plain, type: tool_trajectory, expected: [{tool: a}]}\n"
	half := 0.5
	tests := []struct {
		name   string
		yaml   string
		cli    *float64
		want   map[string]float64 // evaluator name → threshold
		reason string
	}{
		{"type default", "evalcases:\n  - id: c\n    execution:\n      evaluators:\n" + plain, nil,
			map[string]float64{"plain": 1}, "nothing set: the type's default"},
		{"suite threshold", "threshold: 0.6\nevalcases:\n  - id: c\n    execution:\n      evaluators:\n" + plain + own, nil,
			map[string]float64{"plain": 0.6, "own": 0.9}, "the suite's threshold is the default; an evaluator's own wins"},
		{"suite execution.threshold", "execution:\n  threshold: 0.6\n  evaluators:\n    - {name: s, type: tool_trajectory, expected: [{tool: a}]}\nevalcases:\n  - id: c\n    execution:\n      evaluators:\n" + plain, nil,
			map[string]float64{"s": 0.6, "plain": 0.6}, "execution.threshold applies to the suite's and the case's evaluators"},
		{"case over suite", "execution:\n  threshold: 0.6\n  evaluators:\n    - {name: s, type: tool_trajectory, expected: [{tool: a}]}\nevalcases:\n  - id: c\n    execution:\n      threshold: 0.7\n      evaluators:\n" + plain + own, nil,
			map[string]float64{"s": 0.7, "plain": 0.7, "own": 0.9}, "a case's threshold wins over the suite's, for the suite's evaluators too"},
		{"cli over file", "threshold: 0.6\nevalcases:\n  - id: c\n    execution:\n      threshold: 0.7\n      evaluators:\n" + plain + own, &half,
			map[string]float64{"plain": 0.5, "own": 0.9}, "--threshold overrides the file's defaults, never an evaluator's own"},
		{"required as minimum", "threshold: 0.6\nevalcases:\n  - id: c\n    execution:\n      evaluators:\n        - {name: req, type: tool_trajectory, expected: [{tool: a}], required: 0.8}\n", &half,
			map[string]float64{"req": 0.8}, "required: N is the evaluator's own threshold"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, errs := loadWith(t, tt.yaml, suite.Options{Dialects: dialects.All(), Threshold: tt.cli})
			if len(errs) > 0 {
				t.Fatalf("LoadFile: %v", errs)
			}
			got := map[string]float64{}
			for _, e := range s.Cases[0].Evaluators {
				got[e.Name] = e.Threshold
			}
			for name, want := range tt.want {
				if got[name] != want {
					t.Errorf("evaluator %s: threshold %v, want %v: %s", name, got[name], want, tt.reason)
				}
			}
		})
	}
	t.Run("turn", func(t *testing.T) {
		s, errs := loadWith(t, "threshold: 0.6\nevalcases:\n  - id: c\n    turns:\n      - execution:\n          threshold: 0.4\n          evaluators:\n    "+plain+"      - evaluators:\n    "+plain, suite.Options{Dialects: dialects.All()})
		if len(errs) > 0 {
			t.Fatalf("LoadFile: %v", errs)
		}
		if got := s.Cases[0].Turns()[0].Evaluators[0].Threshold; got != 0.4 {
			t.Errorf("turn 1 threshold %v, want the turn's 0.4", got)
		}
		if got := s.Cases[0].Turns()[1].Evaluators[0].Threshold; got != 0.6 {
			t.Errorf("turn 2 threshold %v, want the suite's 0.6", got)
		}
	})
}

// TestLoadFile_settingErrors: a setting trajeval cannot honour where it is
// written is a configuration error that says why, never ignored.
func TestLoadFile_settingErrors(t *testing.T) {
	const ev = "    - {type: tool_trajectory, expected: [{tool: a}]}\n"
	const caseEv = "    execution:\n      evaluators:\n        - {type: tool_trajectory, expected: [{tool: a}]}\n"
	tests := []struct {
		name      string
		yaml      string
		line, col int
		msg, hint string
		reason    string
	}{
		{"suite target", "execution:\n  target: my_agent\n  evaluators:\n" + ev + "evalcases:\n  - id: a\n", 2, 11,
			`unknown target "my_agent"`, "define it under targets:", "a target that is defined nowhere cannot run"},
		{"suite targets", "execution:\n  targets: [a, b]\n  evaluators:\n" + ev + "evalcases:\n  - id: a\n", 2, 12,
			"running a suite against several targets at once is not supported", "--target NAME", "a matrix of targets would run one and ignore the others"},
		{"case target", "evalcases:\n  - id: a\n    execution:\n      target: x\n      evaluators:\n        - {type: tool_trajectory, expected: [{tool: a}]}\n", 4, 15,
			"target is a setting of the whole suite, not of one case", "execution.target on the suite", "a case's target would be ignored"},
		{"suite skip_defaults", "execution:\n  skip_defaults: true\n  evaluators:\n" + ev + "evalcases:\n  - id: a\n", 2, 18,
			"skip_defaults has nothing to skip at suite level", "on the cases", "it used to be read and dropped"},
		{"turn skip_defaults", "evalcases:\n  - id: a\n    turns:\n      - execution:\n          skip_defaults: true\n          evaluators: [{type: tool_trajectory, expected: [{tool: a}]}]\n", 5, 26,
			"nothing to skip in a turn", "", "a turn has no defaults"},
		{"case workers", "evalcases:\n  - id: a\n    execution:\n      workers: 4\n      evaluators:\n        - {type: tool_trajectory, expected: [{tool: a}]}\n", 4, 16,
			"workers is a setting of the whole run", "--workers", "one case cannot set the run's concurrency"},
		{"zero workers", "execution:\n  workers: 0\n  evaluators:\n" + ev + "evalcases:\n  - id: a\n", 2, 12,
			"workers must be at least 1", "", "no worker scores nothing"},
		{"threshold twice", "threshold: 0.5\nexecution:\n  threshold: 0.6\n  evaluators:\n" + ev + "evalcases:\n  - id: a\n", 3, 14,
			"threshold is given both here and at line 1", "", "two suite thresholds would leave one ignored"},
		{"threshold range", "threshold: 5\nevalcases:\n  - id: a\n" + caseEv, 1, 12,
			"threshold must be between 0 and 1", "", "a threshold is a fraction"},
		{"vars", "evalcases:\n  - id: a\n    vars: {city: Paris}\n" + caseEv, 3, 12,
			"vars are not supported", "remove vars", "nothing would fill a prompt with them"},
		{"conversation_id", "evalcases:\n  - id: a\n    conversation_id: conv-1\n" + caseEv, 3, 22,
			"conversation_id is not supported", "turns:", "traces are matched by case id, never by conversation"},
		{"mode without turns", "evalcases:\n  - id: a\n    mode: conversation\n" + caseEv, 3, 11,
			"mode conversation needs turns", "", "a conversation without turns checks nothing per turn"},
		{"unknown mode", "evalcases:\n  - id: a\n    mode: chat\n" + caseEv, 3, 11,
			`unknown value "chat"`, "", "conversation is the only case mode"},
		{"two expected outputs", "evalcases:\n  - id: a\n    expected_output: hi\n    expected_messages: [{role: assistant, content: hi}]\n" + caseEv, 4, 24,
			"the expected output is given under both expected_output and expected_messages", "keep one", "one would be ignored"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errs := loadWith(t, tt.yaml, suite.Options{Dialects: dialects.All()})
			if len(errs) != 1 {
				t.Fatalf("errors %v, want one %q: %s", errs, tt.msg, tt.reason)
			}
			var se *trajeval.SpecError
			if !errors.As(errs[0], &se) {
				t.Fatalf("error %v is not a SpecError", errs[0])
			}
			if se.Line != tt.line || se.Col != tt.col {
				t.Errorf("error at %d:%d, want %d:%d: %v", se.Line, se.Col, tt.line, tt.col, errs[0])
			}
			if !strings.Contains(se.Msg, tt.msg) || !strings.Contains(se.Hint, tt.hint) {
				t.Errorf("error %q (hint %q), want %q with hint %q: %s", se.Msg, se.Hint, tt.msg, tt.hint, tt.reason)
			}
		})
	}
}

func TestLoadFile_workers(t *testing.T) {
	s, errs := loadWith(t, "execution:\n  workers: 4\nevalcases:\n  - id: a\n    execution:\n      evaluators:\n        - {type: tool_trajectory, expected: [{tool: a}]}\n", suite.Options{Dialects: dialects.All()})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if s.Workers != 4 {
		t.Errorf("Workers %d, want 4 from execution.workers", s.Workers)
	}
}

// TestLoadFile_zeroMinimumWarning: the warning of an evaluator reaches the
// suite's warnings, once, though the suite's evaluators serve every case.
func TestLoadFile_zeroMinimumWarning(t *testing.T) {
	s, errs := loadWith(t, "execution:\n  evaluators:\n    - {type: tool_trajectory, minimums: {search: 0}}\nevalcases:\n  - id: a\n  - id: b\n    execution:\n      threshold: 0.5\n", suite.Options{Dialects: dialects.All()})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if len(s.Warnings) != 1 || !strings.Contains(s.Warnings[0].String(), "suite.yaml:3: execution.evaluators[0].minimums.search: minimum 0 for search always holds") {
		t.Errorf("warnings %v, want one, placed at the minimum", s.Warnings)
	}
}

func TestCheckTraces(t *testing.T) {
	dir := write(t, map[string]string{
		"suite.yaml": "traces: runs.jsonl\nexecution:\n  evaluators:\n    - {type: tool_trajectory, expected: [{tool: a}]}\nevalcases:\n  - id: a\n    trace: a.json\n  - id: b\n    trace: missing.json\n  - id: c\n    trace: sub\n",
		"a.json":     `{"output": []}`,
		"sub/x":      "",
	})
	suites, errs := suite.Load([]string{filepath.Join(dir, "suite.yaml")}, suite.Options{Dialects: dialects.All()})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	errs = suite.CheckTraces(suites)
	var got []string
	for _, e := range errs {
		if !errors.Is(e, trajeval.ErrConfig) {
			t.Errorf("%v is not a configuration error", e)
		}
		got = append(got, strings.ReplaceAll(e.Error(), dir+string(os.PathSeparator), ""))
	}
	want := []string{
		"suite.yaml:1:9: traces: traces file runs.jsonl cannot be read: no such file or directory",
		"suite.yaml:9:12: evalcases[1].trace: trace file missing.json cannot be read: no such file or directory",
		"suite.yaml:11:12: evalcases[2].trace: trace file sub cannot be read: it is a folder",
	}
	if len(got) != len(want) {
		t.Fatalf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("error %d:\n%s\nwant:\n%s", i, got[i], want[i])
		}
	}
}

// TestLoadFile_caseText: what a case says in words reaches its evaluators:
// the suite's input before the case's, the expected output (text,
// messages or a value as JSON), and a turn's own expectations.
func TestLoadFile_caseText(t *testing.T) {
	clear(seen)
	_, errs := loadWith(t, `input: You are a travel agent.
evalcases:
  - id: a
    input: Book Paris.
    expected_output: Booked.
    evaluators: [{name: a, type: test_seen}]
  - id: b
    expected_messages:
      - {role: assistant, content: First.}
      - {role: user, content: ignored}
      - {role: assistant, content: Second.}
    evaluators: [{name: b, type: test_seen}]
  - id: c
    expected_output: {city: Paris}
    expected_outcome: The trip is booked.
    evaluators: [{name: c, type: test_seen}]
    mode: conversation
    turns:
      - input: Book it.
        expected_output: Done.
        criteria: It is booked.
        evaluators: [{name: c1, type: test_seen}]
      - evaluators: [{name: c2, type: test_seen}]
`, suite.Options{Dialects: dialects.All()})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	want := map[string]eval.Case{
		"a":  {ID: "a", Input: "You are a travel agent.\nBook Paris.", ExpectedOutput: "Booked."},
		"b":  {ID: "b", Input: "You are a travel agent.", ExpectedOutput: "First.\nSecond."},
		"c":  {ID: "c", Input: "You are a travel agent.", ExpectedOutput: `{"city":"Paris"}`, ExpectedOutcome: "The trip is booked."},
		"c1": {ID: "c", Input: "Book it.", ExpectedOutput: "Done.", ExpectedOutcome: "It is booked."},
		"c2": {ID: "c", Input: "", ExpectedOutput: `{"city":"Paris"}`, ExpectedOutcome: "The trip is booked."},
	}
	for name, w := range want {
		if got := seen[name]; got != w {
			t.Errorf("evaluator %s was told %+v, want %+v", name, got, w)
		}
	}
}
