package builtin_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval"
	"github.com/trajeval/trajeval/internal/eval/builtin"
	"github.com/trajeval/trajeval/internal/eval/spec"
)

func buildYAML(t *testing.T, src string) (*eval.Configured, error) {
	t.Helper()
	root, err := config.Parse("suite.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return spec.Build(root, &spec.Env{Types: builtin.Types()})
}

func TestToolRules_config(t *testing.T) {
	tests := []struct {
		name   string
		yaml   string
		want   string // the error, file:line:col first
		reason string
	}{
		{"unknown rule", "type: tool_rules\nrules:\n  - nevr: delete\n",
			`suite.yaml:3:5: rules[0].nevr: unknown rule "nevr" (did you mean "never"?)`, "the closest kind is suggested"},
		{"two kinds", "type: tool_rules\nrules:\n  - never: a\n    first: b\n",
			"suite.yaml:4:5: rules[0].first: a rule has one kind, this one has never and first (write one rule per check)", "one check per rule"},
		{"no kind", "type: tool_rules\nrules:\n  - name: x\n",
			"suite.yaml:3:5: rules[0]: the rule says nothing to check (give one of never, at_most, at_least, exactly, before, after, immediately_after, within, first, last, no_repeat, pattern)", "a name alone checks nothing"},
		{"empty name", "type: tool_rules\nrules:\n  - {name: \"\", never: a}\n",
			"suite.yaml:3:12: rules[0].name: the rule's name is empty (name the check, or leave name out and the rule names it, e.g. never delete)", "an empty name would name no check"},
		{"same name twice", "type: tool_rules\nrules:\n  - {name: x, never: a}\n  - {name: x, never: b}\n",
			`suite.yaml:4:12: rules[1].name: two rules are named "x" (a name tells a rule's check from the others in reports: give each its own)`, "reports could not tell the two checks apart"},
		{"no rules", "type: tool_rules\nrules: []\n",
			"suite.yaml:2:8: rules: rules is empty (list at least one rule, e.g. never: delete)", "nothing to check is not a pass"},
		{"missing rules", "type: tool_rules\n",
			"suite.yaml:1:1: missing rules (add rules: …)", "rules is required"},
		{"pattern syntax", "type: tool_rules\nrules:\n  - pattern: \"search+ read)\"\n",
			"suite.yaml:3:27: rules[0].pattern: pattern: unexpected ')' at column 13 (items are tool names separated by spaces, with . | ( ) * + ? {m,n})", "the column of the character in the file"},
		{"pattern syntax, plain", "type: tool_rules\nrules:\n  - pattern: (a b\n",
			"suite.yaml:3:14: rules[0].pattern: pattern: unclosed '(' at column 1 (items are tool names separated by spaces, with . | ( ) * + ? {m,n})", "a plain scalar maps too"},
		{"pattern escaped", "type: tool_rules\nrules:\n  - pattern: \"a\\tb)\"\n",
			"suite.yaml:3:14: rules[0].pattern: pattern: unexpected ')' at column 4 (items are tool names separated by spaces, with . | ( ) * + ? {m,n})", "with an escape the file column is unknown: the string's own place"},
		{"empty pattern", "type: tool_rules\nrules:\n  - pattern: \"  \"\n",
			`suite.yaml:3:14: rules[0].pattern: the pattern is empty (e.g. pattern: "search+ read_document{2,} synthesize")`, "nothing to match"},
		{"negative", "type: tool_rules\nrules:\n  - at_most: {search: -1}\n",
			"suite.yaml:3:23: rules[0].at_most.search: a count must not be negative, got -1", "a count ≥ 0"},
		{"negative long form", "type: tool_rules\nrules:\n  - at_least: {tool: search, args: {q: x}, n: -2}\n",
			"suite.yaml:3:47: rules[0].at_least.n: a count must not be negative, got -2", "a count ≥ 0, long form"},
		{"two tools in a count", "type: tool_rules\nrules:\n  - exactly: {a: 1, b: 2}\n",
			"suite.yaml:3:21: rules[0].exactly.b: exactly takes one tool, this one has a and b (write one rule per tool)", "one rule per tool"},
		{"count without n", "type: tool_rules\nrules:\n  - at_most: {tool: search}\n",
			"suite.yaml:3:15: rules[0].at_most: at_most has no count (add n: COUNT)", "the long form needs n"},
		{"within 0", "type: tool_rules\nrules:\n  - within: {after: error, then: retry, steps: 0}\n",
			"suite.yaml:3:48: rules[0].within.steps: within.steps must be at least 1, got 0 (1 is the next step)", "a window of no steps"},
		{"within missing", "type: tool_rules\nrules:\n  - within: {after: error, steps: 1}\n",
			"suite.yaml:3:14: rules[0].within: within has no then (within is {after: A, then: B, steps: n})", "within needs B"},
		{"before not a pair", "type: tool_rules\nrules:\n  - before: [a, b, c]\n",
			"suite.yaml:3:13: rules[0].before: before is a list of two tools, got 3 items ([A, B]: every B has an A earlier)", "before is [A, B]"},
		{"before a string", "type: tool_rules\nrules:\n  - before: a\n",
			"suite.yaml:3:13: rules[0].before: before is a list of two tools, got string ([A, B]: every B has an A earlier)", "before is [A, B]"},
		{"unknown tool key", "type: tool_rules\nrules:\n  - never: {tool: delete, arg: {force: true}}\n",
			`suite.yaml:3:27: rules[0].never.arg: unknown key "arg" (did you mean "args"?)`, "a misspelt key of a tool"},
		{"bad operator", "type: tool_rules\nrules:\n  - never: {tool: delete, args: {path: {$regex: \"(\"}}}\n",
			"suite.yaml:3:49: rules[0].never.args.path.$regex: invalid regular expression: error parsing regexp: missing closing ): `(`", "an argument operator is placed at its value"},
		{"where unused", "type: tool_rules\nrules:\n  - pattern: a+\n    where: {b: {args: {x: 1}}}\n",
			`suite.yaml:4:17: rules[0].where.b: where names "b", which the pattern does not use (a where key is an item of the pattern)`, "a condition on nothing"},
		{"where on never", "type: tool_rules\nrules:\n  - never: a\n    where: {a: {args: {x: 1}}}\n",
			"suite.yaml:4:13: rules[0].where: never takes no where: only a pattern has items (give the tool its args, e.g. never: {tool: NAME, args: {...}})", "where is a pattern's"},
		{"not a map", "type: tool_rules\nrules:\n  - never\n",
			"suite.yaml:3:5: rules[0]: a rule is a map such as {never: delete}, got string (one of never, at_most, at_least, exactly, before, after, immediately_after, within, first, last, no_repeat, pattern)", "a rule is a map"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := buildYAML(t, tt.yaml)
			if err == nil {
				t.Fatalf("no error; want %s: %s", tt.want, tt.reason)
			}
			if !errors.Is(err, trajeval.ErrConfig) {
				t.Errorf("%v is not a configuration error", err)
			}
			if err.Error() != tt.want {
				t.Errorf("error:\n got %s\nwant %s\n(%s)", err, tt.want, tt.reason)
			}
		})
	}
}

func TestToolRules_run(t *testing.T) {
	c, err := buildYAML(t, `type: tool_rules
per_turn: true
case_insensitive: true
rules:
  - never: {tool: delete, args: {force: true}}
  - at_most: {search: 1}
  - at_least: {tool: read, args: {id: {$type: integer}}, n: 1}
  - exactly: {answer: 1}
  - before: [search, {tool: read}]
  - after: [read, answer]
  - immediately_after: [auth, pay]
  - within: {after: read, then: answer, steps: 2}
  - first: search
  - last: answer
  - no_repeat: read
  - name: shape
    pattern: "search read+ small answer"
    where: {small: {tool: pay, args: {amount: {$lt: 100}}}}
`)
	if err != nil {
		t.Fatal(err)
	}
	tr := &trajeval.Trajectory{Steps: []trajeval.Step{
		{Index: 1, Turn: 1, Name: "search"},
		{Index: 2, Turn: 1, Name: "read", Args: map[string]any{"id": jsonNumber("1")}},
		{Index: 3, Turn: 1, Name: "pay", Args: map[string]any{"amount": jsonNumber("50")}},
		{Index: 4, Turn: 1, Name: "answer"},
	}}
	r := c.Run(context.Background(), tr)
	if r.Status != trajeval.StatusFail || r.Details == nil || len(r.Details.Checks) != 12 {
		t.Fatalf("got %+v", r)
	}
	// Only immediately_after breaks: pay follows read, not auth.
	for i, ch := range r.Details.Checks {
		if want := i != 6; (ch.Status == trajeval.CheckPass) != want {
			t.Errorf("rule %d %s: %s %s", i+1, ch.Name, ch.Status, ch.Message)
		}
	}
	if got, want := r.Details.Checks[6].Message, "turn 1: step 3 (turn 1) pay {\"amount\":50}: right after step 2 (turn 1) read {\"id\":1}, not auth"; got != want {
		t.Errorf("message %q, want %q", got, want)
	}
	if r.Details.Checks[11].Name != "shape" {
		t.Errorf("a rule's name names its check, got %q", r.Details.Checks[11].Name)
	}
	if want := 11.0 / 12; r.Score != want {
		t.Errorf("score %v, want %v", r.Score, want)
	}
}

func jsonNumber(s string) any { return json.Number(s) }
