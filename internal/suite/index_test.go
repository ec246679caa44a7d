package suite_test

import (
	"fmt"
	"testing"

	"github.com/trajeval/trajeval/internal/suite"
)

func TestIDIndex_Get(t *testing.T) {
	tests := []struct {
		name   string
		sized  int // the index is made for this many ids
		ids    int // ids put, "c0" to "cN-1"
		reason string
	}{
		{"as sized", 1000, 1000, "every id is found at its position, and no other"},
		{"more than sized", 3, 1000, "the table grows rather than fill up"},
		{"sized for none", 0, 50, "an index made for no ids still takes them"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var list []string
			idOf := func(i int32) string { return list[i] }
			x := suite.NewIDIndex(tt.sized)
			for i := range tt.ids {
				list = append(list, fmt.Sprintf("c%d", i))
				x.Put(list[i], int32(i), idOf)
			}
			for i, id := range list {
				if got, ok := x.Get(id, idOf); !ok || int(got) != i {
					t.Fatalf("Get(%q) = %d, %v, want %d: %s", id, got, ok, i, tt.reason)
				}
				if got, ok := x.Get(id+"x", idOf); ok {
					t.Fatalf("Get(%q) = %d, want none: %s", id+"x", got, tt.reason)
				}
			}
		})
	}
	t.Run("a repeated id", func(t *testing.T) {
		list := []string{"a", "b", "a"}
		idOf := func(i int32) string { return list[i] }
		x := suite.NewIDIndex(len(list))
		for i, id := range list {
			x.Put(id, int32(i), idOf)
		}
		if got, _ := x.Get("a", idOf); got != 2 {
			t.Errorf("Get(a) = %d, want 2: the later position takes the place of the earlier", got)
		}
	})
	t.Run("empty", func(t *testing.T) {
		var x suite.IDIndex
		if _, ok := x.Get("a", func(int32) string { return "" }); ok {
			t.Error("the zero index holds nothing")
		}
	})
}
