// Package errlist takes apart an error that joins several, so that each
// can be shown on its own, and says how many of them are shown.
//
// It sits below both the suite file reader (package config, which joins
// the errors of a list) and the engine (package eval, which writes an
// evaluator's errors into its result), so that neither depends on the
// other for it.
package errlist

// Max is how many errors of one list are shown; the rest are counted.
const Max = 10

// Split returns the errors err joins (an errors.Join, or any error with
// an Unwrap() []error), taken apart at every depth in order, or err
// alone; none for nil.
func Split(err error) []error {
	if err == nil {
		return nil
	}
	j, ok := err.(interface{ Unwrap() []error })
	if !ok {
		return []error{err}
	}
	var out []error
	for _, e := range j.Unwrap() {
		out = append(out, Split(e)...)
	}
	return out
}
