package suite_test

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/suite"
	"github.com/trajeval/trajeval/trace"
)

func TestLoadSuite(t *testing.T) {
	s, err := suite.Load("../testdata/research.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Cases) != 2 || s.Cases[0].ID != "research-python" || s.Cases[0].Suite != "research" || len(s.Cases[0].Evaluators) != 1 {
		t.Fatalf("cases %+v; want research-python and research-nothing of suite research, one evaluator each", s.Cases)
	}

	_, err = suite.Load("../testdata/broken.yaml")
	var list interface{ Unwrap() []error }
	if !errors.As(err, &list) || len(list.Unwrap()) != 2 {
		t.Fatalf("error %v; want the two configuration errors, listed", err)
	}
	for _, e := range list.Unwrap() {
		var se *trajeval.SpecError
		if !errors.As(e, &se) || se.Line == 0 || se.Col == 0 || !errors.Is(e, trajeval.ErrConfig) {
			t.Errorf("%v: want a *SpecError at its line and column, wrapping ErrConfig", e)
		}
	}

	if _, err := suite.Load("../testdata/nope.yaml"); !errors.Is(err, trajeval.ErrConfig) {
		t.Errorf("a missing suite: error %v, want ErrConfig", err)
	}
}

func TestSuite_Run(t *testing.T) {
	tests := []struct {
		name   string
		suite  string
		opts   suite.RunOptions
		want   string // "id status" per result, then "error: ..." for a run error
		reason string
	}{
		{"own traces", "../testdata/research.yaml", suite.RunOptions{},
			"research-python fail; research-nothing error", "a case whose trace cannot be read is an error, and the run goes on"},
		{"threshold", "../testdata/research.yaml", suite.RunOptions{Threshold: 0.5},
			"research-python pass; research-nothing error", "the run's threshold replaces the files' default"},
		{"traces file", "../testdata/many.yaml", suite.RunOptions{Traces: "../testdata/research.traces.jsonl", Workers: 3},
			"research-python pass; research-nothing fail", "a traces file is matched to cases by id"},
		{"damaged", "../testdata/many.yaml", suite.RunOptions{Traces: "../testdata/cut.traces.jsonl"},
			"research-python error; research-nothing error", "a damaged traces file is an error for every case it could not give"},
		{"damaged lenient", "../testdata/many.yaml", suite.RunOptions{Traces: "../testdata/cut.traces.jsonl", Lenient: true},
			"research-python fail partial; research-nothing error", "read leniently, the case is scored from what came before the damage, marked partial"},
		{"adk", "../examples/adk-shopping", suite.RunOptions{},
			"", "an ADK eval set with its test_config.json loads and runs"},
		{"uipath", "../examples/uipath-orders", suite.RunOptions{},
			"", "a UiPath evaluation set loads and runs"},
		{"only", "../testdata/many.yaml", suite.RunOptions{Traces: "../testdata/research.traces.jsonl", Only: func(c *suite.Case) bool { return c.ID == "research-nothing" }},
			"research-nothing fail", "Only leaves the other cases out, in silence"},
		{"filter glob", "../testdata/many.yaml", suite.RunOptions{Traces: "../testdata/research.traces.jsonl", Filter: []string{"*-nothing"}},
			"research-nothing fail", "a glob picks by id; the other trace is passed over in silence"},
		{"filter qualified", "../testdata/many.yaml", suite.RunOptions{Traces: "../testdata/research.traces.jsonl", Filter: []string{"many/research-p*", "other/*"}},
			"error: filter \"other/*\" matches no case id (nearest: many/research-python, many/research-nothing)", "every pattern must pick something; SUITE/ID patterns suggest SUITE/ID"},
		{"filter regexp", "../testdata/many.yaml", suite.RunOptions{Traces: "../testdata/research.traces.jsonl", Filter: []string{"/python/"}, Only: func(c *suite.Case) bool { return true }},
			"research-python pass", "/RE/ is found anywhere in the id"},
		{"filter and only", "../testdata/many.yaml", suite.RunOptions{Traces: "../testdata/research.traces.jsonl", Filter: []string{"research-*"}, Only: func(c *suite.Case) bool { return c.ID == "research-nothing" }},
			"research-nothing fail", "a case runs when both Filter and Only pick it"},
		{"bad filter", "../testdata/many.yaml", suite.RunOptions{Filter: []string{"[x"}},
			"error: filter \"[x\": syntax error in pattern (a glob: * ? [a-z], \\ escapes; write /RE/ for a regular expression)", "a malformed glob stops the run before any case"},
		{"trials without target", "../testdata/many.yaml", suite.RunOptions{Traces: "../testdata/research.traces.jsonl", Trials: 2},
			"error: trials need a target", "recorded traces are the same on every trial"},
		{"no traces", "../testdata/many.yaml", suite.RunOptions{},
			"research-python error; research-nothing error", "cases without a trace are errors, never a pass"},
		{"bad format", "../testdata/research.yaml", suite.RunOptions{Format: "nope"},
			"error: unknown format", "an unknown format stops the run before any case"},
		{"bad threshold", "../testdata/research.yaml", suite.RunOptions{Threshold: 2},
			"error: configuration error: the threshold must be between 0 and 1", "a threshold out of range is an error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := suite.Load(tt.suite)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			var warnings []trajeval.Warning
			tt.opts.Warn = func(w trajeval.Warning) { warnings = append(warnings, w) }
			for r, err := range s.Run(context.Background(), tt.opts) {
				if err != nil {
					got = append(got, "error: "+err.Error())
					continue
				}
				line := r.ID + " " + string(r.Status)
				if r.Partial {
					line += " partial"
				}
				got = append(got, line)
			}
			if len(got) == 0 || tt.want == "" && strings.Contains(strings.Join(got, "; "), "error") {
				t.Errorf("got %q: %s", got, tt.reason)
			}
			if (tt.opts.Only != nil || tt.opts.Filter != nil) && len(warnings) > 0 {
				t.Errorf("warnings %v: %s", warnings, tt.reason)
			}
			exact := tt.opts.Only != nil || tt.opts.Filter != nil
			if g := strings.Join(got, "; "); !strings.HasPrefix(g, tt.want) || exact && g != tt.want {
				t.Errorf("got %s\nwant %s: %s", g, tt.want, tt.reason)
			}
		})
	}
}

func TestSuite_Run_break(t *testing.T) {
	s, err := suite.Load("../testdata/many.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, workers := range []int{1, 4} {
		n := 0
		for _, err := range s.Run(context.Background(), suite.RunOptions{Traces: "../testdata/research.traces.jsonl", Workers: workers}) {
			if err != nil {
				t.Fatal(err)
			}
			n++
			break
		}
		if n != 1 {
			t.Errorf("workers %d: %d results after a break, want 1", workers, n)
		}
	}
}

func TestCase_Score(t *testing.T) {
	s, err := suite.Load("../testdata/many.yaml")
	if err != nil {
		t.Fatal(err)
	}
	trajs, err := trace.ReadFile("../testdata/research.traces.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		traj   *trajeval.Trajectory
		status trajeval.Status
		reason string
	}{
		{"matches", trajs[0], trajeval.StatusPass, "search (python), read_document and synthesize in order"},
		{"other query", trajs[1], trajeval.StatusFail, "the query does not match the regex"},
		{"nil", nil, trajeval.StatusFail, "a nil trajectory is an empty one: every call is missing"},
	}
	if r := new(suite.Case).Score(context.Background(), trajs[0]); r.Status != trajeval.StatusError {
		t.Errorf("a case not loaded from a suite scored %s, want error", r.Status)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := s.Cases[0].Score(context.Background(), tt.traj)
			if r.Status != tt.status || r.ID != "research-python" || r.Suite != "many" {
				t.Errorf("%s %s/%s, want %s of many/research-python: %s\n%s", r.Status, r.Suite, r.ID, tt.status, tt.reason, r.Explain())
			}
		})
	}
}

func TestSuite_Run_canceled(t *testing.T) {
	s, err := suite.Load("../testdata/research.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var last error
	n := 0
	for _, err := range s.Run(ctx, suite.RunOptions{}) {
		n++
		last = err
	}
	if !errors.Is(last, context.Canceled) {
		t.Errorf("%d results, the last error %v; want the run to end with context.Canceled, never a silent empty run", n, last)
	}
}

// TestSuite_Run_rows checks what each row says of its case besides the
// verdict: the trace file as it was named, and when and how long it ran.
func TestSuite_Run_rows(t *testing.T) {
	tests := []struct {
		name, suite string
		opts        suite.RunOptions
		trace       map[string]string // id → Trace
		reason      string
	}{
		{"traces file", "../testdata/many.yaml", suite.RunOptions{Traces: "../testdata/research.traces.jsonl"},
			map[string]string{"research-python": "../testdata/research.traces.jsonl", "research-nothing": "../testdata/research.traces.jsonl"},
			"the --traces file, as given"},
		{"own trace", "../testdata/research.yaml", suite.RunOptions{},
			map[string]string{"research-python": "../testdata/research.openai.json", "research-nothing": ""},
			"the case's trace: file, relative to the folder the suite was named from; none when it could not be read"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := suite.Load(tt.suite)
			if err != nil {
				t.Fatal(err)
			}
			before := time.Now().Add(-time.Second)
			for r, err := range s.Run(context.Background(), tt.opts) {
				if err != nil {
					t.Fatal(err)
				}
				if r.Trace != tt.trace[r.ID] {
					t.Errorf("%s: trace %q, want %q: %s", r.ID, r.Trace, tt.trace[r.ID], tt.reason)
				}
				if r.StartedAt.Before(before) || r.StartedAt.Location() != time.UTC || r.StartedAt.Nanosecond()%int(time.Millisecond) != 0 || r.DurationMS < 0 {
					t.Errorf("%s: started %v, took %vms; want a start in UTC to the millisecond, during the test, and a duration", r.ID, r.StartedAt, r.DurationMS)
				}
			}
		})
	}
}

// FuzzRunOptions_filter checks that no filter pattern makes Plan panic,
// and that a pattern either picks some case or is an error naming it.
func FuzzRunOptions_filter(f *testing.F) {
	for _, p := range []string{"research-*", "*/research-?", "/^research-(python|go)$/", "[a-", "/(/", "//", "/", "\\", "many/*"} {
		f.Add(p)
	}
	s, err := suite.Load("../testdata/many.yaml")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, pattern string) {
		cases, err := s.Plan(suite.RunOptions{Traces: "../testdata/research.traces.jsonl", Filter: []string{pattern}})
		switch {
		case err != nil && !strings.Contains(err.Error(), strconv.Quote(pattern)):
			t.Errorf("pattern %q: error %v does not name it", pattern, err)
		case err == nil && len(cases) == 0:
			t.Errorf("pattern %q picks no case, and no error says so", pattern)
		}
	})
}

func TestRunOptions_Load_basis(t *testing.T) {
	tests := []struct {
		name   string
		path   string
		basis  []string
		err    string // "" for none
		reason string
	}{
		{"narrowed", "../examples/tau2", []string{"ACTION", "COMMUNICATE"}, "", "τ²'s components, on a τ² task file"},
		{"unknown component", "../examples/tau2", []string{"ACTIONS"}, `unknown reward component "ACTIONS"`, "a name τ² does not know is refused"},
		{"no τ² suite", "../testdata/research.yaml", []string{"ACTION"}, "no suite is one", "a setting that changes nothing is a mistake"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := suite.RunOptions{Basis: tt.basis}.Load(tt.path)
			switch {
			case tt.err == "" && err != nil:
				t.Errorf("Load: %v (%s)", err, tt.reason)
			case tt.err != "" && (err == nil || !errors.Is(err, trajeval.ErrConfig) || !strings.Contains(err.Error(), tt.err)):
				t.Errorf("Load: %v, want a configuration error containing %q (%s)", err, tt.err, tt.reason)
			}
		})
	}
}

func TestSuite_Plan_missingTrace(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("suite.yaml", "execution:\n  evaluators:\n    - {type: tool_trajectory, expected: [search]}\nevalcases:\n  - id: typo\n    trace: tracs/a.json\n  - id: fine\n    trace: traces/a.json\n")
	write("traces/a.json", `{"messages": [{"role": "user", "content": "hi"}]}`)
	s, err := suite.Load(filepath.Join(dir, "suite.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		opts suite.RunOptions
		want string // in the error; "" for none
		why  string
	}{
		{"picked", suite.RunOptions{}, "suite.yaml:6:12: evalcases[0].trace: trace file tracs/a.json cannot be read: no such file or directory (record the case's trace there, or fix the path; it is relative to the suite file's folder, " + dir + "; near names: traces/a.json)",
			"a mistyped trace: path is a configuration error at its key, with what it is relative to and the near name, not a failed case"},
		{"not picked", suite.RunOptions{Filter: []string{"fine"}}, "",
			"a case the run leaves out is not read, so its file is not checked"},
		{"missing traces file", suite.RunOptions{Filter: []string{"fine"}, Traces: filepath.Join(dir, "runs.jsonl")}, "",
			"every picked case names its own trace, so --traces is not read"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.Plan(tt.opts)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("error %v, want none: %s", err, tt.why)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want) || !errors.Is(err, trajeval.ErrConfig)):
				t.Errorf("error %v\nwant a configuration error holding %q: %s", err, tt.want, tt.why)
			}
		})
	}
	write("open.yaml", "execution:\n  evaluators:\n    - {type: tool_trajectory, expected: [search]}\n")
	o, err := suite.Load(filepath.Join(dir, "open.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = o.Plan(suite.RunOptions{Traces: filepath.Join(dir, "traces", "b.json")})
	if err == nil || !strings.Contains(err.Error(), "--traces file "+filepath.Join(dir, "traces", "b.json")+" cannot be read: no such file or directory") || !strings.Contains(err.Error(), "near names: "+filepath.Join(dir, "traces", "a.json")) {
		t.Errorf("error %v; want the missing --traces file as a configuration error naming the near file", err)
	}
}

// TestSuite_Run_handover runs more traces than wait for the caller at
// most (the run waits for the loop body past a few hundred): every
// result comes once, in the traces' order, and a break far into the run,
// with the run ahead of the loop body, ends it cleanly.
func TestSuite_Run_handover(t *testing.T) {
	dir := t.TempDir()
	var traces strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&traces, `{"id": "t-%04d", "messages": [{"role": "user", "content": "go"}, {"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "search", "arguments": "{}"}}]}]}`+"\n", i)
	}
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tracesFile := write("traces.jsonl", traces.String())
	s, err := suite.Load(write("open.yaml", "name: open\nexecution:\n  evaluators:\n    - {name: check, type: tool_trajectory, mode: in_order, expected: [search]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		workers int
		stop    int // break after this many results; 0 never
		reason  string
	}{
		{"all, one worker", 1, 0, "each result once, in order, though the run is hundreds ahead"},
		{"all, four workers", 4, 0, "results in the traces' order whichever worker scored them"},
		{"break late, one worker", 1, 600, "a break after the run has waited for the loop body"},
		{"break late, four workers", 4, 600, "the same with workers under way"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := 0
			for r, err := range s.Run(context.Background(), suite.RunOptions{Traces: tracesFile, Workers: tt.workers}) {
				if err != nil {
					t.Fatalf("%v: %s", err, tt.reason)
				}
				if want := fmt.Sprintf("t-%04d", n); r.ID != want || r.Status != trajeval.StatusPass {
					t.Fatalf("result %d: %s %s, want %s pass: %s", n, r.ID, r.Status, want, tt.reason)
				}
				n++
				if n == tt.stop {
					break
				}
			}
			if want := cmp.Or(tt.stop, 1000); n != want {
				t.Errorf("%d results, want %d: %s", n, want, tt.reason)
			}
		})
	}
}
