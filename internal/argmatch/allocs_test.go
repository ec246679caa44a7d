package argmatch_test

import (
	"encoding/json"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/argmatch"
)

// TestMatcher_Match_allocs keeps a match free of allocation: a suite
// matches every expected call against every step of every case, so an
// allocation here is one per pair (the explanation, which runs once per
// difference reported, may allocate).
func TestMatcher_Match_allocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	tests := []struct {
		name, want, got string
		mode            trajeval.ArgsMatch
		match           bool
		textAllocs      float64 // kept as text: the named members' objects and arrays, decoded
		reason          string
	}{
		{"partial equal", `{"id":"doc-5"}`, `{"id":"doc-5","limit":3}`, partial, true, 0, "the common case: one key, extra keys allowed"},
		{"partial differs", `{"id":"doc-5"}`, `{"id":"doc-6"}`, partial, false, 0, "a mismatch builds no path when nothing is explained"},
		{"partial nested", `{"a":{"b":[1,{"c":"x"}]}}`, `{"a":{"b":[1,{"c":"x"}]}}`, partial, true, 6, "objects and arrays below args"},
		{"exact equal", `{"id":"doc-5","n":1}`, `{"n":1,"id":"doc-5"}`, exact, true, 0, "exact visits the actual keys without sorting them"},
		{"exact extra key", `{"id":"doc-5"}`, `{"id":"doc-5","x":1}`, exact, false, 0, "an extra key found without a list of keys"},
		{"subset", `{"id":"doc-5","n":1}`, `{"id":"doc-5"}`, subset, true, 0, "subset checks each actual key's value"},
		{"operators", `{"id":{"$regex":"^doc"},"n":{"$gt":0},"t":{"$oneOf":["a","b"]}}`, `{"id":"doc-5","n":2,"t":"b"}`, partial, true, 0, "operators match in place"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := argmatch.New(js(t, tt.want), tt.mode, argmatch.Options{})
			if err != nil {
				t.Fatal(err)
			}
			got := js(t, tt.got)
			if m.Match(got) != tt.match {
				t.Fatalf("Match = %v, want %v", !tt.match, tt.match)
			}
			if n := testing.AllocsPerRun(100, func() { m.Match(got) }); n != 0 {
				t.Errorf("Match allocates %v times a call, want 0: %s", n, tt.reason)
			}
			raw := json.RawMessage(tt.got)
			// By hand a json.RawMessage; from a reader a *json.RawMessage.
			for _, text := range []any{raw, &raw} {
				if m.Match(text) != tt.match {
					t.Fatalf("Match(%T) = %v, want %v", text, !tt.match, tt.match)
				}
				if n := testing.AllocsPerRun(100, func() { m.Match(text) }); n > tt.textAllocs {
					t.Errorf("Match of arguments kept as text (%T) allocates %v times a call, want at most %v: %s", text, n, tt.textAllocs, tt.reason)
				}
			}
			st := []trajeval.Step{{Index: 1, Name: "t", Args: got}}
			if n := testing.AllocsPerRun(100, func() {
				tr := argmatch.TrailOf(st)
				m.MatchAt(&tr, 0)
			}); n != 0 {
				t.Errorf("a trail and MatchAt allocate %v times a case, want 0: %s", n, tt.reason)
			}
		})
	}
}

// BenchmarkMatcher_Match matches one expected call's arguments against
// a step's, as the relation of calls and steps does for every pair, the
// arguments decoded and kept as text:
// go test ./internal/argmatch -bench Matcher_Match -benchmem.
func BenchmarkMatcher_Match(b *testing.B) {
	for _, bb := range []struct {
		name, want, got string
		mode            trajeval.ArgsMatch
	}{
		{"partial", `{"id":"doc-5"}`, `{"id":"doc-6","limit":3}`, partial},
		{"exact", `{"query":"python history","limit":10}`, `{"limit":10,"query":"python history"}`, exact},
		{"subset", `{"query":"python history","limit":10}`, `{"query":"python"}`, subset},
	} {
		b.Run(bb.name, func(b *testing.B) {
			m, err := argmatch.New(js(b, bb.want), bb.mode, argmatch.Options{})
			if err != nil {
				b.Fatal(err)
			}
			got := js(b, bb.got)
			b.ReportAllocs()
			for b.Loop() {
				m.Match(got)
			}
		})
		// The same arguments kept as JSON text, as a reader keeps them.
		b.Run(bb.name+" text", func(b *testing.B) {
			m, err := argmatch.New(js(b, bb.want), bb.mode, argmatch.Options{})
			if err != nil {
				b.Fatal(err)
			}
			var got any = json.RawMessage(bb.got)
			b.ReportAllocs()
			for b.Loop() {
				m.Match(got)
			}
		})
	}
}
