package bfcl

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
)

// A Function is one function document of a question.
type Function struct {
	Name     string
	Params   map[string]Param // parameters.properties
	Required []string         // parameters.required, in order
}

// A Param is one parameter of a function document.
type Param struct {
	Type  string // string integer float boolean array tuple dict any
	Items string // items.type of an array or tuple; "" when not given
}

// A Call is one expected call of a possible answer.
type Call struct {
	Name string
	// Params are the parameters with their allowed values, in the order
	// they are given.
	Params []Allowed
}

// Allowed is one parameter of an expected call and its allowed values; ""
// among them means the parameter may be left out.
type Allowed struct {
	Name   string
	Values []any
}

// Types are the parameter types of a function document: Python's, then
// Java's and JavaScript's not among them. A category accepts its
// language's only.
var Types = []string{"string", "integer", "float", "boolean", "array", "tuple", "dict", "any",
	"byte", "short", "double", "long", "char", "Array", "ArrayList", "Set", "HashMap", "Hashtable", "Queue", "Stack", "String",
	"Bigint", "Boolean"}

// ParseFunctions reads a question's function documents from their JSON
// value (the question's "function": a list of documents, or one). Each
// needs a name and parameters.properties whose types are [Types].
func ParseFunctions(v any) ([]Function, error) {
	list, ok := v.([]any)
	if !ok {
		if m, isMap := v.(map[string]any); isMap {
			list = []any{m}
		} else {
			return nil, fmt.Errorf("function must be a list of function documents, got %s", kind(v))
		}
	}
	if len(list) == 0 {
		return nil, fmt.Errorf("function is an empty list: give the function documents the model was shown")
	}
	out := make([]Function, 0, len(list))
	for i, d := range list {
		f, err := parseFunction(d)
		if err != nil {
			return nil, fmt.Errorf("function[%d]: %w", i, err)
		}
		out = append(out, f)
	}
	return out, nil
}

func parseFunction(v any) (Function, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return Function{}, fmt.Errorf("a function document is an object, got %s", kind(v))
	}
	name, ok := m["name"].(string)
	if !ok || name == "" {
		return Function{}, fmt.Errorf("the function document has no name")
	}
	f := Function{Name: name, Params: map[string]Param{}}
	params, ok := m["parameters"].(map[string]any)
	if !ok {
		if m["parameters"] == nil {
			return f, nil
		}
		return f, fmt.Errorf("%s: parameters must be an object, got %s", name, kind(m["parameters"]))
	}
	props, ok := params["properties"].(map[string]any)
	if !ok && params["properties"] != nil {
		return f, fmt.Errorf("%s: parameters.properties must be an object, got %s", name, kind(params["properties"]))
	}
	for p, d := range props {
		pd, ok := d.(map[string]any)
		if !ok {
			return f, fmt.Errorf("%s: parameter %s must be an object, got %s", name, p, kind(d))
		}
		t, _ := pd["type"].(string)
		if !slices.Contains(Types, t) {
			return f, fmt.Errorf("%s: parameter %s has type %q, not one of %s", name, p, t, strings.Join(Types, " "))
		}
		prm := Param{Type: t}
		if items, ok := pd["items"].(map[string]any); ok && (python.nests(t) || java.nests(t)) {
			it, _ := items["type"].(string)
			if !slices.Contains(Types, it) {
				return f, fmt.Errorf("%s: parameter %s has items.type %q, not one of %s", name, p, it, strings.Join(Types, " "))
			}
			prm.Items = it
		}
		f.Params[p] = prm
	}
	if r, ok := params["required"]; ok && r != nil {
		list, ok := r.([]any)
		if !ok {
			return f, fmt.Errorf("%s: parameters.required must be a list of names, got %s", name, kind(r))
		}
		for _, x := range list {
			s, ok := x.(string)
			if !ok {
				return f, fmt.Errorf("%s: parameters.required must be a list of names, got %s in it", name, kind(x))
			}
			f.Required = append(f.Required, s)
		}
	}
	return f, nil
}

// ParseGroundTruth reads a possible answer from its JSON value: a list of
// objects {function: {parameter: [allowed values]}}, one function each.
// Object keys come in the order of the map, that is sorted: JSON objects
// decoded into Go maps keep no order.
func ParseGroundTruth(v any) ([]Call, error) {
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("ground_truth must be a list of {function: {parameter: [allowed values]}}, got %s", kind(v))
	}
	out := make([]Call, 0, len(list))
	for i, x := range list {
		m, ok := x.(map[string]any)
		if !ok || len(m) != 1 {
			return nil, fmt.Errorf("ground_truth[%d]: each expected call is an object with one key, the function name, got %s", i, describe(x))
		}
		for name, p := range m {
			pm, ok := p.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("ground_truth[%d].%s: the parameters are an object {parameter: [allowed values]}, got %s", i, name, kind(p))
			}
			c := Call{Name: name}
			for _, k := range sortedKeys(pm) {
				vals, ok := pm[k].([]any)
				if !ok {
					return nil, fmt.Errorf("ground_truth[%d].%s.%s: the allowed values are a list (\"\" in it: may be left out), got %s", i, name, k, kind(pm[k]))
				}
				c.Params = append(c.Params, Allowed{Name: k, Values: vals})
			}
			out = append(out, c)
		}
	}
	return out, nil
}

// The categories the checker knows, without their live_ prefix.
var categories = []string{"simple", "simple_python", "multiple", "parallel", "parallel_multiple", "simple_java", "simple_javascript"}

var idSuffix = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`_[0-9]+(-[0-9]+)*$`) })

// Category returns the category of a BFCL id: the id without its trailing
// number (simple_python_0 → simple_python, live_simple_3-3-0 →
// live_simple). ok is false when the id has no number.
func Category(id string) (cat string, ok bool) {
	loc := idSuffix().FindStringIndex(id)
	if loc == nil || loc[0] == 0 {
		return "", false
	}
	return id[:loc[0]], true
}

// checkCategory returns the rule set and the language of a category, or
// an error for a category the checker does not know. As in BFCL, a
// category with javascript in its name is JavaScript's, one with java
// Java's.
func checkCategory(cat string) (rule, language, error) {
	base := strings.TrimPrefix(cat, "live_")
	if !slices.Contains(categories, base) {
		return 0, 0, fmt.Errorf("category %q is not an AST category (one of %s, each also with live_)", cat, strings.Join(categories, ", "))
	}
	lang := python
	switch {
	case strings.Contains(base, "javascript"):
		lang = javascript
	case strings.Contains(base, "java"):
		lang = java
	}
	switch {
	case strings.Contains(base, "parallel"):
		return parallelRule, lang, nil
	case strings.Contains(base, "multiple"):
		return multipleRule, lang, nil
	}
	return simpleRule, lang, nil
}

// checkTypes refuses a document type that is not its language's.
func checkTypes(fns []Function, lang language) error {
	types := lang.types()
	for _, f := range fns {
		for _, p := range slices.Sorted(maps.Keys(f.Params)) {
			d := f.Params[p]
			for _, t := range []string{d.Type, d.Items} {
				if _, ok := types[t]; t != "" && !ok {
					return fmt.Errorf("%s: parameter %s has type %q, which is not a %s type (one of %s)", f.Name, p, t, lang, strings.Join(slices.Sorted(maps.Keys(types)), " "))
				}
			}
		}
	}
	return nil
}

type rule int

const (
	simpleRule rule = iota
	multipleRule
	parallelRule
)

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case string:
		return "a string"
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return "a number"
}

func describe(v any) string {
	if m, ok := v.(map[string]any); ok {
		return fmt.Sprintf("an object with %d keys", len(m))
	}
	return kind(v)
}
