package config_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/config"
)

// unbounded is a token bound on nesting no document of a test reaches:
// only the converter's exact bound applies.
const unbounded = 1 << 30

// sameParse fails t unless data parses the same with the token bound
// Parse uses and with none: the bound counted from the tokens only
// refuses, sooner, what the converter refuses at its exact place.
func sameParse(t *testing.T, data []byte) {
	t.Helper()
	n, err := config.Parse("f.yaml", data)
	un, unErr := config.ParseDepth("f.yaml", data, config.MaxDepth, unbounded)
	if unErr == nil && (err != nil || !reflect.DeepEqual(n, un)) {
		t.Fatalf("%.200q: Parse gives %v, without the token bound it reads", data, err)
	}
	if unErr != nil && err == nil {
		t.Fatalf("%.200q: Parse reads it, without the token bound: %v", data, unErr)
	}
}

// depthDoc returns a YAML value whose innermost value is levels deep as
// the converter counts (an anchor is a level of its own), of flow and
// block collections, anchors, empty collections (a level from the tokens,
// none from the converter) and keys after a nested value, chosen by r.
// ind is the column (less one) a block collection starts at; flow is
// whether the value is inside a flow collection.
func depthDoc(r *rand.Rand, levels, ind int, flow bool) string {
	pad := strings.Repeat(" ", ind)
	if levels == 0 {
		leaves := []string{"x", "[]", "{}", "[]", "1", ""} // "": a null, in a block only
		return leaves[r.IntN(len(leaves)-btoi(flow))]
	}
	inner := func(used, ind int, flow bool) string { return depthDoc(r, levels-used, ind, flow) }
	pick := r.IntN(8)
	if flow {
		pick %= 3
	}
	if levels < 2 && (pick == 2 || pick == 5) || pick == 2 && r.IntN(levels) > 0 {
		// An anchor is a level of the converter's only: one at most, near
		// the innermost value, so that most documents meet the token bound
		// as tightly as the converter's.
		pick = 0
	}
	switch pick {
	case 0:
		return "[" + inner(1, 0, true) + "]"
	case 1:
		return "{k: " + inner(1, 0, true) + "}"
	case 2:
		return "&a" + fmt.Sprint(levels) + " [a, " + inner(2, 0, true) + "]"
	case 3, 4:
		// a block list: the items after the nested one pop its levels
		return "\n" + pad + "- " + inner(1, ind+2, false) + "\n" + pad + "- z"
	case 5:
		// a block list at its key's column
		return "\n" + pad + "k:\n" + pad + "- " + inner(2, ind+2, false)
	case 6:
		return "\n" + pad + "k: " + inner(1, ind+2, false) + "\n" + pad + "z: 1"
	default:
		return "\n" + pad + "k:\n" + pad + "  " + strings.TrimPrefix(inner(1, ind+2, false), "\n"+pad+"  ")
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestParse_tokenDepth: Parse refuses a document nested too deep from its
// tokens, before the YAML parser (whose time grows with the square of
// the depth), at a bound tight enough that the parser is never given a
// document much deeper than the converter's bound; documents nested
// around that bound, of every kind of collection, parse the same as
// without the token bound.
func TestParse_tokenDepth(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for levels := config.MaxDepth - 2; levels <= config.MaxDepth+2; levels++ {
		for i := range 60 {
			doc := strings.TrimPrefix(depthDoc(r, levels, 0, false), "\n") + "\n"
			t.Run(fmt.Sprintf("%d levels #%d", levels, i), func(t *testing.T) { sameParse(t, []byte(doc)) })
		}
	}
}

// FuzzTokenDepth checks on any input that the bound on nesting counted
// from the tokens, one more than the converter's (as Parse has it),
// refuses nothing the converter reads: with the converter's bound at 3,
// inputs of a few levels meet both.
func FuzzTokenDepth(f *testing.F) {
	for _, s := range []string{"[[[]]]\n", "[[[[]]]]\n", "a:\n- - [x]\n", "- a:\n    - b: {c: []}\n  d: 1\n", "? a\n: - b\n", "a: &x\n  b: [*x]\n", "a:\n  b:\n    c: 1\n  d:\n  - - x\n"} {
		f.Add([]byte(s))
	}
	const depth = 3
	f.Fuzz(func(t *testing.T, data []byte) {
		n, err := config.ParseDepth("f.yaml", data, depth, depth+config.MaxTokenDepth-config.MaxDepth)
		un, unErr := config.ParseDepth("f.yaml", data, depth, unbounded)
		if unErr == nil && (err != nil || !reflect.DeepEqual(n, un)) {
			t.Fatalf("%q: with the token bound %v, without it read", data, err)
		}
		if unErr != nil && err == nil {
			t.Fatalf("%q: read with the token bound, without it %v", data, unErr)
		}
	})
}
