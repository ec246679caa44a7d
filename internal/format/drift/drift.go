// Package drift lets a trace reader say what it met and did not know, so
// that a new version of the tool that wrote a file cannot change what is
// read without anyone noticing.
//
// The rules:
//  1. A reader tracks drift only in a format it has recognised: a file
//     that is not its format is refused by its sniff, never reported here.
//  2. Each kind a reader does not know (a record type, an item type, a
//     field it would read) is one Warning, however often it occurs: the
//     line where it was first seen, and how many times it was seen in all.
//  3. Warnings come when the file has been read, in the order the kinds
//     were first seen, so a file gives the same warnings on every read.
//  4. What a reader skips on purpose (a record type it knows carries
//     nothing to score) is known, not drift.
package drift

import (
	"fmt"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/plural"
)

// Unknown counts the kinds a reader did not know. Its zero value is ready
// to use.
type Unknown struct {
	seen  map[string]*count
	order []string
}

type count struct {
	what, name string
	line, n    int
}

// Saw notes one occurrence, at line, of what (e.g. "record type",
// "response item type") called name.
func (u *Unknown) Saw(what, name string, line int) {
	key := what + "\x00" + name
	if c := u.seen[key]; c != nil {
		c.n++
		return
	}
	if u.seen == nil {
		u.seen = map[string]*count{}
	}
	u.seen[key] = &count{what: what, name: name, line: line, n: 1}
	u.order = append(u.order, key)
}

// Len returns how many kinds were noted.
func (u *Unknown) Len() int { return len(u.order) }

// Report warns once per kind noted, for the reader of format, and forgets
// them.
func (u *Unknown) Report(in trajeval.Input, format string) {
	for _, key := range u.order {
		c := u.seen[key]
		in.Warn(trajeval.Warning{File: in.Name, Line: c.line, Msg: fmt.Sprintf(
			"%s %q is not known to the %s reader (%s, the first here): the file may come from a version of the tool this reader was not checked against",
			c.what, c.name, format, plural.Count(c.n, "time", "times"))})
	}
	u.seen, u.order = nil, nil
}
