package argmatch

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/trajeval/trajeval/internal/jsonv"
)

// A Path names places inside a JSON value, such as items[*].id or
// passengers[0].name. It is written:
//  1. keys separated by dots: a.b.c; a key is any text without . [ ] or
//     a double quote, and not empty;
//  2. an array index in brackets: items[0]; a key of digits also indexes
//     an array (items.0), as the dot-paths of args_match do;
//  3. a wildcard, * as a key or [*], for every member of an object or
//     element of an array;
//  4. a key with dots, brackets or quotes in it quoted in brackets as a
//     JSON string: ["functions.search"].result; a quoted "*" is the
//     key *, not a wildcard.
//
// The path may start with a key or a bracket. Its string form writes
// keys with dots, indexes and wildcards after a key in brackets.
type Path []Seg

// A Seg is one step of a [Path].
type Seg struct {
	Key   string // the member name; with Index ≥ 0, empty
	Index int    // the array index, or -1 for a key or wildcard
	Any   bool   // a wildcard: every member or element
}

// A PathError is a path that does not parse. Col is the 1-based column,
// in characters, of the mistake.
type PathError struct {
	Path string
	Col  int
	Msg  string
}

func (e *PathError) Error() string {
	return fmt.Sprintf("path %q, column %d: %s", e.Path, e.Col, e.Msg)
}

// ParsePath parses a path (see [Path]). An error is a [*PathError].
func ParsePath(s string) (Path, error) {
	var p Path
	i := 0
	fail := func(at int, format string, args ...any) error {
		return &PathError{Path: s, Col: utf8.RuneCountInString(s[:min(at, len(s))]) + 1, Msg: fmt.Sprintf(format, args...)}
	}
	if s == "" {
		return nil, fail(0, "empty path")
	}
	if !utf8.ValidString(s) {
		return nil, &PathError{Path: s, Col: 1, Msg: "not valid UTF-8"}
	}
	key := func() (Seg, error) {
		start := i
		for i < len(s) && !strings.ContainsRune(".[]\"", rune(s[i])) {
			i++
		}
		if i == start {
			if i < len(s) {
				return Seg{}, fail(i, "expected a key, found %q", s[i])
			}
			return Seg{}, fail(i, "expected a key at the end")
		}
		k := s[start:i]
		if k == "*" {
			return Seg{Index: -1, Any: true}, nil
		}
		return Seg{Key: k, Index: -1}, nil
	}
	bracket := func() (Seg, error) {
		open := i
		i++ // [
		var seg Seg
		switch {
		case i < len(s) && s[i] == '*':
			i++
			seg = Seg{Index: -1, Any: true}
		case i < len(s) && s[i] == '"':
			end := i + 1
			for end < len(s) && s[end] != '"' {
				if s[end] == '\\' {
					end++
				}
				end++
			}
			if end >= len(s) {
				return Seg{}, fail(i, "unterminated quoted key")
			}
			var k string
			if err := json.Unmarshal([]byte(s[i:end+1]), &k); err != nil {
				return Seg{}, fail(i, "invalid quoted key: write it as a JSON string")
			}
			i = end + 1
			seg = Seg{Key: k, Index: -1}
		case i < len(s) && s[i] >= '0' && s[i] <= '9':
			start := i
			for i < len(s) && s[i] >= '0' && s[i] <= '9' {
				i++
			}
			n, err := strconv.Atoi(s[start:i])
			if err != nil {
				return Seg{}, fail(start, "index %s is too large", s[start:i])
			}
			seg = Seg{Index: n}
		case i < len(s):
			return Seg{}, fail(i, "expected an index, * or a quoted key after [, found %q", s[i])
		default:
			return Seg{}, fail(i, "expected an index, * or a quoted key after [")
		}
		if i >= len(s) || s[i] != ']' {
			return Seg{}, fail(i, "expected ] to close the [ at column %d", utf8.RuneCountInString(s[:open])+1)
		}
		i++
		return seg, nil
	}
	for first := true; i < len(s); first = false {
		var seg Seg
		var err error
		switch {
		case s[i] == '[':
			seg, err = bracket()
		case first:
			seg, err = key()
		case s[i] == '.':
			i++
			seg, err = key()
		default:
			err = fail(i, "expected . or [ after a key, found %q", s[i])
		}
		if err != nil {
			return nil, err
		}
		p = append(p, seg)
	}
	return p, nil
}

// SplitPath parses a path of args_match (see [Path]) into its keys, an
// index written as its digits: passengers[0].name and passengers.0.name
// are passengers, 0, name. It refuses a wildcard, since such a path
// names one place. An error is a [*PathError].
func SplitPath(s string) ([]string, error) {
	p, err := ParsePath(s)
	if err != nil {
		return nil, err
	}
	if slices.ContainsFunc(p, func(seg Seg) bool { return seg.Any }) {
		col := utf8.RuneCountInString(s[:max(strings.IndexByte(s, '*'), 0)]) + 1
		return nil, &PathError{Path: s, Col: col, Msg: "an args_match path names one place: no * wildcard"}
	}
	return p.Keys(), nil
}

// Keys returns the path's keys, an index written as its digits and a
// wildcard as *.
func (p Path) Keys() []string {
	out := make([]string, len(p))
	for i, seg := range p {
		switch {
		case seg.Any:
			out[i] = "*"
		case seg.Index >= 0:
			out[i] = strconv.Itoa(seg.Index)
		default:
			out[i] = seg.Key
		}
	}
	return out
}

// Under writes the path below root in its canonical form: args.a[0].b,
// args[1], args["x.y"]; root alone for the empty path.
func (p Path) Under(root string) string {
	s := p.String()
	switch {
	case s == "":
		return root
	case root == "" || strings.HasPrefix(s, "["):
		return root + s
	}
	return root + "." + s
}

// JoinKey writes the place of key below path as [Path.String] does:
// path.key, or path["key"] for a key that must be quoted.
func JoinKey(path, key string) string {
	if needsQuote(key) {
		q, _ := json.Marshal(key)
		return path + "[" + string(q) + "]"
	}
	if path == "" {
		return key
	}
	return path + "." + key
}

func needsQuote(key string) bool {
	return key == "*" || key == "" || strings.ContainsAny(key, ".[]\"")
}

// String writes the path in its canonical form.
func (p Path) String() string {
	var b strings.Builder
	for i, seg := range p {
		switch {
		case seg.Any && i == 0:
			b.WriteString("*")
		case seg.Any:
			b.WriteString("[*]")
		case seg.Index >= 0:
			b.WriteString("[" + strconv.Itoa(seg.Index) + "]")
		case needsQuote(seg.Key):
			q, _ := json.Marshal(seg.Key)
			b.WriteString("[" + string(q) + "]")
		default:
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(seg.Key)
		}
	}
	return b.String()
}

// Covers reports whether the pattern p names the place at, or a place
// that holds it: p is a prefix of at, segment by segment, where a
// wildcard takes any key or index, and a key of digits takes that index.
// at names one place: keys and indexes, no wildcards.
func (p Path) Covers(at Path) bool {
	if len(p) > len(at) {
		return false
	}
	for i, seg := range p {
		if !seg.takes(at[i]) {
			return false
		}
	}
	return true
}

func (seg Seg) takes(at Seg) bool {
	switch {
	case seg.Any:
		return true
	case seg.Index >= 0:
		return at.Index == seg.Index
	case at.Index >= 0:
		n, err := strconv.Atoi(seg.Key)
		return err == nil && n == at.Index && strconv.Itoa(n) == seg.Key
	}
	return seg.Key == at.Key
}

// Values calls yield with every value at the path p inside v, in order
// (object members in key order), until yield returns false; it reports
// whether yield never did. A string that holds a JSON object or array is
// decoded when the path goes on into it: tools often return JSON as text.
func (p Path) Values(v any, yield func(any) bool) bool {
	if len(p) == 0 {
		return yield(v)
	}
	if s, ok := v.(string); ok {
		if d, ok := jsonv.ParseMaybeJSON(s); ok {
			v = d
		}
	}
	seg, rest := p[0], p[1:]
	switch x := v.(type) {
	case map[string]any:
		switch {
		case seg.Any:
			for _, k := range slices.Sorted(maps.Keys(x)) {
				if !rest.Values(x[k], yield) {
					return false
				}
			}
		case seg.Index < 0:
			if e, ok := x[seg.Key]; ok {
				return rest.Values(e, yield)
			}
		}
	case []any:
		if seg.Any {
			for _, e := range x {
				if !rest.Values(e, yield) {
					return false
				}
			}
			return true
		}
		i := seg.Index
		if i < 0 {
			n, err := strconv.Atoi(seg.Key)
			if err != nil || strconv.Itoa(n) != seg.Key {
				return true
			}
			i = n
		}
		if i < len(x) {
			return rest.Values(x[i], yield)
		}
	}
	return true
}
