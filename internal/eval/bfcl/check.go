package bfcl

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/pylit"
)

// A failure is why one step did not pass one expected call: BFCL's error
// type and message, and the argument it concerns.
type failure struct {
	Type  string // e.g. value_error:string
	Msg   string
	Param string // the parameter, "" for the call as a whole
	// Want and Got are the argument difference's sides: Got JSON text
	// or trajeval.ArgMissing, Want words or trajeval.ArgAbsent.
	Want, Got string
}

func (f *failure) diff() trajeval.ArgDiff {
	path := "name"
	if f.Param != "" {
		path = "args." + f.Param
	}
	return trajeval.ArgDiff{Path: path, Want: f.Want, Got: f.Got}
}

// checkCall is BFCL's simple_function_checker: nil when the step passes.
func checkCall(lang language, fn *Function, want *Call, s *trajeval.Step, underscoreToDot bool) *failure {
	name := callName(fn, underscoreToDot)
	if s.Name != name {
		return &failure{Type: "simple_function_checker:wrong_func_name", Msg: fmt.Sprintf("Function name %s not found in model output.", quote(name)), Want: show(name), Got: show(s.Name)}
	}
	args, ok := s.Args.(map[string]any)
	if !ok && s.Args != nil {
		return &failure{Type: "ast_decoder:decoder_wrong_output_format", Msg: "The arguments are not an object.", Param: "", Want: "an object", Got: show(s.Args)}
	}
	for _, p := range fn.Required {
		if _, ok := args[p]; !ok {
			return &failure{Type: "simple_function_checker:missing_required", Msg: fmt.Sprintf("Missing required parameter: %s.", quote(p)), Param: p, Want: "a value", Got: trajeval.ArgMissing}
		}
	}
	allowed := map[string][]any{}
	for _, a := range want.Params {
		allowed[a.Name] = a.Values
	}
	names := make([]string, 0, len(args))
	for p := range args {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, p := range names {
		value := args[p]
		doc, inDoc := fn.Params[p]
		vals, inAnswer := allowed[p]
		if !inDoc || !inAnswer {
			return &failure{Type: "simple_function_checker:unexpected_param", Msg: fmt.Sprintf("Unexpected parameter: %s.", quote(p)), Param: p, Want: trajeval.ArgAbsent, Got: show(value)}
		}
		if f := checkParam(lang, p, value, vals, doc); f != nil {
			return f
		}
	}
	for _, a := range want.Params {
		if _, ok := args[a.Name]; !ok && !pyIn("", a.Values) {
			return &failure{Type: "simple_function_checker:missing_optional", Msg: fmt.Sprintf("Optional parameter %s not provided and not marked as optional.", quote(a.Name)), Param: a.Name, Want: "one of " + showList(a.Values), Got: trajeval.ArgMissing}
		}
	}
	return nil
}

// callName is the name a call of fn must have.
func callName(fn *Function, underscoreToDot bool) string {
	if underscoreToDot && strings.Contains(fn.Name, ".") {
		return strings.ReplaceAll(fn.Name, ".", "_")
	}
	return fn.Name
}

// checkParam checks one given parameter: its type, then its value.
func checkParam(lang language, p string, value any, allowed []any, doc Param) *failure {
	types := lang.types()
	expected := types[doc.Type]
	nested, hasNested := tOther, false
	if lang.nests(doc.Type) && doc.Items != "" {
		nested, hasNested = types[doc.Items], true
	}
	if lang != python {
		// Java and JavaScript values are source text, converted by BFCL's
		// type converters (Evaluate has refused what they cannot convert).
		text, ok := value.(string)
		if !ok {
			typ := map[language]string{java: "type_error:java", javascript: "type_error:js"}[lang]
			return &failure{Type: typ, Msg: fmt.Sprintf("Incorrect type for parameter %s. Expected type String, got %s. Parameter value: %s.", quote(p), typeOf(value), show(value)), Param: p, Want: "a string of " + lang.String() + " source", Got: show(value)}
		}
		convert := javaConvert
		if lang == javascript {
			convert = jsConvert
		}
		v, err := convert(text, doc.Type, map[bool]string{true: doc.Items}[hasNested])
		if err != nil {
			return &failure{Type: "type_error:simple", Msg: err.Error(), Param: p, Want: doc.Type, Got: show(value)}
		}
		value = v
	}
	// BFCL makes a tuple a list where a tuple is asked for (its possible
	// answers, read from JSON, hold lists); anywhere else a tuple stays a
	// tuple, and fails the type check or equals no allowed value.
	if t, ok := value.(pylit.Tuple); ok && doc.Type == "tuple" {
		value = []any(t)
	}
	// Python converts an int to a float where a float is asked for.
	if lang == python && doc.Type == "float" && typeOf(value) == tInt {
		if n, ok := value.(json.Number); ok {
			value = json.Number(string(n) + ".0")
		}
	}
	variable, f := checkType(p, value, allowed, doc.Type, expected, nested, hasNested)
	if f != nil {
		return f
	}
	// A variable is compared as it is (step 6 of the package rules).
	if !variable {
		switch {
		case expected == tDict:
			return checkDict(p, value, allowed)
		case expected == tList && hasNested && nested == tDict:
			return checkListOfDicts(p, value, allowed)
		case expected == tStr:
			return checkString(p, value, allowed)
		case expected == tList:
			return checkList(p, value, allowed)
		}
	}
	if !pyIn(value, allowed) {
		return &failure{Type: "value_error:others", Msg: fmt.Sprintf("Invalid value for parameter %s: %s. Expected one of %s.", quote(p), show(value), showList(allowed)), Param: p, Want: "one of " + showList(allowed), Got: show(value)}
	}
	return nil
}

// answerType is the type of the first allowed value that is not "", the
// type BFCL takes for a variable; ok is false when every value is "".
func answerType(allowed []any) (pyType, bool) {
	for _, a := range allowed {
		if s, isStr := a.(string); isStr && s == "" {
			continue
		}
		return typeOf(a), true
	}
	return 0, false
}

// checkType is BFCL's type_checker: whether value has the expected type
// (one level into arrays), and whether the parameter is a variable.
func checkType(p string, value any, allowed []any, desc string, expected, nested pyType, hasNested bool) (variable bool, f *failure) {
	at, known := answerType(allowed)
	variable = known && at != expected
	nestedFailed := false
	if typeOf(value) == expected {
		if !hasNested {
			return variable, nil
		}
		for _, a := range allowed {
			ok := true
			if inner, isList := a.([]any); isList {
				for _, item := range value.([]any) {
					if _, f := checkType(p, item, inner, nested.String(), nested, 0, false); f != nil {
						ok = false
						break
					}
				}
			}
			if ok {
				return variable, nil
			}
		}
		nestedFailed = true
	}
	if known && typeOf(value) == at {
		if nestedFailed {
			return true, &failure{Type: "type_error:nested", Msg: fmt.Sprintf("Nested type checking failed for parameter %s. Expected outer type %s with inner type %s. Parameter value: %s.", quote(p), desc, nested, show(value)), Param: p, Want: desc + " of " + nested.String(), Got: show(value)}
		}
		return true, nil
	}
	return variable, &failure{Type: "type_error:simple", Msg: fmt.Sprintf("Incorrect type for parameter %s. Expected type %s, got %s. Parameter value: %s.", quote(p), desc, typeOf(value), show(value)), Param: p, Want: "type " + desc, Got: show(value)}
}

// checkString is BFCL's string_checker.
func checkString(p string, value any, allowed []any) *failure {
	s, _ := value.(string)
	got := Normalize(s)
	for _, a := range allowed {
		if as, ok := a.(string); ok && Normalize(as) == got {
			return nil
		}
	}
	return &failure{Type: "value_error:string", Msg: fmt.Sprintf("Invalid value for parameter %s: %s. Expected one of %s. Case insensitive.", quote(p), show(value), showList(allowed)), Param: p, Want: "one of " + showList(allowed), Got: show(value)}
}

// checkList is BFCL's list_checker: strings normalised one level deep.
func checkList(p string, value any, allowed []any) *failure {
	got := normalizeElems(value.([]any))
	for _, a := range allowed {
		seq, ok := asSequence(a)
		if ok && pyEqual(got, normalizeElems(seq)) {
			return nil
		}
	}
	return &failure{Type: "value_error:list/tuple", Msg: fmt.Sprintf("Invalid value for parameter %s: %s. Expected one of %s.", quote(p), show(value), showList(allowed)), Param: p, Want: "one of " + showList(allowed), Got: show(value)}
}

func normalizeElems(list []any) []any {
	out := make([]any, len(list))
	for i, v := range list {
		out[i] = normalizeIfString(v)
	}
	return out
}

// checkDict is BFCL's dict_checker: the value against each allowed dict,
// whose values are lists of allowed values. The failure is the last
// allowed dict's.
func checkDict(p string, value any, allowed []any) *failure {
	got, _ := value.(map[string]any)
	f := &failure{Type: "dict_checker:unclear", Msg: fmt.Sprintf("No allowed dict for parameter %s.", quote(p)), Param: p, Want: showList(allowed), Got: show(value)}
	for _, a := range allowed {
		if s, ok := a.(string); ok && s == "" {
			continue
		}
		want, ok := a.(map[string]any)
		if !ok {
			f = &failure{Type: "dict_checker:unclear", Msg: fmt.Sprintf("The allowed value %s of parameter %s is not a dict.", show(a), quote(p)), Param: p, Want: show(a), Got: show(value)}
			continue
		}
		f = nil
		for _, k := range sortedKeys(got) {
			vals, in := want[k]
			if !in {
				f = &failure{Type: "value_error:dict_key", Msg: fmt.Sprintf("Unexpected dict key parameter: %s.", quote(k)), Param: p + "." + k, Want: trajeval.ArgAbsent, Got: show(got[k])}
				break
			}
			seq, _ := asSequence(vals)
			if !pyIn(normalizeIfString(got[k]), normalizeElems(seq)) {
				f = &failure{Type: "value_error:dict_value", Msg: fmt.Sprintf("Invalid value for parameter %s: %s. Expected one of %s.", quote(k), show(got[k]), show(vals)), Param: p + "." + k, Want: "one of " + show(vals), Got: show(got[k])}
				break
			}
		}
		// As in BFCL, a missing key is looked for even after a wrong value,
		// and its error is the one reported.
		for _, k := range sortedKeys(want) {
			if _, in := got[k]; in {
				continue
			}
			seq, _ := asSequence(want[k])
			if !pyIn("", seq) {
				f = &failure{Type: "value_error:dict_key", Msg: fmt.Sprintf("Missing dict key parameter: %s.", quote(k)), Param: p + "." + k, Want: "one of " + show(want[k]), Got: trajeval.ArgMissing}
				break
			}
		}
		if f == nil {
			return nil
		}
	}
	return f
}

// checkListOfDicts is BFCL's list_dict_checker: the dicts in order against
// each allowed list of dicts.
func checkListOfDicts(p string, value any, allowed []any) *failure {
	got, _ := value.([]any)
	f := &failure{Type: "list_dict_checker:unclear", Msg: fmt.Sprintf("No allowed list of dicts for parameter %s.", quote(p)), Param: p, Want: showList(allowed), Got: show(value)}
	for _, a := range allowed {
		seq, ok := a.([]any)
		if s, isStr := a.(string); isStr && s == "" {
			seq, ok = nil, true
		}
		if !ok || len(seq) != len(got) {
			f = &failure{Type: "value_error:list_dict_count", Msg: "Wrong number of dictionaries in the list.", Param: p, Want: fmt.Sprintf("%d dicts", len(seq)), Got: fmt.Sprintf("%d", len(got))}
			continue
		}
		f = nil
		for i := range got {
			if f = checkDict(fmt.Sprintf("%s[%d]", p, i), got[i], []any{seq[i]}); f != nil {
				break
			}
		}
		if f == nil {
			return nil
		}
	}
	return f
}
