package trace_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf8"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/trace"
)

// TestReadFrom_utf8 checks that every byte a reader decodes was checked
// as UTF-8 first: strict, the first bad sequence is an error at its place;
// lenient, a warning, and the reading goes on.
func TestReadFrom_utf8(t *testing.T) {
	line := func(tool string) string {
		return `{"id":"a","output":[{"role":"assistant","tool_calls":[{"tool":"` + tool + `","input":{}}]}]}` + "\n"
	}
	tests := []struct {
		name    string
		data    string
		lenient bool
		err     string // the error's start; "" for none
		warns   []string
		reason  string
	}{
		{"valid", line("wetter-für-köln-☀"), false, "", nil, "multi-byte characters, split by one-byte reads, are whole"},
		{"valid after the head", line(strings.Repeat("a", 1<<20)) + line("für-köln-☀-𝄞"), false, "", nil, "past the first MiB reads come one byte at a time: sequences split between reads are whole"},
		{"bad after the head", line(strings.Repeat("a", 1<<20)) + line("☀\xe2\x82x"), false, "x.jsonl:2:67: invalid UTF-8", nil, "a sequence cut short by a byte that continues nothing"},
		{"a bad byte", line("ok") + line("x\xffy"), false, "x.jsonl:2:65: invalid UTF-8", nil, "the first bad byte, at its line and byte column"},
		{"after blank lines", line("a") + "\n\n" + line("☀x\xff"), false, "x.jsonl:4:68: invalid UTF-8", nil, "blank lines count, and columns count bytes"},
		{"a lone continuation byte", line("\x80"), false, "x.jsonl:1:64: invalid UTF-8", nil, "a byte that starts no sequence"},
		{"an overlong encoding", line("\xc0\xaf"), false, "x.jsonl:1:64: invalid UTF-8", nil, "overlong forms are not UTF-8"},
		{"a surrogate", line("\xed\xa0\x80"), false, "x.jsonl:1:64: invalid UTF-8", nil, "UTF-16 halves are not UTF-8"},
		{"cut at the end", strings.TrimSuffix(line("x"), "\n") + "\xe2\x82", false, "x.jsonl:1:", nil, "a sequence the end of the file cuts off"},
		{"lenient", line("x\xffy") + line("\xfe"), true, "", []string{"x.jsonl:1:65: invalid UTF-8: a trace is UTF-8 text; read leniently as U+FFFD", "x.jsonl: 2 sequences of invalid UTF-8 in all, read as U+FFFD"}, "a warning at the first, a count at the end"},
	}
	// Each input three ways: one byte at a time (lines counted as they
	// pass), in memory and in a file (read again up to a bad sequence
	// for its place, with the file's first bytes already read): the
	// places are the same.
	inputs := []struct {
		name string
		open func(t *testing.T, data string) io.Reader
	}{
		{"one byte at a time", func(t *testing.T, data string) io.Reader { return iotest.OneByteReader(strings.NewReader(data)) }},
		{"in memory", func(t *testing.T, data string) io.Reader { return strings.NewReader(data) }},
		{"a file", func(t *testing.T, data string) io.Reader {
			f, err := os.Create(filepath.Join(t.TempDir(), "x.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { f.Close() })
			if _, err := f.WriteString("skipped\n" + data); err != nil {
				t.Fatal(err)
			}
			if _, err := f.Seek(int64(len("skipped\n")), io.SeekStart); err != nil {
				t.Fatal(err)
			}
			return f
		}},
	}
	for _, tt := range tests {
		for _, in := range inputs {
			t.Run(tt.name+"/"+in.name, func(t *testing.T) {
				var warns []string
				opts := trace.Options{From: "agentv", Lenient: tt.lenient, Warn: func(w trajeval.Warning) { warns = append(warns, w.String()) }}
				n := 0
				err := trace.ReadFrom(context.Background(), "x.jsonl", in.open(t, tt.data), opts, func(*trajeval.Trajectory) error {
					n++
					return nil
				})
				if tt.err == "" {
					if err != nil {
						t.Fatalf("error %v (%s)", err, tt.reason)
					}
				} else {
					if err == nil || !strings.HasPrefix(err.Error(), tt.err) || !errors.Is(err, trajeval.ErrCorruptTrace) {
						t.Fatalf("error %v, want one starting %q wrapping ErrCorruptTrace (%s)", err, tt.err, tt.reason)
					}
					return
				}
				if strings.Join(warns, "\n") != strings.Join(tt.warns, "\n") {
					t.Errorf("warnings\n  %s\nwant\n  %s\n(%s)", strings.Join(warns, "\n  "), strings.Join(tt.warns, "\n  "), tt.reason)
				}
			})
		}
	}
}

// FuzzReadFrom_utf8 checks the UTF-8 check on any bytes, read one byte at
// a time so that sequences split between reads: read strictly, data that
// is not UTF-8 is an error, and data that is never is one for its
// encoding; read leniently, no error is about the encoding.
func FuzzReadFrom_utf8(f *testing.F) {
	for _, s := range []string{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a☀"}}`, "{\"a\":\"\xff\"}", "{\"a\":\"\xe2\x82\"}", "{\"a\":\"\xf0\x9d\x84\x9e\"}\n{\"b\":\"\xed\xa0\x80\"}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, lenient := range []bool{false, true} {
			opts := trace.Options{From: "mcp", Lenient: lenient}
			err := trace.ReadFrom(context.Background(), "x.jsonl", iotest.OneByteReader(bytes.NewReader(data)), opts, func(*trajeval.Trajectory) error { return nil })
			aboutUTF8 := err != nil && strings.Contains(err.Error(), "invalid UTF-8")
			switch {
			case !lenient && !utf8.Valid(data) && err == nil:
				t.Fatalf("read strictly: no error on data that is not UTF-8")
			case (lenient || utf8.Valid(data)) && aboutUTF8:
				t.Fatalf("read (lenient %v): %v, on data that is UTF-8 or read leniently", lenient, err)
			}
		}
	})
}
