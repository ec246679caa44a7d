package judge

import "github.com/trajeval/trajeval/internal/eval"

// Specs returns this package's evaluator types, for the registry of
// built-in types (package builtin), which lists every family in one place.
func Specs() []eval.Spec {
	var out []eval.Spec
	out = append(out, specsLlmjudge()...)
	return out
}
