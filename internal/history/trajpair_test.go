package history_test

import (
	"reflect"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/history"
)

// TestAppendTrajectory_nestedPairs: an object of two members whose keys
// are those of the last such object is written with its own keys, though
// its first member's value holds objects of two other keys.
func TestAppendTrajectory_nestedPairs(t *testing.T) {
	pair := func(k0, k1 string, v0, v1 any) map[string]any { return map[string]any{k0: v0, k1: v1} }
	args := []any{
		pair("parts", "role", "x", "user"),
		pair("parts", "role", pair("args", "name", "a", "n"), "model"),
	}
	traj := &trajeval.Trajectory{Steps: []trajeval.Step{{Index: 1, Name: "n", Args: args}}}
	data, ok := history.AppendTrajectory(nil, traj)
	if !ok {
		t.Fatal("not encoded")
	}
	back, err := history.ReadTrajectory(data)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Steps[0].Args, args) {
		t.Errorf("read back %v, want %v", back.Steps[0].Args, args)
	}
}
