package trajectory

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/argmatch"
	"github.com/trajeval/trajeval/internal/eval/calls"
	"github.com/trajeval/trajeval/internal/jsonv"
)

// An output pattern is the result an expected call gives under output:
// (AgentV's name). A step's result matches it when:
//  1. an object: every key written is in the result, its value matching,
//     at every depth; the result may hold more keys;
//  2. a list: each element written matches an element of the result's
//     list, in order; the result's list may hold more elements (a search
//     that returned five results matches the two written);
//  3. anything else (text, a number, an operator such as {$regex: …}):
//     as an expected argument value under partial (see package argmatch);
//  4. a result that is JSON text is compared as the value it encodes.
type output struct {
	fields []outputField // an object; nil otherwise
	items  []*output     // a list, when list
	list   bool
	leaf   *argmatch.Matcher // anything else
	want   string            // the value, for explanations
}

type outputField struct {
	key string
	pat *output
}

// compileOutput compiles an expected output (rules 1 to 3).
func compileOutput(v any, opt argmatch.Options) (*output, error) {
	o := &output{want: jsonv.Marshal(v)}
	switch v := v.(type) {
	case map[string]any:
		if !isOperator(v) {
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range keys {
				p, err := compileOutput(v[k], opt)
				if err != nil {
					return nil, err
				}
				o.fields = append(o.fields, outputField{k, p})
			}
			if o.fields == nil {
				o.fields = []outputField{}
			}
			return o, nil
		}
	case []any:
		o.list = true
		for _, it := range v {
			p, err := compileOutput(it, opt)
			if err != nil {
				return nil, err
			}
			o.items = append(o.items, p)
		}
		return o, nil
	}
	m, err := argmatch.New(v, trajeval.ArgsMatch{Mode: trajeval.ArgsPartial}, opt)
	if err != nil {
		return nil, err
	}
	if m.LooksBack() {
		return nil, errors.New("an expected output cannot use $from")
	}
	o.leaf = m
	return o, nil
}

// isOperator reports whether an object is an operator ({$regex: …}).
func isOperator(m map[string]any) bool {
	for k := range m {
		if strings.HasPrefix(k, "$") {
			return true
		}
	}
	return false
}

// match reports whether got matches, adding each difference to diffs
// when diffs is not nil.
func (o *output) match(got any, path string, diffs *[]trajeval.ArgDiff) bool {
	// A result a reader kept as JSON text is decoded here, where it is
	// looked at (see trajeval.Decoded); text it kept is valid.
	got, err := trajeval.Decoded(got)
	if err != nil {
		if diffs != nil {
			*diffs = append(*diffs, trajeval.ArgDiff{Path: path, Want: o.want, Got: "(not JSON: " + err.Error() + ")"})
		}
		return false
	}
	if s, ok := got.(string); ok && (o.fields != nil || o.list) {
		got, _ = jsonv.ParseMaybeJSON(s) // rule 4
	}
	miss := func() bool {
		if diffs != nil {
			*diffs = append(*diffs, trajeval.ArgDiff{Path: path, Want: o.want, Got: jsonv.Marshal(got)})
		}
		return false
	}
	switch {
	case o.leaf != nil:
		if !o.leaf.Match(got) {
			return miss()
		}
		return true
	case o.list:
		g, ok := got.([]any)
		if !ok {
			return miss()
		}
		// An element written takes the first element of the result it
		// matches, after the one the previous took: the earliest choice
		// leaves the most for the elements after it.
		j := 0
		for i, it := range o.items {
			from := j
			for j < len(g) && !it.match(g[j], "", nil) {
				j++
			}
			if j == len(g) {
				at := path + "[" + strconv.Itoa(i) + "]"
				switch {
				case diffs == nil:
				case from < len(g):
					it.match(g[from], at, diffs) // the differences from the first candidate
				default:
					*diffs = append(*diffs, trajeval.ArgDiff{Path: at, Want: it.want, Got: "(no more elements)"})
				}
				return false
			}
			j++
		}
		return true
	}
	g, ok := got.(map[string]any)
	if !ok {
		return miss()
	}
	all := true
	for _, f := range o.fields {
		v, present := g[f.key]
		switch {
		case !present:
			if diffs != nil {
				*diffs = append(*diffs, trajeval.ArgDiff{Path: path + "." + f.key, Want: f.pat.want, Got: "(absent)"})
			}
			all = false
		case !f.pat.match(v, path+"."+f.key, diffs):
			all = false
		}
		if !all && diffs == nil {
			return false
		}
	}
	return all
}

// withOutput makes item it also compare a step's result with an output
// pattern.
func withOutput(it calls.Item, want any, opt argmatch.Options) (calls.Item, error) {
	o, err := compileOutput(want, opt)
	if err != nil {
		return it, err
	}
	if it.Args != nil && it.Args.LooksBack() {
		return it, errors.New("an expected output cannot be checked beside a $from operator")
	}
	match, diff := it.Match, it.Diff // the arguments are Args', checked first
	it.Key += "|output " + jsonv.Marshal(want)
	it.Match = func(s *trajeval.Step) bool {
		return (match == nil || match(s)) && o.match(s.Result, "output", nil)
	}
	it.Diff = func(s *trajeval.Step) []trajeval.ArgDiff {
		var diffs []trajeval.ArgDiff
		if diff != nil {
			diffs = diff(s)
		}
		o.match(s.Result, "output", &diffs)
		return diffs
	}
	return it, nil
}
