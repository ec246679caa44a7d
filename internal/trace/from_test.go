package trace_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/trace"
)

// TestRead_from checks what --from does when the forced format and the
// file disagree: never a silent read of nothing.
func TestRead_from(t *testing.T) {
	const chat = `{"id": "c1", "messages": [{"role": "user", "content": "2+3?"},
 {"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "add", "arguments": "{\"a\": 2, \"b\": 3}"}}]},
 {"role": "tool", "tool_call_id": "call_1", "content": "5"}]}`
	// An Anthropic log whose first MiB is plain text: detection sees only
	// messages and gives it to openai-chat; its tool_use comes later.
	late := `{"role": "user", "content": "` + strings.Repeat("x", 1<<20) + `"}
{"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "search", "input": {"q": "a"}}]}
{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "ok"}]}
`
	// agentv claims this OpenAI Responses object too ("output" with a
	// "role"), but finds no calls in it; detection chooses openai-responses.
	const responses = `{"id": "resp_1", "object": "response", "output": [
 {"type": "function_call", "call_id": "call_1", "name": "search", "arguments": "{\"q\": \"a\"}"},
 {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "ok"}]}]}`
	const agentv = `{"id": "case-1", "output": [{"role": "assistant", "tool_calls": [{"tool": "search"}]}]}`
	tests := []struct {
		name, content, from string
		err                 []string // what the error says; nil for no error
		warn                string   // what a warning says; "" for none
		trajectories, steps int
		reason              string
	}{
		{"format matches", chat, "openai-chat", nil, "", 1, 1,
			"a format forced onto its own file reads it silently"},
		{"another format's calls", chat, "anthropic",
			[]string{"--from anthropic: read as anthropic, this file holds no tool calls, and it looks like openai-chat",
				"anthropic says: messages, but no Anthropic content blocks", "(drop --from, or use --from openai-chat)"},
			"", 0, 0, "the tool_calls of an OpenAI file are not lost without a word; nothing is passed on before the error"},
		{"calls past the head", late, "anthropic", nil,
			"--from anthropic: this file looks like openai-chat, not anthropic (anthropic says: messages, but no Anthropic content blocks", 1, 1,
			"the forced reader finds calls detection could not see: read, with a warning"},
		{"both claim, no calls", responses, "agentv", nil,
			"--from agentv: read as agentv, this file holds no tool calls; detection would read it as openai-responses", 1, 0,
			"both formats claim the file: read as forced, with a warning since the other would find calls"},
		{"nobody claims", `{"hello": "world"}`, "anthropic", []string{"x.json:1: not a record of this format: not a message or a conversation"},
			`--from anthropic: anthropic does not recognise this file (no messages with a "role"), and no other format does; read as anthropic, as asked`, 0, 0,
			"a forced read of a file nobody recognises is flagged, and a record with none of the format's fields is an error"},
		{"forced reader fails", agentv, "trajeval",
			[]string{`x.json:1:18: --from trajeval: unknown field "output"; this file looks like agentv`, "(drop --from, or use --from agentv)"},
			"", 0, 0, "the forced reader's own error, placed, names the format that would have read the file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "x.json")
			if err := os.WriteFile(path, []byte(tt.content), 0o644); err != nil {
				t.Fatal(err)
			}
			var warns []string
			trajectories, steps := 0, 0
			err := trace.Read(context.Background(), path, trace.Options{From: tt.from, Warn: func(w trajeval.Warning) { warns = append(warns, w.String()) }},
				func(t *trajeval.Trajectory) error { trajectories++; steps += len(t.Steps); return nil })
			if tt.err == nil && err != nil {
				t.Fatalf("Read: %v (%s)", err, tt.reason)
			}
			for _, want := range tt.err {
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Errorf("error %v, want it to say %q (%s)", err, want, tt.reason)
				}
			}
			if tt.err != nil && !errors.Is(err, trajeval.ErrUnknownFormat) {
				var te *trajeval.TraceError
				if !errors.As(err, &te) {
					t.Errorf("error %v is not a TraceError", err)
				}
			}
			joined := strings.Join(warns, "\n")
			if tt.warn != "" && !strings.Contains(joined, tt.warn) {
				t.Errorf("warnings:\n%s\nwant one saying %q (%s)", joined, tt.warn, tt.reason)
			}
			if tt.warn == "" && strings.Contains(joined, "--from") {
				t.Errorf("unexpected warning:\n%s (%s)", joined, tt.reason)
			}
			if trajectories != tt.trajectories || steps != tt.steps {
				t.Errorf("read %d trajectories with %d steps, want %d with %d (%s)", trajectories, steps, tt.trajectories, tt.steps, tt.reason)
			}
		})
	}
}

// TestRead_fromEveryOtherFormat forces every other format onto every
// reader's test file that holds tool calls: each read must end in an
// error or a --from warning, never a silent read.
func TestRead_fromEveryOtherFormat(t *testing.T) {
	files, err := filepath.Glob("../format/*/testdata/*/*")
	if err != nil {
		t.Fatal(err)
	}
	pairs := 0
	for _, path := range files {
		own := filepath.Base(filepath.Dir(path))
		base := filepath.Base(path)
		if own == "fuzz" || strings.HasSuffix(base, ".want.jsonl") || strings.HasSuffix(base, ".warnings.txt") || strings.HasSuffix(base, ".error.txt") || strings.HasPrefix(base, "bad") {
			continue
		}
		steps := 0
		trace.Read(context.Background(), path, trace.Options{}, func(t *trajeval.Trajectory) error { steps += len(t.Steps); return nil })
		if steps == 0 {
			continue
		}
		for _, from := range trace.Names() {
			if from == own {
				continue
			}
			pairs++
			said := false
			err := trace.Read(context.Background(), path, trace.Options{From: from,
				Warn: func(w trajeval.Warning) { said = said || strings.Contains(w.Msg, "--from "+from) }},
				func(*trajeval.Trajectory) error { return nil })
			if err == nil && !said {
				t.Errorf("--from %s on %s (%s, %d steps): read without a word", from, path, own, steps)
			}
		}
	}
	if pairs < 100 {
		t.Fatalf("only %d pairs tried; the glob is wrong", pairs)
	}
}
