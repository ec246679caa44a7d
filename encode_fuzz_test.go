package trajeval_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/trajeval/trajeval"
)

// FuzzAppendJSON writes a trajectory made of the fuzzer's text, figure,
// number and time with AppendJSON and with encoding/json: the bytes must
// be the same, or both must refuse it (with the same error, dst kept).
// Its seed corpus is in testdata/fuzz/FuzzAppendJSON.
func FuzzAppendJSON(f *testing.F) {
	f.Fuzz(func(t *testing.T, text string, figure float64, number string, sec, nsec int64) {
		at := time.Unix(sec, nsec)
		tr := &trajeval.Trajectory{ID: text, Steps: []trajeval.Step{{
			Index: 1, ID: text, Name: text, DurationMS: &figure, StartTime: at, EndTime: at.Add(time.Duration(nsec)),
			Args:   map[string]any{text: text, "n": json.Number(number), "f": figure, strings.ToUpper(text): []any{text, figure}},
			Result: text, ErrorMessage: text, Agent: text,
		}, {
			Index: 2, Name: text, Args: map[string]any{text: figure}, Result: map[string]any{text: number, "n": text},
		}, {
			Index: 3, Name: text, Args: map[string]any{"n": figure}, Result: map[string]any{"n": text, text: json.Number(number)},
		}}, Metrics: trajeval.Metrics{CostUSD: &figure}}
		want, wantErr := trajeval.MarshalStd(tr)
		got, err := trajeval.AppendJSON([]byte("kept"), tr)
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("error %v, encoding/json's %v", err, wantErr)
		}
		if err != nil {
			if string(got) != "kept" {
				t.Fatalf("got %q on an error, want dst unchanged", got)
			}
			return
		}
		if !bytes.Equal(got[len("kept"):], want) {
			t.Fatalf("JSON differs:\n got: %s\nwant: %s", got[len("kept"):], want)
		}
		if r, ok := rawTerminalChar(got); ok {
			t.Fatalf("%U written raw in %q", r, got)
		}
		var back struct{ ID string }
		if err := json.Unmarshal(got[len("kept"):], &back); err != nil || utf8.ValidString(text) && back.ID != text {
			t.Fatalf("id read back %q (%v), want %q", back.ID, err, text)
		}
	})
}

// rawTerminalChar returns the first C1 control, U+2028, U+2029 or bidi
// embedding, override or isolate in b, written as it is.
func rawTerminalChar(b []byte) (rune, bool) {
	for _, r := range string(b) {
		if 0x80 <= r && r <= 0x9f || 0x2028 <= r && r <= 0x202e || 0x2066 <= r && r <= 0x2069 {
			return r, true
		}
	}
	return 0, false
}

// FuzzAppendDetailsJSON writes details made of the fuzzer's text and
// counts with AppendDetailsJSON and with encoding/json, HTML escaped and
// not: the bytes must be the same. It covers the short ways of strings
// (a word at a time, up to 32 bytes) and of integers (0 to 99 from a
// table). Its seed corpus is in testdata/fuzz/FuzzAppendDetailsJSON.
func FuzzAppendDetailsJSON(f *testing.F) {
	f.Fuzz(func(t *testing.T, text string, n int) {
		d := &trajeval.Details{
			Mode: text, Hits: n, Expected: -n, Actual: n % 1000,
			Matched:  []trajeval.Pair{{Item: n % 100, Step: n, Tool: text}},
			Extra:    []trajeval.Extra{{Step: n % 10, Tool: text}, {Step: -(n % 100), Tool: strings.ToUpper(text)}},
			Checks:   []trajeval.Check{{Name: text, Status: text + text, Message: text}},
			Warnings: []string{text, text[len(text)/2:]},
			Missing: []trajeval.Missing{{Item: n % 7, Tool: text, Near: []trajeval.NearMiss{{Step: n % 5, Tool: text,
				Diffs: []trajeval.ArgDiff{{Path: text, Want: text, Got: text[len(text)/2:]}}}}}},
		}
		detailsSameAsStd(t, d, "fuzzed details")
	})
}
