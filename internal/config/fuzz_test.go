package config_test

import (
	"errors"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
)

// FuzzParse: Parse never panics, and every error is a SpecError placed at
// a line ≥ 1. Values of a parsed tree can be read back.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"a: 1\n", "name: x\nevalcases:\n  - id: a\n    input: hi\n", `{"a": [1, 2.5, "x", null, true]}`,
		"a: &x {k: 1}\nb: *x\nc:\n  <<: *x\n  k: 2\n", "a: 1\n---\nb: 2\n", "a: [1,\n", "a: !!str 1\n",
		"- a\n- b: c\n", "n: 1e3\nm: 18446744073709551616\n", "a: |\n  x\n", "? x\n: y\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		n, err := config.Parse("fuzz.yaml", data)
		if err != nil {
			var se *trajeval.SpecError
			if !errors.As(err, &se) {
				t.Fatalf("error %v (%T) is not a *trajeval.SpecError", err, err)
			}
			if se.Line < 1 {
				t.Fatalf("error %v has line %d", err, se.Line)
			}
			return
		}
		if n == nil {
			t.Fatal("Parse returned neither a node nor an error")
		}
		_ = n.Check("a", "b")
		_ = n.At("a", "0", "b")
	})
}
