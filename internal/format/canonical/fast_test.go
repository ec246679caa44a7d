package canonical_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/canonical"
	"github.com/trajeval/trajeval/internal/format/formattest"
	"github.com/trajeval/trajeval/internal/jsonl"
)

// TestFastRead checks the fast path against the strict parser: it reads
// the trajectories the parser reads, the same, and leaves to the parser
// whatever is an error or a doubt (so that every error keeps its place
// and words).
func TestFastRead(t *testing.T) {
	const step = `{"index":1,"name":"a","args":{}}`
	tests := []struct {
		name   string
		in     string
		read   bool
		reason string
	}{
		{"every field", `{"id":"x","turns":[{"turn":1,"user":"hi","final_response":null}],"steps":[{"index":1,"turn":1,"id":"c1","name":"search","args":{"q":"x","n":9007199254740993,"f":1.0},"result":[1,"a",null,true],"error":false,"error_message":"","duration_ms":12.5,"start_time":"2025-03-01T12:00:00.123456789+02:00","end_time":"2025-03-01T10:00:01Z","parallel_group":1,"agent":"billing"}],"metrics":{"duration_ms":1500,"cost_usd":0.01,"tokens":{"input":10,"output":20,"total":null},"llm_calls":2},"agents":[{"name":"billing","parent":"support"},{"name":"support","parent":null}],"partial":true}`, true, "every field of the canonical form"},
		{"nulls", `{"id":"","turns":null,"steps":[{"index":1,"turn":null,"id":null,"name":null,"args":null,"result":null,"error":null,"error_message":null,"duration_ms":null,"start_time":null,"end_time":null,"parallel_group":null,"agent":null}],"metrics":null,"agents":null,"partial":null}`, true, "null is what the trace does not say"},
		{"no calls", `{"id":"a","turns":[],"steps":[],"metrics":{}}`, true, "an empty list reads as none"},
		{"list", `[{"id":"a","steps":[]},{"id":"b","steps":[` + step + `]}]`, true, "a list of trajectories"},
		{"two on a line", `{"id":"a","steps":[]} {"id":"b","steps":[]}`, true, "values one after another"},
		{"escaped key", `{"i\u0064":"a","steps":[]}`, true, "a key is read unescaped, as the parser reads it"},
		{"unknown field", `{"id":"x","steps":[{"index":1,"name":"a","arguments":{}}]}`, false, "the parser names it"},
		{"key in another case", `{"ID":"x","steps":[]}`, false, "keys are exact"},
		{"field twice", `{"id":"x","id":"y","steps":[]}`, false, "the parser reports it"},
		{"null id", `{"id":null,"steps":[]}`, false, "an error"},
		{"missing steps", `{"id":"x"}`, false, "an error"},
		{"missing name", `{"id":"x","steps":[{"index":1}]}`, false, "an error"},
		{"index out of sequence", `{"id":"x","steps":[` + step + `,{"index":3,"name":"b"}]}`, false, "an error"},
		{"index not whole", `{"id":"x","steps":[{"index":1.0,"name":"a"}]}`, false, "an error"},
		{"turn zero", `{"id":"x","steps":[{"index":1,"turn":0,"name":"a"}]}`, false, "an error"},
		{"turn too large", `{"id":"x","steps":[{"index":1,"turn":2147483648,"name":"a"}]}`, false, "an error"},
		{"token count too large", `{"id":"x","steps":[],"metrics":{"tokens":{"input":9223372036854775808}}}`, false, "an error"},
		{"duration out of range", `{"id":"x","steps":[{"index":1,"name":"a","duration_ms":1e400}]}`, false, "an error"},
		{"bad time", `{"id":"x","steps":[{"index":1,"name":"a","start_time":"yesterday"}]}`, false, "an error"},
		{"year 10000 in UTC", `{"id":"x","steps":[{"index":1,"name":"a","start_time":"9999-12-31T23:00:00-02:00"}]}`, false, "an error"},
		{"error not bool", `{"id":"x","steps":[{"index":1,"name":"a","error":"no"}]}`, false, "an error"},
		{"nameless agent", `{"id":"x","steps":[],"agents":[{"parent":"b"}]}`, false, "an error"},
		{"null trajectory", `null`, false, "an error"},
		{"trailing comma", `{"id":"x","steps":[]},`, false, "left to the parser"},
		{"invalid UTF-8", "{\"id\":\"\xff\",\"steps\":[]}", false, "encoding/json replaces it"},
		{"lone surrogate", `{"id":"\ud800","steps":[]}`, false, "encoding/json replaces it"},
		{"cut off", `{"id":"x","steps":[`, false, "damage is the parser's to place"},
		{"deep args", `{"id":"x","steps":[{"index":1,"name":"a","args":` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `}]}`, false, "too deep"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			read, diff := canonical.FastAgrees([]byte(tt.in))
			if read != tt.read {
				t.Fatalf("read = %v, want %v: %s", read, tt.read, tt.reason)
			}
			if diff != "" {
				t.Errorf("%s: %s", diff, tt.reason)
			}
		})
	}
}

// FuzzFastRead checks that whatever the fast path reads, the parser reads
// the same.
func FuzzFastRead(f *testing.F) {
	files, _ := filepath.Glob("../*/testdata/*/*.want.jsonl")
	more, _ := filepath.Glob("testdata/trajeval/*")
	for _, name := range append(files, more...) {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		_ = jsonl.Each(bytes.NewReader(data), func(line []byte, _ int) error {
			f.Add(append([]byte(nil), line...))
			return nil
		})
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if read, diff := canonical.FastAgrees(data); read && diff != "" {
			t.Fatalf("%q: %s", data, diff)
		}
	})
}

// TestFastRead_goldens checks that the fast path reads every reader's
// golden trajectories, which are what convert writes, and reads them as
// the parser does: convert's output must not fall back to the slow path.
func TestFastRead_goldens(t *testing.T) {
	for _, path := range goldens(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if read, diff := canonical.FastAgrees(data); !read || diff != "" {
			t.Errorf("%s: fast path read %v, %s", path, read, diff)
		}
	}
}

// TestRead_fallback checks the hand-over from the fast path to the strict
// parser inside one document: the trajectories read before the trouble are
// given once, in order, and the trouble is the parser's.
func TestRead_fallback(t *testing.T) {
	const a, b = `{"id":"a","steps":[]}`, `{"id":"b","steps":[{"index":1,"name":"x","args":{}}]}`
	tests := []struct {
		name    string
		in      string
		lenient bool
		ids     string // the ids read, in order
		err     string
		warn    string
		reason  string
	}{
		{"error in a list", "[" + a + "," + b + `,{"id":"c","steps":[],"model":"m"}]`, false, "a b", `unknown field "model"`, "",
			"strictly, an error stops the read; what came before it was given, once"},
		{"cut list, lenient", "[\n" + a + ",\n" + b + `,{"id":"c","steps":[`, true, "a b", "", "cut off",
			"leniently, the trajectories before the cut are kept once each"},
		{"cut line, lenient", a + "\n" + `{"id":"c","steps":[` + "\n" + b + "\n", true, "a b", "", "t.json:2:20: unexpected end",
			"in JSON Lines the damaged line is dropped and the next read"},
		{"doubt in a list", "[" + a + `,{"id":"b","steps":[{"index":1,"name":"x","args":"\ud800"}]},` + a + "]", false, "a b a", "", "",
			"a lone surrogate, which the fast path leaves to the parser: read once each"},
		{"doubt in a later line", a + "\n" + `{"id":"b","steps":[{"index":1,"name":"x","args":"\ud800"}]}` + "\n" + a + "\n", false, "a b a", "", "",
			"a line the fast path leaves to the parser"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			read := formattest.Read
			if tt.lenient {
				read = formattest.ReadLenient
			}
			out, warns, err := read(canonical.Format, "t.json", []byte(tt.in))
			var ids []string
			for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
				if i := strings.Index(line, `"id":"`); i >= 0 {
					ids = append(ids, strings.SplitN(line[i+6:], `"`, 2)[0])
				}
			}
			if got := strings.Join(ids, " "); got != tt.ids {
				t.Errorf("ids %q, want %q: %s", got, tt.ids, tt.reason)
			}
			if (err == nil) != (tt.err == "") || err != nil && !strings.Contains(err.Error(), tt.err) {
				t.Errorf("err = %v, want %q: %s", err, tt.err, tt.reason)
			}
			if !strings.Contains(string(warns), tt.warn) {
				t.Errorf("warnings %q, want %q: %s", warns, tt.warn, tt.reason)
			}
		})
	}
}

// TestRead_order checks that JSON Lines, decoded on every core, are handed
// on as a reading line by line would: trajectories and warnings in the
// file's order, a line's trajectories before the damage or error that ends
// it, nothing after an error.
func TestRead_order(t *testing.T) {
	var lines []string
	for i := range 300 {
		lines = append(lines, fmt.Sprintf(`{"id":"t%d","steps":[{"index":1,"name":"x","args":{"i":%d}}]}`, i, i))
	}
	lines[100] = `{"id":"d1","steps":[]} {"id":"cut","steps":[`
	lines[200] = `{"id":"d2","steps":[]} {"id":"bad","steps":[],"model":1}`
	data := []byte(strings.Join(lines, "\n") + "\n")
	for _, lenient := range []bool{false, true} {
		var events []string
		in := trajeval.Input{Name: "t.jsonl", R: bytes.NewReader(data), Lenient: lenient,
			Warn: func(w trajeval.Warning) { events = append(events, fmt.Sprintf("warn %d", w.Line)) }}
		err := canonical.Format.Read(context.Background(), in, func(t *trajeval.Trajectory) error {
			events = append(events, t.ID)
			return nil
		})
		var want []string
		for i := range 100 {
			want = append(want, fmt.Sprintf("t%d", i))
		}
		want = append(want, "d1")
		if lenient {
			want = append(want, "warn 101")
			for i := 101; i < 200; i++ {
				want = append(want, fmt.Sprintf("t%d", i))
			}
			want = append(want, "d2")
		}
		if !lenient && (err == nil || !strings.Contains(err.Error(), "t.jsonl:101:")) {
			t.Errorf("strict: error %v, want the cut at line 101", err)
		}
		if lenient && (err == nil || !strings.Contains(err.Error(), `t.jsonl:201:`) || !strings.Contains(err.Error(), `unknown field "model"`)) {
			t.Errorf("lenient: error %v, want the unknown field at line 201", err)
		}
		if got := strings.Join(events, ","); got != strings.Join(want, ",") {
			t.Errorf("lenient %v: events\n%s\nwant\n%s", lenient, got, strings.Join(want, ","))
		}
	}
}
