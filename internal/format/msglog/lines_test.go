package msglog_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/jsonl"
)

// TestEachValue_placedLinearly reads a document of 5,000 values written
// one after another: the line of each is counted on from the last, never
// from the start of the document.
func TestEachValue_placedLinearly(t *testing.T) {
	value := "{\n  \"role\": \"user\",\n  \"content\": \"" + strings.Repeat("x", 100) + "\"\n}\n"
	data := bytes.Repeat([]byte(value), 5000)
	before := jsonl.Scanned()
	got, err := values(data)
	if err != nil || len(got) != 5000 {
		t.Fatalf("%d values, %v; want 5000", len(got), err)
	}
	if !strings.HasPrefix(got[4999], "19997 ") {
		t.Errorf("the last value: %.20s, want it at line 19997", got[4999])
	}
	if n, limit := jsonl.Scanned()-before, 4*int64(len(data)); n > limit {
		t.Errorf("%d bytes scanned to place the values of %d bytes, want at most %d: each value's line counted on from the last", n, len(data), limit)
	}
}
