package config

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/trajeval/trajeval"
)

// A Place is where a value was in its file, without the value: what a
// value that outlives its document (a suite's case) keeps to place later
// errors. It is a few words held inline, with no allocation of its own,
// so that a million cases do not hold a million nodes.
type Place struct {
	File      string
	Line, Col int32
	// path is the whole path, or the list's key when item ≥ 0: the path
	// of an item is written only when an error asks for it.
	path string
	item int32
}

// PlaceOf returns the place of n; the zero Place when n is nil.
func PlaceOf(n *Node) Place {
	if n == nil {
		return Place{}
	}
	return Place{File: n.File, Line: clamp32(n.Line), Col: clamp32(n.Col), path: n.Path, item: -1}
}

// ItemPlace returns the place of n, item i of the list at path list,
// without n's own path string: the item's path is written from the
// list's when an error asks for it, so a million items share one string.
func ItemPlace(n *Node, list string, i int) Place {
	p := PlaceOf(n)
	var idx [24]byte
	if rest, ok := strings.CutPrefix(p.path, list); ok && rest == string(append(strconv.AppendInt(append(idx[:0], '['), int64(i), 10), ']')) {
		p.path, p.item = list, clamp32(i)
	}
	return p
}

// IsZero reports whether p is no place.
func (p Place) IsZero() bool { return p.File == "" && p.Line == 0 && p.path == "" }

// Path returns the path of the value, e.g. evalcases[2].
func (p Place) Path() string {
	if p.item < 0 || p.path == "" && p.item == 0 {
		return p.path
	}
	return p.path + "[" + strconv.Itoa(int(p.item)) + "]"
}

// Errorf returns a SpecError placed at p.
func (p Place) Errorf(format string, args ...any) *trajeval.SpecError {
	return &trajeval.SpecError{File: p.File, Line: int(p.Line), Col: int(p.Col), Path: p.Path(), Msg: fmt.Sprintf(format, args...)}
}

// Node returns a node with p's place and none of its content, for code
// that takes a node to place its errors.
func (p Place) Node() *Node {
	return &Node{File: p.File, Line: int(p.Line), Col: int(p.Col), Path: p.Path()}
}

// clamp32 returns i as an int32; a line past 2³¹ (no file trajeval reads
// has one) keeps the largest.
func clamp32(i int) int32 {
	return int32(min(max(i, -1<<31), 1<<31-1))
}
