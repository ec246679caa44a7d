package sniff_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/sniff"
)

// FuzzDecoder drives a sniff.Decoder and an encoding/json Decoder with
// the same calls (Token, More, Skip as Decode into a json.RawMessage,
// chosen by ops) over the same head, and checks that they answer alike:
// the same tokens, the same More, an error at the same call.
func FuzzDecoder(f *testing.F) {
	for _, s := range []string{
		`{"id":"a","steps":[{"index":0,"name":"f","args":{}}],"x":[1,2]}`,
		"{\"a\":1}\n{\"b\":[true,null,-1.5e3,\"\\u00e9\"]}",
		`[{"a":1},{"b":2}] {"c":`,
		`{"a" 1} ]`,
	} {
		f.Add([]byte(s), []byte{0, 1, 2, 0, 0, 2, 1, 0, 0, 0, 2, 2, 0, 1})
	}
	f.Fuzz(func(t *testing.T, head, ops []byte) {
		if len(ops) > 200 {
			ops = ops[:200]
		}
		got := sniff.NewDecoder(head)
		want := json.NewDecoder(bytes.NewReader(head))
		want.UseNumber()
		for k, op := range ops {
			var g, w string
			switch op % 3 {
			case 0:
				gt, gerr := got.Token()
				wt, werr := want.Token()
				g, w = fmt.Sprintf("Token %T %v %v", gt, gt, gerr != nil), fmt.Sprintf("Token %T %v %v", wt, wt, werr != nil)
			case 1:
				g, w = fmt.Sprint("More ", got.More()), fmt.Sprint("More ", want.More())
			case 2:
				var raw json.RawMessage
				g, w = fmt.Sprint("Skip ", got.Skip() != nil), fmt.Sprint("Skip ", want.Decode(&raw) != nil)
			}
			if g != w {
				t.Fatalf("head %q, call %d: %s, encoding/json: %s", head, k, g, w)
			}
		}
	})
}

// TestDecoder checks a few heads by FuzzDecoder's rule, calling Token
// until it fails, with Skip after every key.
func TestDecoder(t *testing.T) {
	tests := []struct{ name, head, reason string }{
		{"canonical", `{"id":"a","steps":[{"index":0,"name":"f","args":{"q":[1,{"r":null}]}}]}`, "a trajectory, steps skipped"},
		{"lines", "{\"a\":1}\n{\"b\":2}\n{\"c\":", "values one after another, the last cut off"},
		{"escapes", `{"\u00e9\ud83d\ude00":"\ud800","b":-0.5E+2}`, "keys unescaped, numbers as json.Number"},
		{"broken", `{"a":[1,],"b":2}`, "a broken value fails Skip, and every later value"},
		{"deep", `{"a":` + strings.Repeat("[", 10001) + `}`, "nesting deeper than encoding/json allows"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := sniff.NewDecoder([]byte(tt.head))
			want := json.NewDecoder(strings.NewReader(tt.head))
			want.UseNumber()
			for range 100 {
				gt, gerr := got.Token()
				wt, werr := want.Token()
				if fmt.Sprintf("%T %v %v", gt, gt, gerr != nil) != fmt.Sprintf("%T %v %v", wt, wt, werr != nil) {
					t.Fatalf("Token: %v %v, encoding/json: %v %v", gt, gerr, wt, werr)
				}
				if werr != nil {
					return
				}
				if _, ok := wt.(string); ok && got.More() == want.More() {
					var raw json.RawMessage
					if gs, ws := got.Skip(), want.Decode(&raw); (gs != nil) != (ws != nil) {
						t.Fatalf("Skip: %v, encoding/json: %v", gs, ws)
					}
				}
			}
		})
	}
}
