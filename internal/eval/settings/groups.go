package settings

import (
	"slices"
	"strconv"

	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval/trajectory"
)

// callKeys are the keys of an expected call.
var callKeys = []string{"tool", "name", "args", "args_match", "max_duration_ms"}

// CallsOrGroups is an expected: list whose entries may be groups, read by
// config.Decode. An entry is a call (see [Calls]) or a map with exactly
// one group key:
//
//   - any_order: [ENTRY, ...]   # the entries, each taken whole, in any order
//   - in_order: [ENTRY, ...]    # the entries in order (a sequence)
//   - one_of: [ENTRY, ...]      # exactly one of the entries
//   - optional: ENTRY           # the entry, or nothing
//   - repeat: ENTRY             # the entry min to max times
//     min: 1                    # default 1
//     max: 3                    # default: no upper bound
//
// Groups nest. An empty group, min below 0, max below 1, min above max,
// another key beside the group's (repeat also takes min and max) and an
// entry that is neither a call nor a group are errors at their place,
// every entry's reported (see [config.Node.Join]).
type CallsOrGroups struct {
	Entries []trajectory.Expect
	Node    *config.Node   // the list
	Calls   []*config.Node // each call's node, in document order
	Group   *config.Node   // the first group's node, nil when there is none
	places  map[string]*config.Node
}

// At returns the node of an entry by its place as package trajectory
// names it (e.g. expected[1].any_order[0]), or the list when unknown.
func (x *CallsOrGroups) At(path string) *config.Node {
	if n := x.places[path]; n != nil {
		return n
	}
	return x.Node
}

// UnmarshalConfig reads the list.
func (x *CallsOrGroups) UnmarshalConfig(n *config.Node) error {
	x.Node, x.places = n, map[string]*config.Node{}
	es, err := x.entries(n, "expected")
	x.Entries = es
	return err
}

func (x *CallsOrGroups) entries(n *config.Node, path string) ([]trajectory.Expect, error) {
	items, err := n.List()
	if err != nil {
		return nil, err
	}
	out := make([]trajectory.Expect, 0, len(items))
	var errs []error
	for i, it := range items {
		e, err := x.entry(it, path+"["+strconv.Itoa(i)+"]")
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, e)
	}
	if err := n.Join(errs); err != nil {
		return nil, err
	}
	return out, nil
}

func (x *CallsOrGroups) entry(it *config.Node, path string) (trajectory.Expect, error) {
	var e trajectory.Expect
	var key string
	var val *config.Node
	if it.Kind == config.Map {
		val, key = it.First(trajectory.Groups...)
	}
	if val == nil {
		switch {
		case it.Kind == config.List:
			return e, it.Errorf("an entry of expected is a call or a group, not a list").With("write a sequence as in_order: [...], alternatives as one_of: [...]")
		case it.Kind == config.Map && !it.Has("tool") && !it.Has("name"):
			// A misspelt group key is more likely than a call without
			// a tool: suggest among both.
			if err := it.Check(slices.Concat(callKeys, trajectory.Groups)...); err != nil {
				return e, err
			}
		}
		c, err := Call(it)
		if err != nil {
			return e, err
		}
		x.Calls = append(x.Calls, it)
		x.places[path] = it
		return trajectory.Expect{Call: c}, nil
	}
	if x.Group == nil {
		x.Group = it
	}
	e.Group = trajectory.Group(key)
	path += "." + key
	x.places[path] = it
	switch e.Group {
	case trajectory.GroupRepeat:
		if err := it.Check(key, "min", "max"); err != nil {
			return e, err
		}
	default:
		if err := it.Check(key); err != nil {
			return e, err
		}
	}
	switch e.Group {
	case trajectory.GroupOptional, trajectory.GroupRepeat:
		if val.Kind == config.List {
			return e, val.Errorf("%s takes one entry, not a list", key).With("for several calls in a row write %s: {in_order: [...]}", key)
		}
		sub, err := x.entry(val, path)
		if err != nil {
			return e, err
		}
		e.Items = []trajectory.Expect{sub}
	default:
		if val.Kind != config.List {
			return e, val.Errorf("%s takes a list of entries, got %s", key, val.Kind)
		}
		if len(val.Items) == 0 {
			return e, val.Errorf("an empty %s group expects nothing", key).With("list its calls, or remove it")
		}
		subs, err := x.entries(val, path)
		if err != nil {
			return e, err
		}
		e.Items = subs
	}
	if e.Group != trajectory.GroupRepeat {
		return e, nil
	}
	e.Min, e.Max = 1, trajectory.Unbounded
	if m := it.Get("min"); m != nil {
		v, err := m.Int()
		if err != nil {
			return e, err
		}
		if v < 0 {
			return e, m.Errorf("min must be at least 0, got %d", v).With("min: 0 makes the repeat optional")
		}
		e.Min = int(min(v, 1<<20))
	}
	if m := it.Get("max"); m != nil {
		v, err := m.Int()
		if err != nil {
			return e, err
		}
		switch {
		case v < 1:
			return e, m.Errorf("max must be at least 1, got %d", v).With("leave max out for no upper bound")
		case v < int64(e.Min):
			return e, m.Errorf("max %d is below min %d", v, e.Min)
		}
		e.Max = int(min(v, 1<<20))
	}
	return e, nil
}
