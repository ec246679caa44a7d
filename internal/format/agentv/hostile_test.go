package agentv_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/format/agentv"
)

// hostileTimes look like the shape the fast path reads in place
// (2006-01-02T15:04:05.000Z) but for one byte, or sit at the edges of
// what time.Parse takes.
var hostileTimes = []string{
	"2026-01-01T00:00:00.061Z", "2026-01-01T00:00:00.06aZ", "2026-01-01T00:0a:00.061Z", "a026-01-01T00:00:00.061Z",
	"2026-01-01T00:00:0a.061Z", "2026-01-01T00:00:00a061Z", "2026-01-01T00:00:00.061a", "2026-01-01T00:00:00.0/1Z",
	"2026-01-01T00:00:00.0:1Z", "2026-13-01T00:00:00.061Z", "2026-02-29T00:00:00.061Z", "2024-02-29T00:00:00.061Z",
	"2026-12-31T23:59:60.000Z", "2026-01-01T24:00:00.000Z", "2026-01-01T23:60:00.000Z", "0000-01-01T00:00:00.000Z",
	"0000-02-29T00:00:00.000Z", "9999-12-31T23:59:59.999Z", "2026-01-01T00:00:00.061+01:00", "2026-01-01t00:00:00.061Z",
	"2026-01-01T00:00:00.061z", "2026-01-01T00:00:00,061Z", "2026-01-01 00:00:00.061Z", "2026-01-01T00:00:00.0611Z",
	"+026-01-01T00:00:00.061Z", "-026-01-01T00:00:00.061Z", "2026-01-01T00:00:00.06\u00dfZ", "2026-01-01T00:00:00.061\x00",
	"2026-01-01T00:00:00\x00061Z", "2026-01-01T00:00:00.061\"", "2026-01-01T00:00:00.\\u0030Z", "2026-01-01T00:00:00Z",
	"2026-01-01T00:00:00.Z", "2026-01-01T00:00:00.123456789Z", "2026-01-01T00:00:00.1234567890Z", "",
}

// TestFastTime_hostile: the in-place time reader takes what time.Parse
// takes, the same, after a time that set its minute or not.
func TestFastTime_hostile(t *testing.T) {
	for _, s := range hostileTimes {
		for _, before := range []string{"", "2026-01-01T00:00:59.999Z", "0000-01-01T00:00:00.000Z"} {
			ts, oks := agentv.FastTime(before, s)
			if oks[1] {
				checkTime(t, s, ts[1])
			}
		}
	}
}

// TestFastDecode_hostile: records aimed at the fast path's assumptions
// (strings and keys at the 15 and 16 byte edges of its short strings,
// NUL and invalid UTF-8 in them, times one byte off its shape, a record
// shorter than the 32 bytes a key is compared in) are read as
// encoding/json reads them, or left to it.
func TestFastDecode_hostile(t *testing.T) {
	var recs []string
	call := func(tool, id, start string) string {
		return fmt.Sprintf(`{"id":"r","output":[{"role":"assistant","tool_calls":[{"tool":%q,"id":%q,"input":{%q:%q},"status":"ok","start_time":%q,"end_time":%q,"duration_ms":3}]}]}`,
			tool, id, id, tool, start, start)
	}
	for _, s := range hostileTimes {
		recs = append(recs, call("read", "c1", s))
	}
	for _, n := range []int{0, 1, 7, 8, 9, 14, 15, 16, 17, 63, 64, 65} {
		s := strings.Repeat("k", n)
		recs = append(recs, call(s, s, "2026-01-01T00:00:00.061Z"),
			fmt.Sprintf(`{"id":"r","%s":1,"output":[]}`, s),
			call(s[:n/2]+"\x00"+s[n/2:], s, "t"),
			call(s[:n/2]+"\xff"+s[n/2:], s, "t"),
			call(s[:n/2]+"\xc3"+s[n/2:], s, "t"))
	}
	// The same short strings raw, then escaped, then raw: a string kept
	// by its bytes is never the escaped one's text.
	recs = append(recs,
		`{"id":"abc\u0000","output":[{"role":"a\"b","tool_calls":[{"tool":"abcdefghijklmno","id":"abcdefghijklmn\u006f"}]}]}`,
		`{"id":"\u00e9","output":[{"role":"é","tool_calls":[{"tool":"é","id":"\u00e9"}]}]}`,
		`{"id":"x","output":[{"role":"a`+"\x01"+`b","tool_calls":[]}]}`,
		`{"id":"x","output":[{"role":"`+"\xed\xa0\x80"+`"}]}`,
		`{"id":"tool","output":[{"tool_calls":[{"tool":"id","id":"tool"}]}]}`,
		`{"output":[]}`, `{"id":1}`, `{}`, `{"id":"r","output":[{"role":"assistant","tool_calls":[{"tool":"x","tool":"y"}]}]}`,
		`{"id":"r","output":[{"tool_calls":[{"start_time":"2026-01-01T00:00:00.061Z","start_time":"2026-01-01T00:00:00.062Z"}]}]}`,
		`{"id":"r","output":[{"tool_calls":[{"start_time":"2026-01-01T00:00:00.061Z"`,
		`{"id":"r","output":[{"tool_calls":[{"start_time":"2026-01-01T00:00:00.061Z`,
		`{"id":"r","output":[{"tool_calls":[{"duration_ms":123456789012345,"status":null}]}]}`,
		`{"id":"r","output":[{"tool_calls":[{"duration_ms":1234567890123456789,"status":"ok"}]}]}`,
		`{"id":"r","output":[{"tool_calls":[{"duration_ms":0123}]}]}`,
		`{"id":"r","output":[{"tool_calls":[{"duration_ms":1e400}]}]}`,
		`{"id":"r","output":[{"tool_calls":[{"duration_ms":-0}]}]}`,
		`{"id":"r","output":[{"tool_calls":[{"duration_ms":nul}]}]}`,
		`{"id":"r","output":[{"tool_calls":[{"duration_ms":nullx}]}]}`,
		`{"id":"r","output":[{"tool_calls":[{"status":nul`,
	)
	for _, r := range recs {
		for _, in := range []string{r, strings.ReplaceAll(r, ",", ", "), r + "\r\n", "\ufeff" + r} {
			if _, diff := agentv.FastAgrees([]byte(in)); diff != "" {
				t.Errorf("%q: %s", in, diff)
			}
		}
	}
}
