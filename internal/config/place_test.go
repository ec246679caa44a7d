package config_test

import (
	"fmt"
	"testing"

	"github.com/trajeval/trajeval/internal/config"
)

func TestItemPlace_Errorf(t *testing.T) {
	doc := "name: x\nevalcases:\n  - {id: a}\n  - id: b\n    input: hi\n"
	root, err := config.ParseList("suite.yaml", []byte(doc), "evalcases")
	if err != nil {
		t.Fatal(err)
	}
	list := root.Get("evalcases")
	var places []config.Place
	i := 0
	if err := list.Materialize(); err != nil {
		t.Fatal(err)
	}
	if err := list.Each(func(it *config.Node) error {
		places = append(places, config.ItemPlace(it, list.Path, i))
		i++
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		p      config.Place
		want   string
		reason string
	}{
		{"flow item", places[0], "suite.yaml:3:6: evalcases[0]: bad", "an item's place is its node's, its path written from the list's"},
		{"block item", places[1], "suite.yaml:4:5: evalcases[1]: bad", "the path is the item's whatever the item's form"},
		{"item of another list", config.ItemPlace(root.Get("name"), "evalcases", 3), "suite.yaml:1:7: name: bad", "a node that is not the item keeps its own path"},
		{"another index", config.ItemPlace(list.Items[1], "evalcases", 11), "suite.yaml:4:5: evalcases[1]: bad", "an index that is not the item's: the node's own path"},
		{"a longer index", config.ItemPlace(list.Items[1], "evalcases", 21), "suite.yaml:4:5: evalcases[1]: bad", "the index's last digit is the item's, not the index"},
		{"an index with a zero before", config.ItemPlace(&config.Node{File: "suite.yaml", Line: 4, Col: 5, Path: "evalcases[01]"}, "evalcases", 1), "suite.yaml:4:5: evalcases[01]: bad", "a path spelt otherwise is kept as spelt"},
		{"a path below the item", config.ItemPlace(&config.Node{File: "suite.yaml", Line: 4, Col: 5, Path: "evalcases[1].id"}, "evalcases", 1), "suite.yaml:4:5: evalcases[1].id: bad", "a value of the item keeps its path"},
		{"a node's place", config.PlaceOf(root.Get("evalcases")), "suite.yaml:3:3: evalcases: bad", "PlaceOf keeps the node's path"},
		{"no place", config.PlaceOf(nil), "bad", "the zero place places nothing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.p.Errorf("bad").Error(); got != tt.want {
				t.Errorf("got %q, want %q (%s)", got, tt.want, tt.reason)
			}
			if n := tt.p.Node(); n.Errorf("bad").Error() != tt.want {
				t.Errorf("Node places at %q, want %q", n.Errorf("bad").Error(), tt.want)
			}
		})
	}
}

// TestPlaces_Item checks that the places of a list's items share their
// file and the list's path: after the first, a place allocates nothing,
// and each still writes its own item's path.
func TestPlaces_Item(t *testing.T) {
	doc := "evalcases:\n  - {id: a}\n  - {id: b}\n  - {id: c}\n"
	root, err := config.Parse("suite.yaml", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	items := root.Get("evalcases").Items
	var ps config.Places
	places := []config.Place{ps.Item(items[0], "evalcases", 0)}
	allocs := testing.AllocsPerRun(10, func() {
		places = append(places[:1], ps.Item(items[1], "evalcases", 1), ps.Item(items[2], "evalcases", 2))
	})
	if allocs != 0 {
		t.Errorf("%v allocations for two places, want none: items of one list share their file and path", allocs)
	}
	for i, p := range places {
		if want := fmt.Sprintf("suite.yaml:%d:6: evalcases[%d]: bad", i+2, i); p.Errorf("bad").Error() != want {
			t.Errorf("place %d: %q, want %q", i, p.Errorf("bad").Error(), want)
		}
	}
}
