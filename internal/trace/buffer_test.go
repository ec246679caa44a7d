package trace_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/trace"
)

// TestRead_smallFile checks that a small trace file gets buffers sized to
// it, not a MiB each: a suite whose every case has its own trace file
// reads thousands of them.
func TestRead_smallFile(t *testing.T) {
	tests := []struct {
		name, file string
		reason     string
	}{
		{"openai-chat", "../format/openai/testdata/openai-chat/multi_turn.json", "trace.Read's buffer and msglog.EachValue's"},
		{"anthropic", "../format/anthropic/testdata/anthropic/conversation.json", "the same for another reader"},
		{"openai-chat lines", "../format/openai/testdata/openai-chat/messages.jsonl", "JSON Lines read on by jsonl.Each"},
		{"agentv lines", "../format/agentv/testdata/agentv/batch.jsonl", "the agentv reader's own buffer, as big as the file (a suite with a trace file per case)"},
		{"agentv object", "../format/agentv/testdata/agentv/errors.json", "the same for one pretty-printed record"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			read := func() {
				n := 0
				err := trace.Read(ctx, tt.file, trace.Options{}, func(*trajeval.Trajectory) error { n++; return nil })
				if err != nil || n == 0 {
					t.Fatalf("%d trajectories, %v", n, err)
				}
			}
			read()
			const runs = 20
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for range runs {
				read()
			}
			runtime.ReadMemStats(&after)
			// Reading these files decodes a few KiB; a MiB buffer made
			// for every read would be 50 times that.
			per := (after.TotalAlloc - before.TotalAlloc) / runs
			t.Logf("%d KiB a read", per>>10)
			if per > 256<<10 {
				t.Errorf("reading %s allocates %d KiB, want at most 256", tt.file, per>>10)
			}
		})
	}
}

// lenReader is a reader that says it holds n bytes, whatever it holds: a
// file still being written when its size was taken.
type lenReader struct {
	*bytes.Reader
	n int
}

func (r lenReader) Len() int { return r.n }

// TestReadFrom_moreThanSaid checks that an input holding more than its
// size said is still sniffed on its first MiB and read as a reader of
// unknown size reads it.
func TestReadFrom_moreThanSaid(t *testing.T) {
	user := `{"role": "user", "content": "hi"}` + "\n"
	call := `{"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "search", "input": {"q": "a"}}]}` + "\n"
	conv := func(text string) string {
		return `{"messages": [{"role": "user", "content": "` + text + `"}, {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}]}` + "\n"
	}
	tests := []struct {
		name, content string
		said          int
		want          string
		reason        string
	}{
		{"lines", strings.Repeat(user, 3000) + call, 10, "anthropic: 1 steps\n",
			"the tool_use block comes 100 KB in, after the bytes said: detection must see it"},
		{"long first line", conv(strings.Repeat("x", 100<<10)) + `{"messages": [` + "\n" + conv("y"), 100, "openai-chat: 1 steps\nopenai-chat: 1 steps\n",
			"JSON Lines whose first line is longer than the bytes said: a broken line is skipped and the next read, as in any JSON Lines file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			read := func(r io.Reader) string {
				var b strings.Builder
				var format string
				opts := trace.Options{Lenient: true, Detected: func(f string) { format = f }}
				err := trace.ReadFrom(context.Background(), "x", r, opts, func(tr *trajeval.Trajectory) error {
					if !tr.Partial {
						fmt.Fprintf(&b, "%s: %d steps\n", format, len(tr.Steps))
					}
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				return b.String()
			}
			if got := read(lenReader{bytes.NewReader([]byte(tt.content)), tt.said}); got != tt.want {
				t.Errorf("read\n%swant\n%s", got, tt.want)
			}
			if got := read(struct{ io.Reader }{strings.NewReader(tt.content)}); got != tt.want {
				t.Errorf("read from a reader of unknown size\n%swant\n%s", got, tt.want)
			}
		})
	}
}

// TestRead_smallFileSame checks that every trace the project keeps reads
// the same from a file (buffers sized to it) as from a reader of unknown
// size (buffers of a MiB).
func TestRead_smallFileSame(t *testing.T) {
	files, _ := filepath.Glob("../format/*/testdata/*/*")
	if len(files) < 100 {
		t.Fatalf("only %d files", len(files))
	}
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			continue // a folder
		}
		collect := func(read func(yield func(*trajeval.Trajectory) error) error) string {
			var b strings.Builder
			err := read(func(tr *trajeval.Trajectory) error {
				b.WriteString(tr.ID)
				for _, s := range tr.Steps {
					b.WriteString(" " + s.Name)
				}
				b.WriteString("\n")
				return nil
			})
			if err != nil {
				b.WriteString("error: " + err.Error())
			}
			return b.String()
		}
		opts := trace.Options{Lenient: strings.Contains(path, "lenient")}
		fromFile := collect(func(y func(*trajeval.Trajectory) error) error { return trace.Read(context.Background(), path, opts, y) })
		fromReader := collect(func(y func(*trajeval.Trajectory) error) error {
			return trace.ReadFrom(context.Background(), path, struct{ *bytes.Reader }{bytes.NewReader(data)}, opts, y)
		})
		if fromFile != fromReader {
			t.Errorf("%s: read from the file:\n%s\nfrom a reader:\n%s", path, fromFile, fromReader)
		}
	}
}

// readSizes is a reader of unknown size that notes how many bytes each
// read asks for.
type readSizes struct {
	r     io.Reader
	sizes []int
}

func (r *readSizes) Read(p []byte) (int, error) {
	r.sizes = append(r.sizes, len(p))
	return r.r.Read(p)
}

// TestReadFrom_straight checks that a JSON Lines trace longer than the
// head is read past the head straight into the agentv reader's buffer:
// every read after the first (the head's MiB) asks for more than a MiB,
// so that trace.ReadFrom's reader, whose buffer is a MiB, hands it on to
// the input instead of reading into its own buffer and copying every
// byte from there.
func TestReadFrom_straight(t *testing.T) {
	line := `{"id":"case-1","output":[{"role":"assistant","tool_calls":[{"tool":"search","id":"call_0","input":{"q":"a"},"output":{"ok":true}}]}]}` + "\n"
	data := strings.Repeat(line, (4<<20)/len(line))
	r := &readSizes{r: strings.NewReader(data)}
	n := 0
	err := trace.ReadFrom(context.Background(), "x.jsonl", r, trace.Options{}, func(*trajeval.Trajectory) error { n++; return nil })
	if err != nil || n != strings.Count(data, "\n") {
		t.Fatalf("%d trajectories, %v", n, err)
	}
	if len(r.sizes) < 4 {
		t.Fatalf("%d reads of %d bytes, want the head and three more", len(r.sizes), len(data))
	}
	for i, size := range r.sizes[1:] {
		if size <= 1<<20 {
			t.Errorf("read %d asks for %d bytes, want more than a MiB (the reader's buffer, not trace's): reads %v", i+2, size, r.sizes)
		}
	}
}
