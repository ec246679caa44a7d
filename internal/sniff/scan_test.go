package sniff_test

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/sniff"
)

// TestKeys compares Keys with refKeys, encoding/json's reading, where the
// two could part.
func TestKeys(t *testing.T) {
	tests := []struct {
		name, head string
		reason     string
	}{
		{"object", `{"a":1,"b":{"c":[1,2,{"d":null}]},"e":"f"}`, "values of every kind skipped"},
		{"escaped key", `{"k\u0065y":1,"\ud83d\ude00":2,"\ud800":3,"x\xff":4}`, "keys unescaped, invalid UTF-8 as U+FFFD"},
		{"cut value", `{"a":1,"b":{"c":`, "the key of a value cut off counts"},
		{"cut key", `{"a":1,"bb`, "a key cut off does not"},
		{"no colon", `{"a" 1,"b":2}`, "a missing colon stops after the key"},
		{"bad value", `{"a":[1,],"b":2}`, "a broken value stops after its key"},
		{"bad number", `{"a":1.,"b":2}`, "a broken number stops after its key"},
		{"number then junk", `{"a":1x,"b":2}`, "junk after a value stops"},
		{"no comma", `{"a":1 "b":2}`, "a missing comma stops"},
		{"trailing comma", `{"a":1,}`, "a trailing comma stops"},
		{"array", `[{"a":1}]`, "not an object: nil"},
		{"empty", `{}`, "no keys: nil"},
		{"lines", "{\"a\":1}\n{\"b\":2}", "only the first object"},
		{"bom", "\ufeff {\"a\":1}", "a byte order mark and space"},
		{"deep", `{"a":` + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + `,"b":` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `,"c":1}`, "nesting as deep as encoding/json allows, and one more"},
		{"control", "{\"a\":\"x\ty\",\"b\":1}", "a control character in a string stops"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sameKeys(t, []byte(tt.head))
		})
	}
}

// FuzzKeys checks that Keys and refKeys agree on any bytes, and that
// Unquote decodes every string as encoding/json does.
func FuzzKeys(f *testing.F) {
	for _, s := range []string{
		`{"a":1,"b":{"c":[1,2,{"d":null}]},"e":"f"}`,
		`{"k\u0065y":[true,false,-1.5e3],"\ud83d\ude00":"\ud800"}`,
		`{"a":"x\n\"","b":`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, head []byte) {
		sameKeys(t, head)
		for i, c := range head {
			if c != '"' {
				continue
			}
			n, plain, ok := sniff.ScanString(head[i:])
			var want string
			err := json.Unmarshal(head[i:i+max(n, 1)], &want)
			if ok != (err == nil) {
				t.Fatalf("ScanString(%q) = %v, encoding/json: %v", head[i:], ok, err)
			}
			if ok {
				if got := string(sniff.Unquote(nil, head[i:i+n], plain)); got != want {
					t.Fatalf("Unquote(%q) = %q, want %q", head[i:i+n], got, want)
				}
			}
		}
	})
}

func sameKeys(t *testing.T, head []byte) {
	t.Helper()
	got, want := sniff.Keys(head), refKeys(head)
	if !slices.Equal(got, want) || (got == nil) != (want == nil) {
		t.Errorf("Keys(%.200q) = %q, want %q", head, got, want)
	}
	if b := bytes.TrimSpace(head); len(b) > 0 && b[0] == '[' {
		if got, want := sniff.FirstElementKeys(head), refKeys(b[1:]); !slices.Equal(got, want) {
			t.Errorf("FirstElementKeys(%.200q) = %q, want %q", head, got, want)
		}
	}
}

// FuzzMayHaveKey checks MayHaveKey's promise: when it says no, decoding
// with encoding/json finds no such key.
func FuzzMayHaveKey(f *testing.F) {
	for _, s := range []string{`{"payload":1}`, `{"PayLoad":{}}`, `{"p\u0061yload":1}`, `{"type":"x"}`, `{"record_type":"state"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if sniff.MayHaveKey(b, "payload", "record_type") {
			return
		}
		var e struct {
			Payload    json.RawMessage `json:"payload"`
			RecordType *string         `json:"record_type"`
		}
		if json.Unmarshal(b, &e) == nil && (e.Payload != nil || e.RecordType != nil) {
			t.Fatalf("MayHaveKey(%q) = false, but encoding/json found %+v", b, e)
		}
	})
}

// TestMayHaveKey checks MayHaveKey on the cases it must not miss.
func TestMayHaveKey(t *testing.T) {
	tests := []struct {
		b      string
		want   bool
		reason string
	}{
		{`{"payload":1}`, true, "the name itself"},
		{`{"PAYload":1}`, true, "in another case, which encoding/json matches"},
		{`{"p\u0061yload":1}`, true, "an escape could spell it"},
		{`{"pay` + "\u017f" + `":1}`, true, "a byte past ASCII could fold to it"},
		{`{"type":"message","content":"pay load"}`, false, "none of it"},
	}
	for _, tt := range tests {
		if got := sniff.MayHaveKey([]byte(tt.b), "payload"); got != tt.want {
			t.Errorf("MayHaveKey(%q) = %v, want %v (%s)", tt.b, got, tt.want, tt.reason)
		}
	}
}
