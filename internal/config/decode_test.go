package config_test

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/trajeval/trajeval/internal/config"
)

// names is a setting written as one word or a list of words: the hook.
type names []string

func (s *names) UnmarshalConfig(n *config.Node) error {
	v, err := n.Strings()
	*s = v
	return err
}

type inner struct {
	Tool  string `config:"tool,name,required"`
	Limit *float64
}

type common struct {
	Label string
}

type settings struct {
	common
	Mode     string            `config:"mode" enum:"any_order,in_order,exact"`
	MaxCalls int               `config:"max_calls,nonnegative"`
	Ratio    float64           `config:"ratio"`
	Strict   bool              `config:"strict"`
	Timeout  time.Duration     `config:"timeout"`
	Opt      *bool             `config:"opt"`
	Calls    []inner           `config:"calls"`
	Minimums map[string]int    `config:"minimums,nonnegative"`
	Tools    names             `config:"tools"`
	Extra    any               `config:"extra"`
	Raw      *config.Node      `config:"raw"`
	Tags     map[string]string `config:"tags"`
	Hidden   string            `config:"-"`
}

func TestDecode(t *testing.T) {
	src := `label: l
mode: IN-ORDER
maxCalls: 3
ratio: 0.5
strict: true
timeout: 1m30s
calls:
  - {tool: 2fa, limit: 100}
  - {tool: b}
minimums: {Read: 2, read_file: 1}
tools: one
extra: {a: [1, x]}
raw: [1, 2]
type: custom
`
	got := settings{Mode: "any_order", MaxCalls: 7, Hidden: "kept"}
	if err := config.Decode(mustParse(t, src), &got, "type"); err != nil {
		t.Fatal(err)
	}
	limit := 100.0
	want := settings{
		common:   common{Label: "l"},
		Mode:     "in_order",
		MaxCalls: 3, Ratio: 0.5, Strict: true, Timeout: 90 * time.Second,
		Calls:    []inner{{Tool: "2fa", Limit: &limit}, {Tool: "b"}},
		Minimums: map[string]int{"Read": 2, "read_file": 1},
		Tools:    names{"one"},
		Hidden:   "kept",
	}
	extra, raw := got.Extra, got.Raw
	got.Extra, got.Raw = nil, nil
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Decode =\n%+v, want\n%+v", got, want)
	}
	if m, ok := extra.(map[string]any); !ok || len(m["a"].([]any)) != 2 {
		t.Errorf("extra = %#v, want the value in the JSON data model", extra)
	}
	if raw == nil || raw.Kind != config.List || raw.Line != 13 {
		t.Errorf("raw = %+v, want the list node of line 13", raw)
	}
	if got.Opt != nil {
		t.Errorf("opt = %v, want nil: an absent key leaves a pointer unset", *got.Opt)
	}
}

func TestDecode_errors(t *testing.T) {
	tests := []struct {
		name, src, want, reason string
	}{
		{"unknown key", "mod: exact", `f.yaml:1:1: mod: unknown key "mod" (did you mean "mode"?)`, "a misspelt key gets the closest key"},
		{"unknown far", "zzzzzzzz: 1", `unknown key "zzzzzzzz" (allowed: `, "no close key: the list"},
		{"repeated spelling", "max_calls: 1\nmaxCalls: 2", `f.yaml:2:1: maxCalls: key "maxCalls" repeats "max_calls"`, "two spellings of one key"},
		{"enum", "mode: inorder", `f.yaml:1:7: mode: unknown value "inorder" (did you mean "in_order"?)`, "a close enum word"},
		{"enum kind", "mode: 3", `expected a string, got number 3`, "an enum is a string"},
		{"negative", "max_calls: -1", `f.yaml:1:12: max_calls: must not be negative, got -1`, "nonnegative option"},
		{"fraction", "max_calls: 1.5", `expected a whole number, got 1.5`, "an int takes whole numbers"},
		{"bool", "strict: yes please", `expected true or false, got the string "yes please"`, "a bool is true or false"},
		{"duration unit", "timeout: 5", `expected a duration such as 250ms or 1m30s, got number 5`, "a bare number has no unit"},
		{"duration text", "timeout: soon", `invalid duration "soon" (write a number with a unit`, "an unparsable duration"},
		{"nested unknown", "calls:\n  - {tool: a}\n  - {tol: b}", `f.yaml:3:6: calls[1].tol: unknown key "tol" (did you mean "tool"?)`, "positions inside lists"},
		{"nested required", "calls:\n  - {limit: 1}", `f.yaml:2:6: calls[0]: missing tool (add tool: …)`, "a required key"},
		{"list kind", "calls: a", `expected a list, got the string "a"`, "a slice takes a list"},
		{"map kind", "minimums: [a]", `expected a map, got a list`, "a map takes a map"},
		{"map value", "minimums: {Read: -2}", `minimums.Read: must not be negative, got -2`, "options apply to map values"},
		{"hook error", "tools: {a: 1}", `tools: expected a list, got a map`, "the hook's error keeps its place"},
		{"not a map", "[1]", `expected a map, got a list`, "settings are a map"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var s settings
			err := config.Decode(mustParse(t, tc.src), &s)
			if err == nil {
				t.Fatalf("no error, want %q: %s", tc.want, tc.reason)
			}
			specErr(t, err)
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q, want it to contain %q: %s", err, tc.want, tc.reason)
			}
		})
	}
}

func TestDecode_notAStruct(t *testing.T) {
	var n int
	if err := config.Decode(mustParse(t, "a: 1"), &n); err == nil {
		t.Error("no error for a pointer to an int: Decode takes a pointer to a struct")
	}
}

func TestKeys(t *testing.T) {
	got := config.Keys(reflect.TypeFor[inner]())
	if want := []string{"tool", "limit"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Keys = %v, want %v: tags first, else the name in snake_case", got, want)
	}
}

// FuzzDecode checks Decode on any parsed input: it never panics, and an
// error is a SpecError (matching ErrConfig) placed inside the input.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		"mode: in_order\nmax_calls: 2\ncalls: [{tool: a, limit: 1}]\n", "minimums: {a: 1}\ntools: [a, b]\n",
		"timeout: 1s\nextra: {x: [1]}\nraw: ~\nopt: null\n", "calls: [{}]\n", "tags: {a: 1}\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		n, err := config.Parse("f.yaml", []byte(src))
		if err != nil {
			return
		}
		var s settings
		err = config.Decode(n, &s, "type")
		if err == nil {
			return
		}
		se := specErr(t, err)
		if se.File != "f.yaml" {
			t.Errorf("error %v names file %q, want f.yaml", err, se.File)
		}
		if lines := strings.Count(src, "\n") + strings.Count(src, "\r") + 1; se.Line < 1 || se.Line > lines {
			t.Errorf("error %v at line %d, outside the input's %d lines", err, se.Line, lines)
		}
	})
}
