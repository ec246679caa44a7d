package trace_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/jsonl"
	"github.com/trajeval/trajeval/internal/jsonl/jsonltest"
	"github.com/trajeval/trajeval/internal/trace"
)

// TestFormat_Read_bounded feeds every reader that reads a file whole, or
// its first line on its own, an input that never ends, and checks that it
// stops within its limit (shrunk to a MiB here) and a buffer, with an
// error naming the file, rather than reading on until memory runs out.
func TestFormat_Read_bounded(t *testing.T) {
	const limit = 1 << 20
	defer jsonl.SetMaxDocument(limit)()
	defer jsonl.SetMaxLine(limit)()
	// What the readers' own buffers take ahead of what they hold.
	const margin = 2 << 20
	whole := []string{"agentv", "trajeval", "otlp", "adk-evalset", "adk-session", "tau2", "anthropic", "openai-agents", "gemini-chat"}
	type endless struct {
		name, prefix, fill string
		want               error
		reason             string
	}
	var tests []struct {
		format string
		endless
	}
	add := func(formats []string, e endless) {
		for _, f := range formats {
			tests = append(tests, struct {
				format string
				endless
			}{f, e})
		}
	}
	add(whole, endless{"brackets", "{\n", "[", jsonl.ErrDocumentTooLarge,
		"a document that never ends is refused at the limit, before its depth is checked"})
	add(whole, endless{"open string", "{\n\"a\": \"", "x", jsonl.ErrDocumentTooLarge,
		"a string that never closes is no different"})
	add([]string{"tau2", "adk-session", "adk-evalset", "gemini-chat"}, endless{"spaces", "", " ", jsonl.ErrDocumentTooLarge,
		"white space without end is no empty file"})
	add([]string{"agentv", "trajeval"}, endless{"one endless line", "", "x", jsonl.ErrLineTooLong,
		"the first line, read on its own to tell JSON Lines from a document, is a line"})
	add([]string{"agentv", "trajeval"}, endless{"blank lines", "", "\n", jsonl.ErrDocumentTooLarge,
		"blank lines before the first are counted against the document's limit"})
	const header = "id,predicted_trajectory\n"
	add([]string{"vertex-dataset"}, endless{"csv endless cell", header + "1,", "x", jsonl.ErrLineTooLong,
		"encoding/csv would gather a cell without end in memory"})
	add([]string{"vertex-dataset"}, endless{"csv open quote", header + "1,\"[", "x\n", jsonl.ErrLineTooLong,
		"a quote left open gathers every line after it into one cell"})
	add([]string{"vertex-dataset"}, endless{"csv blank lines", header, "\n", jsonl.ErrLineTooLong,
		"blank lines without end count against the next record, and their count is not kept line by line"})
	for _, tt := range tests {
		t.Run(tt.format+"/"+tt.name, func(t *testing.T) {
			f, err := trace.Lookup(tt.format)
			if err != nil {
				t.Fatal(err)
			}
			r := &jsonltest.Endless{Prefix: tt.prefix, Fill: tt.fill, Ceiling: 64 << 20}
			in := trajeval.Input{Name: "endless.json", R: r, Warn: func(trajeval.Warning) {}}
			err = f.Read(context.Background(), in, func(*trajeval.Trajectory) error { return nil })
			if r.Handed > limit+margin {
				t.Errorf("read %d bytes, want at most %d: %s", r.Handed, limit+margin, tt.reason)
			}
			var te *trajeval.TraceError
			if !errors.Is(err, tt.want) || !errors.As(err, &te) || te.File != "endless.json" {
				t.Fatalf("err = %v, want %v in a *TraceError naming the file: %s", err, tt.want, tt.reason)
			}
			if !strings.Contains(err.Error(), "is it the file meant") {
				t.Errorf("err = %q, want a hint", err)
			}
		})
	}
}
