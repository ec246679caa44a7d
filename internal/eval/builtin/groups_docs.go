package builtin

import (
	"slices"

	"github.com/trajeval/trajeval/internal/shape"
)

// entryRef is one entry of tool_trajectory's expected: a call or a group,
// defined once under $defs/expected_entry, since groups nest.
var entryRef = shape.Ref("expected_entry", "entry (a call, or a group of entries)")

// trajectoryExpectedShape is tool_trajectory's expected: calls and groups.
var trajectoryExpectedShape = shape.List(entryRef)

// ExpectedEntrySchema returns the JSON Schema of one entry of
// tool_trajectory's expected, for $defs/expected_entry: a tool name, a
// call, or a group.
func ExpectedEntrySchema() map[string]any {
	entries := shape.List(entryRef)
	group := func(key, text, doc string, of shape.Shape, more ...shape.Field) shape.Shape {
		return shape.Object(text, append([]shape.Field{{Key: key, Shape: of, Required: true, Doc: doc}}, more...)...)
	}
	// A call is written as in every other expected list.
	calls, _ := docs().expected.Schema["items"].(map[string]any)["anyOf"].([]any)
	alts := slices.Clone(calls)
	for _, g := range []shape.Shape{
		group("any_order", "any_order group", "The entries, each taken whole, in any order (in_order and exact modes only).", entries),
		group("in_order", "in_order group", "The entries in this order: a sequence, e.g. one alternative of one_of.", entries),
		group("one_of", "one_of group", "Exactly one of the entries: the one that scores best.", entries),
		group("optional", "optional group", "The entry, or nothing: it never lowers the score.", entryRef),
		group("repeat", "repeat group", "The entry, min to max times.", entryRef,
			shape.Field{Key: "min", Shape: shape.Count(0), Default: "1", Doc: "The fewest times."},
			shape.Field{Key: "max", Shape: shape.Count(1), Default: "no upper bound", Doc: "The most times."}),
	} {
		alts = append(alts, g.Schema)
	}
	return map[string]any{"anyOf": alts}
}
