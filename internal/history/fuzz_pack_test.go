package history_test

import (
	"bytes"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/history"
)

// FuzzUnpack: a packed column, however damaged, is read back or refused
// with an error, never a panic; one read back packs again to the same
// bytes.
func FuzzUnpack(f *testing.F) {
	for i := range 2 {
		b, err := history.AppendPacked(nil, passing(i).Evaluators)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte{1, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		evals, err := history.Unpack(b)
		if err != nil {
			return
		}
		again, err := history.AppendPacked(nil, evals)
		if err != nil {
			t.Fatal(err)
		}
		back, err := history.Unpack(again)
		if err != nil {
			t.Fatalf("packed again, %q does not read back: %v", again, err)
		}
		if g, w := jsonlEvals(t, back), jsonlEvals(t, evals); g != w {
			t.Errorf("read back\n%s\nwant\n%s", g, w)
		}
	})
}

func jsonlEvals(t *testing.T, evals []trajeval.Result) string {
	t.Helper()
	return jsonl(t, []trajeval.CaseResult{{ID: "x", Evaluators: evals}})
}

// FuzzUnsqueeze: a stored trajectory or details, however damaged,
// decompress or fail with an error, never a panic.
func FuzzUnsqueeze(f *testing.F) {
	f.Add([]byte("S\x05\x10hello"))
	f.Add([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Add(bytes.Repeat([]byte{'S', 0xff}, 8))
	f.Fuzz(func(t *testing.T, b []byte) {
		history.Unsqueeze(b)
	})
}
