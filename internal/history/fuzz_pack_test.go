package history_test

import (
	"bytes"
	"database/sql"
	"path/filepath"
	"testing"
	"time"

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

// FuzzUnpackCases: a pack of cases (schema version 8), however damaged,
// reads back or is refused with an error, never a panic; one read back
// writes a pack that reads back to the same cases.
func FuzzUnpackCases(f *testing.F) {
	dsn := filepath.Join(f.TempDir(), "runs.db")
	h, err := history.Open(f.Context(), dsn, history.Options{Create: true})
	if err != nil {
		f.Fatal(err)
	}
	defer h.Close()
	rec, err := h.Begin(f.Context(), history.Run{Suites: []string{"shop"}, Start: time.UnixMilli(0)})
	if err != nil {
		f.Fatal(err)
	}
	for _, c := range results() {
		rec.Record(c)
	}
	if err := rec.End(time.UnixMilli(1000), false); err != nil {
		f.Fatal(err)
	}
	raw, err := sql.Open("sqlite", dsn)
	if err != nil {
		f.Fatal(err)
	}
	defer raw.Close()
	var blob []byte
	if err := raw.QueryRow("SELECT data FROM packs").Scan(&blob); err != nil {
		f.Fatal(err)
	}
	seed, err := history.PackOf(blob)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte{1, 0})
	f.Add([]byte{1, 0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Fuzz(func(t *testing.T, b []byte) {
		again, n, err := history.UnpackCases(b)
		if err != nil {
			return
		}
		// Written again, the pack may be shorter (a number written in
		// more bytes than it needs), and then reads back the same.
		twice, m, err := history.UnpackCases(again)
		if err != nil || m != n || !bytes.Equal(twice, again) {
			t.Errorf("%d cases read back from %q write %q, which reads back as %d cases (%v) writing %q", n, b, again, m, err, twice)
		}
	})
}
