package history_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/history"
)

// aggregateRuns records two runs: the first of the suites shop and bank,
// with a case of no suite; the second of shop, with a case run twice.
func aggregateRuns(t *testing.T, h *history.DB) []int64 {
	t.Helper()
	ev := func(name string, st trajeval.Status, score float64) trajeval.Result {
		return trajeval.Result{Name: name, Type: "contains", Status: st, Score: score, Threshold: 1, Weight: 1}
	}
	c := func(suite, id string, attempt int, st trajeval.Status, score float64, evs ...trajeval.Result) trajeval.CaseResult {
		return trajeval.CaseResult{Suite: suite, ID: id, Attempt: attempt, Status: st, Score: score, Evaluators: evs}
	}
	start := time.Date(2026, 1, 31, 0, 0, 0, 0, time.UTC)
	return []int64{
		record(t, h, history.Run{Start: start, Suites: []string{"shop", "bank"}}, []trajeval.CaseResult{
			c("shop", "a", 0, trajeval.StatusPass, 1, ev("x", trajeval.StatusPass, 1), ev("y", trajeval.StatusError, 0)),
			c("bank", "a", 0, trajeval.StatusFail, 0.2, ev("x", trajeval.StatusFail, 0.2)),
			c("", "c", 0, trajeval.StatusError, 0),
			c("shop", "b", 0, trajeval.StatusFail, 0.5, ev("z", trajeval.StatusPass, 1), ev("x", trajeval.StatusFail, 0)),
		}),
		record(t, h, history.Run{Start: start.Add(time.Hour), Suites: []string{"shop"}}, []trajeval.CaseResult{
			c("shop", "b", 1, trajeval.StatusPass, 1, ev("x", trajeval.StatusPass, 1)),
			c("shop", "b", 2, trajeval.StatusFail, 0, ev("x", trajeval.StatusFail, 0)),
			c("shop", "d", 0, trajeval.StatusPass, 1, ev("w", trajeval.StatusPass, 0.5)),
			c("shop", "a", 0, trajeval.StatusPass, 1, ev("x", trajeval.StatusPass, 1)),
		}),
	}
}

func TestDB_Scores(t *testing.T) {
	tests := []struct {
		name, caseID string
		want         string
	}{
		{"every case of the suite, and of no suite; not bank's; errors left out of the means", "",
			"cases a c b d; names x z w; run 0: case 1.5/2 x 1/2 z 1/1; run 1: case 3/4 w 0.5/1 x 2/3"},
		{"one case, each of its trials", "b",
			"cases a c b d; names z x; run 0: case 0.5/1 x 0/1 z 1/1; run 1: case 1/2 x 1/2"},
		{"a case no run has", "nope", "cases a c b d; names ; run 0: case 0/0; run 1: case 0/0"},
	}
	each(t, func(t *testing.T, dsn string) {
		h := open(t, dsn)
		ids := aggregateRuns(t, h)
		for _, tt := range tests {
			s, err := h.Scores(t.Context(), ids, "shop", tt.caseID)
			if err != nil {
				t.Fatal(err)
			}
			got := fmt.Sprintf("cases %s; names %s", strings.Join(s.Cases, " "), strings.Join(s.Names, " "))
			for i := range ids {
				got += fmt.Sprintf("; run %d: case %v/%d", i, s.Case[i].Sum, s.Case[i].N)
				for _, n := range []string{"w", "x", "y", "z"} {
					if m, ok := s.Evaluators[i][n]; ok {
						got += fmt.Sprintf(" %s %v/%d", n, m.Sum, m.N)
					}
				}
			}
			if got != tt.want {
				t.Errorf("%s:\n got %s\nwant %s", tt.name, got, tt.want)
			}
		}
	})
}

func TestDB_Verdicts(t *testing.T) {
	tests := []struct {
		name     string
		changing bool
		want     string
	}{
		{"every case, in order of first appearance, each by run", false,
			"4 cases: a@0 1/0/0, a@1 1/0/0, c@0 0/0/1, b@0 0/1/0, b@1 1/1/0, d@1 1/0/0"},
		{"the cases whose verdict changes: b fails, then its trials disagree", true,
			"4 cases: b@0 0/1/0, b@1 1/1/0"},
	}
	each(t, func(t *testing.T, dsn string) {
		h := open(t, dsn)
		ids := aggregateRuns(t, h)
		for _, tt := range tests {
			vs, total, err := h.Verdicts(t.Context(), ids, "shop", tt.changing)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, v := range vs {
				run := 0
				if v.Run == ids[1] {
					run = 1
				}
				got = append(got, fmt.Sprintf("%s@%d %d/%d/%d", v.ID, run, v.Pass, v.Fail, v.Errors))
			}
			if g := fmt.Sprintf("%d cases: %s", total, strings.Join(got, ", ")); g != tt.want {
				t.Errorf("%s:\n got %s\nwant %s", tt.name, g, tt.want)
			}
		}
	})
}

// TestDB_Scores_manyCases checks the evaluators of a run of more cases
// than a 32-bit place of an evaluator in its run holds (32,768 cases of
// 65,536 evaluators each).
func TestDB_Scores_manyCases(t *testing.T) {
	if testing.Short() {
		t.Skip("records 32,770 cases")
	}
	each(t, func(t *testing.T, dsn string) {
		h := open(t, dsn)
		rows := make([]trajeval.CaseResult, 32770)
		for i := range rows {
			rows[i] = trajeval.CaseResult{Suite: "shop", ID: fmt.Sprint(i), Status: trajeval.StatusPass, Score: 1, Evaluators: []trajeval.Result{}}
		}
		rows[len(rows)-1].Evaluators = []trajeval.Result{{Name: "x", Type: "contains", Status: trajeval.StatusPass, Score: 0.5, Threshold: 1, Weight: 1}}
		id := record(t, h, history.Run{Start: time.Now(), Suites: []string{"shop"}}, rows)
		s, err := h.Scores(t.Context(), []int64{id}, "shop", "")
		if err != nil {
			t.Fatal(err)
		}
		if m := s.Evaluators[0]["x"]; len(s.Cases) != len(rows) || m.N != 1 || m.Sum != 0.5 {
			t.Errorf("%d cases, x %+v; want %d cases, x 0.5 once", len(s.Cases), m, len(rows))
		}
	})
}
