package jsonv_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/jsonv"
)

func nest(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }

func TestCheckDepth(t *testing.T) {
	deep := nest(jsonv.MaxDepth + 1)
	tests := []struct {
		name      string
		in        string
		line, col int // 0: no error
		reason    string
	}{
		{"at the limit", nest(jsonv.MaxDepth), 0, 0, "MaxDepth levels are allowed"},
		{"one beyond", deep, 1, jsonv.MaxDepth + 1, "the bracket that opens level MaxDepth+1 is the place"},
		{"objects count", strings.Repeat(`{"a":`, jsonv.MaxDepth+1) + "1" + strings.Repeat("}", jsonv.MaxDepth+1), 1, 5*jsonv.MaxDepth + 1, "objects nest as arrays do"},
		{"siblings do not add", strings.Repeat(nest(100)+",", 50), 0, 0, "depth, not the number of brackets"},
		{"brackets in strings", `["` + strings.Repeat("[", 500) + `"]`, 0, 0, "a string's brackets are text"},
		{"escaped quote", `["\"` + strings.Repeat("[", 500) + `"]`, 0, 0, "an escaped quote does not end the string"},
		{"escaped backslash", `["\\",` + nest(jsonv.MaxDepth) + `]`, 1, jsonv.MaxDepth + 6, "a string ending in an escaped backslash ends"},
		{"placed on its line", "[\n  " + deep[1:], 2, jsonv.MaxDepth + 2, "line and column count from the data's start"},
		{"raw newline ends a string", "{\"a\":\"cut\n" + deep, 2, jsonv.MaxDepth, "a string cut off in one line cannot hide the next line's brackets"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := jsonv.CheckDepth([]byte(tt.in))
			if tt.line == 0 {
				if err != nil {
					t.Fatalf("CheckDepth = %v, want nil (%s)", err, tt.reason)
				}
				return
			}
			var de *jsonv.DepthError
			if !errors.As(err, &de) || !errors.Is(err, jsonv.ErrTooDeep) {
				t.Fatalf("CheckDepth = %v, want a *DepthError (%s)", err, tt.reason)
			}
			if de.Line != tt.line || de.Col != tt.col {
				t.Errorf("at %d:%d, want %d:%d (%s)", de.Line, de.Col, tt.line, tt.col, tt.reason)
			}
		})
	}
}

func TestDecode_depth(t *testing.T) {
	if _, err := jsonv.Decode([]byte(nest(jsonv.MaxDepth))); err != nil {
		t.Fatalf("Decode at the limit: %v", err)
	}
	if _, err := jsonv.Decode([]byte(nest(5000))); !errors.Is(err, jsonv.ErrTooDeep) {
		t.Fatalf("Decode of 5000 levels = %v, want ErrTooDeep: encoding/json allows 10,000", err)
	}
}

func TestParser_Value_depth(t *testing.T) {
	var p jsonv.Parser
	p.Reset([]byte(nest(jsonv.MaxDepth)))
	if _, ok := p.Value(); !ok {
		t.Fatal("Parser refuses MaxDepth levels")
	}
	p.Reset([]byte(nest(jsonv.MaxDepth + 1)))
	if _, ok := p.Value(); ok {
		t.Fatal("Parser reads beyond MaxDepth: it must say no, so that the caller's check refuses it")
	}
}

// FuzzCheckDepth checks CheckDepth against encoding/json's tokens: on
// valid JSON it refuses exactly the values nested deeper than MaxDepth,
// at the bracket that opens the level beyond; on any input it never
// panics and places what it finds within the data.
func FuzzCheckDepth(f *testing.F) {
	for _, s := range []string{`{"a":[1,{"b":"[["}]}`, nest(jsonv.MaxDepth), nest(jsonv.MaxDepth + 1), `["\"[[["]`, "{\"a\":\"cut\n[[", `[1,[2,[3]]]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		err := jsonv.CheckDepth(data)
		var de *jsonv.DepthError
		if err != nil && (!errors.As(err, &de) || de.Offset < 0 || de.Offset >= int64(len(data)) || de.Line < 1 || de.Col < 1) {
			t.Fatalf("CheckDepth = %#v: not a DepthError within the data", err)
		}
		if !json.Valid(data) {
			return
		}
		d := json.NewDecoder(bytes.NewReader(data))
		depth, deepest, at := 0, 0, int64(-1)
		for {
			before := d.InputOffset()
			tok, terr := d.Token()
			if terr != nil {
				break
			}
			switch tok {
			case json.Delim('{'), json.Delim('['):
				if depth++; depth > deepest {
					deepest = depth
					if depth == jsonv.MaxDepth+1 {
						at = before + int64(len(data[before:])-len(bytes.TrimLeft(data[before:], " \t\r\n,:")))
					}
				}
			case json.Delim('}'), json.Delim(']'):
				depth--
			}
		}
		if (deepest > jsonv.MaxDepth) != (err != nil) {
			t.Fatalf("nesting %d levels, CheckDepth = %v", deepest, err)
		}
		if err != nil && de.Offset != at {
			t.Fatalf("CheckDepth at offset %d, the bracket of level %d is at %d", de.Offset, jsonv.MaxDepth+1, at)
		}
	})
}
