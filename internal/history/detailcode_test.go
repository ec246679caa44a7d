package history_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/history"
)

// detailsJSON returns the JSON array of ds as the history wrote details
// before schema version 10 (json.Marshal's bytes).
func detailsJSON(t testing.TB, ds []*trajeval.Details) []byte {
	t.Helper()
	b := []byte{'['}
	for i, d := range ds {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = trajeval.AppendDetailsJSON(b, d, true); err != nil {
			t.Fatal(err)
		}
	}
	return append(b, ']')
}

// carriedDetails are details of every field the encoding carries.
func carriedDetails() *trajeval.Details {
	return &trajeval.Details{Mode: "in_order", Hits: -2, Expected: 1 << 40, Actual: 20,
		Matched: []trajeval.Pair{{Item: 1, Step: 1, Tool: "search"}, {Item: 2, Step: 11, Tool: "<read & go>"}},
		Missing: []trajeval.Missing{{Item: 3, Tool: "pay"}, {Item: 4, Tool: "book", Near: []trajeval.NearMiss{
			{Step: 5, Tool: "book", Diffs: []trajeval.ArgDiff{{Path: "args.city", Want: `"New <York>"`, Got: `{"a": [1, 2]}`}, {Path: "args.n", Want: "3", Got: trajeval.ArgAbsent}}},
			{Step: 6, Tool: "bok", Why: "a close name"}}}},
		Extra:    []trajeval.Extra{{Step: 2, Tool: "gr\"ep\n"}, {Step: 3, Tool: "\xff\xfebad utf-8"}},
		Checks:   []trajeval.Check{{Name: "tokens ≤ 1400", Status: trajeval.CheckFail, Message: "got 1687"}, {Name: "calls", Status: trajeval.CheckPass}},
		Warnings: []string{"", "\u2028 line separator"}}
}

func TestAppendDetailsCode(t *testing.T) {
	tests := []struct {
		name    string
		ds      []*trajeval.Details
		encoded bool
		reason  string
	}{
		{"every field", []*trajeval.Details{carriedDetails()}, true, "strings as written (escapes, HTML, bad UTF-8), negative and large numbers"},
		{"some evaluators without", []*trajeval.Details{nil, carriedDetails(), nil}, true, "an evaluator without details reads back as null, in its place"},
		{"empty", []*trajeval.Details{{}}, true, "no mode, no lists: the JSON keeps hits, expected, actual"},
		{"empty lists", []*trajeval.Details{{Matched: []trajeval.Pair{}, Checks: []trajeval.Check{}, Warnings: []string{}}}, true, "empty lists are left out of the JSON as nil ones are"},
		{"scope", []*trajeval.Details{carriedDetails(), {Scope: &trajeval.Scope{}}}, false, "a scope is not carried: all the case's details stay JSON"},
		{"notes", []*trajeval.Details{{Notes: map[string]any{"lcs": 1.0}}}, false, "notes are a dialect's own values: JSON"},
		{"near misses", []*trajeval.Details{{Missing: []trajeval.Missing{{Item: 1, Tool: "pay", Near: []trajeval.NearMiss{{Step: 2, Tool: "pay", Diffs: []trajeval.ArgDiff{{Path: "args", Want: "not JSON", Got: ""}}}}}}}}, true, "an argument difference's texts as written, even what is no JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			at := func(i int) *trajeval.Details { return tt.ds[i] }
			data, ok := history.AppendDetailsCode([]byte("x"), len(tt.ds), at)
			if ok != tt.encoded {
				t.Fatalf("encoded %v, want %v (%s)", ok, tt.encoded, tt.reason)
			}
			if !ok {
				if string(data) != "x" {
					t.Errorf("not encoded, yet %q appended", data[1:])
				}
				return
			}
			if data[1] != 'D' {
				t.Fatalf("begins with %q, want 'D'", data[1])
			}
			got, err := history.ReadDetails(data[1:])
			if err != nil {
				t.Fatalf("%q does not read back: %v", data, err)
			}
			if want := detailsJSON(t, tt.ds); string(got) != string(want) {
				t.Errorf("read back as\n%s\nwant (%s)\n%s", got, tt.reason, want)
			}
		})
	}
}

func TestReadDetails_damaged(t *testing.T) {
	good, ok := history.AppendDetailsCode(nil, 2, func(i int) *trajeval.Details { return carriedDetails() })
	if !ok {
		t.Fatal("not encoded")
	}
	tests := []struct {
		name   string
		data   []byte
		reason string
	}{
		{"mark alone", []byte("D"), "no count of evaluators"},
		{"a count beyond the bytes", []byte("D\xff\xff\xff\xff\x0f"), "nothing is allocated for a count the bytes cannot hold"},
		{"an evaluator's mark", []byte("D\x01\x02"), "0 or 1 only"},
		{"bytes after", append(append([]byte(nil), good...), 0), "every byte is read"},
		{"a number too long", []byte("D\x01\x01\x00\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01"), "a varint past 64 bits"},
	}
	for n := 1; n < len(good); n++ {
		tests = append(tests, struct {
			name   string
			data   []byte
			reason string
		}{"cut", good[:n], "every prefix is refused"})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, err := history.ReadDetails(tt.data); !errors.Is(err, history.ErrDetails) {
				t.Errorf("read as %q, %v; want errDetails (%s)", got, err, tt.reason)
			}
		})
	}
}

// FuzzReadDetails: stored details in the compact encoding, however
// damaged, are read back as JSON or refused with an error, never a
// panic; what reads back is a JSON array of details that encodes again
// to what reads back the same.
func FuzzReadDetails(f *testing.F) {
	for _, ds := range [][]*trajeval.Details{{carriedDetails()}, {nil, {Mode: "any_order"}}} {
		b, _ := history.AppendDetailsCode(nil, len(ds), func(i int) *trajeval.Details { return ds[i] })
		f.Add(b)
	}
	f.Add([]byte("D\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) == 0 || b[0] != 'D' {
			b = append([]byte{'D'}, b...)
		}
		got, err := history.ReadDetails(b)
		if err != nil {
			if !errors.Is(err, history.ErrDetails) {
				t.Fatalf("error %v is not errDetails", err)
			}
			return
		}
		var ds []*trajeval.Details
		if err := json.Unmarshal(got, &ds); err != nil {
			t.Fatalf("%q read back as %s, which does not read: %v", b, got, err)
		}
		again, ok := history.AppendDetailsCode(nil, len(ds), func(i int) *trajeval.Details { return ds[i] })
		if !ok {
			t.Fatalf("%s read back, and is not encoded again", got)
		}
		// Not got itself: a string of bad UTF-8 reads back from got as
		// U+FFFD, whose JSON is not the escape got holds.
		back, err := history.ReadDetails(again)
		if want := detailsJSON(t, ds); err != nil || string(back) != string(want) {
			t.Errorf("encoded again, reads back as\n%s (%v)\nwant\n%s", back, err, want)
		}
	})
}

// detailedResults are results() and a case whose details the encoding
// carries (results()'s are all kept as JSON).
func detailedResults() []trajeval.CaseResult {
	d := carriedDetails()
	// Bad UTF-8 reads back from any JSON as U+FFFD, and the text of an
	// argument difference as the JSON wrote it, < escaped.
	d.Extra[1].Tool = "filter"
	d.Missing[1].Near[0].Diffs[0].Want = `"New York"`
	return append(results(), trajeval.CaseResult{ID: "d", Suite: "shop", Status: trajeval.StatusFail, Score: 0.5,
		Evaluators: []trajeval.Result{
			{Name: "calls", Type: "tool_trajectory", Score: 0.5, Status: trajeval.StatusFail, Threshold: 1, Weight: 1, Details: d},
			{Name: "none", Type: "contains", Score: 1, Status: trajeval.StatusPass, Threshold: 1, Weight: 1},
		}})
}

// TestOpen_migrateVersion9: a SQLite file of schema version 9 (details
// in chunks as their JSON array) migrates to today's, and its run reads
// back as recorded beside one recorded after, whose carried details are
// in the compact encoding.
func TestOpen_migrateVersion9(t *testing.T) {
	dsn := filepath.Join(t.TempDir(), "runs.db")
	oldFile(t, dsn, 9).Close()
	// Version 10 changes no table: a file of version 9 is one whose
	// details are JSON, and whose schema_version says 9.
	h := open(t, dsn)
	history.SetJSONDetails(t, true)
	run := history.Run{Suites: []string{"shop"}, Start: time.UnixMilli(0), KeepPassing: true}
	old := record(t, h, run, detailedResults())
	h.Close()
	raw := rawDB(t, dsn)
	if _, err := raw.Exec("DELETE FROM schema_version WHERE version > 9"); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	history.SetJSONDetails(t, false)
	h = open(t, dsn)
	if v, err := h.SchemaVersion(t.Context()); err != nil || v != history.Version() {
		t.Fatalf("schema version %d, %v; want %d", v, err, history.Version())
	}
	id := record(t, h, run, detailedResults())
	for _, r := range []int64{old, id} {
		got, err := h.Rows(t.Context(), r, true)
		if err != nil {
			t.Fatal(err)
		}
		if g, w := jsonl(t, got), jsonl(t, detailedResults()); g != w {
			t.Errorf("run %d reads back otherwise than recorded\ngot:\n%s\nwant:\n%s", r, g, w)
		}
	}
	for r, want := range map[int64]bool{old: false, id: true} {
		if got := hasDetailsCode(t, dsn, r); got != want {
			t.Errorf("run %d holds details in the compact encoding: %v, want %v", r, got, want)
		}
	}
}

// hasDetailsCode reports whether a chunk of run holds details in the
// compact encoding: a value there that begins with 'D' (the chunk's
// first, or one after a JSON array).
func hasDetailsCode(t *testing.T, dsn string, run int64) bool {
	t.Helper()
	for _, data := range runChunks(t, dsn, run) {
		if len(data) > 0 && data[0] == 'D' || bytes.Contains(data, []byte("]D")) {
			return true
		}
	}
	return false
}
