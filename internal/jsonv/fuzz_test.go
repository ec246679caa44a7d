package jsonv_test

import (
	"cmp"
	"encoding/json"
	"math/big"
	"strconv"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/jsonv"
)

// FuzzCompareNumbers checks CompareNumbers: antisymmetric and reflexive on
// any text; on JSON numbers of any length, in the order of their float64
// values wherever those differ (rounding keeps order); on short ones,
// equal to math/big's exact comparison.
func FuzzCompareNumbers(f *testing.F) {
	for _, p := range [][2]string{{"1", "1.0"}, {"9007199254740993", "9007199254740992"}, {"-0", "0"}, {"1e400", "1e401"}, {"10e-1", "1"}, {"1e9223372036854775807", "1"}, {"x", "1"}} {
		f.Add(p[0], p[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		ab, ba := jsonv.CompareNumbers(json.Number(a), json.Number(b)), jsonv.CompareNumbers(json.Number(b), json.Number(a))
		if ab != -ba {
			t.Fatalf("CompareNumbers(%q, %q) = %d but reversed = %d", a, b, ab, ba)
		}
		if c := jsonv.CompareNumbers(json.Number(a), json.Number(a)); c != 0 {
			t.Fatalf("CompareNumbers(%q, itself) = %d", a, c)
		}
		if isNumber(a) && isNumber(b) {
			fa, erra := strconv.ParseFloat(a, 64)
			fb, errb := strconv.ParseFloat(b, 64)
			if erra == nil && errb == nil && fa != fb {
				if want := cmp.Compare(fa, fb); ab != want {
					t.Fatalf("CompareNumbers(%s, %s) = %d, but as float64 %v vs %v", a, b, ab, fa, fb)
				}
			}
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

// isNumber reports whether s is one JSON number.
func isNumber(s string) bool {
	v, err := jsonv.Decode([]byte(s))
	n, ok := v.(json.Number)
	return err == nil && ok && string(n) == s
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
