package trajeval_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/jsonv/jsonvtest"
)

// sameJSON checks that AppendJSON writes a trajectory whose arguments and
// result are text as it writes the one holding the values the text
// decodes to, and reports whether the text was copied as it stands.
func sameJSON(t testing.TB, text []byte) (copied bool) {
	t.Helper()
	v, derr := trajeval.Decoded(json.RawMessage(text))
	kept := &trajeval.Trajectory{ID: "t", Steps: []trajeval.Step{{Index: 1, Name: "n", Args: json.RawMessage(text), Result: json.RawMessage(text)}}}
	got, gerr := trajeval.AppendJSON(nil, kept)
	copied = trajeval.Canonical(text)
	if derr != nil {
		if copied {
			t.Errorf("%q copied as it stands, but does not decode: %v", text, derr)
		}
		samePointerJSON(t, text, got, gerr)
		return copied
	}
	decoded := &trajeval.Trajectory{ID: "t", Steps: []trajeval.Step{{Index: 1, Name: "n", Args: v, Result: v}}}
	want, werr := trajeval.AppendJSON(nil, decoded)
	if (gerr != nil) != (werr != nil) || !bytes.Equal(got, want) {
		t.Errorf("%q (copied %v) written\n%s (%v)\nwant (its decoded value)\n%s (%v)", text, copied, got, gerr, want, werr)
	}
	samePointerJSON(t, text, got, gerr)
	return copied
}

// samePointerJSON checks that the text as a *json.RawMessage, as readers
// keep it, is written as the json.RawMessage was: got, or the error gerr.
func samePointerJSON(t testing.TB, text, got []byte, gerr error) {
	t.Helper()
	raw := json.RawMessage(text)
	kept := &trajeval.Trajectory{ID: "t", Steps: []trajeval.Step{{Index: 1, Name: "n", Args: &raw, Result: &raw}}}
	p, perr := trajeval.AppendJSON(nil, kept)
	if (perr != nil) != (gerr != nil) || perr == nil && !bytes.Equal(p, got) {
		t.Errorf("%q as a *json.RawMessage written\n%s (%v)\nwant (as a json.RawMessage)\n%s (%v)", text, p, perr, got, gerr)
	}
}

func TestAppendJSON_keptText(t *testing.T) {
	nested := func(n int, leaf string) string { return strings.Repeat("[", n) + leaf + strings.Repeat("]", n) }
	tests := []struct {
		name   string
		text   string
		copied bool
		reason string
	}{
		{"bench arguments", `{"limit":10,"query":"python history"}`, true, "keys in order, nothing to escape"},
		{"bench result", `{"ok":true}`, true, "a literal"},
		{"empty", `{}`, true, "no members"},
		{"values", `[null,true,false,"",0,-0,1.5e+3,1E400,-12345678901234567890,{"":[],"a":{}}]`, true, "every kind; numbers are written as they stand; the empty key first"},
		{"utf-8", `{"ключ":"✓ 😀 é"}`, true, "UTF-8 is written as it is"},
		{"keys by bytes", `{"B":1,"a":2,"é":3}`, true, "keys in the order of their bytes"},
		{"at the depth limit", nested(jsonv.MaxDepth, "1"), true, "nested as deep as decoding allows"},
		{"past the depth limit", nested(jsonv.MaxDepth+1, "1"), false, "deeper than decoding allows: its error, as before"},
		{"keys out of order", `{"query":"python history","limit":10}`, false, "written sorted"},
		{"repeated key", `{"a":1,"a":2}`, false, "decoding keeps the last"},
		{"white space", `{"a": 1}`, false, "written without"},
		{"space at the end", `{"a":1} `, false, "written without"},
		{"escape", `{"a":"\n"}`, false, "an escape is not looked into"},
		{"needless escape", `{"a":"\/"}`, false, "written as /"},
		{"escaped key", `{"\u0061":1}`, false, "the key is a"},
		{"html", `{"a":"<b>&"}`, false, "written escaped, as json.Marshal does"},
		{"c1", "{\"a\":\"x\u009by\"}", false, "a C1 control (CSI) is written escaped"},
		{"c1 key", "{\"\u0085\":1}", false, "in a key too"},
		{"bidi override", "[\"\u202eevil\"]", false, "a bidi override is written escaped"},
		{"bidi isolate", "[\"\u2066x\u2069\"]", false, "a bidi isolate is written escaped"},
		{"line separator", "[\"\u2028\"]", false, "escaped, as json.Marshal does"},
		{"next to the ranges", "[\"\u00a0\u2027\u202f\u2065\u206a\u0100\"]", true, "the characters around the escaped ones are written as they are"},
		{"line separator", "{\"a\":\"\u2028\"}", false, "written escaped"},
		{"invalid utf-8", "{\"a\":\"\xff\"}", false, "written as \\ufffd"},
		{"control character", "[\"\x01\"]", false, "not JSON: refused as before"},
		{"cut short", `{"a":1`, false, "not JSON: refused as before"},
		{"two values", `{}{}`, false, "not one value: refused as before"},
		{"bad number", `[01]`, false, "not JSON: refused as before"},
		{"bad literal", `[nul]`, false, "not JSON: refused as before"},
		{"nothing", ``, false, "no value: refused as before"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if copied := sameJSON(t, []byte(tt.text)); copied != tt.copied {
				t.Errorf("copied %v, want %v: %s", copied, tt.copied, tt.reason)
			}
		})
	}
}

// TestAppendJSON_keptTextFixtures writes every object and array of the
// repository's JSON fixtures as it stands and as encoding/json writes its
// value (sorted, compact: mostly copied), and each with its members
// reversed, as their decoded values are written.
func TestAppendJSON_keptTextFixtures(t *testing.T) {
	all, _ := jsonvtest.Fixtures(t, ".")
	texts, copied := 0, 0
	seen := map[string]bool{}
	for _, text := range all {
		forms := [][]byte{text}
		var v any
		if json.Unmarshal(text, &v) == nil {
			if m, err := json.Marshal(v); err == nil {
				forms = append(forms, m)
			}
		}
		for _, f := range forms {
			if seen[string(f)] {
				continue
			}
			seen[string(f)] = true
			texts++
			if sameJSON(t, f) {
				copied++
			}
		}
	}
	if texts < 5000 || copied < texts/4 {
		t.Fatalf("%d texts, %d copied: the test reads too little", texts, copied)
	}
	t.Logf("%d texts, %d copied as they stand", texts, copied)
}

// FuzzAppendJSON_keptText: any text kept as a step's arguments and result
// is written as its decoded value is, copied or not.
func FuzzAppendJSON_keptText(f *testing.F) {
	for _, s := range []string{
		`{"limit":10,"query":"python history"}`, `{"ok":true}`, `[1,"a",null,{"b":[]}]`, `{"a":1,"a":2}`,
		`{"b":1,"a":2}`, `{"s":"<\u2028>"}`, `[-0.5e+10,1E400]`, "[\"\xff\"]", `{"k":{"k":{"k":{}}}}`, `{"a": 1}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		sameJSON(t, text)
	})
}
