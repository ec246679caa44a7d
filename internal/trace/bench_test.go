package trace_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/trace"
)

// benchInputs names, for every format, the test file its reader benchmark
// scales up to about benchSize bytes (see scale).
var benchInputs = map[string]string{
	"adk-evalset":      "adk/testdata/adk-evalset/weather.evalset.json",
	"adk-session":      "adk/testdata/adk-session/weather.session.json",
	"agentv":           "agentv/testdata/agentv/turns.json",
	"anthropic":        "anthropic/testdata/anthropic/conversation.json",
	"trajeval":         "canonical/testdata/trajeval/lines.jsonl",
	"claude-code":      "claudecode/testdata/claude-code/interactive.jsonl",
	"codex":            "codex/testdata/codex/run.jsonl",
	"codex-session":    "codex/testdata/codex-session/drift.jsonl",
	"gemini-cli":       "gemini/testdata/gemini-cli/session.jsonl",
	"gemini-chat":      "gemini/testdata/gemini-chat/session.json",
	"langchain":        "langchain/testdata/langchain/state.json",
	"langsmith":        "langchain/testdata/langsmith/repr.jsonl",
	"mcp":              "mcp/testdata/mcp/session.jsonl",
	"bfcl":             "bfcl/testdata/bfcl/results.jsonl",
	"openai-agents":    "openai/testdata/openai-agents/spans.jsonl",
	"openai-chat":      "openai/testdata/openai-chat/multi_turn.json",
	"vertex-dataset":   "vertex/testdata/vertex-dataset/rows.jsonl",
	"openai-responses": "openai/testdata/openai-responses/conversation.json",
	"otlp":             "otlp/testdata/otlp/chat-turns.jsonl",
	"otlp-proto":       "otlp/testdata/otlp-proto/conversation-framed.pb",
	"tau2":             "tau2/testdata/tau2/airline.json",
}

const benchSize = 1 << 20

// scale makes data about benchSize bytes long, keeping it one valid file
// of its format:
//  1. JSON Lines (more than one line, or a .jsonl file): its lines repeated.
//  2. One JSON document: its longest array (messages, events, cases)
//     repeated, found anywhere in the document.
//  3. Protocol buffers: the file repeated, which protobuf reads as one
//     message with its repeated fields concatenated (or more frames).
func scale(tb testing.TB, name string, data []byte) []byte {
	times := max(1, benchSize/len(data))
	trimmed := bytes.TrimSpace(data)
	switch {
	case strings.HasSuffix(name, ".pb"):
		return bytes.Repeat(data, times)
	case strings.HasSuffix(name, ".jsonl") || bytes.Count(trimmed, []byte("\n")) == 0:
		return bytes.Repeat(append(trimmed, '\n'), times)
	}
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		tb.Fatal(err)
	}
	var items []any
	var set func(any)
	walk(v, func(n any) { v = n }, func(a []any, s func(any)) {
		if len(a) > len(items) {
			items, set = a, s
		}
	})
	if set == nil {
		tb.Fatalf("%s: no array to repeat", name)
	}
	grown := make([]any, 0, len(items)*times)
	for range times {
		grown = append(grown, items...)
	}
	set(grown)
	out, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// walk calls found with every non-empty array in v and a function that
// replaces it.
func walk(v any, set func(any), found func([]any, func(any))) {
	switch x := v.(type) {
	case []any:
		if len(x) > 0 {
			found(x, set)
		}
		for i := range x {
			walk(x[i], func(n any) { x[i] = n }, found)
		}
	case map[string]any:
		for k := range x {
			walk(x[k], func(n any) { x[k] = n }, found)
		}
	}
}

// BenchmarkRead reads each format's scaled-up test file (see scale) with
// the format's reader: go test ./internal/trace -bench Read/otlp.
func BenchmarkRead(b *testing.B) {
	for _, f := range trace.Formats() {
		b.Run(f.Name(), func(b *testing.B) {
			rel, ok := benchInputs[f.Name()]
			if !ok {
				b.Fatalf("no benchmark input for format %s: add one to benchInputs", f.Name())
			}
			raw, err := os.ReadFile(filepath.Join("..", "format", rel))
			if err != nil {
				b.Fatal(err)
			}
			data := scale(b, rel, raw)
			ctx := context.Background()
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				steps := 0
				in := trajeval.Input{Name: rel, R: bytes.NewReader(data), Warn: func(trajeval.Warning) {}}
				err := f.Read(ctx, in, func(t *trajeval.Trajectory) error {
					steps += len(t.Steps)
					return nil
				})
				if err != nil {
					b.Fatal(err)
				}
				if steps == 0 {
					b.Fatal("no step read")
				}
			}
		})
	}
}

// TestBenchInputs keeps BenchmarkRead complete: every format has an input,
// and every input names a format and a file that exists.
func TestBenchInputs(t *testing.T) {
	names := map[string]bool{}
	for _, f := range trace.Formats() {
		names[f.Name()] = true
		if _, ok := benchInputs[f.Name()]; !ok {
			t.Errorf("format %s has no benchmark input in benchInputs", f.Name())
		}
	}
	for name, rel := range benchInputs {
		if !names[name] {
			t.Errorf("benchInputs names %s, which is not a format", name)
		}
		if _, err := os.Stat(filepath.Join("..", "format", rel)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// BenchmarkDetect detects the format of a few heads: one small file of
// each of five formats, and the first MiB of a JSON Lines file whose
// lines are an AgentV trace of about 1 KB (a file per case, and one
// traces file for all).
func BenchmarkDetect(b *testing.B) {
	for _, name := range []string{"agentv", "openai-chat", "anthropic", "langsmith", "openai-agents"} {
		rel := benchInputs[name]
		data, err := os.ReadFile(filepath.Join("..", "format", rel))
		if err != nil {
			b.Fatal(err)
		}
		benchDetect(b, name, data, name)
	}
	line := []byte(`{"id":"case-0000000","output":[{"role":"user","content":"Research the history of Python"},{"role":"assistant","tool_calls":[{"tool":"search","id":"call_0","input":{"limit":10,"query":"python history"},"output":{"ok":true},"status":"ok","start_time":"2026-01-01T00:00:00.000Z","end_time":"2026-01-01T00:00:00.066Z","duration_ms":66}]},{"role":"assistant","content":"done"}]}` + "\n")
	benchDetect(b, "agentv-1KB", line, "agentv")
	benchDetect(b, "agentv-1MiB", bytes.Repeat(line, (1<<20)/len(line)), "agentv")
}

func benchDetect(b *testing.B, name string, head []byte, want string) {
	b.Run(name, func(b *testing.B) {
		b.SetBytes(int64(len(head)))
		b.ReportAllocs()
		for b.Loop() {
			f, err := trace.Detect(name, head)
			if err != nil {
				b.Fatal(err)
			}
			if f.Name() != want {
				b.Fatalf("detected as %s, want %s", f.Name(), want)
			}
		}
	})
}
