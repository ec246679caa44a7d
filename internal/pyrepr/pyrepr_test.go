package pyrepr_test

import (
	"testing"

	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/pyrepr"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name, in string
		want     string // the value as JSON; "" when Parse must fail
		reason   string
	}{
		{"dict", `{'city': 'Paris', 'n': 2}`, `{"city":"Paris","n":2}`, "str(dict) uses single quotes"},
		{"constants", `{'a': True, 'b': False, 'c': None}`, `{"a":true,"b":false,"c":null}`, "Python's constants are capitalised"},
		{"tuple", `('x', 1.5)`, `["x",1.5]`, "a tuple is a list"},
		{"big int", `{'ref': 9007199254740993}`, `{"ref":9007199254740993}`, "integers stay exact"},
		{"escapes", `{'q': 'it\'s \u00e9'}`, `{"q":"it's é"}`, "repr escapes quotes and may escape non-ASCII"},
		{"int key", `{1: 'a'}`, `{"1":"a"}`, "json.dumps writes a non-string key as its text"},
		{"bare word", `Oslo`, "", "a bare word is no literal"},
		{"set", `{'a', 'b'}`, "", "sets have no JSON form"},
		{"trailing", `{'a': 1} x`, "", "nothing may follow the value"},
		{"call", `datetime(2024, 1, 1)`, "", "a constructor call is no literal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := pyrepr.Parse(tt.in)
			if tt.want == "" {
				if err == nil {
					t.Fatalf("Parse(%q) = %s, want an error: %s", tt.in, jsonv.Marshal(got), tt.reason)
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse(%q): %v (%s)", tt.in, err, tt.reason)
			}
			if s := jsonv.Marshal(got); s != tt.want {
				t.Errorf("Parse(%q) = %s, want %s: %s", tt.in, s, tt.want, tt.reason)
			}
		})
	}
}
