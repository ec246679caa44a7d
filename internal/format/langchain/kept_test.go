package langchain_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/langchain"
)

// keptRead reads data with f, keeping text or not, and returns what it
// gives: the canonical JSON of each trajectory, the warnings and the
// error, and how many arguments and results were kept as text and
// whether every one is an object or an array.
func keptRead(f trajeval.Format, data []byte, keep bool) (out string, texts int, bad string) {
	var b strings.Builder
	in := trajeval.Input{Name: "kept.jsonl", R: bytes.NewReader(data), KeepText: keep, Lenient: true,
		Warn: func(w trajeval.Warning) { fmt.Fprintf(&b, "warning %s\n", w) }}
	err := f.Read(context.Background(), in, func(t *trajeval.Trajectory) error {
		for _, s := range t.Steps {
			for _, v := range []any{s.Args, s.Result} {
				if text, ok := v.(json.RawMessage); ok {
					texts++
					if len(text) == 0 || text[0] != '{' && text[0] != '[' {
						bad = fmt.Sprintf("step %d kept %q as text: only objects and arrays are", s.Index, text)
					}
				}
			}
		}
		j, err := trajeval.AppendJSON(nil, t)
		fmt.Fprintf(&b, "%s %v\n", j, err)
		return nil
	})
	fmt.Fprintf(&b, "error %v\n", err)
	return b.String(), texts, bad
}

// keptFiles returns the test files of a format: the real files the tools
// wrote (testdata/real) and the package's own.
func keptFiles(t testing.TB, format string) []string {
	var files []string
	for _, glob := range []string{"../../../testdata/real/" + format + "/*.json*", "testdata/" + format + "/*.json*"} {
		m, _ := filepath.Glob(glob)
		for _, name := range m {
			if !strings.Contains(name, ".want.") {
				files = append(files, name)
			}
		}
	}
	if len(files) == 0 {
		t.Fatalf("no test files for %s", format)
	}
	return files
}

// TestRead_keptTextFiles reads every real and test file of both formats
// with text kept and without: the same trajectories, warnings and errors.
// Some tool inputs of the langsmith files are kept, so that the
// comparison is not between two decodings; the langchain files give
// their arguments as objects (tool_calls), which are never kept.
func TestRead_keptTextFiles(t *testing.T) {
	for _, f := range []trajeval.Format{langchain.Messages, langchain.Runs} {
		t.Run(f.Name(), func(t *testing.T) {
			all := 0
			for _, name := range keptFiles(t, f.Name()) {
				data, err := os.ReadFile(name)
				if err != nil {
					t.Fatal(err)
				}
				kept, texts, bad := keptRead(f, data, true)
				decoded, _, _ := keptRead(f, data, false)
				if kept != decoded {
					t.Errorf("%s: kept text:\n%s\ndecoded:\n%s", name, kept, decoded)
				}
				if bad != "" {
					t.Errorf("%s: %s", name, bad)
				}
				all += texts
			}
			if all == 0 && f == langchain.Runs {
				t.Errorf("no argument kept as text in any file of %s", f.Name())
			}
		})
	}
}

// TestRuns_keptText reads tool runs whose input is a string of every kind
// with text kept and without: the same trajectories and warnings, and
// text kept only for objects and arrays that cannot be a ToolCall, which
// the reader looks into.
func TestRuns_keptText(t *testing.T) {
	tests := []struct {
		name   string
		input  string
		texts  int
		reason string
	}{
		{"object", `{"b": 1, "a": {"n": 12345678901234567890}}`, 1, "kept, numbers exact once decoded"},
		{"array", `[1, 2.50, null]`, 1, "kept"},
		{"tool call", `{"name":"f","args":{"a":1},"id":"call_1","type":"tool_call"}`, 0, "a ToolCall gives its args and id: decoded"},
		{"tool call, escaped", `{"name":"f","args":{"a":1},"id":"call_1","typ\u0065":"tool_call"}`, 0, "an escaped key may spell type: decoded"},
		{"type elsewhere", `{"q":{"type":"x"}}`, 0, "a type key anywhere: decoded, whatever its depth"},
		{"python repr", `{'a': 1, 'b': True}`, 0, "not JSON: read as a Python literal"},
		{"string", `"text"`, 0, "a JSON string is decoded"},
		{"blank", `  `, 0, "no arguments, {}"},
		{"too deep", strings.Repeat("[", 200) + strings.Repeat("]", 200), 0, "too deep: decoded as before"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, _ := json.Marshal(tt.input)
			data := []byte(`{"id":"r1","name":"agent","run_type":"chain","start_time":"2026-01-01T00:00:00Z","end_time":"2026-01-01T00:00:02Z",` +
				`"child_runs":[{"id":"t1","name":"f","run_type":"tool","start_time":"2026-01-01T00:00:00Z","end_time":"2026-01-01T00:00:01Z",` +
				`"inputs":{"input":` + string(in) + `},"outputs":{"output":"ok"}}]}` + "\n")
			kept, texts, bad := keptRead(langchain.Runs, data, true)
			decoded, _, _ := keptRead(langchain.Runs, data, false)
			if kept != decoded {
				t.Errorf("kept text:\n%s\ndecoded:\n%s\n%s", kept, decoded, tt.reason)
			}
			if texts != tt.texts || bad != "" {
				t.Errorf("%d inputs kept as text, want %d %s: %s", texts, tt.texts, bad, tt.reason)
			}
		})
	}
}

// TestMessages_keptText reads AI messages whose raw OpenAI copy of a call
// (additional_kwargs.tool_calls) holds arguments of every kind, beside
// tool_calls or alone: the same trajectories and warnings with text kept
// and without, a copy whose arguments are not JSON warned about even when
// tool_calls holds its call.
func TestMessages_keptText(t *testing.T) {
	tests := []struct {
		name   string
		args   string
		parsed bool // tool_calls holds the call too
		texts  int
		warned bool // about the copy's arguments
		reason string
	}{
		{"object alone", `{"a": [1, {}]}`, false, 1, false, "kept"},
		{"object beside tool_calls", `{"a": [1, {}]}`, true, 0, false, "tool_calls's call: the copy is not read"},
		{"not JSON beside tool_calls", `{"a": 1`, true, 0, true, "the copy's warning, as before"},
		{"not JSON alone", `{"a": 1`, false, 0, true, "the string, with a warning"},
		{"null alone", `null`, false, 0, false, "no arguments, {}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, _ := json.Marshal(tt.args)
			calls := `[]`
			if tt.parsed {
				calls = `[{"name":"f","args":{"a":[1,{}]},"id":"c1","type":"tool_call"}]`
			}
			data := []byte(`[{"type":"human","data":{"content":"go"}},{"type":"ai","data":{"content":"","tool_calls":` + calls +
				`,"additional_kwargs":{"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":` + string(a) + `}}]}}},` +
				`{"type":"tool","data":{"content":"ok","tool_call_id":"c1"}}]` + "\n")
			kept, texts, bad := keptRead(langchain.Messages, data, true)
			decoded, _, _ := keptRead(langchain.Messages, data, false)
			if kept != decoded {
				t.Errorf("kept text:\n%s\ndecoded:\n%s\n%s", kept, decoded, tt.reason)
			}
			if texts != tt.texts || bad != "" {
				t.Errorf("%d arguments kept as text, want %d %s: %s", texts, tt.texts, bad, tt.reason)
			}
			if w := strings.Contains(kept, "additional_kwargs.tool_calls[0]"); w != tt.warned {
				t.Errorf("warned about the copy: %v, want %v: %s\n%s", w, tt.warned, tt.reason, kept)
			}
		})
	}
}

// fuzzKept checks that reading with text kept gives what reading without
// gives, and keeps only objects and arrays as text.
func fuzzKept(f *testing.F, format trajeval.Format) {
	for _, name := range keptFiles(f, format.Name()) {
		if data, err := os.ReadFile(name); err == nil && len(data) < 64<<10 {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		kept, _, bad := keptRead(format, data, true)
		decoded, _, _ := keptRead(format, data, false)
		if kept != decoded {
			t.Fatalf("kept text:\n%s\ndecoded:\n%s", kept, decoded)
		}
		if bad != "" {
			t.Fatal(bad)
		}
	})
}

func FuzzMessages_keptText(f *testing.F) { fuzzKept(f, langchain.Messages) }

func FuzzRuns_keptText(f *testing.F) { fuzzKept(f, langchain.Runs) }
