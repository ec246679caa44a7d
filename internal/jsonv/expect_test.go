package jsonv_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/jsonv"
)

// TestParser_TakeOpen checks that bytes taken as opening an object count
// towards the depth as Member counts them: the object is taken within
// MaxDepth, refused past it with nothing read, and what follows is read
// in place.
func TestParser_TakeOpen(t *testing.T) {
	tests := []struct {
		name   string
		arrays int // the arrays the object stands in
		taken  bool
		reason string
	}{
		{"at the top", 0, true, "depth 1"},
		{"at the limit", jsonv.MaxDepth - 1, true, "the object is the MaxDepth-th level"},
		{"past the limit", jsonv.MaxDepth, false, "the object would be one level too deep, as Skip says"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			const open = `{"a":`
			data := strings.Repeat("[", tt.arrays) + open + `1}` + strings.Repeat("]", tt.arrays)
			var p jsonv.Parser
			p.Reset([]byte(data))
			var taken, skipped bool
			var in func(level int) bool
			in = func(level int) bool {
				if level < tt.arrays {
					return p.Array(func() bool { return in(level + 1) })
				}
				if !strings.HasPrefix(string(p.Rest()), open) {
					t.Fatalf("Rest() = %q, want it to start with %q", p.Rest(), open)
				}
				if taken = p.TakeOpen(len(open)); !taken {
					skipped = p.Skip() // nothing taken: the object still there
					return false
				}
				if v, ok := p.Value(); !ok || v != any(json.Number("1")) {
					t.Fatalf("Value() = %v, %v after TakeOpen, want 1", v, ok)
				}
				if r := p.Rest(); len(r) == 0 || r[0] != '}' {
					t.Fatalf("after the value Rest() = %q, want the closing brace", r)
				}
				p.TakeClose(1)
				return true
			}
			ok := in(0) && p.End()
			if taken != tt.taken {
				t.Fatalf("TakeOpen = %v, want %v: %s", taken, tt.taken, tt.reason)
			}
			if !taken && skipped {
				t.Errorf("Skip read the object TakeOpen refused: %s", tt.reason)
			}
			if taken && !ok {
				t.Errorf("the input did not read to its end with the object taken: %s", tt.reason)
			}
		})
	}
}
