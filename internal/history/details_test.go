package history_test

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/history"
	"github.com/trajeval/trajeval/internal/jsonv"
)

// detailTexts are the strings details are made of: every one that
// encoding/json escapes (quote, backslash, control characters, <, > and
// &, U+2028 and U+2029, invalid UTF-8), and JSON text in argument
// differences, spaced or compact, valid or not.
var detailTexts = []string{"", "search", `a"b\c`, "tab\there\n", "<b>&amp;</b>", "line\u2028sep\u2029", "bad\xffutf8",
	`"NYC"`, `{"a": [1, 2.50, "<x>"]}`, "3", " 4 ", `{"$regex":"^a&b"}`, "[1,", "nothing", "\u2028",
	trajeval.ArgAbsent, trajeval.ArgMissing, `"\u2028 &"`, `{"k" : "a\u003cb"}`}

func randomDetails(rng *rand.Rand) *trajeval.Details {
	if rng.IntN(6) == 0 {
		return nil
	}
	txt := func() string { return detailTexts[rng.IntN(len(detailTexts))] }
	n := func() int { return rng.IntN(4) - 1 } // -1 to 2: nil, empty or some
	d := &trajeval.Details{Hits: rng.IntN(40) - 3, Expected: rng.IntN(9), Actual: rng.IntN(1 << 20)}
	if rng.IntN(2) == 0 {
		d.Mode = txt()
	}
	for i := range n() {
		d.Matched = append(d.Matched, trajeval.Pair{Item: i + 1, Step: rng.IntN(30), Tool: txt()})
	}
	for i := range n() {
		m := trajeval.Missing{Item: i + 1, Tool: txt()}
		for range n() {
			nm := trajeval.NearMiss{Step: rng.IntN(30), Tool: txt(), Why: txt()}
			for range n() {
				nm.Diffs = append(nm.Diffs, trajeval.ArgDiff{Path: txt(), Want: txt(), Got: txt()})
			}
			m.Near = append(m.Near, nm)
		}
		d.Missing = append(d.Missing, m)
	}
	for range n() {
		d.Extra = append(d.Extra, trajeval.Extra{Step: rng.IntN(30), Tool: txt()})
	}
	for range n() {
		d.Checks = append(d.Checks, trajeval.Check{Name: txt(), Status: txt(), Message: txt()})
	}
	for range n() {
		d.Warnings = append(d.Warnings, txt())
	}
	if rng.IntN(3) == 0 {
		d.Scope = &trajeval.Scope{IncludeSubagents: rng.IntN(2) == 0, Steps: rng.IntN(9), Of: rng.IntN(9)}
		for range n() {
			d.Scope.Agents = append(d.Scope.Agents, txt())
		}
		for range n() {
			d.Scope.InScope = append(d.Scope.InScope, txt())
		}
	}
	switch rng.IntN(3) {
	case 0:
		d.Notes = map[string]any{}
	case 1:
		d.Notes = map[string]any{"lcs": []any{txt(), 2.5}, txt(): map[string]any{"<": true}}
	}
	return d
}

// TestAppendDetails encodes random details by hand and with
// encoding/json: the bytes must be the same, whatever the strings, the
// argument differences' JSON text, and the fields left empty, nil or set.
func TestAppendDetails(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	prefix := []byte("kept")
	for i := range 3000 {
		ds := make([]*trajeval.Details, rng.IntN(4))
		for j := range ds {
			ds[j] = randomDetails(rng)
		}
		want, err := json.Marshal(ds)
		if err != nil {
			t.Fatalf("encoding/json: %v", err)
		}
		got, err := history.AppendDetails(prefix, ds)
		if err != nil {
			t.Fatalf("AppendDetails: %v", err)
		}
		if !bytes.Equal(got, append(prefix[:len(prefix):len(prefix)], want...)) {
			t.Fatalf("details %d: JSON differs:\n got: %s\nwant: %s", i, got, want)
		}
	}
}

// TestAppendDetails_refused: notes encoding/json refuses are refused with
// its error, and nothing is appended.
func TestAppendDetails_refused(t *testing.T) {
	ds := []*trajeval.Details{{Hits: 1}, {Notes: map[string]any{"f": func() {}}}}
	got, err := history.AppendDetails([]byte("kept"), ds)
	if err == nil {
		t.Fatalf("a note that is a function was written: %s", got)
	}
	if string(got) != "kept" {
		t.Errorf("after the error, %q: want what was given", got)
	}
}

// FuzzAppendDetails: whatever the texts of the details, the hand-written
// JSON is encoding/json's, with the characters a terminal would act on
// escaped as every JSON writer of trajeval escapes them (jsonv.Escape).
func FuzzAppendDetails(f *testing.F) {
	f.Add("search", `{"a": "<b>"}`, "3", "mode")
	f.Add("bad\xff", "\u2028", trajeval.ArgMissing, "")
	f.Fuzz(func(t *testing.T, tool, want, got, mode string) {
		ds := []*trajeval.Details{nil, {
			Mode: mode, Hits: 1, Expected: 2,
			Missing: []trajeval.Missing{{Item: 1, Tool: tool, Near: []trajeval.NearMiss{{Step: 1, Tool: tool, Why: got,
				Diffs: []trajeval.ArgDiff{{Path: tool, Want: want, Got: got}, {Path: mode, Want: got, Got: want}}}}}},
			Checks:   []trajeval.Check{{Name: tool, Status: mode, Message: want}},
			Warnings: []string{got},
			Scope:    &trajeval.Scope{Agents: []string{tool}},
		}}
		w, err := json.Marshal(ds)
		if err != nil {
			t.Fatalf("encoding/json: %v", err)
		}
		w = jsonv.Escape(w)
		g, err := history.AppendDetails(nil, ds)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(g, w) {
			t.Errorf("JSON differs:\n got: %s\nwant: %s", g, w)
		}
	})
}

// BenchmarkAppendDetails is the JSON of three evaluators' details of a
// failing case of bench/suitegen, by hand and by encoding/json.
func BenchmarkAppendDetails(b *testing.B) {
	near := []trajeval.NearMiss{{Step: 4, Tool: "read_document", Diffs: []trajeval.ArgDiff{{Path: "args.id", Want: `"doc-10"`, Got: `"doc-3"`}}}}
	ds := []*trajeval.Details{
		{Mode: "in_order", Hits: 2, Expected: 3, Actual: 20, Matched: []trajeval.Pair{{Item: 1, Step: 1, Tool: "search"}, {Item: 3, Step: 9, Tool: "summarize"}},
			Missing: []trajeval.Missing{{Item: 2, Tool: "read_document", Near: near}}},
		{Mode: "superset", Hits: 2, Expected: 2, Actual: 20, Matched: []trajeval.Pair{{Item: 1, Step: 1, Tool: "search"}, {Item: 2, Step: 9, Tool: "summarize"}}},
		{Hits: 2, Expected: 3, Actual: 3, Checks: []trajeval.Check{{Name: "tool_calls", Status: "pass", Message: "20 <= 40"},
			{Name: "tokens", Status: "fail", Message: "1523 > 1400"}, {Name: "cost_usd", Status: "pass"}}},
	}
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := json.Marshal(ds); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("AppendDetails", func(b *testing.B) {
		b.ReportAllocs()
		var buf []byte
		for b.Loop() {
			var err error
			if buf, err = history.AppendDetails(buf[:0], ds); err != nil {
				b.Fatal(err)
			}
		}
	})
}
