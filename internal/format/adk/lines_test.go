package adk_test

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/adk"
	"github.com/trajeval/trajeval/internal/format/formattest"
)

// TestRead_placedLinearly reads a session list and an eval set of 2,000
// entries each: the line of each entry is counted on from the last, never
// from the start of the file.
func TestRead_placedLinearly(t *testing.T) {
	tests := []struct {
		name   string
		format trajeval.Format
		file   string
		list   func(v any) []any
		id     string
		reason string
	}{
		{"session list", adk.SessionFormat, "testdata/adk-session/api_list.session.json",
			func(v any) []any { return v.([]any) }, "id", "each session's line counted on"},
		{"eval set", adk.EvalSetFormat, "testdata/adk-evalset/weather.evalset.json",
			func(v any) []any { return v.(map[string]any)["eval_cases"].([]any) }, "eval_id", "each case's line counted on"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := os.ReadFile(tt.file)
			if err != nil {
				t.Fatal(err)
			}
			var v any
			if err := json.Unmarshal(data, &v); err != nil {
				t.Fatal(err)
			}
			entries := tt.list(v)
			var many []any
			for i := range 2000 {
				var e map[string]any
				b, _ := json.Marshal(entries[i%len(entries)])
				if err := json.Unmarshal(b, &e); err != nil {
					t.Fatal(err)
				}
				e[tt.id] = fmt.Sprint("e", i)
				many = append(many, e)
			}
			if m, ok := v.(map[string]any); ok {
				m["eval_cases"] = many
			} else {
				v = many
			}
			big, err := json.MarshalIndent(v, "", " ")
			if err != nil {
				t.Fatal(err)
			}
			formattest.PlacedLinearly(t, tt.format, "big.json", big, tt.reason)
		})
	}
}
