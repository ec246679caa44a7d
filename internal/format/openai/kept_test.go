package openai_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/formattest"
	"github.com/trajeval/trajeval/internal/format/openai"
)

// keptRead reads data as openai-chat (see formattest.KeptRead).
func keptRead(data []byte, keep bool) (out string, texts int, bad string) {
	return formattest.KeptRead(openai.Chat, data, keep)
}

// TestChat_keptText reads conversations whose arguments are JSON strings
// of every kind with text kept and without: the same trajectories,
// warnings and errors, only the objects and arrays kept, white space
// around them dropped.
func TestChat_keptText(t *testing.T) {
	call := func(args string) string {
		a, _ := json.Marshal(args)
		return `{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":` + string(a) + `}}]}`
	}
	tests := []struct {
		name   string
		args   string
		texts  int
		reason string
	}{
		{"object", `{"b": 1, "a": {"n": 12345678901234567890}}`, 1, "kept, numbers exact once decoded"},
		{"array", `[1, 2.50, null]`, 1, "kept"},
		{"white space", " \n{\"a\": 1}\t ", 1, "kept without the white space"},
		{"string", `"text"`, 0, "a JSON string is decoded"},
		{"number", `42`, 0, "a scalar is decoded"},
		{"null", `null`, 0, "null reads as no arguments, {}"},
		{"blank", `  `, 0, "no arguments, {}"},
		{"not JSON", `{"a": 1`, 0, "kept as the string, with a warning"},
		{"two values", `{"a": 1} {"b": 2}`, 0, "not JSON: the string, with a warning"},
		{"lone surrogate", `{"a": "\ud800"}`, 0, "left to encoding/json, which replaces it"},
		{"too deep", strings.Repeat("[", 200) + strings.Repeat("]", 200), 0, "too deep: the string, with a warning"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := []byte(`{"id":"x","messages":[{"role":"user","content":"go"},` + call(tt.args) + `]}` + "\n")
			kept, texts, bad := keptRead(data, true)
			decoded, _, _ := keptRead(data, false)
			if kept != decoded {
				t.Errorf("kept text:\n%s\ndecoded:\n%s\n%s", kept, decoded, tt.reason)
			}
			if texts != tt.texts || bad != "" {
				t.Errorf("%d arguments kept as text, want %d %s: %s", texts, tt.texts, bad, tt.reason)
			}
		})
	}
}

// FuzzChat_keptText checks that reading with text kept gives what reading
// without gives, and keeps only objects and arrays as text.
func FuzzChat_keptText(f *testing.F) {
	files, _ := filepath.Glob("testdata/openai-chat/*.json*")
	for _, name := range files {
		if data, err := os.ReadFile(name); err == nil && !strings.Contains(name, ".want.") && len(data) < 64<<10 {
			f.Add(data)
		}
	}
	f.Add([]byte(`{"messages":[{"role":"assistant","tool_calls":[{"id":"a","function":{"name":"f","arguments":"{\"x\":[1,{}]}"}}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		kept, _, bad := keptRead(data, true)
		decoded, _, _ := keptRead(data, false)
		if kept != decoded {
			t.Fatalf("kept text:\n%s\ndecoded:\n%s", kept, decoded)
		}
		if bad != "" {
			t.Fatal(bad)
		}
	})
}

// TestRead_keptTextFiles reads every real and test file of the three
// formats with text kept and without: the same trajectories, warnings and
// errors. Some arguments of the chat files are kept, so that the
// comparison is not between two decodings there; Responses and Agents
// keep none (it would save under 5 % of a run), and must read the same.
func TestRead_keptTextFiles(t *testing.T) {
	for _, f := range []trajeval.Format{openai.Chat, openai.Responses, openai.Agents} {
		t.Run(f.Name(), func(t *testing.T) {
			all := 0
			for _, name := range formattest.KeptFiles(t, f.Name()) {
				all += formattest.KeptSame(t, f, name)
			}
			if all == 0 && f == openai.Chat {
				t.Errorf("no argument kept as text in any file of %s", f.Name())
			}
		})
	}
}
