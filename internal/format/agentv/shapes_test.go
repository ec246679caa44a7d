package agentv_test

import (
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/format/agentv"
	"github.com/trajeval/trajeval/internal/jsonv"
)

// A style is how a producer writes its objects: what follows a comma and
// a colon, and what stands inside the braces.
type style struct{ comma, colon, pad string }

var (
	compact = style{",", ":", ""}
	python  = style{", ", ": ", ""}
	spaced  = style{" , ", " : ", " "}
	tabbed  = style{",\t", ":\t", "\t"}
)

// obj writes an object of key and value pairs (a key written as it
// stands, quotes and escapes included) in style s.
func (s style) obj(pairs ...string) string {
	var b strings.Builder
	b.WriteString("{" + s.pad)
	for i := 0; i+1 < len(pairs); i += 2 {
		if i > 0 {
			b.WriteString(s.comma)
		}
		b.WriteString(pairs[i] + s.colon + pairs[i+1])
	}
	return b.String() + s.pad + "}"
}

// call writes a call of the bench's keys in style s, with more pairs
// after them.
func (s style) call(tool, status string, more ...string) string {
	return s.obj(append([]string{`"tool"`, tool, `"id"`, `"call_1"`, `"input"`, s.obj(`"id"`, `"doc-1"`), `"output"`, s.obj(`"ok"`, `true`),
		`"status"`, status, `"start_time"`, `"2026-01-01T00:00:00.066Z"`, `"end_time"`, `"2026-01-01T00:00:00.090Z"`, `"duration_ms"`, `24`}, more...)...)
}

// record writes a record of calls in style s, with more pairs after its
// token usage.
func (s style) record(calls []string, more ...string) string {
	msgs := "[" + s.obj(`"role"`, `"user"`, `"content"`, `"hi"`) + s.comma + s.obj(`"role"`, `"assistant"`, `"tool_calls"`, "["+strings.Join(calls, s.comma)+"]") + "]"
	return s.obj(append([]string{`"id"`, `"case-1"`, `"output"`, msgs, `"token_usage"`, s.obj(`"input"`, `1193`, `"output"`, `200`), `"cost_usd"`, `0.01`, `"duration_ms"`, `3000`}, more...)...)
}

// nested is a value of n objects, one in the other.
func nested(n int) string {
	return strings.Repeat(`{"a":`, n) + "1" + strings.Repeat("}", n)
}

// TestDecode_shapes reads records in turn with one decoder, which
// remembers how the ones before were written (jsonv.Shape and
// jsonv.Recent), records of producers that write alike and otherwise from
// one record to the next: each must read as encoding/json alone reads
// it, its trajectory, its error and the error's place, its warnings.
func TestDecode_shapes(t *testing.T) {
	bench := compact.record([]string{compact.call(`"grep"`, `"ok"`), compact.call(`"read"`, `"ok"`)})
	one := func(s style, tool, status string, more ...string) string {
		return s.record([]string{s.call(tool, status, more...)})
	}
	// A record whose calls' input nests objects to depth in all: the
	// record, output, message, tool_calls and call are five.
	deep := func(depth int) string {
		c := compact.obj(`"tool"`, `"grep"`, `"id"`, `"call_1"`, `"input"`, nested(depth-5), `"status"`, `"ok"`)
		return compact.record([]string{c, c, c})
	}
	tests := []struct {
		name    string
		records []string
		fast    int // how many the fast path reads, at least
		reason  string
	}{
		{"one producer", []string{bench, bench, bench}, 3, "every key where the decoder remembers it"},
		{"styles alternating", []string{bench, python.record(nil), bench, spaced.record([]string{spaced.call(`"grep"`, `"ok"`)}), bench, tabbed.record([]string{tabbed.call(`"x"`, `"error"`)}), python.record([]string{python.call(`"grep"`, `"ok"`)}), bench}, 8,
			"white space that changes from one record to the next"},
		{"key order alternating", []string{
			bench,
			compact.record([]string{compact.obj(`"status"`, `"ok"`, `"duration_ms"`, `24`, `"tool"`, `"grep"`, `"input"`, `{}`)}),
			bench,
			compact.obj(`"output"`, `[{"tool_calls":[{"tool":"a","id":"c"}],"role":"assistant"}]`, `"id"`, `"c"`),
			bench,
		}, 5, "keys in another order each time"},
		{"key set changing", []string{
			bench,
			one(compact, `"grep"`, `"ok"`, `"error"`, `"boom"`, `"timestamp"`, `"2026-01-01T00:00:00Z"`),
			compact.record([]string{compact.obj(`"tool"`, `"grep"`)}),
			one(compact, `"grep"`, `"ok"`, `"extra"`, `{"id":"x"}`),
			compact.record([]string{compact.call(`"grep"`, `"ok"`)}, `"test_id"`, `"t"`, `"schema_version"`, `"1"`),
			bench,
		}, 6, "keys added, left out and unknown, in turn"},
		{"a key prefix of another", []string{
			bench,
			strings.Replace(bench, `"id":"call_1"`, `"idx":"call_1"`, 1),
			bench,
			strings.Replace(bench, `"tool":"read"`, `"tools":"read","tool":"read"`, 1),
			strings.Replace(bench, `"output":[`, `"output_messages":[{"role":"user"}],"output":[`, 1),
			strings.Replace(bench, `"duration_ms":24}`, `"duration_ms_":24}`, 1),
			bench,
		}, 7, "the remembered bytes end with the key's closing quote and colon"},
		{"a key prefix, then the key", []string{
			strings.Replace(bench, `"id":"call_1"`, `"idx":"call_1"`, 2),
			bench,
			strings.Replace(bench, `"id":"call_1"`, `"idx":"call_1"`, 2),
		}, 3, "an unknown key is never remembered"},
		{"escapes spelling a remembered key", []string{
			bench,
			strings.Replace(bench, `"id":"call_1"`, `"\u0069d":"call_1"`, 2),
			strings.Replace(bench, `"status":"ok"`, `"st\u0061tus":"\u006fk"`, 2),
			bench,
			strings.Replace(bench, `"id":"case-1"`, `"\u0069d":"case-1"`, 1),
			bench,
		}, 6, "an escaped key is the key it spells, remembered or not"},
		{"escapes spelling a remembered key twice", []string{
			bench,
			strings.Replace(bench, `"id":"call_1"`, `"id":"call_1","\u0069d":"call_2"`, 1),
		}, 1, "a key twice, once escaped: encoding/json's to read"},
		{"the last byte differs", []string{
			bench,
			strings.Replace(bench, `"status":"ok"`, `"status";"ok"`, 1),
			bench,
			strings.Replace(bench, `"status":"ok"`, `"status" "ok"`, 1),
			bench,
			strings.Replace(bench, `"status":"ok"`, `"status":"o"`, 1),
			strings.Replace(bench, `"status":"ok"`, `"status":"ok }`, 1),
			strings.Replace(bench, `"duration_ms":24}`, `"duration_ms":24]`, 1),
			strings.Replace(bench, `"role":"user"`, `"role":"user`, 1),
			bench,
		}, 4, "bytes the same up to the last one remembered, then not: the long way, its error at the same place"},
		{"a remembered space, then another", []string{
			python.record([]string{python.call(`"grep"`, `"ok"`)}),
			strings.ReplaceAll(python.record([]string{python.call(`"grep"`, `"ok"`)}), `: `, ":\t"),
			strings.ReplaceAll(python.record([]string{python.call(`"grep"`, `"ok"`)}), `: `, ":  "),
			strings.ReplaceAll(python.record([]string{python.call(`"grep"`, `"ok"`)}), `: `, ":"),
			strings.ReplaceAll(python.record([]string{python.call(`"grep"`, `"ok"`)}), `, `, ",\n"),
		}, 5, "white space past the remembered bytes is the value's"},
		{"cut where the bytes were remembered", []string{
			bench, bench[:strings.Index(bench, `"status"`)], bench[:strings.Index(bench, `"status"`)+len(`"status":`)], bench[:len(bench)-1], bench,
		}, 2, "a record cut off is damage, placed by encoding/json"},
		{"depth at the limit", []string{deep(jsonv.MaxDepth), deep(jsonv.MaxDepth), deep(jsonv.MaxDepth - 1), deep(jsonv.MaxDepth + 1), deep(jsonv.MaxDepth), deep(jsonv.MaxDepth + 1)}, 4,
			"three calls nested to MaxDepth, their braces remembered: each closing brace gives its depth back"},
		{"status and role of other bytes", []string{
			bench,
			one(compact, `"grep"`, `"okay"`),
			one(compact, `"grep"`, `null`),
			one(compact, `"grep"`, `"o\u006b"`),
			one(compact, `"grep"`, `1`),
			one(compact, `"grep"`, "\"o\xff\""),
			one(compact, `"grep"`, `"ok"`),
			strings.Replace(bench, `"role":"assistant"`, `"role":"assistant_long_role_x"`, 1),
			bench,
		}, 6, "a string remembered, compared with its closing quote"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			records := make([][]byte, len(tt.records))
			for i, r := range tt.records {
				records[i] = []byte(r)
			}
			for _, keep := range []bool{false, true} {
				for _, lenient := range []bool{false, true} {
					fast, diff := agentv.DecodeBoth(records, keep, lenient)
					if diff != "" {
						t.Fatalf("text kept %v, lenient %v: %s (%s)", keep, lenient, diff, tt.reason)
					}
					if fast < tt.fast {
						t.Errorf("text kept %v, lenient %v: the fast path read %d records, want %d or more: the test reads too little", keep, lenient, fast, tt.fast)
					}
				}
			}
		})
	}
}

// FuzzDecode_shapes reads three records in turn and again in another
// order with one decoder: each as encoding/json alone reads it.
func FuzzDecode_shapes(f *testing.F) {
	bench := compact.record([]string{compact.call(`"grep"`, `"ok"`), compact.call(`"read"`, `"ok"`)})
	f.Add([]byte(bench), []byte(python.record([]string{python.call(`"grep"`, `"ok"`)})), []byte(strings.Replace(bench, `"id":"call_1"`, `"\u0069d":"call_1"`, 1)))
	f.Add([]byte(bench), []byte(strings.Replace(bench, `"id":"call_1"`, `"idx":"call_1"`, 1)), []byte(strings.Replace(bench, `"status":"ok"`, `"status";"ok"`, 1)))
	f.Add([]byte(spaced.record(nil)), []byte(tabbed.record([]string{tabbed.call(`"x"`, `"error"`)})), []byte(bench))
	f.Fuzz(func(t *testing.T, a, b, c []byte) {
		records := [][]byte{a, b, a, c, b, c, a}
		for _, keep := range []bool{false, true} {
			if _, diff := agentv.DecodeBoth(records, keep, false); diff != "" {
				t.Fatalf("text kept %v: %s", keep, diff)
			}
		}
	})
}
