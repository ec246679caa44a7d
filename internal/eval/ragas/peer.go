package ragas

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/eval"
	"github.com/trajeval/trajeval/internal/jsonv"
)

// ragasAccuracy is Ragas's own ToolCallAccuracy: argument values compared
// as Python's str() of them, and without strict order both lists sorted
// on (name, then each argument's name and text) and zipped. ok is false
// when some argument value is a list or an object, whose text depends on
// the key order the data had in Python, which is not kept here.
func (a *Accuracy) ragasAccuracy(vals *eval.Values, steps []trajeval.Step) (score float64, ok bool) {
	type call struct {
		name string
		args map[string]string
	}
	conv := func(name string, m map[string]any) (call, bool) {
		c := call{name: name, args: map[string]string{}}
		for k, v := range m {
			s, ok := pyStr(v)
			if !ok {
				return c, false
			}
			c.args[k] = s
		}
		return c, true
	}
	var ref, pred []call
	for _, r := range a.Reference {
		c, ok := conv(r.Name, r.Args)
		if !ok {
			return 0, false
		}
		ref = append(ref, c)
	}
	for j, s := range steps {
		c, ok := conv(s.Name, args(vals.Args(j)))
		if !ok {
			return 0, false
		}
		pred = append(pred, c)
	}
	switch {
	case len(ref) == 0 && len(pred) == 0:
		return 1, true
	case len(ref) == 0 || len(pred) == 0:
		return 0, true
	}
	key := func(c call) []string {
		k := []string{c.name}
		names := make([]string, 0, len(c.args))
		for n := range c.args {
			names = append(names, n)
		}
		slices.Sort(names)
		for _, n := range names {
			k = append(k, n, c.args[n])
		}
		return k
	}
	if !a.StrictOrder {
		byKey := func(x, y call) int { return slices.Compare(key(x), key(y)) }
		slices.SortStableFunc(ref, byKey)
		slices.SortStableFunc(pred, byKey)
	}
	rn := make([]string, len(ref))
	pn := make([]string, len(pred))
	for i, c := range ref {
		rn[i] = c.name
	}
	for i, c := range pred {
		pn[i] = c.name
	}
	if !a.StrictOrder {
		rn, pn = slices.Sorted(slices.Values(rn)), slices.Sorted(slices.Values(pn))
	}
	if !slices.Equal(rn, pn) {
		return 0, true
	}
	var total float64
	for i := range min(len(ref), len(pred)) {
		r, p := ref[i], pred[i]
		if r.name != p.name {
			continue
		}
		switch {
		case len(r.args) == 0 && len(p.args) == 0:
			total++
		case len(r.args) == 0:
		default:
			n := 0
			for k, v := range r.args {
				if pv, ok := p.args[k]; ok && pv == v {
					n++
				}
			}
			total += float64(n) / float64(len(r.args))
		}
	}
	return total / float64(len(ref)), true
}

// pyStr is Python's str() of a scalar JSON value as Python holds it: a
// string itself, True, False, None, an integer's digits, a float's
// shortest repr ("2.0", "1e+16"). ok is false for lists and objects.
func pyStr(v any) (string, bool) {
	switch x := v.(type) {
	case nil:
		return "None", true
	case bool:
		if x {
			return "True", true
		}
		return "False", true
	case string:
		return x, true
	case json.Number:
		s := string(x)
		if !strings.ContainsAny(s, ".eE") {
			if i, err := strconv.ParseInt(s, 10, 64); err == nil {
				return strconv.FormatInt(i, 10), true
			}
			return s, true // a big integer: Python keeps every digit
		}
		f, ok := jsonv.Float(x)
		if !ok {
			return "", false
		}
		return pyFloat(f), true
	}
	return "", false
}

// pyFloat is Python's repr of a float: fixed notation with at least one
// decimal when the exponent is from -4 to 15, else d.ddde±XX.
func pyFloat(f float64) string {
	e := strconv.FormatFloat(f, 'e', -1, 64)
	exp, _ := strconv.Atoi(e[strings.IndexByte(e, 'e')+1:])
	if exp < -4 || exp >= 16 {
		return e
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}
