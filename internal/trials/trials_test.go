package trials_test

import (
	"math"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/trials"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

func TestPassAtK(t *testing.T) {
	tests := []struct {
		name    string
		n, c, k int
		want    float64
		reason  string
	}{
		{"all pass", 5, 5, 1, 1, "every draw passes"},
		{"none pass", 5, 0, 3, 0, "no draw can pass"},
		{"k=1 is the rate", 10, 3, 1, 0.3, "pass@1 is the pass rate"},
		{"n=5 c=2 k=2", 5, 2, 2, 1 - 3.0/10, "1 − C(3,2)/C(5,2) = 1 − 3/10"},
		{"too few failures to fill k", 4, 3, 2, 1, "n−c < k: any draw of 2 holds a pass"},
		{"k=n", 4, 1, 4, 1, "drawing all trials includes the pass"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := trials.PassAtK(tt.n, tt.c, tt.k); !near(got, tt.want) {
				t.Errorf("PassAtK(%d, %d, %d) = %v, want %v: %s", tt.n, tt.c, tt.k, got, tt.want, tt.reason)
			}
		})
	}
	for _, bad := range [][3]int{{3, 1, 0}, {3, 1, 4}, {3, 4, 1}, {3, -1, 1}} {
		if got := trials.PassAtK(bad[0], bad[1], bad[2]); !math.IsNaN(got) {
			t.Errorf("PassAtK%v = %v, want NaN: no estimate outside 1 ≤ k ≤ n, 0 ≤ c ≤ n", bad, got)
		}
	}
}

func TestPassHatK(t *testing.T) {
	tests := []struct {
		name    string
		n, c, k int
		want    float64
		reason  string
	}{
		{"all pass", 4, 4, 4, 1, "every draw passes"},
		{"k=1 is the rate", 8, 6, 1, 0.75, "pass^1 is the pass rate"},
		{"n=5 c=3 k=2", 5, 3, 2, 3.0 / 10, "C(3,2)/C(5,2) = 3/10"},
		{"fewer passes than k", 5, 1, 2, 0, "two passing draws need two passes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := trials.PassHatK(tt.n, tt.c, tt.k); !near(got, tt.want) {
				t.Errorf("PassHatK(%d, %d, %d) = %v, want %v: %s", tt.n, tt.c, tt.k, got, tt.want, tt.reason)
			}
		})
	}
}

func TestGroup(t *testing.T) {
	rows := []trajeval.CaseResult{
		{Suite: "s", ID: "a", Status: trajeval.StatusPass, Score: 1, Attempt: 1},
		{Suite: "s", ID: "b", Status: trajeval.StatusFail, Score: 0.5, Attempt: 1},
		{Suite: "s", ID: "a", Status: trajeval.StatusFail, Score: 0.5, Attempt: 2},
		{Suite: "other", ID: "a", Status: trajeval.StatusError, Attempt: 1},
		{Suite: "s", ID: "b", Status: trajeval.StatusFail, Score: 0.5, Attempt: 2},
	}
	got := trials.Group(rows)
	if len(got) != 3 {
		t.Fatalf("%d cases, want 3: the same id in two suites is two cases", len(got))
	}
	a, b, other := got[0], got[1], got[2]
	if a.ID != "a" || a.Suite != "s" || a.Trials != 2 || a.Passed != 1 || !a.Flaky() || a.PassRate() != 0.5 {
		t.Errorf("case a = %+v: 2 trials, 1 pass, flaky", a)
	}
	if !near(a.Mean(), 0.75) || !near(a.StdDev(), 0.25) {
		t.Errorf("a: mean %v, spread %v; want 0.75 and 0.25", a.Mean(), a.StdDev())
	}
	if lo, hi := a.Range(); lo != 0.5 || hi != 1 {
		t.Errorf("a: range %v..%v, want 0.5..1", lo, hi)
	}
	if b.Flaky() || b.Passed != 0 {
		t.Errorf("case b = %+v: always failing is not flaky", b)
	}
	if other.Errors != 1 || other.Suite != "other" {
		t.Errorf("case other = %+v: one error, in suite other", other)
	}
}

func TestWilson(t *testing.T) {
	lo, hi := trials.Wilson(0, 0, 1.96)
	if lo != 0 || hi != 1 {
		t.Errorf("no trials: [%v, %v], want [0, 1]", lo, hi)
	}
	lo, hi = trials.Wilson(10, 10, 1.96)
	if hi != 1 || lo < 0.69 || lo > 0.73 {
		t.Errorf("10 of 10: [%v, %v], want about [0.72, 1]: all passes still leave doubt", lo, hi)
	}
	lo, hi = trials.Wilson(5, 10, 1.96)
	if !near(lo+hi, 1) || lo < 0.23 || lo > 0.24 {
		t.Errorf("5 of 10: [%v, %v], want symmetric about 0.5, lower bound about 0.237", lo, hi)
	}
}
