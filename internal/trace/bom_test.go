package trace_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/trace"
)

// bom is the UTF-8 byte order mark that Windows tools (PowerShell's
// Out-File -Encoding utf8, Notepad before 2019) write at the start of a
// text file.
const bom = "\xef\xbb\xbf"

// readAll reads data as the file name and returns the trajectories as
// JSON Lines, the warnings and the error, as text to compare.
func readAll(name string, data []byte, opts trace.Options) string {
	var out strings.Builder
	opts.Warn = func(w trajeval.Warning) { fmt.Fprintln(&out, "warning:", w) }
	err := trace.ReadFrom(context.Background(), name, bytes.NewReader(data), opts, func(t *trajeval.Trajectory) error {
		b, err := json.Marshal(t)
		out.Write(b)
		out.WriteByte('\n')
		return err
	})
	fmt.Fprintln(&out, "error:", err)
	return out.String()
}

// TestReadFrom_bom reads every test file of every text format with a byte
// order mark before it, detected and forced, strictly and leniently: the
// mark changes nothing, not even the column of an error on line 1.
func TestReadFrom_bom(t *testing.T) {
	n := 0
	for _, format := range trace.Names() {
		if format == "otlp-proto" {
			continue // binary: a byte order mark is not text there
		}
		paths, err := filepath.Glob(filepath.Join("..", "format", "*", "testdata", format, "*"))
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range paths {
			if strings.HasSuffix(path, ".want.jsonl") || strings.HasSuffix(path, ".txt") {
				continue
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			n++
			for _, opts := range []trace.Options{{}, {From: format}, {Lenient: true}, {From: format, Lenient: true}} {
				want := readAll("x", data, opts)
				if got := readAll("x", append([]byte(bom), data...), opts); got != want {
					t.Errorf("%s (from %q, lenient %v): with a byte order mark:\n%s\nwithout:\n%s", path, opts.From, opts.Lenient, got, want)
				}
			}
		}
	}
	if n < 100 {
		t.Fatalf("only %d test files found", n)
	}
}

// TestReadFrom_bomPlace checks that only a mark at the very start is
// dropped, and that errors keep their line and column.
func TestReadFrom_bomPlace(t *testing.T) {
	agentv := `{"id":"a","output":[{"role":"assistant","tool_calls":[{"tool":"search","input":{}}]}]}`
	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	zw.Write([]byte(bom + agentv + "\n" + agentv + "\n"))
	zw.Close()
	tests := []struct {
		name   string
		data   string
		want   string // the trajectories' ids, or the error
		reason string
	}{
		{"agentv lines", bom + agentv + "\n" + agentv + "\n", "a a", "the fast path reads line 1 after the mark"},
		{"agentv one line", bom + agentv, "a", "a one-line file is JSON Lines too"},
		{"agentv pretty", bom + "{\n" + agentv[1:], "a", "a pretty-printed object goes to encoding/json, after the mark"},
		{"agentv crlf", bom + agentv + "\r\n" + agentv + "\r\n", "a a", "a Windows file has both"},
		{"gzip", zipped.String(), "a a", "the mark inside gzip data is at the start of the file it holds"},
		{"error column after the mark", bom + `{"id":"a","output":[{"role":"assistant","tool_calls":[{"tool":"search","input":}]}]}`,
			`x:1:80: invalid JSON: invalid character '}' looking for beginning of value`, "line 1's columns count from the byte after the mark"},
		{"mark on line 2", agentv + "\n" + bom + agentv + "\n", `x:2:1: invalid JSON: invalid character 'ï' looking for beginning of value`, "only a mark at the start of the file is dropped"},
		{"two marks", bom + bom + agentv + "\n", `x:1:1: `, "the second mark is not at the start"},
		{"a mark alone", bom, `x: the file is empty`, "a mark is no content"},
		{"mark then blank", bom + "\n\n", `x: the file is empty`, "nor is a mark and blank lines"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			err := trace.ReadFrom(context.Background(), "x", strings.NewReader(tt.data), trace.Options{}, func(tr *trajeval.Trajectory) error {
				got = append(got, tr.ID)
				return nil
			})
			if err != nil {
				if !strings.HasPrefix(err.Error(), tt.want) {
					t.Fatalf("error %q, want %q (%s)", err, tt.want, tt.reason)
				}
				return
			}
			if s := strings.Join(got, " "); s != tt.want {
				t.Fatalf("read %q, want %q (%s)", s, tt.want, tt.reason)
			}
		})
	}
}

// TestReadFrom_bomPeek checks that no reader peeks for a byte order mark
// of its own: a peek that came short took the error of the UTF-8 check
// with it, and the canonical reader then read on past an invalid byte of
// line 1 and found "no trajectories in the file".
func TestReadFrom_bomPeek(t *testing.T) {
	data, err := os.ReadFile("../format/canonical/testdata/trajeval/lines.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	at := bytes.Index(data, []byte(`"exact"`)) + 1
	bad := slices.Concat(data[:at], []byte{0xff}, data[at:])
	for _, prefix := range []string{"", bom} {
		err := trace.ReadFrom(context.Background(), "x", bytes.NewReader(append([]byte(prefix), bad...)), trace.Options{}, func(*trajeval.Trajectory) error { return nil })
		if want := "x:1:8: invalid UTF-8"; err == nil || !strings.HasPrefix(err.Error(), want) || !errors.Is(err, trajeval.ErrCorruptTrace) {
			t.Errorf("mark %q: error %v, want one starting %q", prefix, err, want)
		}
	}
}

// FuzzReadFrom_bom checks, on any bytes, that a byte order mark before
// them changes nothing: the same format, trajectories, warnings and
// error, at the same line and column, strictly and leniently. (Bytes
// that start with a mark already, or gzip's magic, which a mark before
// them hides, are left out.)
func FuzzReadFrom_bom(f *testing.F) {
	agentv := `{"id":"a","output":[{"role":"assistant","tool_calls":[{"tool":"search","input":{}}]}]}`
	for _, s := range []string{agentv + "\n" + agentv + "\n", "{\n" + agentv[1:], agentv + "\r\n" + bom + agentv, `{"id":"a","output":[{"role":"assistant","tool_calls":[{"tool":"search","input":}]}]}`,
		`{"messages":[{"role":"user","content":"hi"}]}`, "\n\n" + agentv, bom, ""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if bytes.HasPrefix(data, []byte(bom)) || bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
			return
		}
		for _, lenient := range []bool{false, true} {
			opts := trace.Options{Lenient: lenient}
			if got, want := readAll("x", append([]byte(bom), data...), opts), readAll("x", data, opts); got != want {
				t.Fatalf("lenient %v: with a byte order mark:\n%s\nwithout:\n%s", lenient, got, want)
			}
		}
	})
}
