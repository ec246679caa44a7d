package check

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/trajeval/trajeval/internal/jsonv"
)

// An Op is an operator: a value in [Args] that matches actual values by a
// rule rather than by equality. Operators nest where they take patterns
// ([Contains], [OneOf], [Not]).
type Op struct {
	name string // e.g. "$regex"
	arg  any
}

// String returns the operator as a suite file writes it, e.g.
// {$regex: "^a"}.
func (o Op) String() string {
	v, err := jsonValue(o)
	if err != nil {
		return fmt.Sprintf("{%s: %v}", o.name, o.arg)
	}
	return jsonv.Marshal(v)
}

// Regex matches a string that contains a match of the RE2 expression
// (unanchored: write ^ and $ to anchor it; (?i) ignores case). An invalid
// expression is a setting error.
func Regex(pattern string) Op { return Op{"$regex", pattern} }

// Contains matches a string containing the text s (a string), or an array
// with an element matching v (any value or operator).
func Contains(v any) Op { return Op{"$contains", v} }

// Gt matches a number greater than n.
func Gt(n float64) Op { return Op{"$gt", n} }

// Gte matches a number greater than or equal to n.
func Gte(n float64) Op { return Op{"$gte", n} }

// Lt matches a number less than n.
func Lt(n float64) Op { return Op{"$lt", n} }

// Lte matches a number less than or equal to n.
func Lte(n float64) Op { return Op{"$lte", n} }

// Approx matches a number within 1e-9 of v.
func Approx(v float64) Op { return Op{"$approx", v} }

// Near matches a number within abs of v, or within rel·|v|: either
// tolerance suffices. A negative tolerance is a setting error; both 0
// mean 1e-9.
func Near(v, abs, rel float64) Op {
	return Op{"$approx", map[string]any{"value": v, "abs": abs, "rel": rel}}
}

// Type matches a value of one of the JSON types: null, boolean, number,
// integer (a number with no fraction), string, array, object. Another
// name is a setting error.
func Type(types ...string) Op {
	if len(types) == 1 {
		return Op{"$type", types[0]}
	}
	list := make([]any, len(types))
	for i, t := range types {
		list[i] = t
	}
	return Op{"$type", list}
}

// Any matches any value, as long as the key is present.
func Any() Op { return Op{"$any", true} }

// OneOf matches a value matching any of the patterns (values or
// operators). No pattern is a setting error.
func OneOf(patterns ...any) Op {
	if patterns == nil {
		patterns = []any{}
	}
	return Op{"$oneOf", patterns}
}

// Not matches a value that does not match the pattern (a value or an
// operator).
func Not(pattern any) Op { return Op{"$not", pattern} }

// From matches a value that an earlier call returned (or was given): the
// path is TOOL.result or TOOL.args followed by keys, [index] or [*], as
// in From("search.result.items[*].id"). It holds when some call of TOOL
// issued before the matched one (and not in its parallel group) has an
// equal value at the path; a result that is JSON in a string is decoded.
// Under [ForAgent] the calls matched are the agent's, but the calls
// looked back at are every agent's, in the whole trajectory's order: a
// sub-agent may pass on what its parent found. A path that does not
// parse is a setting error.
func From(path string) Op { return Op{"$from", path} }

// jsonArgs turns Args into the JSON data model, keys escaped as literal.
func jsonArgs(a Args) (any, error) { return jsonValue(map[string]any(a)) }

// jsonValue turns a Go value into the JSON data model (nil, bool, string,
// json.Number, []any, map[string]any), with operators as their one-key
// objects and literal keys starting with "$" escaped.
func jsonValue(v any) (any, error) {
	switch x := v.(type) {
	case nil, bool, string, json.Number:
		return x, nil
	case Op:
		arg, err := jsonValue(x.arg)
		if err != nil {
			return nil, err
		}
		if x.name == "$approx" {
			// {value, abs, rel} is the operator's own map: no escaping.
			if m, ok := x.arg.(map[string]any); ok {
				out := map[string]any{}
				for k, e := range m {
					if out[k], err = jsonValue(e); err != nil {
						return nil, err
					}
				}
				arg = out
			}
		}
		return map[string]any{x.name: arg}, nil
	case Args:
		return jsonValue(map[string]any(x))
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			val, err := jsonValue(e)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", k, err)
			}
			if strings.HasPrefix(k, "$") {
				k = "$" + k // a literal key, not an operator
			}
			out[k] = val
		}
		return out, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			val, err := jsonValue(e)
			if err != nil {
				return nil, fmt.Errorf("%d: %w", i, err)
			}
			out[i] = val
		}
		return out, nil
	case float64:
		return number(x)
	case float32:
		return number(float64(x))
	case int:
		return json.Number(strconv.Itoa(x)), nil
	case int64:
		return json.Number(strconv.FormatInt(x, 10)), nil
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return json.Number(strconv.FormatInt(rv.Int(), 10)), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return json.Number(strconv.FormatUint(rv.Uint(), 10)), nil
	case reflect.Float32, reflect.Float64:
		return number(rv.Float())
	case reflect.String:
		return rv.String(), nil
	case reflect.Bool:
		return rv.Bool(), nil
	case reflect.Slice, reflect.Array:
		if rv.Kind() == reflect.Slice && rv.IsNil() {
			return nil, nil
		}
		list := make([]any, rv.Len())
		for i := range list {
			list[i] = rv.Index(i).Interface()
		}
		return jsonValue(list)
	case reflect.Map:
		if rv.Type().Key().Kind() == reflect.String {
			m := make(map[string]any, rv.Len())
			for it := rv.MapRange(); it.Next(); {
				m[it.Key().String()] = it.Value().Interface()
			}
			return jsonValue(m)
		}
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			return nil, nil
		}
	}
	// Structs and other types: by their JSON encoding.
	data, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("value %v cannot be compared as JSON: %w", v, err)
	}
	return jsonv.Decode(data)
}

func number(f float64) (any, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, fmt.Errorf("%v is not a JSON number", f)
	}
	return json.Number(strconv.FormatFloat(f, 'g', -1, 64)), nil
}
