package judge_test

import (
	"testing"

	"github.com/trajeval/trajeval/internal/judge"
)

// FuzzParse checks that any model answer is read without a panic, and
// that what it returns is an object.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`{"score": 1}`, "```json\n{\"a\": 1}\n```", "<think>{</think>{}", "no", "{ } {", `}{"x":[1,2]}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := judge.Parse(s)
		if err == nil && v == nil {
			t.Fatalf("Parse(%q) returned no object and no error", s)
		}
	})
}
