package msglog_test

import (
	"bytes"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/format/msglog"
	"github.com/trajeval/trajeval/internal/sniff"
)

// TestSniffFacts compares SniffFacts with refFacts, encoding/json's
// reading, on heads chosen for the places the two could part: escapes,
// invalid UTF-8, numbers, literals, syntax errors and cut-off heads.
func TestSniffFacts(t *testing.T) {
	tests := []struct {
		name, head string
		reason     string
	}{
		{"chat", `{"messages":[{"role":"user","content":"hi"},{"role":"assistant","tool_calls":[{"function":{"name":"f"}}]}]}`, "keys and values at every depth"},
		{"lines", "{\"type\":\"human\"}\n{\"type\":\"ai\",\"data\":{\"content\":\"x\"}}\n", "JSON Lines: each line a record"},
		{"top array", `[{"run_type":"tool"},{"run_type":"llm","child_runs":[{"run_type":"chain"}]}]`, "elements of a top-level array are records"},
		{"escapes", `{"k\u0065y":"v\n\"\/\\\u00e9","a\ud83d\ude00":"\ud800x","b":"\udc00\u0041"}`, "keys and values unescaped, lone surrogates U+FFFD"},
		{"bad utf-8", "{\"k\xff\":\"v\xc3\",\"\xed\xa0\x80\":\"ok\"}", "each invalid byte read as U+FFFD"},
		{"long value", `{"a":"` + strings.Repeat("x", 64) + `","b":"` + strings.Repeat("y", 65) + `","c":"` + strings.Repeat(`\u0041`, 64) + `","d":"` + strings.Repeat(`\u0041`, 65) + `"}`, "64 decoded bytes count, 65 do not"},
		{"invalid bytes grow", `{"a":"` + strings.Repeat("\xff", 22) + `","b":"` + strings.Repeat("\xff", 21) + `"}`, "U+FFFD takes three bytes"},
		{"empty key", `{"":{"a":"b"},"x":[{"":"v"}]}`, "an empty key is no parent, and holds no value"},
		{"numbers", `{"a":[1,-0,1.5e+3,2E-1,0],"b":"x"} {"c":-1}`, "numbers end where they cannot go on"},
		{"bad number", `{"a":"x","b":1.,"c":"y"}`, "a broken number ends the reading"},
		{"number then value", `1"a"{"b":"c"}`, "at the top, a number may be followed at once by a value"},
		{"literals", `{"a":true,"b":false,"c":null,"d":"e"}`, "literals"},
		{"bad literal", `{"a":tru,"b":"c"}`, "a broken literal ends the reading"},
		{"cut key", `{"a":"b","messages`, "a key cut off is no fact"},
		{"cut after key", `{"a":"b","messages"`, "a key whose value is cut off is a fact"},
		{"cut value", `{"a":"b","role":"us`, "a value cut off is no fact"},
		{"trailing comma", `{"a":[1,],"b":"c"}`, "a trailing comma ends the reading"},
		{"missing colon", `{"a" "b","c":"d"}`, "a missing colon ends the reading"},
		{"object in key place", `{"a":1,{"b":"c"}}`, "a value where a key goes ends the reading"},
		{"unbalanced", `{"a":"b"}]{"c":"d"}`, "a stray bracket ends the reading"},
		{"control char", "{\"a\":\"b\",\"c\":\"d\te\",\"f\":\"g\"}", "a control character in a string ends the reading"},
		{"bad escape", `{"a":"b","c":"\x","f":"g"}`, "an invalid escape ends the reading"},
		{"bom and space", "\ufeff  {\"a\":\"b\"}  \n", "a byte order mark and white space around the head"},
		{"empty", "", "nothing"},
		{"scalars", `"a" 1 true`, "top-level scalars are no facts"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sameFacts(t, []byte(tt.head))
		})
	}
}

// TestSniffFacts_limits checks the two limits: 256 KiB of head and
// 100,000 tokens.
func TestSniffFacts_limits(t *testing.T) {
	line := []byte(`{"role":"user","n":[1,2,3,4,5,6,7,8]}` + "\n")
	for _, n := range []int{100, 7000, 8000} {
		head := bytes.Repeat(line, n)
		head = append(head, `{"late":"fact"}`...)
		sameFacts(t, head)
	}
	for _, n := range []int{99994, 99995, 99996} {
		// {, "a", {, "b", "c": the last is token 100,000 when n is 99995
		tokens := bytes.Repeat([]byte("1 "), n)
		sameFacts(t, append(tokens, `{"a":{"b":"c"}}`...))
	}
}

// TestSniffFacts_longParent checks that a key longer than 64 bytes is
// the parent of no fact, and that a head of one long key over thousands
// of short ones is read in memory of about its size: each "parent>key"
// fact copied the parent, and a 255 KiB head took 5.8 GB and 40 s.
func TestSniffFacts_longParent(t *testing.T) {
	tests := []struct {
		parent string
		has    bool
		reason string
	}{
		{strings.Repeat("p", 64), true, "64 bytes: a parent"},
		{strings.Repeat("p", 65), false, "65 bytes: no parent"},
		{strings.Repeat("\u00e9", 32), true, "64 bytes decoded, from 192 written"},
		{strings.Repeat("\u00e9", 33), false, "66 bytes decoded"},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			head := []byte(`{"` + tt.parent + `":{"k":"v","o":{"x":1}},"z":[{"` + tt.parent + `":["y",{"a":"b"}]}]}`)
			sameFacts(t, head)
			f := msglog.SniffFacts(head)
			var p string
			for n := range f {
				if before, ok := strings.CutSuffix(n, ">k"); ok {
					p = before
				}
			}
			if (p != "") != tt.has || !f.Has("*k=v", "^z", "o>x", "*a=b") {
				t.Errorf("%q>k: %v, want %v; facts %v (%s)", p, p != "", tt.has, slices.Sorted(maps.Keys(f)), tt.reason)
			}
		})
	}

	var b strings.Builder
	b.WriteString(`{"` + strings.Repeat("p", 64<<10) + `":{`)
	for i := 0; b.Len() < 128<<10; i++ {
		b.WriteString(`"k` + strconv.Itoa(i) + `":"v",`)
	}
	b.WriteString(`"z":1}}`)
	head := []byte(b.String())
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f := msglog.SniffFacts(head)
	runtime.ReadMemStats(&after)
	if !f.Has("*k1=v", "*z") {
		t.Errorf("facts of the keys below a long one are missing")
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 64*uint64(len(head)) {
		t.Errorf("SniffFacts of %d bytes under one long key allocated %d bytes", len(head), n)
	}
}

// TestSniffFacts_files compares SniffFacts with refFacts on every trace
// the project keeps.
func TestSniffFacts_files(t *testing.T) {
	n := 0
	for _, root := range []string{"../../../testdata", ".."} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.Contains(filepath.ToSlash(path), "testdata/") {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			n++
			sameFacts(t, data)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if n < 100 {
		t.Errorf("only %d files compared", n)
	}
}

// FuzzSniffFacts checks that SniffFacts and refFacts agree on any bytes.
func FuzzSniffFacts(f *testing.F) {
	for _, s := range []string{
		`{"messages":[{"role":"user","content":"hi"}]}`,
		"{\"type\":\"human\"}\n{\"type\":\"ai\"}\n",
		`[{"run_type":"tool","a\u00e9":"\ud83d\ude00"}]`,
		`{"a":1.5e3,"b":[true,null],"c":"`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, head []byte) {
		sameFacts(t, head)
	})
}

func sameFacts(t *testing.T, head []byte) {
	t.Helper()
	got, want := msglog.SniffFacts(head), refFacts(head)
	if !maps.Equal(got, want) {
		var extra, missing []string
		for k := range got {
			if !want[k] {
				extra = append(extra, k)
			}
		}
		for k := range want {
			if !got[k] {
				missing = append(missing, k)
			}
		}
		slices.Sort(extra)
		slices.Sort(missing)
		t.Errorf("head %.200q:\nextra facts %q\nmissing facts %q", head, extra, missing)
	}
}

// BenchmarkSniffFacts reads the facts of a chat log of 1.7 KB.
func BenchmarkSniffFacts(b *testing.B) {
	head, err := os.ReadFile("../openai/testdata/openai-chat/multi_turn.json")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(head)))
	b.ReportAllocs()
	for b.Loop() {
		msglog.SniffFacts(head)
	}
}

// TestHead_Keys checks that a Head's keys are sniff.Keys of the head and
// of its first line, read once: every format that sniffs a file asks, and
// a suite may give each of 10,000 cases a file of its own.
func TestHead_Keys(t *testing.T) {
	tests := []struct {
		name, head string
		reason     string
	}{
		{"one line", `{"id":"a","output":[{"role":"user"}]}` + "\n", "a trace file of one record: its first line is the head"},
		{"blank around", "\n \r\n\t" + `{"id":"a","output":[]}` + " \r\n\n", "white space around one line is still one line"},
		{"lines", `{"id":"a","output":[]}` + "\n" + `{"id":"b","cost_usd":1}` + "\n", "two records: the head's keys stop at the first"},
		{"pretty", "{\n  \"id\": \"a\",\n  \"output\": []\n}\n", "a pretty-printed object: its first line has no key"},
		{"cut", `{"id":"a","output":[{"role":"us`, "a head cut off in a value keeps the keys before it"},
		{"bom", "\xef\xbb\xbf" + `{"a":1}`, "a byte order mark before the object"},
		{"not an object", `[{"a":1}]`, "no keys"},
		{"empty", "", "no keys"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := []byte(tt.head)
			wantKeys, wantFirst := sniff.Keys(b), sniff.Keys(sniff.FirstLine(b))
			// Asked in either order, the same answers.
			for _, keysFirst := range []bool{true, false} {
				h := msglog.NewHead(b)
				var keys, first []string
				if keysFirst {
					keys, first = h.Keys(), h.FirstLineKeys()
				} else {
					first, keys = h.FirstLineKeys(), h.Keys()
				}
				if !slices.Equal(keys, wantKeys) || !slices.Equal(first, wantFirst) {
					t.Errorf("Keys %q, FirstLineKeys %q; want %q, %q (%s)", keys, first, wantKeys, wantFirst, tt.reason)
				}
			}
		})
	}
}

// TestHead_Keys_once checks that a head's keys are read once: asked again,
// or asked for the first line of a one-line head, they allocate nothing.
func TestHead_Keys_once(t *testing.T) {
	tests := []struct {
		name, head string
		ask        func(h *msglog.Head)
		reason     string
	}{
		{"keys again", "{\"a\":1}\n{\"b\":2}\n", func(h *msglog.Head) { h.Keys() }, "the head's keys are kept"},
		{"first line again", "{\"a\":1}\n{\"b\":2}\n", func(h *msglog.Head) { h.FirstLineKeys() }, "the first line's keys are kept"},
		{"one line, keys then first", `{"a":1,"b":[2]}` + "\n", func(h *msglog.Head) { h.FirstLineKeys() }, "a one-line head's keys are its first line's"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := msglog.NewHead([]byte(tt.head))
			h.Keys()
			if strings.Contains(tt.name, "again") {
				tt.ask(h)
			}
			if n := testing.AllocsPerRun(10, func() { tt.ask(h) }); n != 0 {
				t.Errorf("%v allocations, want none (%s)", n, tt.reason)
			}
		})
	}
}
