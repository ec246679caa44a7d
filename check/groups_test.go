package check_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/check"
)

func TestGroup_settingErrors(t *testing.T) {
	tests := []struct {
		name   string
		ev     trajeval.Evaluator
		want   string
		reason string
	}{
		{"any_order mode", check.AnyOrder(check.Optional(check.Call("a"))), "only scored in in_order and exact modes, not any_order", "AnyOrder ignores order: a group would mean nothing new"},
		{"subset mode", check.Subset(check.Repeat(check.Call("a"), 1, 2)), "not subset", "an allow-list has no count"},
		{"other evaluator", check.ToolCallOrder(check.Unordered(check.Call("a"), check.Call("b"))), "takes no groups", "UiPath's order has no groups"},
		{"nil entry", check.InOrder(check.Either(check.Call("a"), nil)), "expected[0].one_of[1]: a nil entry", "placed by its path"},
		{"min above max", check.InOrder(check.Repeat(check.Call("a"), 3, 2)), "expected[0].repeat: min 3 is above max 2", "no count satisfies both"},
		{"max zero", check.InOrder(check.Repeat(check.Call("a"), 0, 0)), "max must be at least 1", "Unbounded is -1, not 0"},
		{"empty group", check.InOrder(check.Unordered()), "an empty any_order group", "a group of nothing"},
		{"bad call inside", check.InOrder(check.Optional(check.Call(""))), "empty tool name", "calls inside groups are checked too"},
		{"returns inside", check.InOrder(check.Optional(check.Call("a", check.Returns(1)))), "does not compare results", "a setting never ignored, even nested"},
		{"too many", check.InOrder(check.Unordered(calls(13)...)), "at most 12", "2^13 sets of entries"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := check.Validate(tc.ev)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, check.ErrSetting) {
				t.Fatalf("Validate: %v, want an ErrSetting containing %q: %s", err, tc.want, tc.reason)
			}
			if _, err := tc.ev.Evaluate(context.Background(), nil); err == nil {
				t.Fatal("Evaluate ran an evaluator with a setting error")
			}
		})
	}
}

func calls(n int) []check.Entry {
	out := make([]check.Entry, n)
	for i := range out {
		out[i] = check.Call(string(rune('a' + i)))
	}
	return out
}
