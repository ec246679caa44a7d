package suite

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/suggest"
)

// A KeyTable is every key a peer's own models accept in its files, taken
// from one version of the peer, and what trajeval does with each. The
// loaders check keys against it, so a file the peer writes is never
// refused as a typo:
//  1. a key the table marks [Used] or [Descriptive] is read in silence;
//  2. a key marked [Inert] is accepted with a warning that names it and
//     says it has no effect here, once per key and file (none when its
//     value asks for nothing: null, false, "", [] or {}, the defaults
//     that the peer's models write);
//  3. a key marked [Refused] is a configuration error that says why:
//     trajeval cannot honour it, and ignoring it would change a score;
//  4. any other key is an error with the closest known key.
//
// docs/dialects.md shows each table; a test keeps them in step.
type KeyTable struct {
	Dialect string
	// Peer names the peer and the version the keys were taken from.
	Peer string
	Keys []Key
}

// A Key is one key of one object of a peer's files.
type Key struct {
	Object string // where the key sits, e.g. "target", "criterion"
	Name   string // as the peer's model names it, snake_case
	Use    Use
	Note   string // what trajeval does with it, or why it has no effect
}

// Use is what trajeval does with a key.
type Use string

// The uses of a key.
const (
	Used        Use = "used"
	Descriptive Use = "descriptive" // documentation: read, never scored
	Inert       Use = "warning"     // accepted, with a warning that it has no effect
	Refused     Use = "refused"     // a configuration error that says why
)

// Names returns the keys of object, in table order.
func (t *KeyTable) Names(object string) []string {
	var out []string
	for _, k := range t.Keys {
		if k.Object == object {
			out = append(out, k.Name)
		}
	}
	return out
}

// Lookup returns the key of object called name (in any spelling).
func (t *KeyTable) Lookup(object, name string) (Key, bool) {
	c := config.Canon(name)
	for _, k := range t.Keys {
		if k.Object == object && config.Canon(k.Name) == c {
			return k, true
		}
	}
	return Key{}, false
}

// A KeyChecker checks the keys of a file's objects against a table,
// warning once per object and key.
type KeyChecker struct {
	Table *KeyTable
	Warn  func(trajeval.Warning)
	// Lenient makes an unknown key a warning instead of an error (rule 4),
	// for data the peer itself keeps unread (pydantic's extra="allow").
	Lenient bool
	seen    map[string]bool
	// known caches, for each object and its extra keys, the canonical
	// keys that need no more than a look: a suite's thousands of cases
	// then cost a map lookup per key.
	known map[string]map[string]bool
	// The key set of the latest call, found again without building its
	// name when the next call is for the same object and extra keys (a
	// suite's cases all pass caseKeys).
	lastObject string
	lastExtra  []string
	lastKnown  map[string]bool
}

// plain reports whether every key of n is a known key of object (or one of
// extra), none is given twice, and none has a note to give (an inert
// key): Check has nothing to say about n then.
func (kc *KeyChecker) plain(n *config.Node, object string, extra []string) bool {
	sameExtra := slices.Equal(kc.lastExtra, extra) // compared once: a case's extra keys are a score of names
	known, ok := kc.lastKnown, kc.lastKnown != nil && kc.lastObject == object && sameExtra
	if !ok {
		known, ok = kc.known[object+"\x00"+strings.Join(extra, "\x00")]
	}
	if !ok {
		known = map[string]bool{}
		for _, k := range kc.Table.Keys {
			if k.Object == object && k.Use != Inert {
				known[config.Canon(k.Name)] = true
			}
		}
		for _, x := range extra {
			known[config.Canon(x)] = true
		}
		if kc.known == nil {
			kc.known = map[string]map[string]bool{}
		}
		kc.known[object+"\x00"+strings.Join(extra, "\x00")] = known
	}
	if !sameExtra {
		kc.lastExtra = append(kc.lastExtra[:0], extra...) // a copy: extra may live on the caller's stack
	}
	kc.lastObject, kc.lastKnown = object, known
	var seen [8]string
	if len(n.Entries) > len(seen) {
		return false
	}
	for i, e := range n.Entries {
		c := config.Canon(e.Key)
		if !known[c] || slices.Contains(seen[:i], c) {
			return false
		}
		seen[i] = c
	}
	return true
}

// Check checks the keys of n, an object of the table (rules 1 to 4);
// extra are keys the caller reads beyond the peer's (trajeval's own).
// Refused keys are left to the caller, which knows why it refuses them.
func (kc *KeyChecker) Check(n *config.Node, object string, extra ...string) error {
	if n == nil || n.Kind != config.Map {
		return nil
	}
	if kc.plain(n, object, extra) {
		return nil
	}
	names := append(slices.Clone(extra), kc.Table.Names(object)...)
	if err := n.Check(names...); err != nil {
		var se *trajeval.SpecError
		if !kc.Lenient || !errors.As(err, &se) || !strings.HasPrefix(se.Msg, "unknown key") {
			return err
		}
		for _, e := range n.Entries {
			if slices.ContainsFunc(names, func(x string) bool { return config.Canon(x) == config.Canon(e.Key) }) {
				continue
			}
			msg := fmt.Sprintf("%s: unknown key %q: not one of %s's, so it has no effect", object, e.Key, kc.Table.Dialect)
			if s := suggest.Closest(config.Canon(e.Key), names); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			kc.warnOnce(object+"\x00?"+e.Key, trajeval.Warning{File: n.File, Line: e.KeyLine, Col: e.KeyCol, Msg: msg})
		}
	}
	for _, e := range n.Entries {
		k, ok := kc.Table.Lookup(object, e.Key)
		if !ok || k.Use != Inert || asksNothing(e.Value) || slices.ContainsFunc(extra, func(x string) bool { return config.Canon(x) == config.Canon(e.Key) }) {
			continue
		}
		kc.warnOnce(object+"\x00"+k.Name, trajeval.Warning{File: n.File, Line: e.KeyLine, Col: e.KeyCol,
			Msg: fmt.Sprintf("%s: %s has no effect here: %s", object, e.Key, k.Note)})
	}
	return nil
}

// asksNothing reports whether v is a value that asks for nothing.
func asksNothing(v *config.Node) bool {
	switch v.Kind {
	case config.Null:
		return true
	case config.Bool:
		return v.Text == "false"
	case config.String:
		return v.Text == ""
	case config.List:
		return len(v.Items) == 0
	case config.Map:
		return len(v.Entries) == 0
	}
	return false
}

// warnOnce gives w unless a warning of the same id was given.
func (kc *KeyChecker) warnOnce(id string, w trajeval.Warning) {
	if kc.seen[id] || kc.Warn == nil {
		return
	}
	if kc.seen == nil {
		kc.seen = map[string]bool{}
	}
	kc.seen[id] = true
	kc.Warn(w)
}
