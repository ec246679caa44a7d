package config_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/errlist"
)

// itemErrors returns an error at each of the first n items of the list
// of root, last item first.
func itemErrors(root *config.Node, n int) []error {
	var errs []error
	for i := n - 1; i >= 0; i-- {
		errs = append(errs, root.Items[i].Errorf("bad item %d", i))
	}
	return errs
}

func TestNode_Join(t *testing.T) {
	list := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "- item%d\n", i)
		}
		return b.String()
	}
	tests := []struct {
		name   string
		n      int
		want   []string // the errors' texts, in order
		more   int      // the errors a MoreErrors stands for
		reason string
	}{
		{"none", 0, nil, 0, "no error is nil"},
		{"one", 1, []string{"f.yaml:1:3: [0]: bad item 0"}, 0, "one error is itself"},
		{"several in order", 3, []string{"f.yaml:1:3: [0]: bad item 0", "f.yaml:2:3: [1]: bad item 1", "f.yaml:3:3: [2]: bad item 2"}, 0,
			"every error, in the order of the file, whatever order they were found in"},
		{"bounded", 13, append(func() []string {
			var out []string
			for i := range errlist.Max {
				out = append(out, fmt.Sprintf("f.yaml:%d:3: [%d]: bad item %d", i+1, i, i))
			}
			return out
		}(), "f.yaml:11:3: [10]: and 3 more errors from here on in this list, not shown (fix the errors above and run again to see the rest)"), 3,
			"the first errlist.Max, then one line standing for the rest at the first one left out"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := mustParse(t, list(max(tt.n, 1)))
			err := root.Join(itemErrors(root, tt.n))
			var got []string
			more := 0
			for _, e := range errlist.Split(err) {
				got = append(got, e.Error())
				var m *config.MoreErrors
				if errors.As(e, &m) {
					more += m.N
				}
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("Join:\n got %q\nwant %q\n%s", got, tt.want, tt.reason)
			}
			if more != tt.more {
				t.Errorf("MoreErrors stand for %d errors, want %d: %s", more, tt.more, tt.reason)
			}
		})
	}
}
