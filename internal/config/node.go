// Package config reads YAML and JSON configuration into a tree of
// positioned nodes, so that every mistake is reported with its file, line,
// column and path, and a close valid name where there is one.
//
// Keys are looked up by their canonical spelling: camelCase, kebab-case and
// snake_case are the same key (maxDurationMs = max-duration-ms =
// max_duration_ms). User data inside a map (argument objects, tool names in
// minimums) is never respelled.
//
// A document is bounded before it is read, so that no file, written by
// mistake or on purpose, holds a run for minutes:
//  1. it nests at most 512 levels; past 513 it is refused from its tokens,
//     before the YAML parser, whose time grows with the square of the
//     depth (the tokens count a collection one level, the converter its
//     values one deeper, so the tokens refuse only what the converter
//     refuses too);
//  2. its aliases expand to at most a million values beyond its bytes;
//  3. a block map (a key a line) holds at most 1,024 keys, the YAML
//     parser's time growing with the square of a block map's keys; a
//     larger map is written in flow style, {key: value, ...}, or as JSON.
//
// Within these bounds reading takes time and memory linear in the
// document: about 200 to 500 bytes allocated for each byte read, most of
// them the YAML parser's tokens and tree. A long list read by [ParseList]
// holds one part of it as a tree at a time, besides its last part, which
// it converts first to check that it reads on its own. A part whose items
// are each one line of a flow map of plain words ("- {id: c1, input:
// Some text}", the shape of a generated suite) is read without the YAML
// parser, into the same nodes at the same places, with about 12 bytes
// allocated for each byte read; its words are substrings of one copy of
// the part, so a value kept keeps the part's text. [Node.EachItem] hands
// such items over with their words alone, their nodes built when asked
// for: a loader that needs only an item's words builds none.
package config

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/suggest"
)

// Kind is the type of a node.
type Kind int

// The node kinds.
const (
	Null Kind = iota
	Bool
	Number
	String
	List
	Map
)

func (k Kind) String() string {
	return [...]string{"null", "boolean", "number", "string", "list", "map"}[k]
}

// A Node is one value of a configuration file.
type Node struct {
	Kind    Kind
	Text    string // a string's value, a number's or bool's text
	Items   []*Node
	Entries []Entry
	File    string
	Line    int
	Col     int
	Path    string    // e.g. evalcases[2].execution.evaluators[0]
	size    int       // nodes in the value with aliases expanded, for Parse's bound
	lazy    *lazyList // a list ParseList has not converted yet (see Each)

	// TextCol is the column of a string's first character when the
	// string is written on one line as its text is (plain, or quoted
	// without escapes), so an offset in the text has a column; else 0.
	TextCol int
}

// An Entry is one key of a map, in file order.
type Entry struct {
	Key     string
	KeyLine int
	KeyCol  int
	Value   *Node
}

// Canon returns the canonical spelling of a key: snake_case, lower case
// (see suggest.Canon).
func Canon(key string) string {
	if canonical(key) {
		// Already canonical: a suite's keys are nearly all spelt so, and
		// each case asks for a dozen of them.
		return key
	}
	return suggest.Canon(key)
}

// canonical reports whether key is lower case letters, digits and
// underscores only, which suggest.Canon leaves as they are.
func canonical(key string) bool {
	for i := 0; i < len(key); i++ {
		if c := key[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// Get returns the value of key (any spelling), or nil. A nil node answers
// every method as if absent.
func (n *Node) Get(key string) *Node {
	if n == nil || n.Kind != Map {
		return nil
	}
	c := Canon(key)
	for _, e := range n.Entries {
		if Canon(e.Key) == c {
			return e.Value
		}
	}
	return nil
}

// Has reports whether the map n has key.
func (n *Node) Has(key string) bool { return n.Get(key) != nil }

// First returns the value of the first of keys that is present, with the
// key's spelling as given.
func (n *Node) First(keys ...string) (*Node, string) {
	for _, k := range keys {
		if v := n.Get(k); v != nil {
			return v, k
		}
	}
	return nil, ""
}

// Errorf returns a SpecError placed at n.
func (n *Node) Errorf(format string, args ...any) *trajeval.SpecError {
	e := &trajeval.SpecError{Msg: fmt.Sprintf(format, args...)}
	if n != nil {
		e.File, e.Line, e.Col, e.Path = n.File, n.Line, n.Col, n.Path
	}
	return e
}

// Check returns an error for the first key of the map n that is not one of
// allowed (compared canonically), suggesting the closest allowed key, and
// for a key given twice under two spellings.
func (n *Node) Check(allowed ...string) error {
	if n == nil || n.Kind != Map {
		return nil
	}
	canon := make([]string, len(allowed))
	for i, a := range allowed {
		canon[i] = Canon(a)
	}
	seen := map[string]string{}
	for _, e := range n.Entries {
		c := Canon(e.Key)
		if prev, dup := seen[c]; dup {
			return n.entryErr(e, "key %q repeats %q", e.Key, prev)
		}
		seen[c] = e.Key
		if !contains(canon, c) {
			err := n.entryErr(e, "unknown key %q", e.Key)
			if s := suggest.Closest(c, canon); s != "" {
				err.Hint = fmt.Sprintf("did you mean %q?", allowed[indexOf(canon, s)])
			} else {
				sorted := append([]string(nil), allowed...)
				sort.Strings(sorted)
				// The lists callers join may overlap (a suite's keys and a
				// dialect's): each key is named once.
				err.Hint = "allowed: " + strings.Join(slices.Compact(sorted), ", ")
			}
			return err
		}
	}
	return nil
}

func (n *Node) entryErr(e Entry, format string, args ...any) *trajeval.SpecError {
	err := n.Errorf(format, args...)
	err.Line, err.Col = e.KeyLine, e.KeyCol
	err.Path = join(n.Path, e.Key)
	return err
}

func contains(list []string, s string) bool { return indexOf(list, s) >= 0 }

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// Str returns the string value of n.
func (n *Node) Str() (string, error) {
	if n.Kind != String {
		return "", n.Errorf("expected a string, got %s", n.describe())
	}
	return n.Text, nil
}

// Name returns a string value, also accepting a number or bool written
// without quotes (a tool called 2fa, a version 1.0).
func (n *Node) Name() (string, error) {
	switch n.Kind {
	case String, Number, Bool:
		return n.Text, nil
	}
	return "", n.Errorf("expected a name, got %s", n.describe())
}

// Float returns the number value of n.
func (n *Node) Float() (float64, error) {
	if n.Kind != Number {
		return 0, n.Errorf("expected a number, got %s", n.describe())
	}
	f, err := strconv.ParseFloat(n.Text, 64)
	if err != nil {
		return 0, n.Errorf("number %s is out of range", n.Text)
	}
	return f, nil
}

// NonNegative returns a number ≥ 0.
func (n *Node) NonNegative() (float64, error) {
	f, err := n.Float()
	if err == nil && f < 0 {
		return 0, n.Errorf("must not be negative, got %s", n.Text)
	}
	return f, err
}

// Int returns the integer value of n.
func (n *Node) Int() (int64, error) {
	if n.Kind != Number {
		return 0, n.Errorf("expected a whole number, got %s", n.describe())
	}
	i, err := strconv.ParseInt(n.Text, 10, 64)
	if err != nil {
		f, ferr := strconv.ParseFloat(n.Text, 64)
		if ferr != nil || f != float64(int64(f)) {
			return 0, n.Errorf("expected a whole number, got %s", n.Text)
		}
		i = int64(f)
	}
	return i, nil
}

// BoolValue returns the boolean value of n.
func (n *Node) BoolValue() (bool, error) {
	if n.Kind != Bool {
		return false, n.Errorf("expected true or false, got %s", n.describe())
	}
	return n.Text == "true", nil
}

// List returns the items of a list node.
func (n *Node) List() ([]*Node, error) {
	if n.Kind != List {
		return nil, n.Errorf("expected a list, got %s", n.describe())
	}
	if err := n.Materialize(); err != nil {
		return nil, err
	}
	return n.Items, nil
}

// MapEntries returns the entries of a map node.
func (n *Node) MapEntries() ([]Entry, error) {
	if n.Kind != Map {
		return nil, n.Errorf("expected a map, got %s", n.describe())
	}
	return n.Entries, nil
}

// Strings returns a list of names; a single name is a list of one.
func (n *Node) Strings() ([]string, error) {
	if n.Kind == String {
		return []string{n.Text}, nil
	}
	items, err := n.List()
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(items))
	for _, it := range items {
		s, err := it.Name()
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// Enum returns the string value of n, which must be one of values
// (compared case-insensitively and canonically, so IN_ORDER, in-order and
// inOrder are in_order). It returns the matching value as listed.
func (n *Node) Enum(values ...string) (string, error) {
	s, err := n.Str()
	if err != nil {
		return "", err
	}
	// Canon before lowering: lowering first would turn inOrder into inorder.
	c := strings.ToLower(Canon(s))
	for _, v := range values {
		if strings.ToLower(Canon(v)) == c {
			return v, nil
		}
	}
	e := n.Errorf("unknown value %q", s)
	if sug := suggest.Closest(s, values); sug != "" {
		e.Hint = fmt.Sprintf("did you mean %q?", sug)
	} else {
		e.Hint = "one of: " + strings.Join(values, ", ")
	}
	return "", e
}

func (n *Node) describe() string {
	switch n.Kind {
	case Null:
		return "nothing"
	case String:
		return fmt.Sprintf("the string %q", n.Text)
	case Number, Bool:
		return fmt.Sprintf("%s %s", n.Kind, n.Text)
	}
	return "a " + n.Kind.String()
}

// Value returns n in the JSON data model (nil, bool, string, json.Number,
// []any, map[string]any).
func (n *Node) Value() any {
	if n == nil {
		return nil
	}
	switch n.Kind {
	case Bool:
		return n.Text == "true"
	case Number:
		return json.Number(n.Text)
	case String:
		return n.Text
	case List:
		_ = n.Materialize() // a part that does not convert leaves the list as far as it went
		out := make([]any, len(n.Items))
		for i, it := range n.Items {
			out[i] = it.Value()
		}
		return out
	case Map:
		out := make(map[string]any, len(n.Entries))
		for _, e := range n.Entries {
			out[e.Key] = e.Value.Value()
		}
		return out
	}
	return nil
}

// At returns the node at a path below n made of map keys and list indexes
// (e.g. "expected.1.args"), for placing errors found in a decoded value.
func (n *Node) At(path ...string) *Node {
	cur := n
	for _, p := range path {
		if cur == nil {
			return n
		}
		switch cur.Kind {
		case Map:
			var next *Node
			for _, e := range cur.Entries {
				if e.Key == p {
					next = e.Value
				}
			}
			if next == nil {
				return cur
			}
			cur = next
		case List:
			_ = cur.Materialize()
			i, err := strconv.Atoi(p)
			if err != nil || i < 0 || i >= len(cur.Items) {
				return cur
			}
			cur = cur.Items[i]
		default:
			return cur
		}
	}
	return cur
}
