package agentv_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/format/agentv"
	"github.com/trajeval/trajeval/internal/jsonv"
)

// benchMembers are benchCall's members, in the order AgentV writes them.
var benchMembers = []string{`"tool":"grep"`, `"id":"call_1"`, `"input":{"id":"doc-1"}`, `"output":{"ok":true}`, `"status":"ok"`, `"start_time":"2026-01-01T00:00:00.066Z"`, `"end_time":"2026-01-01T00:00:00.090Z"`, `"duration_ms":24}`}

// callWith is benchCall with edit made to its members from the k-th on.
func callWith(k int, edit func(rest []string) []string) string {
	members := append([]string(nil), benchMembers...)
	members[len(members)-1] = strings.TrimSuffix(members[len(members)-1], "}")
	members = append(members[:k:k], edit(members[k:])...)
	return "{" + strings.Join(members, ",") + "}"
}

// TestFastDecode_inOrder checks a call read in AgentV's order, each key's
// bytes expected where they stand (see decoder.inOrder), and calls that
// leave that order at each of its keys, read on by the loop over keys:
// each read as encoding/json reads it, or left to it, alone and after
// calls of the bench's shape (whose bytes the decoder remembers).
func TestFastDecode_inOrder(t *testing.T) {
	edits := []struct {
		name   string
		edit   func(rest []string) []string
		read   bool
		reason string
		// anyValue: read all the same at id, input and output, whose
		// fields take any value.
		anyValue bool
	}{
		{"as written", func(r []string) []string { return r }, true, "every key expected where it stands", false},
		{"spaced", func(r []string) []string { r[0] = " " + r[0]; return r }, true, "white space before the key: read by Member", false},
		{"spaced after the colon", func(r []string) []string { r[0] = strings.Replace(r[0], `":`, `": `, 1); return r }, true, "white space before the value: read by the value's reader", false},
		{"another key first", func(r []string) []string { return append([]string{`"x":[1,{"y":2}]`}, r...) }, true, "a key the call has no field for, skipped", false},
		{"missing", func(r []string) []string { return r[1:] }, true, "the key left out: the next read by Member", false},
		{"swapped", func(r []string) []string {
			if len(r) > 1 {
				r[0], r[1] = r[1], r[0]
			}
			return r
		}, true, "the keys from here in another order", false},
		{"given twice", func(r []string) []string { return append(r, r[0]) }, false, "a key read in order and again after: encoding/json keeps the last", false},
		{"the tool again", func(r []string) []string { return append(r, `"tool":"b"`) }, false, "the first key, read in order, given again", false},
		{"in another case", func(r []string) []string { r[0] = `"` + strings.ToUpper(r[0][1:2]) + r[0][2:]; return r }, false, "encoding/json matches keys without regard to case", false},
		{"escaped", func(r []string) []string { r[0] = `"\u00` + fmt.Sprintf("%x", r[0][1]) + r[0][2:]; return r }, true, "the key it spells, read by Member", false},
		{"with an error", func(r []string) []string { return append(r, `"error":"boom"`) }, true, "a key after the usual ones", false},
		{"wrong type", func(r []string) []string { r[0] = r[0][:strings.Index(r[0], ":")+1] + "[true]"; return r }, false, "encoding/json's to report", true},
	}
	for k := range benchMembers {
		for _, e := range edits {
			call := callWith(k, e.edit)
			for _, after := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s at key %d, after: %v", e.name, k, after), func(t *testing.T) {
					checkFast(t, call, shapedRecord(call, benchCall, call), after, e.read || e.anyValue && k >= 1 && k <= 3, e.reason)
				})
			}
		}
	}
}

// TestFastDecode_inOrderDepth checks that calls read in order leave the
// depth as they found it: more calls than jsonv.MaxDepth in one record
// are read, not refused as too deep.
func TestFastDecode_inOrderDepth(t *testing.T) {
	calls := make([]string, jsonv.MaxDepth+2)
	for i := range calls {
		calls[i] = benchCall
	}
	read, diff := agentv.FastAgrees([]byte(shapedRecord(calls...)))
	if !read || diff != "" {
		t.Errorf("read = %v (%s), want the record read: each call's brace closed as it opened", read, diff)
	}
}

// TestFastDecode_messageInOrder checks a message read in AgentV's order
// (see decoder.message): its role, then its calls or its content, each
// key's bytes expected where they stand, and messages that leave that
// order at each of their keys, read on by the loop over keys: each read
// as encoding/json reads it, or left to it, alone and after records of
// the bench's shape (whose bytes the decoder remembers).
func TestFastDecode_messageInOrder(t *testing.T) {
	messages := []struct {
		name    string
		members []string
		// anyValue is the key whose field takes any value (content).
		anyValue int
	}{
		{"user", []string{`"role":"user"`, `"content":"hi"`}, 1},
		{"assistant", []string{`"role":"assistant"`, `"tool_calls":[` + benchCall + `]`}, -1},
	}
	edits := []struct {
		name   string
		edit   func(rest []string) []string
		read   bool
		reason string
	}{
		{"as written", func(r []string) []string { return r }, true, "every key expected where it stands"},
		{"spaced", func(r []string) []string { r[0] = " " + r[0]; return r }, true, "white space before the key: read by Member"},
		{"spaced after the colon", func(r []string) []string { r[0] = strings.Replace(r[0], `":`, `": `, 1); return r }, true, "white space before the value: read by the value's reader"},
		{"another key first", func(r []string) []string { return append([]string{`"x":[1,{"y":2}]`}, r...) }, true, "a key the message has no field for, skipped"},
		{"missing", func(r []string) []string { return r[1:] }, true, "the key left out: the next read by Member"},
		{"swapped", func(r []string) []string {
			if len(r) > 1 {
				r[0], r[1] = r[1], r[0]
			}
			return r
		}, true, "the keys from here in another order"},
		{"given twice", func(r []string) []string { return append(r, r[0]) }, false, "a key read in order and again after: encoding/json keeps the last"},
		{"the role again", func(r []string) []string { return append(r, `"role":"b"`) }, false, "the first key, read in order, given again"},
		{"in another case", func(r []string) []string { r[0] = `"` + strings.ToUpper(r[0][1:2]) + r[0][2:]; return r }, false, "encoding/json matches keys without regard to case"},
		{"escaped", func(r []string) []string { r[0] = `"\u00` + fmt.Sprintf("%x", r[0][1]) + r[0][2:]; return r }, true, "the key it spells, read by Member"},
		{"with a name", func(r []string) []string { return append(r, `"name":"planner"`) }, true, "a key after the usual ones"},
		{"with content and calls", func(r []string) []string { return append(r, `"content":"x"`, `"tool_calls":[]`) }, false, "the last key given twice"},
		{"wrong type", func(r []string) []string { r[0] = r[0][:strings.Index(r[0], ":")+1] + "[true]"; return r }, false, "encoding/json's to report"},
	}
	for _, m := range messages {
		for k := range m.members {
			for _, e := range edits {
				members := append(append([]string(nil), m.members[:k]...), e.edit(append([]string(nil), m.members[k:]...))...)
				msg := "{" + strings.Join(members, ",") + "}"
				for _, after := range []bool{false, true} {
					t.Run(fmt.Sprintf("%s: %s at key %d, after: %v", m.name, e.name, k, after), func(t *testing.T) {
						record := `{"id":"case-1","output":[` + msg + `,{"role":"assistant","tool_calls":[` + benchCall + `]},` + msg + `],"duration_ms":3000}`
						checkFast(t, msg, record, after, e.read || e.name == "wrong type" && k == m.anyValue, e.reason)
					})
				}
			}
		}
	}
}

// TestFastDecode_messageInOrderDepth checks that messages read in order
// leave the depth as they found it: more messages than jsonv.MaxDepth in
// one record are read, not refused as too deep.
func TestFastDecode_messageInOrderDepth(t *testing.T) {
	msgs := make([]string, jsonv.MaxDepth+2)
	for i := range msgs {
		msgs[i] = `{"role":"assistant","tool_calls":[` + benchCall + `]}`
	}
	read, diff := agentv.FastAgrees([]byte(`{"id":"case-1","output":[` + strings.Join(msgs, ",") + `]}`))
	if !read || diff != "" {
		t.Errorf("read = %v (%s), want the record read: each message's brace closed as it opened", read, diff)
	}
}

// TestFastDecode_inOrderCut checks a record of the bench's shape cut at
// every length, alone and after a whole one (whose bytes the decoder
// remembers): no read past the data's end, and none read as a record
// (damage is encoding/json's to place).
func TestFastDecode_inOrderCut(t *testing.T) {
	whole := shapedRecord(benchCall, benchCall)
	for n := range len(whole) {
		cut := []byte(whole[:n])
		for _, after := range []bool{false, true} {
			var read bool
			var diff string
			if after {
				read, diff = agentv.FastAgreesAfter([]byte(whole), cut)
			} else {
				read, diff = agentv.FastAgrees(cut)
			}
			if read || diff != "" {
				t.Errorf("cut at %d (after: %v): read = %v (%s), want it left to encoding/json", n, after, read, diff)
			}
		}
	}
}

// checkFast checks that the fast path reads record (or leaves it to
// encoding/json) as want says, and reads it as encoding/json does: alone,
// or after records of the bench's shape (whose bytes the decoder
// remembers); edited names the edited part in a failure.
func checkFast(t *testing.T, edited, record string, after, want bool, reason string) {
	t.Helper()
	var read bool
	var diff string
	if after {
		read, diff = agentv.FastAgreesAfter([]byte(shapedRecord(benchCall, benchCall)), []byte(record))
	} else {
		read, diff = agentv.FastAgrees([]byte(record))
	}
	if read != want {
		t.Fatalf("%s: read = %v, want %v: %s", edited, read, want, reason)
	}
	if diff != "" {
		t.Errorf("%s: %s: %s", edited, diff, reason)
	}
}
