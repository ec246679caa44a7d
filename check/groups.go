package check

import (
	"strconv"

	"github.com/trajeval/trajeval/internal/eval/trajectory"
)

// An Entry is one entry of the expected calls of [InOrder] and [Exact]: a
// [ToolCall] or a [Group].
type Entry interface {
	Option
	expect(at string) (trajectory.Expect, error)
	calls() []ToolCall
}

// A Group is an entry of [InOrder] and [Exact] that allows several plain
// lists of calls (its words), made by [Unordered], [Sequence], [Either],
// [Optional] or [Repeat]. Groups nest. The evaluator scores each word as
// it scores a plain list and keeps the best:
//  1. InOrder: (hits + latency passes) / (calls of the word + their
//     latency checks − checks skipped), the empty word scoring 1;
//  2. Exact: the same position by position, over max(calls of the word,
//     actual calls), the empty word scoring 1 only when nothing was
//     called;
//  3. so an Optional call that is absent costs nothing, Either counts
//     its best alternative, and Repeat counts at least min calls and as
//     many more as it matched;
//  4. among words of the best score, the one with the most hits wins.
//
// AnyOrder and Subset refuse groups (a setting error): AnyOrder ignores
// order anyway (InOrder with one Unordered group is any order), Subset is
// an allow-list.
type Group struct {
	kind     trajectory.Group
	entries  []Entry
	min, max int
}

// Unbounded is the max of a [Repeat] without an upper bound.
const Unbounded = trajectory.Unbounded

// Unordered expects its entries, each taken whole, in any order, after
// the entries before it and before those after it. It takes at most 12
// entries (12! orders are searched as 2^12 sets); more is a setting
// error.
func Unordered(entries ...Entry) Group {
	return Group{kind: trajectory.GroupAnyOrder, entries: entries}
}

// Sequence expects its entries in order: an alternative of [Either], a
// repetition of [Repeat] or an entry of [Unordered] made of several calls.
func Sequence(entries ...Entry) Group { return Group{kind: trajectory.GroupInOrder, entries: entries} }

// Either expects exactly one of its entries: the one that scores best.
// (It is the one_of group of a suite file; [OneOf] is an argument
// operator.)
func Either(entries ...Entry) Group { return Group{kind: trajectory.GroupOneOf, entries: entries} }

// Optional expects the entry or nothing.
func Optional(entry Entry) Group {
	return Group{kind: trajectory.GroupOptional, entries: []Entry{entry}}
}

// Repeat expects the entry min to max times, each time with its own
// choices; max is [Unbounded] for no upper bound. min < 0, max < 1 (other
// than Unbounded) and min > max are setting errors.
func Repeat(entry Entry, min, max int) Group {
	return Group{kind: trajectory.GroupRepeat, entries: []Entry{entry}, min: min, max: max}
}

func (g Group) apply(o *options) {
	o.entries = append(o.entries, g)
	o.nested = append(o.nested, g.calls()...)
	o.given["groups"] = true
}

func (g Group) calls() []ToolCall {
	var out []ToolCall
	for _, e := range g.entries {
		if e != nil {
			out = append(out, e.calls()...)
		}
	}
	return out
}

func (g Group) expect(at string) (trajectory.Expect, error) {
	x := trajectory.Expect{Group: g.kind, Min: g.min, Max: g.max}
	var err error
	x.Items, err = expects(g.entries, at+"."+string(g.kind))
	return x, err
}

func (c ToolCall) calls() []ToolCall { return []ToolCall{c} }

func (c ToolCall) expect(at string) (trajectory.Expect, error) {
	e, err := c.expected(at + " (" + c.tool + ")")
	return trajectory.Expect{Call: e}, err
}

// expects turns entries into the evaluator's; at names their list in
// errors, e.g. expected[1].any_order.
func expects(entries []Entry, at string) ([]trajectory.Expect, error) {
	out := make([]trajectory.Expect, 0, len(entries))
	for i, e := range entries {
		place := at + "[" + strconv.Itoa(i) + "]"
		if e == nil {
			return nil, errorf("%s: a nil entry", place)
		}
		x, err := e.expect(place)
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, nil
}
