package shape_test

import (
	"slices"
	"testing"

	"github.com/trajeval/trajeval/internal/jsonschema"
	"github.com/trajeval/trajeval/internal/shape"
)

func TestSpellings(t *testing.T) {
	tests := []struct {
		word   string
		want   []string
		reason string
	}{
		{"max_duration_ms", []string{"max_duration_ms", "MAX_DURATION_MS", "max-duration-ms", "maxDurationMs"}, "snake, upper, kebab, camel"},
		{"EXACT", []string{"EXACT", "exact"}, "a word listed in upper case"},
		{"final_response_match_v2", []string{"final_response_match_v2", "FINAL_RESPONSE_MATCH_V2", "final-response-match-v2", "finalResponseMatchV2"}, "digits"},
	}
	for _, tc := range tests {
		t.Run(tc.word, func(t *testing.T) {
			if got := shape.Spellings(tc.word); !slices.Equal(got, tc.want) {
				t.Errorf("Spellings(%q) = %q, want %q (%s)", tc.word, got, tc.want, tc.reason)
			}
		})
	}
}

// TestObject checks an object's schema: its keys in any spelling, its
// required keys in any spelling, and nothing else.
func TestObject(t *testing.T) {
	o := shape.Object("call",
		shape.Field{Key: "tool_name", Shape: shape.Text(), Required: true, Doc: "The tool."},
		shape.Field{Key: "max_ms", Shape: shape.NonNegative(), Doc: "The longest."},
	)
	c := jsonschema.NewCompiler()
	if err := c.AddResource("o.json", o.Schema); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("o.json")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		value  map[string]any
		valid  bool
		reason string
	}{
		{"snake", map[string]any{"tool_name": "a", "max_ms": 1.0}, true, "the listed spelling"},
		{"camel", map[string]any{"toolName": "a", "maxMs": 1.0}, true, "camelCase is the same key"},
		{"kebab", map[string]any{"tool-name": "a"}, true, "kebab-case is the same key"},
		{"camel checked", map[string]any{"toolName": "a", "maxMs": -1.0}, false, "a value under another spelling is checked too"},
		{"missing", map[string]any{"max_ms": 1.0}, false, "a required key in no spelling"},
		{"unknown", map[string]any{"tool_name": "a", "tool": "b"}, false, "a key not listed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := s.Validate(tc.value)
			if (err == nil) != tc.valid {
				t.Errorf("valid = %v, want %v (%s): %v", err == nil, tc.valid, tc.reason, err)
			}
		})
	}
}
