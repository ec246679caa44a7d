package trace_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/trace"
)

const cutTrace = `{"id": "r", "messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "search", "arguments": "{}"}}]}, {"role": "to`

func TestRead(t *testing.T) {
	tests := []struct {
		name   string
		input  string
		format string
		want   error // nil: reads
		reason string
	}{
		{"detects", `{"messages": [{"role": "user", "content": "hi"}]}`, "", nil, "the format is detected from the content"},
		{"damaged", cutTrace, "openai-chat", trajeval.ErrCorruptTrace, "a cut-off trace is an error, never a partial score"},
		{"damaged detected", cutTrace, "", trajeval.ErrCorruptTrace, "detection sees the damage too"},
		{"empty", "  \n", "", trajeval.ErrEmptyTrace, "an empty input holds no trajectory"},
		{"no trajectory", `[]`, "trajeval", trajeval.ErrEmptyTrace, "an input that holds no trajectory is an error, as in the command"},
		{"junk", `{}`, "openai-chat", trajeval.ErrCorruptTrace, "a record with none of the format's fields is an error, never an empty run"},
		{"unknown format", `{}`, "openai", trajeval.ErrUnknownFormat, "a format name that does not exist is an error"},
		{"unrecognised", `{"hello": "world"}`, "", trajeval.ErrUnknownFormat, "no reader claims it"},
	}
	if _, err := trace.Read(nil, ""); !errors.Is(err, trajeval.ErrNoTrace) {
		t.Errorf("a nil reader: error %v, want ErrNoTrace", err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			trajs, err := trace.Read(strings.NewReader(tt.input), tt.format)
			if !errors.Is(err, tt.want) || (tt.want == nil) != (err == nil) {
				t.Fatalf("error %v, want %v: %s", err, tt.want, tt.reason)
			}
			if err != nil && trajs != nil {
				t.Errorf("%d trajectories with an error: %s", len(trajs), tt.reason)
			}
		})
	}
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.json")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path string
		want       error
		reason     string
	}{
		{"missing", filepath.Join(dir, "nope.json"), trajeval.ErrNoTrace, "a file that cannot be opened"},
		{"folder", dir, trajeval.ErrNoTrace, "a folder is not a trace"},
		{"empty", empty, trajeval.ErrEmptyTrace, "an empty file is an error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := trace.ReadFile(tt.path)
			if !errors.Is(err, tt.want) {
				t.Fatalf("error %v, want %v: %s", err, tt.want, tt.reason)
			}
			var te *trajeval.TraceError
			if !errors.As(err, &te) {
				t.Errorf("error %T, want a *TraceError that places it: %s", err, tt.reason)
			}
		})
	}
}

func TestReadOptions_Read(t *testing.T) {
	var warnings []trajeval.Warning
	o := trace.ReadOptions{Lenient: true, Name: "cut.json", Warn: func(w trajeval.Warning) { warnings = append(warnings, w) }}
	trajs, err := o.Read(strings.NewReader(cutTrace))
	if err != nil {
		t.Fatal(err)
	}
	if len(trajs) != 1 || !trajs[0].Partial || len(trajs[0].Steps) != 1 {
		t.Fatalf("got %d trajectories; want one, partial, with the step before the damage", len(trajs))
	}
	if len(warnings) == 0 || warnings[0].File != "cut.json" || warnings[0].Line != 1 {
		t.Errorf("warnings %v, want the damage first, at cut.json:1", warnings)
	}
}

func TestReadOptions_EachFile(t *testing.T) {
	// Breaking out of the loop stops the reading: the second trajectory
	// is never asked for.
	n := 0
	for tr, err := range (trace.ReadOptions{}).EachFile(context.Background(), "../testdata/research.traces.jsonl") {
		if err != nil {
			t.Fatal(err)
		}
		n++
		if tr.ID != "research-python" {
			t.Errorf("first trajectory %q, want research-python", tr.ID)
		}
		break
	}
	if n != 1 {
		t.Errorf("%d trajectories after a break, want 1", n)
	}
	var last error
	for _, err := range (trace.ReadOptions{}).EachFile(context.Background(), "../testdata/nope.json") {
		last = err
	}
	if !errors.Is(last, trajeval.ErrNoTrace) {
		t.Errorf("error %v, want ErrNoTrace yielded last", last)
	}
}
