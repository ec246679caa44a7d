package history_test

import (
	"testing"

	"github.com/trajeval/trajeval/internal/history"
)

// TestUnpackCases_smallest: a pack of cases that each take the fewest
// bytes a case can (every text empty, no start) reads back; one byte
// short of them, it is refused, never read past its end.
func TestUnpackCases_smallest(t *testing.T) {
	one := append([]byte{1}, make([]byte, 7)...) // seq 1, seven empty texts
	one = append(one, 0, 0)                      // attempt 0, no flags
	one = append(one, make([]byte, 16+3)...)     // score, duration, three empty strings
	tests := []struct {
		name   string
		n      int
		cut    int
		ok     bool
		reason string
	}{
		{"one", 1, 0, true, "a case of 29 bytes is a case"},
		{"many", 40, 0, true, "a count of cases of 29 bytes each is not taken for a damaged count"},
		{"cut", 40, 1, false, "the last case ends past the pack"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pack := []byte{1, byte(tt.n)}
			for range tt.n {
				pack = append(pack, one...)
			}
			pack = pack[:len(pack)-tt.cut]
			_, n, err := history.UnpackCases(pack)
			if (err == nil) != tt.ok || tt.ok && n != tt.n {
				t.Errorf("%d cases, error %v; want ok %v (%s)", n, err, tt.ok, tt.reason)
			}
		})
	}
}
