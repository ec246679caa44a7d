package trajectory

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/align"
	"github.com/trajeval/trajeval/internal/argmatch"
	"github.com/trajeval/trajeval/internal/eval/calls"
	"github.com/trajeval/trajeval/internal/score"
)

// A Group is a kind of group in an expected list.
type Group string

// The groups. Each is an entry of the list whose words (the plain lists
// of calls it allows) are:
const (
	// GroupAnyOrder: its entries, each taken whole, in any order.
	GroupAnyOrder Group = "any_order"
	// GroupInOrder: its entries in order (a sequence, for one_of
	// alternatives and any_order entries of several calls).
	GroupInOrder Group = "in_order"
	// GroupOneOf: exactly one of its entries.
	GroupOneOf Group = "one_of"
	// GroupOptional: its one entry, or nothing.
	GroupOptional Group = "optional"
	// GroupRepeat: its one entry, Min to Max times.
	GroupRepeat Group = "repeat"
)

// Groups are the group names, as a suite file writes them.
var Groups = []string{string(GroupAnyOrder), string(GroupInOrder), string(GroupOneOf), string(GroupOptional), string(GroupRepeat)}

// Unbounded is a repeat's Max when it has no upper bound.
const Unbounded = -1

// An Expect is one entry of an expected list with groups: a call (Group
// "") or a group of entries.
type Expect struct {
	Call  trajeval.ExpectedCall
	Group Group
	// Items are a group's entries; optional and repeat have exactly one.
	Items []Expect
	// Min and Max bound a repeat; Max is Unbounded or at least 1.
	Min, Max int
}

// hasGroups reports whether some entry is a group.
func hasGroups(es []Expect) bool {
	for _, e := range es {
		if e.Group != "" {
			return true
		}
	}
	return false
}

// pattern turns entries into an align.Pattern, appending each call (a
// leaf) to leaves and its place ("expected[1].any_order[0]") to paths.
func pattern(es []Expect, path string, leaves *[]trajeval.ExpectedCall, paths *[]string) (align.Pattern, error) {
	p := align.Pattern{Kind: align.Sequence}
	for i, e := range es {
		at := path + "[" + strconv.Itoa(i) + "]"
		sub, err := entry(e, at, leaves, paths)
		if err != nil {
			return p, err
		}
		p.Sub = append(p.Sub, sub)
	}
	return p, nil
}

// A GroupError is a group New refuses; Path is its place, e.g.
// expected[1].repeat.
type GroupError struct {
	Path string
	Err  error
}

func (e *GroupError) Error() string { return e.Path + ": " + e.Err.Error() }
func (e *GroupError) Unwrap() error { return e.Err }

// Is makes every GroupError match ErrOption.
func (e *GroupError) Is(target error) bool { return target == ErrOption }

func groupErr(path, format string, args ...any) error {
	return &GroupError{Path: path, Err: fmt.Errorf(format, args...)}
}

func entry(e Expect, at string, leaves *[]trajeval.ExpectedCall, paths *[]string) (align.Pattern, error) {
	if e.Group == "" {
		if len(e.Items) > 0 {
			return align.Pattern{}, groupErr(at, "a call has no entries (a group needs a Group)")
		}
		*leaves = append(*leaves, e.Call)
		*paths = append(*paths, at)
		return align.Pattern{Kind: align.Item, Item: len(*leaves) - 1}, nil
	}
	at += "." + string(e.Group)
	if e.Call.Tool != "" || e.Call.Args != nil || e.Call.MaxDurationMS != nil || !e.Call.ArgsMatch.IsZero() {
		return align.Pattern{}, groupErr(at, "a group is not a call (no tool, args, args_match or max_duration_ms beside %s)", e.Group)
	}
	var kind align.PatternKind
	switch e.Group {
	case GroupAnyOrder:
		kind = align.Unordered
		if len(e.Items) > align.MaxUnordered {
			return align.Pattern{}, groupErr(at, "%d entries: an any_order group takes at most %d (use mode: any_order for more)", len(e.Items), align.MaxUnordered)
		}
	case GroupInOrder:
		kind = align.Sequence
	case GroupOneOf:
		kind = align.OneOf
	case GroupOptional, GroupRepeat:
		kind = align.Optional
		if e.Group == GroupRepeat {
			kind = align.Repeat
			switch {
			case e.Min < 0:
				return align.Pattern{}, groupErr(at, "min must be at least 0, got %d", e.Min)
			case e.Max != Unbounded && e.Max < 1:
				return align.Pattern{}, groupErr(at, "max must be at least 1 (or unbounded), got %d", e.Max)
			case e.Max != Unbounded && e.Min > e.Max:
				return align.Pattern{}, groupErr(at, "min %d is above max %d", e.Min, e.Max)
			}
		}
		if len(e.Items) != 1 {
			return align.Pattern{}, groupErr(at, "%s takes exactly one entry, got %d", e.Group, len(e.Items))
		}
		sub, err := entry(e.Items[0], at, leaves, paths)
		if err != nil {
			return align.Pattern{}, err
		}
		return align.Pattern{Kind: kind, Sub: []align.Pattern{sub}, Min: e.Min, Max: e.Max}, nil
	default:
		return align.Pattern{}, groupErr(at, "unknown group %q (one of any_order, in_order, one_of, optional, repeat)", string(e.Group))
	}
	if len(e.Items) == 0 {
		return align.Pattern{}, groupErr(at, "an empty %s group", e.Group)
	}
	p, err := pattern(e.Items, at, leaves, paths)
	p.Kind = kind
	return p, err
}

// prepareGroups reads o.Groups: entries without a group are plain
// expected calls; with groups, their calls (in document order) become
// o.Expected and the entries are compiled, in InOrder and Exact modes
// only.
func (e *Evaluator) prepareGroups(o *Options) error {
	if len(o.Expected) > 0 {
		return groupErr("expected", "Expected and Groups are both set: give the calls in Groups alone")
	}
	if !hasGroups(o.Groups) {
		for _, g := range o.Groups {
			o.Expected = append(o.Expected, g.Call)
		}
		return nil
	}
	var paths []string
	p, err := pattern(o.Groups, "expected", &o.Expected, &paths)
	if err != nil {
		return err
	}
	if e.Mode != InOrder && e.Mode != Exact {
		return groupErr("expected", "groups are only scored in in_order and exact modes, not %s (in_order with the list inside one any_order group scores any order)", e.Mode)
	}
	a, err := align.Compile(p)
	if err != nil {
		return groupErr("expected", "%v", err)
	}
	e.auto, e.paths, e.Groups = a, paths, o.Groups
	return nil
}

// evaluateGroups scores entries with groups: the word of the entries
// (a plain list of calls they allow) and its in-order alignment that
// score best, scored as in_order scores a plain list.
func (e *Evaluator) evaluateGroups(trail *argmatch.Trail, d *trajeval.Details) (trajeval.Outcome, error) {
	steps := trail.Steps()
	r := e.classes.Relate(trail)
	limited := map[int32]bool{}
	for i, c := range r.ItemClass {
		if e.Items[i].MaxDurationMS != nil {
			limited[c] = true
		}
	}
	chk := align.Checks{
		Limited: func(c int32) bool { return limited[c] },
		Skipped: func(_ int32, j int) bool { _, ok := steps[j].Duration(); return !ok },
	}
	align1 := e.auto.Align
	if e.Mode == Exact {
		align1 = e.auto.AlignExact
	}
	ch, err := align1(r, chk, goals[e.Score])
	if err != nil {
		return trajeval.Outcome{}, fmt.Errorf("tool_trajectory: %w", err)
	}
	// The chosen word is explained as the plain list it is: its calls are
	// items 1..|word|, each with its place in expected. Exact numbers them
	// by position (inside a parallel group the word's order may differ).
	n := len(ch.Items)
	leaves, matched := ch.Items, ch.Steps
	if e.Mode == Exact {
		// Slots are positions, with gaps where the word ends inside a
		// parallel group: sort by them.
		ord := make([]int, n)
		for k := range ord {
			ord[k] = k
		}
		slices.SortFunc(ord, func(x, y int) int { return ch.Slots[x] - ch.Slots[y] })
		leaves, matched = make([]int, n), make([]int, n)
		for r, k := range ord {
			leaves[r], matched[r] = ch.Items[k], ch.Steps[k]
		}
	}
	items := make([]calls.Item, n)
	want := make([]trajeval.ExpectedCall, n)
	chosen := []any{}
	var a align.Alignment
	for k, leaf := range leaves {
		items[k], want[k] = e.Items[leaf], e.Calls[leaf]
		if matched[k] >= 0 {
			a.Pairs = append(a.Pairs, align.Pair{Item: k, Step: matched[k]})
		}
		// A run of one call (a repeat) is one line: "4-6 search: expected[2].repeat".
		first := k
		for first > 0 && leaves[first-1] == leaf {
			first--
		}
		if k+1 < n && leaves[k+1] == leaf {
			continue
		}
		num := strconv.Itoa(k + 1)
		if first < k {
			num = strconv.Itoa(first+1) + "-" + num
		}
		chosen = append(chosen, num+" "+e.Calls[leaf].Tool+": "+e.paths[leaf])
	}
	switch {
	case n == 0:
		for j, s := range steps {
			d.Extra = append(d.Extra, trajeval.Extra{Step: stepNo(steps, j), Tool: s.Name})
		}
	case e.Mode == Exact:
		calls.ExplainTrail(d, items, trail, a, calls.Positional)
	default:
		calls.ExplainTrail(d, items, trail, a, calls.Ordered)
	}
	d.Expected, d.Hits = len(items), len(a.Pairs)
	if e.Groups != nil {
		d.Notes = map[string]any{"chosen": chosen}
	}
	latPass, latSkip, latN := latency(want, steps, a, d)
	den := len(items)
	if e.Mode == Exact {
		den = max(den, len(steps))
	}
	recall := score.Ratio(d.Hits+latPass, den+latN-latSkip, 1)
	return trajeval.Outcome{Score: e.Score.Apply(recall, d.Hits, len(items), len(steps)), Details: d}, nil
}

// goals are the words each score chooses: binary is 1 when the recall is.
var goals = map[score.Normalisation]align.Goal{
	score.Recall: align.Recall, score.Binary: align.Recall,
	score.Precision: align.Precision, score.F1: align.F1, score.Max: align.Max,
}

// preparePlain compiles a plain list with latency limits, in InOrder and
// Exact modes, as the sequence of its calls: the alignment of best score
// is then found as for a list with groups, so that both follow one rule
// (see docs/scoring.md) and an optional call that is absent changes no
// score.
func (e *Evaluator) preparePlain() error {
	limited := false
	p := align.Pattern{Kind: align.Sequence}
	for i, c := range e.Calls {
		limited = limited || c.MaxDurationMS != nil
		p.Sub = append(p.Sub, align.Pattern{Kind: align.Item, Item: i})
		e.paths = append(e.paths, "expected["+strconv.Itoa(i)+"]")
	}
	if !limited || len(e.Calls) == 0 || e.Mode != InOrder && e.Mode != Exact {
		e.paths = nil
		return nil
	}
	a, err := align.Compile(p)
	if err != nil {
		return groupErr("expected", "%v", err)
	}
	e.auto = a
	return nil
}

func stepNo(steps []trajeval.Step, j int) int {
	if steps[j].Index > 0 {
		return steps[j].Index
	}
	return j + 1
}
