package argmatch

import "strings"

// Literal returns v with every object key that starts with "$" written
// "$$key", so that a value taken from data (a dataset's reference call, a
// peer tool's expected arguments) compiles as a literal and never as an
// operator. v is not modified.
func Literal(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			if strings.HasPrefix(k, "$") {
				k = "$" + k
			}
			out[k] = Literal(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = Literal(e)
		}
		return out
	}
	return v
}
