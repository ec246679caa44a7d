package argmatch_test

import (
	"encoding/json"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/argmatch"
	"github.com/trajeval/trajeval/internal/jsonv"
)

// decodedMatch is what Match answers for text decoded first: no match
// for text that does not decode.
func decodedMatch(m *argmatch.Matcher, text string) bool {
	v, err := jsonv.Decode([]byte(text))
	if err != nil {
		return false
	}
	return m.Match(v)
}

// TestMatcher_Match_text holds a match of arguments kept as JSON text,
// which reads only the members the pattern names, to the match of the
// same text decoded, where the two ways could part: repeated keys,
// escapes, text that is not JSON, or not an object. MatchWith, reading
// with one Parser case after case, answers the same.
func TestMatcher_Match_text(t *testing.T) {
	var p jsonv.Parser
	tests := []struct {
		name, want, got string
		mode            trajeval.ArgsMatch
		match           bool
		reason          string
	}{
		{"repeated key, last matches", `{"id":"a"}`, `{"id":"b","id":"a"}`, partial, true, "the decoded object keeps the last of a repeated key"},
		{"repeated key, last differs", `{"id":"a"}`, `{"id":"a","id":"b"}`, partial, false, "an earlier match does not count once the key comes again"},
		{"repeated key, exact", `{"id":"a","n":1}`, `{"n":2,"id":"a","n":1}`, exact, true, "exact counts keys of the decoded object"},
		{"repeated key, subset", `{"id":"a"}`, `{"id":"x","id":"a"}`, subset, true, "subset checks the last value too"},
		{"escaped key", `{"id":"a"}`, `{"\u0069d":"a"}`, partial, true, "a key is compared unescaped"},
		{"escaped value", `{"q":"a\"b"}`, `{"q":"a\u0022b"}`, partial, true, "a value is compared unescaped"},
		{"invalid after a match", `{"id":"a"}`, `{"id":"a","x":}`, partial, false, "text that does not decode never matches"},
		{"data after the object", `{"id":"a"}`, `{"id":"a"} x`, partial, false, "one value only"},
		{"white space around", `{"id":"a"}`, " \n{ \"id\" : \"a\" }\t", partial, true, "white space is not data"},
		{"not an object", `{}`, `null`, partial, true, "null arguments are the empty object (decoded: the Parser refuses it)"},
		{"an array", `{}`, `[1]`, partial, false, "an array is not arguments"},
		{"invalid UTF-8 in another member", `{"id":"a"}`, "{\"id\":\"a\",\"x\":\"\xff\"}", partial, true, "encoding/json replaces invalid bytes: decoded, it still matches"},
		{"invalid UTF-8 in the member", `{"id":"\ufffd"}`, "{\"id\":\"\xff\"}", partial, true, "the replaced byte is U+FFFD"},
		{"nested object", `{"a":{"b":[1,{"c":"x"}]}}`, `{"z":[{}],"a":{"b":[1.0,{"c":"x","d":2}]}}`, partial, true, "a named member's value is decoded whole"},
		{"exact extra key", `{"id":"a"}`, `{"id":"a","x":null}`, exact, false, "a key the pattern does not name"},
		{"subset extra key", `{"id":"a","n":1}`, `{"x":1}`, subset, false, "a key the pattern does not name"},
		{"subset nothing", `{"id":"a","n":1}`, `{}`, subset, true, "nothing given is a subset"},
		{"empty pattern", `{}`, `{"a":[1,2,{"b":null}]}`, partial, true, "{} is a subset of everything"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := argmatch.New(js(t, tt.want), tt.mode, argmatch.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if d := decodedMatch(m, tt.got); d != tt.match {
				t.Fatalf("decoded: Match = %v, want %v (the case is wrong): %s", d, tt.match, tt.reason)
			}
			if got := m.Match(json.RawMessage(tt.got)); got != tt.match {
				t.Errorf("Match(text %q) = %v, want %v: %s", tt.got, got, tt.match, tt.reason)
			}
			tr := argmatch.NewTrail([]trajeval.Step{{Name: "t", Args: json.RawMessage(tt.got)}})
			if got := m.MatchWith(&p, tr, 0); got != tt.match {
				t.Errorf("MatchWith(text %q) = %v, want %v: %s", tt.got, got, tt.match, tt.reason)
			}
		})
	}
}

// fuzzPatterns are the expected arguments FuzzMatcher_Match_text tries
// each text against, in every mode.
var fuzzPatterns = []string{
	`{}`,
	`{"id":"doc-5"}`,
	`{"query":"python history","limit":10}`,
	`{"a":{"b":[1,{"c":"x"}]},"n":1.5}`,
	`{"id":{"$regex":"^doc"},"n":{"$gt":0},"t":{"$oneOf":["a",null,true]}}`,
}

// FuzzMatcher_Match_text: for any text, a match of it kept as text is the
// match of it decoded (no match when it does not decode), through Match
// and through MatchWith with one Parser for every matcher.
func FuzzMatcher_Match_text(f *testing.F) {
	for _, s := range []string{`{"id":"doc-5"}`, `{"id":"doc-5","id":"x"}`, `{"query":"python history","limit":1e1}`,
		`{"a":{"b":[1,{"c":"x"}]},"n":15e-1,"z":[]}`, `{"id":"doc","n":2,"t":null}`, `{"\u0069d":"doc-5"}`, `null`, `[]`, `{"id":"doc-5"} {}`} {
		f.Add(s)
	}
	var ms []*argmatch.Matcher
	for _, p := range fuzzPatterns {
		for _, mode := range []trajeval.ArgsMatch{partial, exact, subset} {
			for _, opt := range []argmatch.Options{{}, {Trim: true, CaseInsensitive: true}} {
				m, err := argmatch.New(js(f, p), mode, opt)
				if err != nil {
					f.Fatal(err)
				}
				ms = append(ms, m)
			}
		}
	}
	f.Fuzz(func(t *testing.T, text string) {
		var p jsonv.Parser
		tr := argmatch.NewTrail([]trajeval.Step{{Name: "t", Args: json.RawMessage(text)}})
		for k, m := range ms {
			want := decodedMatch(m, text)
			if got := m.Match(json.RawMessage(text)); got != want {
				t.Fatalf("matcher %d (%s): Match(text %q) = %v, decoded %v", k, fuzzPatterns[k/6], text, got, want)
			}
			if got := m.MatchWith(&p, tr, 0); got != want {
				t.Fatalf("matcher %d (%s): MatchWith(text %q) = %v, decoded %v", k, fuzzPatterns[k/6], text, got, want)
			}
		}
	})
}
