package trajeval_test

import (
	"testing"

	"github.com/trajeval/trajeval"
)

// TestResult_Explain pins the text report's explanation of a result: the
// headline, the rows of expected calls (numbers right-aligned in two
// columns, tool names padded to 28 characters however many bytes they
// take), a near miss in place of its item's row and out of the extra
// steps, a missing call's other near steps, checks and warnings.
func TestResult_Explain(t *testing.T) {
	details := &trajeval.Details{
		Mode: "in_order", Hits: 2, Expected: 11, Actual: 14,
		Matched: []trajeval.Pair{{Item: 1, Step: 1, Tool: "search"}, {Item: 11, Step: 14, Tool: "résumé_lookup"}},
		Missing: []trajeval.Missing{
			{Item: 2, Tool: "book", Near: []trajeval.NearMiss{{Step: 3, Tool: "book", Diffs: []trajeval.ArgDiff{{Path: "args.city", Want: `"NYC"`, Got: `"LA"`}}}}},
			{Item: 3, Tool: "pay", Near: []trajeval.NearMiss{{Step: 5, Tool: "payment", Why: "a close name"}}},
		},
		Extra:    []trajeval.Extra{{Step: 2, Tool: "grep"}, {Step: 3, Tool: "book"}, {Step: 5, Tool: "payment"}},
		Checks:   []trajeval.Check{{Name: "latency of search", Status: "pass"}, {Name: "max tool calls", Status: "fail", Message: "14 > 10"}},
		Warnings: []string{"two steps share an id"},
	}
	tests := []struct {
		name   string
		r      trajeval.Result
		want   string
		reason string
	}{
		{"failing with details", trajeval.Result{Name: "route", Type: "tool_trajectory", Status: trajeval.StatusFail, Score: 2.0 / 11, Threshold: 0.5, Required: true, Turn: 2, Details: details}, "✗ turn 2: route  tool_trajectory in_order  0.18 < 0.50\n" +
			"    expected 11, actual 14, matched 2\n" +
			"       1 search                       ✓ step 1 search\n" +
			"       2 book                         ✗ near miss: step 3 book, args.city: expected \"NYC\", got \"LA\"\n" +
			"       3 pay                          ✗ missing\n" +
			"      11 résumé_lookup                ✓ step 14 résumé_lookup\n" +
			"         call 3 pay, near step 5 payment: a close name\n" +
			"    extra steps: 2 grep, 5 payment\n" +
			"    pass latency of search\n" +
			"    fail max tool calls: 14 > 10\n" +
			"    warning: two steps share an id\n",
			"every part of the explanation of a failing result"},
		{"passing, not required", trajeval.Result{Name: "tool_trajectory", Type: "tool_trajectory", Status: trajeval.StatusPass, Score: 1, Details: &trajeval.Details{Warnings: []string{"w"}}}, "✓ tool_trajectory  1.00  (not required)\n    warning: w\n",
			"a passing result is its headline and its warnings; a name equal to its type is said once"},
		{"error", trajeval.Result{Name: "judge", Type: "llm_judge", Status: trajeval.StatusError, Required: true, Error: "no answer\nafter 3 tries"}, "! judge  llm_judge  0.00\n    error: no answer\n           after 3 tries\n",
			"an error's lines hang under its first"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.r.Explain(); got != tt.want {
				t.Errorf("Explain:\n%s\nwant:\n%s\n(%s)", got, tt.want, tt.reason)
			}
		})
	}
}
