package jsonl_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/jsonl"
	"github.com/trajeval/trajeval/internal/jsonv"
)

func TestDescribe(t *testing.T) {
	type rec struct {
		ID    string  `json:"id"`
		N     int     `json:"n"`
		Cost  float64 `json:"cost"`
		Calls []struct {
			Tool string `json:"tool"`
		} `json:"calls"`
	}
	tests := []struct {
		name   string
		in     string // ‸ marks where the error must point
		msg    string
		reason string
	}{
		{"syntax", `{"id" : ‸: 1}`, "invalid JSON: invalid character ':' looking for beginning of value", "the offending byte, not the one after it"},
		{"truncated", `{"id": "x", "calls": [‸`, "unexpected end of JSON", "just after the last byte"},
		{"string for number", `{"n": ‸"7"}`, `expected an integer for "n", got a string`, "the value's first byte, not after it"},
		{"string with escaped quote", `{"cost": ‸"a\"b\\"}`, `expected a number for "cost", got a string`, "back over escaped quotes to the opening one"},
		{"number for string", `{"id": ‸12345}`, `expected a string for "id", got a number`, "the start of the number"},
		{"bool", `{"n": ‸true}`, `expected an integer for "n", got true or false`, "a literal"},
		{"fraction for integer", `{"n": ‸1.5}`, `expected an integer for "n", got 1.5`, "the number itself"},
		{"object for array", `{"calls": ‸{"tool": "x"}}`, `expected an array for "calls", got an object`, "the opening brace"},
		{"nested field", `{"calls": [{"tool": ‸[1]}]}`, `expected a string for "tool", got an array`, "the last part of the path names the key"},
		{"array for object", `‸[1, 2]`, "expected an object, got an array", "the top level has no key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			i := strings.Index(tt.in, "‸")
			data := []byte(tt.in[:i] + tt.in[i+len("‸"):])
			var r rec
			err := json.Unmarshal(data, &r)
			if err == nil {
				t.Fatal("no error")
			}
			msg, line, col := jsonl.Describe(data, err, 1)
			if line != 1 || col != i+1 || !strings.HasPrefix(msg, tt.msg) {
				t.Errorf("Describe = %q at %d:%d, want %q at 1:%d: %s", msg, line, col, tt.msg, i+1, tt.reason)
			}
			if strings.Contains(msg, "Go ") || strings.Contains(msg, "json:") {
				t.Errorf("message %q speaks of Go", msg)
			}
		})
	}
}

func TestDecode(t *testing.T) {
	tests := []struct {
		name, in string
		msg      string
		col      int
		reason   string
	}{
		{"trailing data", `{"a": 1} x`, "invalid JSON: unexpected data after the JSON value", 10, "the first byte after the value"},
		{"decoder syntax error", `{"a": 1,, "b": 2}`, "invalid JSON: invalid character ','", 9, "the offending comma"},
		{"cut off", `{"a": [1, 2`, "unexpected end of JSON", 12, "after the last byte"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := jsonl.Decode([]byte(tt.in))
			if err == nil {
				t.Fatal("no error")
			}
			msg, _, col := jsonl.Describe([]byte(tt.in), err, 1)
			if col != tt.col || !strings.HasPrefix(msg, tt.msg) || strings.HasSuffix(msg, ": ") {
				t.Errorf("Describe = %q at column %d, want %q at %d: %s", msg, col, tt.msg, tt.col, tt.reason)
			}
		})
	}
}

// TestDecode_parserFirst: a value the jsonv.Parser reads is taken from
// it, without encoding/json's decoder; nesting past MaxDepth is still a
// *jsonv.DepthError.
func TestDecode_parserFirst(t *testing.T) {
	data := []byte(`{"id":"doc-1"}`)
	jsonl.Decode(data) // the parser's pool and caches
	if n := testing.AllocsPerRun(20, func() {
		if _, err := jsonl.Decode(data); err != nil {
			t.Fatal(err)
		}
	}); n > 3 {
		t.Errorf("Decode of a one-member object: %v allocations, want at most 3 (the map and its members)", n)
	}
	deep := []byte(strings.Repeat(`{"a":`, jsonv.MaxDepth+1) + "1" + strings.Repeat("}", jsonv.MaxDepth+1))
	var de *jsonv.DepthError
	if _, err := jsonl.Decode(deep); !errors.As(err, &de) {
		t.Errorf("Decode of %d nested objects: %v, want a *jsonv.DepthError", jsonv.MaxDepth+1, err)
	}
}

func TestSalvage(t *testing.T) {
	tests := []struct{ in, want, reason string }{
		{`{"a": [1, 2, {"b": "x`, `{"a":[1,2,{}]}`, "open containers closed, the cut string dropped"},
		{`{"a": 1, "b" :: 2}`, `{"a":1}`, "a key without its value dropped"},
		{`{"n": 9007199254740993, "x": tru`, `{"n":9007199254740993}`, "numbers stay exact"},
		{`  ,`, `null`, "nothing before the break"},
	}
	for _, tt := range tests {
		got, _ := json.Marshal(jsonl.Salvage([]byte(tt.in)))
		if string(got) != tt.want {
			t.Errorf("Salvage(%q) = %s, want %s: %s", tt.in, got, tt.want, tt.reason)
		}
	}
}

func TestEach_depth(t *testing.T) {
	deep := strings.Repeat("[", jsonv.MaxDepth+1) + strings.Repeat("]", jsonv.MaxDepth+1)
	var seen []int
	err := jsonl.Each(strings.NewReader("{}\n  "+deep+"\n{}\n"), func(_ []byte, n int) error {
		seen = append(seen, n)
		return nil
	})
	var de *jsonv.DepthError
	if !errors.As(err, &de) || de.Line != 2 || de.Col != jsonv.MaxDepth+3 {
		t.Fatalf("Each = %v (%+v), want a *DepthError at 2:%d", err, de, jsonv.MaxDepth+3)
	}
	if len(seen) != 1 {
		t.Errorf("fn saw lines %v, want only line 1: the deep line is refused before fn decodes it", seen)
	}
	if got := jsonl.TooDeep("x.jsonl", err).Error(); !strings.HasPrefix(got, "x.jsonl:2:131: JSON nested deeper than 128") {
		t.Errorf("TooDeep = %q, want it placed in the file", got)
	}
}

func TestSalvage_depth(t *testing.T) {
	deep := `{"a":` + strings.Repeat("[", 100000)
	v := jsonl.Salvage([]byte(deep))
	depth := 0
	for x := v; ; depth++ {
		switch y := x.(type) {
		case map[string]any:
			x = y["a"]
			continue
		case []any:
			if len(y) > 0 {
				x = y[0]
				continue
			}
		}
		break
	}
	if depth > jsonv.MaxDepth {
		t.Errorf("Salvage built %d levels, want at most %d: what it returns is decoded again, recursively", depth, jsonv.MaxDepth)
	}
}

func TestDescribe_depth(t *testing.T) {
	data := []byte("{\"a\":\n" + strings.Repeat("[", 200))
	_, err := jsonl.Decode(data)
	msg, line, col := jsonl.Describe(data, err, 10)
	if !errors.Is(err, jsonv.ErrTooDeep) || line != 11 || col != jsonv.MaxDepth || !strings.Contains(msg, "nested deeper") {
		t.Errorf("Describe = %q at %d:%d (err %v), want the depth at 11:%d", msg, line, col, err, jsonv.MaxDepth)
	}
}

// TestEach_buffer checks that Each buffers an input no more than its size
// when it says what it holds, and reads the lines of a *bufio.Reader with
// that reader: a suite with a trace file per case reads thousands of small
// files, and 64 KiB for each was most of what reading them allocated.
func TestEach_buffer(t *testing.T) {
	const data = `{"a": 1}` + "\n" + `{"b": [1, 2]}` + "\n"
	tests := []struct {
		name   string
		r      func() io.Reader
		max    uint64 // bytes allocated a read, at most
		reason string
	}{
		{"sized", func() io.Reader { return bytes.NewReader([]byte(data)) }, 4 << 10, "a buffer of the input's size, not 64 KiB"},
		{"buffered", func() io.Reader { return bufio.NewReaderSize(strings.NewReader(data), 64) }, 4 << 10, "the reader itself, however small its buffer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			read := func() {
				lines := 0
				if err := jsonl.Each(tt.r(), func([]byte, int) error { lines++; return nil }); err != nil || lines != 2 {
					t.Fatalf("%d lines, %v", lines, err)
				}
			}
			read()
			const runs = 20
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for range runs {
				read()
			}
			runtime.ReadMemStats(&after)
			if per := (after.TotalAlloc - before.TotalAlloc) / runs; per > tt.max {
				t.Errorf("%d bytes allocated a read, want at most %d (%s)", per, tt.max, tt.reason)
			}
		})
	}
}

// TestEach_longLine checks that a line longer than the buffer, made small
// for an input that says it holds little, is still read whole.
func TestEach_longLine(t *testing.T) {
	long := `{"a": "` + strings.Repeat("x", 200<<10) + `"}`
	tests := []struct {
		name   string
		r      io.Reader
		reason string
	}{
		{"said less", sizedReader{bytes.NewReader([]byte(long + "\n{}\n")), 10}, "an input that grew after its size was taken"},
		{"small bufio", bufio.NewReaderSize(strings.NewReader(long+"\n{}\n"), 16), "a reader with the smallest buffer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []int
			err := jsonl.Each(tt.r, func(line []byte, n int) error {
				got = append(got, len(line))
				return nil
			})
			if err != nil || len(got) != 2 || got[0] != len(long) || got[1] != 2 {
				t.Errorf("lines of %v bytes, %v; want [%d 2] (%s)", got, err, len(long), tt.reason)
			}
		})
	}
}

// sizedReader says it holds size bytes, whatever it holds.
type sizedReader struct {
	*bytes.Reader
	size int64
}

func (r sizedReader) Size() int64 { return r.size }
