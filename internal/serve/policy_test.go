package serve_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/serve"
)

func TestGlob(t *testing.T) {
	tests := []struct {
		pattern, text string
		want          bool
		reason        string
	}{
		{"checkout", "checkout", true, "a literal matches itself"},
		{"checkout", "Checkout", false, "case-sensitive"},
		{"billing-*", "billing-eu", true, "* matches a run"},
		{"billing-*", "billing-", true, "* matches nothing too"},
		{"billing-*", "xbilling-eu", false, "anchored at the start"},
		{"*-eu", "billing/v2-eu", true, "* crosses / and ."},
		{"a?c", "abc", true, "? matches one character"},
		{"a?c", "ac", false, "? needs one character"},
		{"ü?", "üß", true, "? is one character, not one byte"},
		{`a\*`, "a*", true, `\* is a literal star`},
		{`a\*`, "ab", false, `\* is not a wildcard`},
		{"*a*a*a*b", strings.Repeat("a", 40), false, "no exponential backtracking"},
		{"*", "", true, "* matches the empty value"},
		{"", "", true, "the empty pattern matches the empty value"},
		{"", "x", false, "and nothing else"},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			if got := serve.Glob(tt.pattern, tt.text); got != tt.want {
				t.Errorf("Glob(%q, %q) = %v, want %v", tt.pattern, tt.text, got, tt.want)
			}
		})
	}
}

func TestLoadPolicy_errors(t *testing.T) {
	tests := []struct {
		name, yaml, want string
	}{
		{"cases", "evalcases:\n  - id: a\n    evaluators: [{type: tool_error}]\n", "a policy has no cases"},
		{"traces file", "traces: t.jsonl\nexecution:\n  evaluators: [{type: tool_error}]\n", "not a traces file"},
		{"target", "execution:\n  target: bot\n  evaluators: [{type: tool_error}]\n", "runs no agent"},
		{"select not a map", "select: checkout\nexecution:\n  evaluators: [{type: tool_error}]\n", "select maps attribute keys"},
		{"empty select", "select: {}\nexecution:\n  evaluators: [{type: tool_error}]\n", "select is empty"},
		{"empty pattern list", "execution:\n  evaluators:\n    - type: tool_error\n      select: {service.name: []}\n", "matches nothing"},
		{"pattern not a string", "execution:\n  evaluators:\n    - type: tool_error\n      select: {service.name: {a: b}}\n", "a pattern is a string"},
		{"misspelt key beside select", "execution:\n  evaluators:\n    - type: tool_error\n      selct: {a: b}\n", `unknown key "selct"`},
		{"no evaluators", "name: x\n", "no cases"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "policy.yaml")
			if err := os.WriteFile(path, []byte(tt.yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := serve.LoadPolicy(path, nil)
			var se *trajeval.SpecError
			if !errors.As(err, &se) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want a SpecError with %q", err, tt.want)
			}
			if se.Line == 0 {
				t.Errorf("%v: no line", err)
			}
		})
	}
}

func ExampleLoadPolicy() {
	p, err := serve.LoadPolicy("testdata/select.yaml", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("policy", p.Name, "selects", p.Select)
	for _, ev := range p.Evaluators {
		fmt.Println(ev.Name, ev.Select)
	}
	// Output:
	// policy selected selects [{service.name [travel-* uipath-*]}]
	// errors []
	// travel [{gen_ai.agent.name [travel_*]}]
	// never [{gen_ai.agent.name [nobody]}]
}
