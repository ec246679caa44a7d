package jsonv_test

import (
	"encoding/json"
	"math/big"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/jsonv"
)

// FuzzCompareNumbers checks CompareNumbers against math/big on short JSON
// numbers, and antisymmetry on any text.
func FuzzCompareNumbers(f *testing.F) {
	for _, p := range [][2]string{{"1", "1.0"}, {"9007199254740993", "9007199254740992"}, {"-0", "0"}, {"1e400", "1e401"}, {"10e-1", "1"}, {"1e9223372036854775807", "1"}, {"x", "1"}} {
		f.Add(p[0], p[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		ab, ba := jsonv.CompareNumbers(json.Number(a), json.Number(b)), jsonv.CompareNumbers(json.Number(b), json.Number(a))
		if ab != -ba {
			t.Fatalf("CompareNumbers(%q, %q) = %d but reversed = %d", a, b, ab, ba)
		}
		if !isShortNumber(a) || !isShortNumber(b) {
			return
		}
		ra, oka := new(big.Rat).SetString(a)
		rb, okb := new(big.Rat).SetString(b)
		if !oka || !okb {
			return // an exponent math/big will not expand
		}
		if want := ra.Cmp(rb); ab != want {
			t.Fatalf("CompareNumbers(%s, %s) = %d, math/big says %d", a, b, ab, want)
		}
	})
}

// isShortNumber reports whether s is one JSON number short enough for
// math/big to expand cheaply.
func isShortNumber(s string) bool {
	if len(s) == 0 || len(s) > 24 || strings.ContainsAny(s, "eE") && len(s) > 12 {
		return false
	}
	v, err := jsonv.Decode([]byte(s))
	if err != nil {
		return false
	}
	n, ok := v.(json.Number)
	return ok && string(n) == s
}
