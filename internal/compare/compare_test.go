package compare_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/compare"
)

// file builds a results file of rows, numbered from line 1.
func file(name string, rows ...trajeval.CaseResult) *compare.File {
	f := &compare.File{Name: name}
	for i, r := range rows {
		f.Rows = append(f.Rows, compare.Row{CaseResult: r, Line: i + 1})
	}
	return f
}

// run is one case result of case "c" with a single evaluator "flow"
// giving the same verdict.
func run(st trajeval.Status, score float64, attempt int) trajeval.CaseResult {
	return trajeval.CaseResult{ID: "c", Suite: "s", Status: st, Score: score, Attempt: attempt,
		Evaluators: []trajeval.Result{{Name: "flow", Status: st, Score: score}}}
}

// trialRuns is n attempts of case "c", the first passed of them passing.
func trialRuns(passed, n int) []trajeval.CaseResult {
	var rows []trajeval.CaseResult
	for i := range n {
		if i < passed {
			rows = append(rows, run(trajeval.StatusPass, 1, i+1))
		} else {
			rows = append(rows, run(trajeval.StatusFail, 0.5, i+1))
		}
	}
	return rows
}

const (
	pass = trajeval.StatusPass
	fail = trajeval.StatusFail
	errs = trajeval.StatusError
)

func TestCompare_singleRun(t *testing.T) {
	tests := []struct {
		name                   string
		oldSt                  trajeval.Status
		oldScore               float64
		newSt                  trajeval.Status
		newScore               float64
		tol                    float64
		want                   compare.Verdict
		newlyFailing, newlyPas bool
		reason                 string
	}{
		{"unchanged", pass, 1, pass, 1, 0, compare.Same, false, false, "nothing differs"},
		{"pass to fail", pass, 1, fail, 0.9, 0.5, compare.Regressed, true, false, "a new failure regresses whatever the tolerance"},
		{"pass to error", pass, 1, errs, 0, 0, compare.Regressed, true, false, "a case that can no longer be scored regresses"},
		{"fail to error", fail, 0.5, errs, 0, 0, compare.Regressed, false, false, "could be scored before, cannot now: it may have got worse, unseen"},
		{"error to error", errs, 0, errs, 0, 0, compare.Same, false, false, "still unscorable is not a new regression"},
		{"error to fail", errs, 0, fail, 0.2, 0, compare.Changed, false, false, "scorable again but failing: no score to compare with"},
		{"drop beyond tolerance", fail, 0.9, fail, 0.7, 0.1, compare.Regressed, false, false, "0.2 > 0.1"},
		{"drop exactly the tolerance", fail, 0.8, fail, 0.7, 0.1, compare.Changed, false, false, "0.8 − 0.7 is 0.10000000000000009 in floating point, and must count as 0.1: not beyond"},
		{"drop just beyond the tolerance", fail, 0.8, fail, 0.699, 0.1, compare.Regressed, false, false, "0.101 > 0.1"},
		{"drop within the tolerance", pass, 1, pass, 0.96, 0.05, compare.Changed, false, false, "a pass that lost 0.04 of score, tolerance 0.05"},
		{"any drop at tolerance 0", fail, 0.5, fail, 0.49, 0, compare.Regressed, false, false, "the default tolerance is 0"},
		{"passing drop beyond tolerance", pass, 1, pass, 0.8, 0, compare.Regressed, false, false, "a pass can regress by score (an optional evaluator failing)"},
		{"fail to pass", fail, 0.5, pass, 1, 0, compare.Improved, false, true, "newly passing"},
		{"error to pass", errs, 0, pass, 1, 0, compare.Improved, false, true, "newly passing"},
		{"rise beyond tolerance", fail, 0.5, fail, 0.8, 0.1, compare.Improved, false, false, "score rose by 0.3"},
		{"rise within tolerance", fail, 0.5, fail, 0.55, 0.1, compare.Changed, false, false, "score rose by 0.05 only"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := compare.Compare(file("old", run(tt.oldSt, tt.oldScore, 0)), file("new", run(tt.newSt, tt.newScore, 0)), compare.Options{Tolerance: tt.tol})
			if err != nil {
				t.Fatal(err)
			}
			c := rep.Cases[0]
			if c.Verdict != tt.want || c.NewlyFailing != tt.newlyFailing || c.NewlyPassing != tt.newlyPas {
				t.Errorf("verdict %s (newly failing %v, newly passing %v), want %s (%v, %v): %s",
					c.Verdict, c.NewlyFailing, c.NewlyPassing, tt.want, tt.newlyFailing, tt.newlyPas, tt.reason)
			}
			if rep.Regressed() != (tt.want == compare.Regressed) {
				t.Errorf("Regressed() = %v with verdict %s", rep.Regressed(), c.Verdict)
			}
			if (c.Verdict == compare.Regressed || c.Verdict == compare.Improved) && c.Why == "" {
				t.Errorf("verdict %s without a why", c.Verdict)
			}
			if c.Trials {
				t.Error("a case with one row on each side was judged as trials")
			}
		})
	}
}

func TestCompare_trials(t *testing.T) {
	tests := []struct {
		name             string
		oldPass, oldRuns int
		newPass, newRuns int
		tol, conf        float64
		want             compare.Verdict
		lo, hi           float64 // the interval of the change, to 2 decimals
		reason           string
	}{
		{"5/5 to 1/5", 5, 5, 1, 5, 0, 0, compare.Regressed, -0.96, -0.19, "the interval lies wholly below 0"},
		{"5/5 to 3/5", 5, 5, 3, 5, 0, 0, compare.Changed, -0.77, 0.12, "two failures in five runs may be chance: the interval reaches above 0"},
		{"5/5 to 2/5", 5, 5, 2, 5, 0, 0, compare.Regressed, -0.88, -0.03, "three failures in five are not chance at 95%"},
		{"5/5 to 2/5 at 99%", 5, 5, 2, 5, 0, 0.99, compare.Changed, -0.92, 0.12, "a higher confidence asks for more evidence"},
		{"5/5 to 2/5, tolerance 0.1", 5, 5, 2, 5, 0.1, 0, compare.Changed, -0.88, -0.03, "the drop may be as small as 0.03, within the tolerance 0.1"},
		{"3/3 to 2/3", 3, 3, 2, 3, 0, 0, compare.Changed, -0.79, 0.29, "one noisy run among three is no regression (a single run would be: pass → fail)"},
		{"0/5 to 5/5", 0, 5, 5, 5, 0, 0, compare.Improved, 0.39, 1, "newly passing every run"},
		{"Newcombe's example", 48, 80, 56, 70, 0, 0, compare.Improved, 0.05, 0.33, "56/70 − 48/80: his paper gives 0.0524 to 0.3339 for method 10"},
		{"10/10 to 10/10", 10, 10, 10, 10, 0, 0, compare.Same, -0.28, 0.28, "nothing differs"},
		{"20/20 to 14/20", 20, 20, 14, 20, 0, 0, compare.Regressed, -0.52, -0.08, "more runs make a smaller drop significant"},
		{"one run to trials", 1, 1, 0, 3, 0, 0, compare.Regressed, -1, -0.03, "one pass against three failures: judged on pass rates, since one side has trials"},
		{"one run to mixed trials", 1, 1, 2, 3, 0, 0, compare.Changed, -0.79, 0.51, "one pass says little about the old rate"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			oldRows := trialRuns(tt.oldPass, tt.oldRuns)
			if tt.oldRuns == 1 {
				oldRows[0].Attempt = 0
			}
			rep, err := compare.Compare(file("old", oldRows...), file("new", trialRuns(tt.newPass, tt.newRuns)...),
				compare.Options{Tolerance: tt.tol, Confidence: tt.conf})
			if err != nil {
				t.Fatal(err)
			}
			c := rep.Cases[0]
			if !c.Trials || c.PassRateChange == nil {
				t.Fatalf("case %+v not judged as trials", c)
			}
			iv := *c.PassRateChange
			if c.Verdict != tt.want {
				t.Errorf("verdict %s, want %s (change %v, interval %v to %v): %s", c.Verdict, tt.want, iv.Change, iv.Lo, iv.Hi, tt.reason)
			}
			if r2(iv.Lo) != tt.lo || r2(iv.Hi) != tt.hi {
				t.Errorf("interval %.2f to %.2f, want %v to %v", iv.Lo, iv.Hi, tt.lo, tt.hi)
			}
		})
	}
}

func r2(x float64) float64 {
	var y float64
	fmt.Sscanf(fmt.Sprintf("%.2f", x), "%g", &y)
	return y
}

// TestCompare_trialsBorderline puts the tolerance exactly at the upper end
// of the interval of the change, then just past it.
func TestCompare_trialsBorderline(t *testing.T) {
	old, new := file("old", trialRuns(5, 5)...), file("new", trialRuns(1, 5)...)
	rep, err := compare.Compare(old, new, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	hi := rep.Cases[0].PassRateChange.Hi
	tests := []struct {
		name   string
		tol    float64
		want   compare.Verdict
		reason string
	}{
		{"tolerance at the upper end", -hi, compare.Changed, "the interval touches −tolerance: not wholly below it"},
		{"tolerance just inside", -hi - 0.001, compare.Regressed, "the interval lies below −tolerance"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := compare.Compare(old, new, compare.Options{Tolerance: tt.tol})
			if err != nil {
				t.Fatal(err)
			}
			if got := rep.Cases[0].Verdict; got != tt.want {
				t.Errorf("tolerance %v (upper end %v): %s, want %s: %s", tt.tol, hi, got, tt.want, tt.reason)
			}
		})
	}
}

func TestCompare_evaluators(t *testing.T) {
	ev := func(name string, turn int, st trajeval.Status, score float64) trajeval.Result {
		return trajeval.Result{Name: name, Turn: turn, Status: st, Score: score}
	}
	old := trajeval.CaseResult{ID: "c", Status: pass, Score: 1, Evaluators: []trajeval.Result{
		ev("same", 0, pass, 1), ev("worse", 0, pass, 1), ev("lower", 0, fail, 0.8), ev("erred", 0, fail, 0), ev("gone", 0, pass, 1),
		ev("greet", 1, pass, 1), ev("greet", 2, fail, 0.5),
	}}
	new := trajeval.CaseResult{ID: "c", Status: pass, Score: 1, Evaluators: []trajeval.Result{
		ev("same", 0, pass, 1), ev("worse", 0, fail, 1), ev("lower", 0, fail, 0.7), ev("erred", 0, errs, 0),
		ev("greet", 1, pass, 1), ev("greet", 2, pass, 1), ev("new", 0, pass, 1),
	}}
	rep, err := compare.Compare(file("old", old), file("new", new), compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := rep.Cases[0]
	var got []string
	for _, e := range c.Evaluators {
		got = append(got, fmt.Sprintf("%s/%d:%s", e.Name, e.Turn, e.Verdict))
	}
	want := "worse/0:worse lower/0:worse erred/0:worse gone/0:removed greet/2:better new/0:added"
	if strings.Join(got, " ") != want {
		t.Errorf("evaluators %v, want %s: pass → fail, a lower score and fail → error are worse; per-turn evaluators are told apart by turn; unchanged ones are left out", got, want)
	}
	if c.Verdict != compare.Changed {
		t.Errorf("verdict %s, want changed: the case passed with the same score in both, so its evaluators only explain", c.Verdict)
	}
}

func TestCompare_files(t *testing.T) {
	a := trajeval.CaseResult{ID: "a", Suite: "s", Status: pass, Score: 1}
	b := trajeval.CaseResult{ID: "b", Suite: "s", Status: fail, Score: 0.5}
	c := trajeval.CaseResult{ID: "c", Suite: "s", Status: pass, Score: 1}
	rep, err := compare.Compare(file("old", a, b), file("new", c, b), compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, k := range rep.Cases {
		got = append(got, k.ID+":"+string(k.Verdict))
	}
	if want := "a:removed c:added b:same"; strings.Join(got, " ") != want {
		t.Errorf("cases %v, want %s", got, want)
	}
	if rep.Regressed() {
		t.Error("a case gone from the new file is listed, not a regression: suites lose cases")
	}

	// No case in common: an error, with a hint when the ids match under
	// other suite names.
	moved := trajeval.CaseResult{ID: "a", Suite: "renamed", Status: pass, Score: 1}
	_, err = compare.Compare(file("old.jsonl", a), file("new.jsonl", moved), compare.Options{})
	if !errors.Is(err, compare.ErrNoCommon) {
		t.Fatalf("error %v, want ErrNoCommon", err)
	}
	if want := `new.jsonl: no case in common with old.jsonl (1 case there, 1 here) (case "a" is in suite "s" in old.jsonl and in suite "renamed" in new.jsonl`; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %q, want it to start %q", err, want)
	}

	for _, o := range []compare.Options{{Tolerance: -0.1}, {Tolerance: 1.5}, {Confidence: 1}, {Confidence: -0.5}} {
		if _, err := compare.Compare(file("old", a), file("new", a), o); err == nil {
			t.Errorf("options %+v: no error", o)
		}
	}
}
