package config

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/trajeval/trajeval"
)

// A Place is where a value was in its file, without the value: what a
// value that outlives its document (a suite's case) keeps to place later
// errors. It is three words held inline; the places of a list's items
// made by one [Places] share their file and the list's path, so that a
// million cases hold neither a million nodes nor a million paths.
type Place struct {
	at        *placeAt // nil for no place
	Line, Col int32
	// item is the index of an item whose path is at.path[item], written
	// only when an error asks for it; -1 when at.path is the whole path.
	item int32
}

// placeAt is the file and path that places share.
type placeAt struct {
	file, path string
}

// PlaceOf returns the place of n; the zero Place when n is nil.
func PlaceOf(n *Node) Place {
	if n == nil {
		return Place{}
	}
	return Place{at: &placeAt{n.File, n.Path}, Line: clamp32(n.Line), Col: clamp32(n.Col), item: -1}
}

// ItemPlace returns the place of n, item i of the list at path list (see
// [Places.Item]).
func ItemPlace(n *Node, list string, i int) Place {
	var ps Places
	return ps.Item(n, list, i)
}

// Places makes the places of a list's items, sharing their file and the
// list's path. The zero value is ready to use.
type Places struct {
	last *placeAt
}

// Item returns the place of n, item i of the list at path list, without
// n's own path string: the item's path is written from the list's when
// an error asks for it.
func (ps *Places) Item(n *Node, list string, i int) Place {
	if n == nil {
		return Place{}
	}
	if rest, ok := strings.CutPrefix(n.Path, list); !ok || !isIndex(rest, i) {
		return PlaceOf(n)
	}
	return ps.at(n.File, list, n.Line, n.Col, i)
}

// at returns the place of item i ≥ 0 of the list at path list in file,
// at line and col.
func (ps *Places) at(file, list string, line, col, i int) Place {
	if ps.last == nil || ps.last.file != file || ps.last.path != list {
		ps.last = &placeAt{file, list}
	}
	return Place{at: ps.last, Line: clamp32(line), Col: clamp32(col), item: clamp32(i)}
}

// isIndex reports whether s is "[i]", i ≥ 0 in decimal without leading
// zeros.
func isIndex(s string, i int) bool {
	if len(s) < 3 || s[0] != '[' || s[len(s)-1] != ']' || i < 0 {
		return false
	}
	if s[1] == '0' && len(s) > 3 {
		return false // a zero before
	}
	n := 0
	for _, c := range []byte(s[1 : len(s)-1]) {
		if c < '0' || c > '9' || n > (1<<31)/10 {
			return false
		}
		n = 10*n + int(c-'0')
	}
	return n == i
}

// IsZero reports whether p is no place.
func (p Place) IsZero() bool {
	return (p.at == nil || p.at.file == "" && p.at.path == "") && p.Line == 0
}

// File returns the file of the value; "" for no place.
func (p Place) File() string {
	if p.at == nil {
		return ""
	}
	return p.at.file
}

// Path returns the path of the value, e.g. evalcases[2].
func (p Place) Path() string {
	if p.at == nil {
		return ""
	}
	if p.item < 0 {
		return p.at.path
	}
	return p.at.path + "[" + strconv.Itoa(int(p.item)) + "]"
}

// Errorf returns a SpecError placed at p.
func (p Place) Errorf(format string, args ...any) *trajeval.SpecError {
	return &trajeval.SpecError{File: p.File(), Line: int(p.Line), Col: int(p.Col), Path: p.Path(), Msg: fmt.Sprintf(format, args...)}
}

// Node returns a node with p's place and none of its content, for code
// that takes a node to place its errors.
func (p Place) Node() *Node {
	return &Node{File: p.File(), Line: int(p.Line), Col: int(p.Col), Path: p.Path()}
}

// clamp32 returns i as an int32; a line past 2³¹ (no file trajeval reads
// has one) keeps the largest.
func clamp32(i int) int32 {
	return int32(min(max(i, -1<<31), 1<<31-1))
}
