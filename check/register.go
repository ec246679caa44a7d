package check

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval/builtin"
	"github.com/trajeval/trajeval/internal/eval/spec"
)

// Register makes an evaluator type usable in suite files: an evaluator
// written `type: name` is built by build from its keys, decoded into a
// value of the struct type S. Call it before loading suites, e.g. in an
// init function or TestMain. The rules:
//  1. name must not be taken by a built-in or registered type; names
//     compare in any spelling (my_check = my-check = myCheck), and so do
//     keys;
//  2. S must be a struct type; a field's key is its `config:"key"` tag,
//     else its name in snake_case; `config:"-"` skips a field;
//  3. the keys every evaluator takes (name, weight, required, threshold,
//     negate, description) are read by the suite, not passed to S; any
//     key that is neither one of those nor one of S's is a configuration
//     error, with the closest key as a hint;
//  4. an absent key leaves its field at its zero value (a pointer field
//     stays nil, to tell "not set" from zero); the tag option `required`
//     makes it an error; `nonnegative` refuses numbers below 0; the tag
//     `enum:"a,b"` restricts a string to those words;
//  5. fields may be strings, booleans, numbers, time.Duration (written
//     "250ms", "1m30s"), pointers, slices, maps with string keys, nested
//     structs and any (the value as decoded JSON);
//  6. an error from build is a configuration error placed at the
//     evaluator in the suite file;
//  7. the evaluator's threshold defaults to 1: a score of 1 passes.
//
// A mistake in a suite file is a *SpecError with its file, line, column
// and path.
func Register[S any](name string, build func(S) (trajeval.Evaluator, error)) error {
	t := reflect.TypeFor[S]()
	if t.Kind() != reflect.Struct {
		return fmt.Errorf("register %s: the settings type must be a struct, got %s", name, t)
	}
	if build == nil {
		return fmt.Errorf("register %s: no build function", name)
	}
	return builtin.Register(spec.Spec{
		Type:      name,
		Keys:      config.Keys(t),
		Threshold: 1,
		Build: func(n *config.Node, _ *spec.Env) (trajeval.Evaluator, error) {
			var s S
			if err := config.Decode(n, &s, spec.CommonKeys...); err != nil {
				return nil, err
			}
			ev, err := build(s)
			if err != nil {
				var se *trajeval.SpecError
				if errors.As(err, &se) {
					return nil, err
				}
				return nil, n.Errorf("%v", err)
			}
			if ev == nil {
				return nil, n.Errorf("evaluator type %s built no evaluator", name)
			}
			return ev, nil
		},
	})
}
