package bfcl_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/bfcl"
	"github.com/trajeval/trajeval/internal/format/formattest"
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
		{"json string", `[{"f": {}}, {"g": {}}]`, 0, true, "the list written as a JSON string: no BFCL decoder reads it (its prompting decoder finds dicts, not calls)"},
		{"empty json string", `[]`, 0, false, "[] is no call to BFCL's prompting decoder as well"},
		{"tuple", "[f(floors=(2, 3, 4))]", 0, true, "BFCL keeps a Python tuple, which has no JSON form: the text is kept for the checker"},
		{"repeated keyword", "[f(time=31, time=30)]", 1, false, "BFCL's decoder keeps the last value of a repeated keyword"},
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
			steps, notes, why := bfcl.Calls(tt.result)
			t.Logf("notes %q, why %q", notes, why)
			if len(steps) != tt.steps || (why != "") != tt.why {
				t.Errorf("Calls: %d steps, why %q; want %d steps, why given %v: %s", len(steps), why, tt.steps, tt.why, tt.reason)
			}
		})
	}
}

func TestCalls_repeatedKeyword(t *testing.T) {
	steps, notes, why := bfcl.Calls("[f(time=31, b=1, time=30)]")
	if why != "" || len(steps) != 1 {
		t.Fatalf("Calls: %d steps, why %q; want one step", len(steps), why)
	}
	if got := steps[0].Args.(map[string]any)["time"]; fmt.Sprint(got) != "30" {
		t.Errorf("time = %v, want 30: BFCL's decoder (Python's ast.parse into a dict) keeps the last value", got)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "time more than once") {
		t.Errorf("notes = %q, want one warning about time", notes)
	}
}

func TestRead_javaText(t *testing.T) {
	in := `{"id": "simple_java_0", "result": "[f(n=5)]"}` + "\n" + `{"id": "simple_javascript_1", "result": [{"f": {"n": "5"}}]}` + "\n"
	var got []*trajeval.Trajectory
	err := bfcl.Format.Read(context.Background(), trajeval.Input{Name: "r.jsonl", R: strings.NewReader(in), Warn: func(trajeval.Warning) {}}, func(tr *trajeval.Trajectory) error {
		got = append(got, tr)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || len(got[0].Steps) != 0 || got[0].Turns[0].FinalResponse == nil {
		t.Fatalf("the Java text result has %d steps, want none and its text kept: BFCL reads Java text with tree-sitter, not as Python", len(got[0].Steps))
	}
	if len(got[1].Steps) != 1 {
		t.Errorf("the JavaScript decoded calls have %d steps, want 1", len(got[1].Steps))
	}
}
