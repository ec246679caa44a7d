package trace_test

import (
	"testing"

	"github.com/trajeval/trajeval/internal/trace"
)

func TestAbout(t *testing.T) {
	for _, name := range trace.Names() {
		if trace.About(name) == "" {
			t.Errorf("format %s has no line for `trajeval formats`", name)
		}
	}
	if got := trace.About("no-such-format"); got != "" {
		t.Errorf("About of an unknown name = %q, want empty", got)
	}
}
