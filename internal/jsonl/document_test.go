package jsonl_test

import (
	"bufio"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/jsonl"
	"github.com/trajeval/trajeval/internal/jsonl/jsonltest"
)

func TestReadDocument(t *testing.T) {
	const limit = 1 << 20
	defer jsonl.SetMaxDocument(limit)()
	tests := []struct {
		name    string
		r       *jsonltest.Endless
		size    int64
		tooBig  bool
		maxRead int64 // the most the reader may take from r
		reason  string
	}{
		{"endless brackets", &jsonltest.Endless{Fill: "[", Ceiling: 64 << 20}, -1, true, limit + 1,
			"an input of unknown size that never ends stops a byte past the limit"},
		{"endless string", &jsonltest.Endless{Prefix: `{"a":"`, Fill: "x", Ceiling: 64 << 20}, -1, true, limit + 1,
			"a string that never closes is no different"},
		{"known too large", &jsonltest.Endless{Fill: " ", Ceiling: 64 << 20}, 2 * limit, true, 0,
			"a file that says it holds more than the limit is refused before a byte is read"},
		{"at the limit", &jsonltest.Endless{Fill: " ", Ceiling: limit}, -1, false, limit,
			"a document of exactly the limit is read"},
		{"at the limit, sized", &jsonltest.Endless{Fill: " ", Ceiling: limit}, limit, false, limit,
			"and so is one whose size is known"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &eofAt{tt.r}
			data, err := jsonl.ReadDocument("big.json", r, tt.size, nil)
			if tt.r.Handed > tt.maxRead {
				t.Errorf("read %d bytes, want at most %d: %s", tt.r.Handed, tt.maxRead, tt.reason)
			}
			if !tt.tooBig {
				if err != nil || len(data) != int(tt.r.Ceiling) {
					t.Fatalf("got %d bytes, %v; want %d: %s", len(data), err, tt.r.Ceiling, tt.reason)
				}
				return
			}
			var te *trajeval.TraceError
			var de *jsonl.DocumentTooLargeError
			if !errors.As(err, &te) || !errors.As(err, &de) || !errors.Is(err, jsonl.ErrDocumentTooLarge) {
				t.Fatalf("err = %v, want a *TraceError wrapping a *DocumentTooLargeError: %s", err, tt.reason)
			}
			const want = "big.json: file too large: more than 1 MiB to read as one JSON document"
			if got := err.Error(); !strings.HasPrefix(got, want) || !strings.Contains(got, "JSON Lines") {
				t.Errorf("err = %q, want %q and a hint", got, want)
			}
		})
	}
}

// eofAt turns an Endless's ceiling into the end of the input, for the
// documents meant to be read whole.
type eofAt struct{ e *jsonltest.Endless }

func (r *eofAt) Read(p []byte) (int, error) {
	n, err := r.e.Read(p)
	if errors.Is(err, jsonltest.ErrCeiling) {
		return n, io.EOF
	}
	return n, err
}

// TestReadDocument_memory bounds what reading an input of unknown size up
// to the limit allocates: the buffer doubles, so that the copies left
// behind add up to the limit once more, where io.ReadAll's growth by a
// quarter left three times it.
func TestReadDocument_memory(t *testing.T) {
	const limit = 16 << 20
	defer jsonl.SetMaxDocument(limit)()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := jsonl.ReadDocument("zero", &jsonltest.Endless{Fill: "\x00", Ceiling: 1 << 30}, -1, nil)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, jsonl.ErrDocumentTooLarge) {
		t.Fatalf("err = %v, want ErrDocumentTooLarge", err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 2*limit+(1<<20) {
		t.Errorf("allocated %d bytes reading up to a limit of %d, want at most about twice it", got, limit)
	}
}

func TestReadLine(t *testing.T) {
	defer jsonl.SetMaxLine(1 << 10)()
	tests := []struct {
		name   string
		r      *jsonltest.Endless
		line   string // "" when too long
		reason string
	}{
		{"endless line", &jsonltest.Endless{Fill: "x", Ceiling: 64 << 20}, "",
			"a line that never ends stops at the limit"},
		{"short line", &jsonltest.Endless{Prefix: "{}\n", Fill: "x", Ceiling: 64 << 20}, "{}\n",
			"a line within the limit comes whole with its newline"},
		{"line at the limit", &jsonltest.Endless{Prefix: strings.Repeat("a", 1<<10-1) + "\n", Ceiling: 64 << 20}, strings.Repeat("a", 1<<10-1) + "\n",
			"a line of exactly the limit, newline included, is read"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			br := bufio.NewReaderSize(tt.r, 16)
			line, err := jsonl.ReadLine(br, 7)
			if tt.line != "" {
				if err != nil || string(line) != tt.line {
					t.Fatalf("got %q, %v; want %q: %s", line, err, tt.line, tt.reason)
				}
				return
			}
			var le *jsonl.LineTooLongError
			if !errors.As(err, &le) || le.Line != 7 {
				t.Fatalf("err = %v, want a *LineTooLongError at line 7: %s", err, tt.reason)
			}
			if tt.r.Handed > 1<<10+16 {
				t.Errorf("read %d bytes, want at most the limit and a buffer: %s", tt.r.Handed, tt.reason)
			}
		})
	}
}
