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
					record := shapedRecord(call, benchCall, call)
					var read bool
					var diff string
					if after {
						read, diff = agentv.FastAgreesAfter([]byte(shapedRecord(benchCall, benchCall)), []byte(record))
					} else {
						read, diff = agentv.FastAgrees([]byte(record))
					}
					want := e.read || e.anyValue && k >= 1 && k <= 3
					if read != want {
						t.Fatalf("%s: read = %v, want %v: %s", call, read, want, e.reason)
					}
					if diff != "" {
						t.Errorf("%s: %s: %s", call, diff, e.reason)
					}
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
