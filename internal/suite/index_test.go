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
			if replaced := x.Put(id, int32(i), idOf); replaced != (i == 2) {
				t.Errorf("Put(%q) reports replaced %v, want %v: only the repeated id replaces an entry", id, replaced, i == 2)
			}
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

func TestIDIndex_Add(t *testing.T) {
	tests := []struct {
		name   string
		sized  int
		ids    []string
		want   []int32 // what each Add returns
		dup    []bool
		reason string
	}{
		{"new ids", 4, []string{"a", "b", "c"}, []int32{0, 1, 2}, []bool{false, false, false}, "a new id takes its position"},
		{"a repeat", 4, []string{"a", "b", "a", "b"}, []int32{0, 1, 0, 1}, []bool{false, false, true, true}, "a repeated id gives the first position, which stays"},
		{"grows", 0, []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "a"}, []int32{0, 1, 2, 3, 4, 5, 6, 7, 8, 0}, []bool{false, false, false, false, false, false, false, false, false, true}, "past its size the table grows and still finds every id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var list []string
			idOf := func(i int32) string { return list[i] }
			x := suite.NewIDIndex(tt.sized)
			for i, id := range tt.ids {
				got, dup := x.Add(id, int32(len(list)), idOf)
				if got != tt.want[i] || dup != tt.dup[i] {
					t.Fatalf("Add(%q) = %d, %v, want %d, %v: %s", id, got, dup, tt.want[i], tt.dup[i], tt.reason)
				}
				if !dup {
					list = append(list, id)
				}
			}
			for i, id := range list {
				if got, ok := x.Get(id, idOf); !ok || int(got) != i {
					t.Fatalf("Get(%q) = %d, %v, want %d: %s", id, got, ok, i, tt.reason)
				}
			}
		})
	}
}

// TestIDIndex_probes holds a look-up to about one reading of a case's id:
// a probe that meets the slot of another id passes over it by the bits of
// its hash the slot keeps, without asking for that id, which at a million
// cases is a read from anywhere in memory.
func TestIDIndex_probes(t *testing.T) {
	tests := []struct {
		name   string
		sized  int
		ids    int
		reason string
	}{
		{"as sized", 100_000, 100_000, "a table at most half full: about one probe in three meets another id"},
		{"grown", 10, 20_000, "the bits of the hash are kept as the table grows"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var list []string
			reads := 0
			idOf := func(i int32) string { reads++; return list[i] }
			x := suite.NewIDIndex(tt.sized)
			for i := range tt.ids {
				list = append(list, fmt.Sprintf("case-%07d", i))
				x.Put(list[i], int32(i), idOf)
			}
			reads = 0
			for i, id := range list {
				if got, ok := x.Get(id, idOf); !ok || int(got) != i {
					t.Fatalf("Get(%q) = %d, %v, want %d", id, got, ok, i)
				}
			}
			if per := float64(reads) / float64(tt.ids); per > 1.01 {
				t.Errorf("a look-up reads %.3f ids, want about 1 (%s)", per, tt.reason)
			}
		})
	}
	t.Run("positions past the ids", func(t *testing.T) {
		// A run's index holds the last of the cases of one id in several
		// suites: positions may exceed the ids held.
		list := make([]string, 5000)
		for i := range list {
			list[i] = fmt.Sprintf("c%d", i%3)
		}
		idOf := func(i int32) string { return list[i] }
		x := suite.NewIDIndex(3)
		for i, id := range list {
			x.Put(id, int32(i), idOf)
		}
		for i, want := range []int32{4998, 4999, 4997} {
			if got, ok := x.Get(fmt.Sprintf("c%d", i), idOf); !ok || got != want {
				t.Errorf("Get(c%d) = %d, %v, want %d: the last position is kept whole", i, got, ok, want)
			}
		}
	})
}
