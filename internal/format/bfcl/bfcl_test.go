package bfcl_test

import (
	"testing"

	"github.com/trajeval/trajeval/internal/format/bfcl"
	"github.com/trajeval/trajeval/internal/format/formattest"
	"github.com/trajeval/trajeval/internal/trajeval"
)

var formats = []trajeval.Format{bfcl.Format}

func TestGolden(t *testing.T) { formattest.Golden(t, formats...) }

func TestDetect(t *testing.T) { formattest.Detect(t, formats...) }

func FuzzRead(f *testing.F) { formattest.Fuzz(f, formats, nil) }

func TestReadErrors(t *testing.T) {
	formattest.FailsAtLine(t, bfcl.Format, 1, "not json\n", "42\n")
}

func TestSniffRejects(t *testing.T) {
	formattest.SniffRejects(t, []string{
		`{"id": "simple_0", "ground_truth": [{"f": {"a": [1]}}]}`,
		`{"id": "simple_0", "question": [[{"role": "user", "content": "hi"}]], "function": []}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call"}`,
		`[{"role":"user","content":"hi"}]`,
	}, bfcl.Format)
}

func TestCalls(t *testing.T) {
	tests := []struct {
		name   string
		result any
		steps  int
		why    bool
		reason string
	}{
		{"list", []any{map[string]any{"f": map[string]any{}}}, 1, false, "a list of {name: args}"},
		{"json string", `[{"f": {}}, {"g": {}}]`, 2, false, "the list as a JSON string"},
		{"args as json", []any{map[string]any{"f": `{"a": 1}`}}, 1, false, "function-calling models give the arguments as JSON text"},
		{"empty", []any{}, 0, false, "no call is a valid answer"},
		{"python syntax", "[f(a=1), mod.g(b='x')]", 2, false, "a prompting model's Python calls are decoded"},
		{"bare python call", "f(a=1)", 1, false, "BFCL adds the brackets"},
		{"python text", "I cannot call tools.", 0, true, "text that is not calls"},
		{"two keys", []any{map[string]any{"f": map[string]any{}, "g": map[string]any{}}}, 0, true, "one function per call"},
		{"args not object", []any{map[string]any{"f": "x"}}, 0, true, "the arguments must be an object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			steps, _, why := bfcl.Calls(tt.result)
			if len(steps) != tt.steps || (why != "") != tt.why {
				t.Errorf("Calls: %d steps, why %q; want %d steps, why given %v: %s", len(steps), why, tt.steps, tt.why, tt.reason)
			}
		})
	}
}
