package gemini_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/trajeval/trajeval/internal/format/formattest"
	"github.com/trajeval/trajeval/internal/format/gemini"
)

// TestChat_placedLinearly reads a session and a checkpoint of 4,000
// messages each: the line of each message is counted on from the last,
// never from the start of the file.
func TestChat_placedLinearly(t *testing.T) {
	tests := []struct {
		name   string
		file   string
		reason string
	}{
		{"session", "testdata/gemini-chat/session.json", `the messages of {"messages": [...]}`},
		{"checkpoint", "testdata/gemini-chat/checkpoint.json", "the messages of a list"},
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
			msgs, _ := v.([]any)
			if m, ok := v.(map[string]any); ok {
				msgs = m["messages"].([]any)
			}
			many := make([]any, 0, 4000)
			for len(many) < 4000 {
				many = append(many, msgs...)
			}
			if m, ok := v.(map[string]any); ok {
				m["messages"] = many
			} else {
				v = many
			}
			big, err := json.MarshalIndent(v, "", " ")
			if err != nil {
				t.Fatal(err)
			}
			formattest.PlacedLinearly(t, gemini.Chat, "big.json", big, tt.reason)
		})
	}
}
