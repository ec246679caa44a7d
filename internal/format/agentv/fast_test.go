package agentv_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/format/agentv"
	"github.com/trajeval/trajeval/internal/jsonl"
)

// TestFastDecode checks the fast path against encoding/json: it reads the
// records encoding/json reads, the same, and leaves to encoding/json what
// it must decide (a key in another case, a key twice, a wrong type).
func TestFastDecode(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		read   bool
		reason string
	}{
		{"a record", `{"id": "c1", "output": [{"role": "user", "content": "hi"}, {"role": "assistant", "name": "a", "tool_calls": [{"tool": "search", "input": {"q": "x", "n": 9007199254740993}, "output": [1], "id": 7, "status": "ok", "error": null, "start_time": "2025-01-01T00:00:00Z", "end_time": "2025-01-01T00:00:01Z", "timestamp": "t", "duration_ms": 45.5, "extra": {"x": [1]}}]}], "token_usage": {"input": 10, "output": 20, "total": 30}, "cost_usd": 0.01, "duration_ms": 1500, "more": null}`, true, "every field"},
		{"nulls", `{"id": null, "output": null, "output_messages": [{"role": null, "tool_calls": null}], "token_usage": null, "cost_usd": null}`, true, "null leaves a field unset"},
		{"null names and numbers", `{"output": [{"role": "assistant", "name": null, "tool_calls": [{"tool": null, "status": null, "duration_ms": null, "id": "c"}]}]}`, true, "null leaves a name or a duration unset"},
		{"not null", `{"output": [{"role": "assistant", "tool_calls": [{"tool": "x", "duration_ms": nul}]}]}`, false, "a cut literal is encoding/json's to report"},
		{"empty lists", `{"output": [], "output_messages": [{"tool_calls": []}]}`, true, "an empty list is not nil"},
		{"key in another case", `{"ID": "c1", "output": []}`, false, "encoding/json matches keys without regard to case"},
		{"key twice", `{"output": [], "output": [{"role": "user"}]}`, false, "encoding/json merges a second list into the first"},
		{"message key twice", `{"output": [{"role": "user", "content": "a", "role": "assistant"}]}`, false, "a message's key twice: encoding/json keeps the last"},
		{"call key twice", `{"output": [{"role": "assistant", "tool_calls": [{"tool": "a", "id": "c", "tool": "b"}]}]}`, false, "a call's key twice: encoding/json keeps the last"},
		{"call key in another case", `{"output": [{"role": "assistant", "tool_calls": [{"Tool": "a", "id": "c"}]}]}`, false, "a call's key in another case is encoding/json's: it takes it for tool"},
		{"other call keys", `{"output": [{"role": "assistant", "tool_calls": [{"tool": "a", "x": 1, "id": "c", "y": [2], "x": 3}]}]}`, true, "keys a call has no field for are dropped, however often: they are not noted"},
		{"token count twice", `{"output": [], "token_usage": {"input": 1, "output": 2, "input": 3}}`, false, "a token count twice: encoding/json keeps the last"},
		{"other key twice", `{"output": [], "more": 1, "more": 2}`, true, "keys the record has no field for are dropped, however often"},
		{"wrong type", `{"output": [{"role": 1}]}`, false, "a type error is encoding/json's to report"},
		{"fractional tokens", `{"output": [], "token_usage": {"input": 1.5}}`, false, "not an integer"},
		{"bench order", `{"id":"case-1","output":[{"role":"user","content":"hi"},{"role":"assistant","tool_calls":[{"tool":"grep","id":"call_1","input":{"id":"doc-1"},"output":{"ok":true},"status":"ok","start_time":"2026-01-01T00:00:00.066Z","end_time":"2026-01-01T00:00:00.090Z","duration_ms":24}]}],"token_usage":{"input":1193,"output":200},"cost_usd":0.01,"duration_ms":3000}`, true, "keys in the order AgentV writes them, each found by its bytes"},
		{"escaped keys", `{"\u0069d":"c1","outp\u0075t":[{"r\u006fle":"assistant","tool_calls":[{"t\u006fol":"x","start\u005ftime":"2025-01-01T00:00:00Z"}]}]}`, true, "escaped keys read as the names they spell"},
		{"escaped key twice", `{"output": [], "outp\u0075t": [{"role": "user"}]}`, false, "a key twice, once escaped, is still twice"},
		{"not an object", `null`, false, "encoding/json reads null as an empty record"},
		{"cut off", `{"output": [`, false, "damage is encoding/json's to place"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			read, diff := agentv.FastAgrees([]byte(tt.in))
			if read != tt.read {
				t.Fatalf("read = %v, want %v: %s", read, tt.read, tt.reason)
			}
			if diff != "" {
				t.Errorf("%s: %s", diff, tt.reason)
			}
		})
	}
}

// FuzzFastDecode checks that every record the fast path reads,
// encoding/json reads the same.
func FuzzFastDecode(f *testing.F) {
	files, _ := filepath.Glob("testdata/agentv/*.json*")
	for _, name := range files {
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
		if read, diff := agentv.FastAgrees(data); read && diff != "" {
			t.Fatalf("%q: %s", data, diff)
		}
	})
}

// benchCall is a call of the bench's records, for TestFastDecode_shapes.
const benchCall = `{"tool":"grep","id":"call_1","input":{"id":"doc-1"},"output":{"ok":true},"status":"ok","start_time":"2026-01-01T00:00:00.066Z","end_time":"2026-01-01T00:00:00.090Z","duration_ms":24}`

// shapedRecord is a record of the bench's shape around calls.
func shapedRecord(calls ...string) string {
	return `{"id":"case-1","output":[{"role":"user","content":"hi"},{"role":"assistant","tool_calls":[` + strings.Join(calls, ",") + `]}],"token_usage":{"input":1193,"output":200},"cost_usd":0.01,"duration_ms":3000}`
}

// TestFastDecode_shapes checks records read after others by one decoder,
// which remembers how the ones before were written (jsonv.Shape): each
// is read as encoding/json reads it, or left to encoding/json, where the
// bytes are those remembered and where they differ at any place.
func TestFastDecode_shapes(t *testing.T) {
	bench := shapedRecord(benchCall, benchCall)
	tests := []struct {
		name   string
		in     string
		read   bool
		reason string
	}{
		{"the same", bench, true, "every key where the decoder remembers it"},
		{"a key twice", shapedRecord(benchCall, strings.Replace(benchCall, `"status":"ok"`, `"status":"ok","id":"x"`, 1)), false, "a key given twice is found in the remembered bytes too"},
		{"a key in another case", shapedRecord(benchCall, strings.Replace(benchCall, `"status"`, `"Status"`, 1)), false, "encoding/json's to read"},
		{"an unknown key", shapedRecord(benchCall, strings.Replace(benchCall, `"status":"ok"`, `"state":"ok"`, 1)), true, "skipped, as before"},
		{"an unknown key past 8 bytes", shapedRecord(benchCall, strings.Replace(benchCall, `"end_time"`, `"end_timf"`, 1)), true, "each word of the remembered bytes compared"},
		{"another status", shapedRecord(benchCall, strings.Replace(benchCall, `"status":"ok"`, `"status":"okay"`, 1)), true, "the status remembered is compared with its closing quote"},
		{"escaped status", shapedRecord(benchCall, strings.Replace(benchCall, `"status":"ok"`, `"status":"\u006fk"`, 1), benchCall), true, "an escaped status remembered as the text it spells"},
		{"null status", shapedRecord(benchCall, strings.Replace(benchCall, `"status":"ok"`, `"status":null`, 1)), true, "null leaves it unset"},
		{"another role", strings.Replace(bench, `"role":"assistant"`, `"role":"assistant2"`, 1), true, "a role of other bytes"},
		{"escaped key", shapedRecord(benchCall, strings.Replace(benchCall, `"status"`, `"status"`, 1)), true, "the key it spells"},
		{"spaced", strings.ReplaceAll(strings.ReplaceAll(bench, `","`, `", "`), `":"`, `": "`), true, "spaced as Python writes"},
		{"another order", shapedRecord(benchCall, strings.Replace(benchCall, `"tool":"grep","id":"call_1"`, `"id":"call_1","tool":"grep"`, 1)), true, "keys in another order"},
		{"a wrong type", shapedRecord(benchCall, strings.Replace(benchCall, `"status":"ok"`, `"status":1`, 1)), false, "encoding/json's to report"},
		{"invalid UTF-8", shapedRecord(benchCall, strings.Replace(benchCall, `"status":"ok"`, "\"status\":\"o\xff\"", 1)), false, "encoding/json replaces it"},
		{"cut off", bench[:len(bench)/2], false, "damage is encoding/json's to place"},
		{"no calls", `{"id":"case-1","output":[{"role":"assistant","tool_calls":[]}]}`, true, "an empty list"},
		{"another result", shapedRecord(benchCall, strings.Replace(benchCall, `"output":{"ok":true}`, `"output":{"ok":false}`, 1)), true, "a result of other bytes than the one remembered"},
		{"a longer result", shapedRecord(benchCall, strings.Replace(benchCall, `"output":{"ok":true}`, `"output":{"ok":true,"n":[1,{"a":2}]}`, 1)), true, "a result the remembered one starts"},
		{"a result broken after", shapedRecord(benchCall, strings.Replace(benchCall, `"output":{"ok":true}`, `"output":{"ok":true}}`, 1)), false, "the bytes after a result found again still read"},
		{"a result as a string", shapedRecord(benchCall, strings.Replace(benchCall, `"output":{"ok":true}`, `"output":"{\"ok\":true}"`, 1)), true, "a string is read as a value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			read, diff := agentv.FastAgreesAfter([]byte(bench), []byte(tt.in))
			if read != tt.read {
				t.Fatalf("read = %v, want %v: %s", read, tt.read, tt.reason)
			}
			if diff != "" {
				t.Errorf("%s: %s", diff, tt.reason)
			}
		})
	}
}

// FuzzFastDecode_shapes checks that every record the fast path reads
// after another, encoding/json reads the same.
func FuzzFastDecode_shapes(f *testing.F) {
	bench := shapedRecord(benchCall, benchCall)
	f.Add([]byte(bench), []byte(bench))
	f.Add([]byte(bench), []byte(shapedRecord(benchCall, strings.Replace(benchCall, `"status":"ok"`, `"status":"ok","id":"x"`, 1))))
	f.Add([]byte(strings.ReplaceAll(bench, `,"`, `, "`)), []byte(bench))
	f.Fuzz(func(t *testing.T, before, data []byte) {
		if read, diff := agentv.FastAgreesAfter(before, data); read && diff != "" {
			t.Fatalf("%q after %q: %s", data, before, diff)
		}
	})
}
