package builtin_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval/builtin"
	"github.com/trajeval/trajeval/internal/eval/spec"
)

// TestBuildList_everyError: an evaluator that finds several mistakes in
// its list reports each at its place, not only the first.
func TestBuildList_everyError(t *testing.T) {
	var rules strings.Builder
	for i := range 12 {
		fmt.Fprintf(&rules, "      - never: {tool: t%d, args: {x: {$regx: a}}}\n", i)
	}
	tests := []struct {
		name   string
		yaml   string
		want   []string // a part of each error, in order
		reason string
	}{
		{"expected calls", `- type: tool_trajectory
  expected:
    - {tool: a, args: {q: {$regx: a}}}
    - b
    - {tool: c, arg: {}}
    - any_order: [{tool: d, args: {x: {$approx: "1"}}}]
`, []string{
			"s.yaml:3:28: [0].expected[0].args.q: unknown operator $regx",
			`s.yaml:5:17: [0].expected[2].arg: unknown key "arg"`,
			"s.yaml:6:49: [0].expected[3].any_order[0].args.x.$approx: $approx needs a number",
		}, "each bad expected call, nested ones too"},
		{"rules", `- type: tool_rules
  rules:
    - never: {tool: a, args: {x: {$regx: a}}}
    - {nevr: b}
    - never: a
    - {name: n, never: b}
    - {name: n, never: c}
`, []string{
			"s.yaml:3:35: [0].rules[0].never.args.x: unknown operator $regx",
			`s.yaml:4:8: [0].rules[1].nevr: unknown rule "nevr"`,
			`s.yaml:7:14: [0].rules[4].name: two rules are named "n"`,
		}, "a rule that does not read, one that does not compile and a repeated name, each at its place"},
		{"bounded", "- type: tool_rules\n  rules:\n" + strings.ReplaceAll(rules.String(), "      -", "    -"), []string{
			"[0].rules[0].never.args.x", "[0].rules[1].never", "[0].rules[2].never", "[0].rules[3].never", "[0].rules[4].never",
			"[0].rules[5].never", "[0].rules[6].never", "[0].rules[7].never", "[0].rules[8].never", "[0].rules[9].never",
			"s.yaml:13:37: [0].rules[10].never.args.x: and 2 more errors from here on in this list, not shown",
		}, "the first ten, then how many more"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, err := config.Parse("s.yaml", []byte(tt.yaml))
			if err != nil {
				t.Fatal(err)
			}
			_, errs := spec.BuildList(root, &spec.Env{Types: builtin.Types()}, map[string]*config.Node{})
			if len(errs) != len(tt.want) {
				t.Fatalf("%d errors, want %d: %s\n%v", len(errs), len(tt.want), tt.reason, errs)
			}
			for i, e := range errs {
				if !strings.Contains(e.Error(), tt.want[i]) {
					t.Errorf("error %d = %q, want it to contain %q: %s", i, e, tt.want[i], tt.reason)
				}
			}
		})
	}
}
