package dokimos_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/eval/dokimos"
	"github.com/trajeval/trajeval/internal/jsonv"
)

// toolErrorText scores one step whose result is text, kept as a reader
// keeps it (a *json.RawMessage), as a json.RawMessage and decoded, with and without a pattern: the outcomes must be
// the same. Without a pattern, tool_error reads only the member "error"
// of the text.
func toolErrorText(t *testing.T, text string) {
	t.Helper()
	v, err := jsonv.Decode([]byte(text))
	if err != nil {
		t.Skip("not JSON: a reader keeps only valid text")
	}
	switch v.(type) {
	case map[string]any, []any:
	default:
		t.Skip("a reader keeps only objects and arrays")
	}
	for _, pattern := range []string{"", "(?i)denied"} {
		e, err := dokimos.NewToolError(true, pattern)
		if err != nil {
			t.Fatal(err)
		}
		score := func(result any) string {
			tr := &trajeval.Trajectory{Steps: []trajeval.Step{{Index: 1, Name: "a", Result: result}}}
			out, err := e.Evaluate(context.Background(), tr)
			if err != nil {
				return "error: " + err.Error()
			}
			b, _ := json.Marshal(out)
			return string(b)
		}
		raw := json.RawMessage(text)
		kept, decoded := score(&raw), score(v)
		if kept != decoded {
			t.Errorf("pattern %q, result %s:\nkept text: %s\ndecoded:   %s", pattern, text, kept, decoded)
		}
		if byHand := score(raw); byHand != decoded {
			t.Errorf("pattern %q, result %s:\na json.RawMessage: %s\ndecoded:   %s", pattern, text, byHand, decoded)
		}
	}
}

func TestToolError_Evaluate_text(t *testing.T) {
	tests := []struct {
		name, text, reason string
	}{
		{"no error", `{"ok": true}`, "no member error: nothing is decoded"},
		{"error", `{"ok": false, "error": {"code": 403, "msg": "denied"}}`, "the member's value is shown as decoding shows it"},
		{"null error", `{"error": null}`, "a null error is no error"},
		{"repeated", `{"error": "first", "error": null}`, "the last of repeated keys counts, as decoding keeps it"},
		{"repeated again", `{"error": null, "error": "second"}`, "the last of repeated keys counts, as decoding keeps it"},
		{"escaped key", `{"\u0065rror": "x"}`, "an escaped key is the key it spells"},
		{"nested", `{"data": {"error": "inner"}}`, "only a top-level member counts"},
		{"array", `[{"error": "x"}]`, "an array has no error member"},
		{"in a string", `{"msg": "\"error\": nothing"}`, "the bytes \"error\" inside a string are no key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { toolErrorText(t, tt.text) })
	}
}

func FuzzToolError_Evaluate_text(f *testing.F) {
	for _, s := range []string{`{"ok": true}`, `{"error": null, "error": "x"}`, `{"\u0065rror": [1e400, -0]}`, `[{"error": 1}]`, `{"a": {"error": 1}}`, `{ "error" : "denied" }`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) { toolErrorText(t, text) })
}

// TestToolError_Evaluate_textNone: a result that is text other than an
// object or array (put in a step by hand: a reader keeps no other), and a
// nil *json.RawMessage, count as their values do, with treat_blank_as_error.
func TestToolError_Evaluate_textNone(t *testing.T) {
	nilText := (*json.RawMessage)(nil)
	tests := []struct {
		name   string
		text   any
		value  any
		reason string
	}{
		{"nil pointer", nilText, nil, "a nil *json.RawMessage is no result, and the trace reports none"},
		{"null", json.RawMessage(`null`), nil, "the text null is no result"},
		{"blank string", json.RawMessage(`"  "`), "  ", "a blank string is no result"},
		{"string with an error", json.RawMessage(`"{\"error\": \"denied\"}"`), `{"error": "denied"}`, "a string holding an object with an error member"},
		{"number", json.RawMessage(` 42 `), json.Number("42"), "a result"},
	}
	e, err := dokimos.NewToolError(true, "")
	if err != nil {
		t.Fatal(err)
	}
	score := func(result any) string {
		tr := &trajeval.Trajectory{Steps: []trajeval.Step{{Index: 1, Name: "a", Result: result}, {Index: 2, Name: "b", Result: result}}}
		out, err := e.Evaluate(context.Background(), tr)
		if err != nil {
			return "error: " + err.Error()
		}
		b, _ := json.Marshal(out)
		return string(b)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, want := score(tt.text), score(tt.value); got != want {
				t.Errorf("text: %s\nvalue: %s\n%s", got, want, tt.reason)
			}
		})
	}
}
