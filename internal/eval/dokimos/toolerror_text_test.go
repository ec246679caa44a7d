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
// keeps it and decoded, with and without a pattern: the outcomes must be
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
		kept, decoded := score(json.RawMessage(text)), score(v)
		if kept != decoded {
			t.Errorf("pattern %q, result %s:\nkept text: %s\ndecoded:   %s", pattern, text, kept, decoded)
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
