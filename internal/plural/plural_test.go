package plural_test

import (
	"fmt"
	"testing"

	"github.com/trajeval/trajeval/internal/plural"
)

func TestCount(t *testing.T) {
	tests := []struct {
		n      int64
		want   string
		reason string
	}{
		{0, "0 cases", "none is plural"},
		{1, "1 case", "one is singular"},
		{2, "2 cases", "more is plural"},
		{-1, "-1 cases", "a negative count is plural"},
	}
	for _, tt := range tests {
		if got := plural.Count(tt.n, "case", "cases"); got != tt.want {
			t.Errorf("Count(%d) = %q, want %q: %s", tt.n, got, tt.want, tt.reason)
		}
	}
}

func ExampleCount() {
	fmt.Println("called " + plural.Count(1, "time", "times"))
	fmt.Println(plural.Count(3, "trajectory", "trajectories"))
	// Output:
	// called 1 time
	// 3 trajectories
}
