package bfcl

import (
	"strings"
	"unicode"
)

// pyLower is Python's str.lower(), which BFCL's string normalisation
// calls. It differs from strings.ToLower in the two places where Python
// applies Unicode's full lowercase mapping rather than the simple one:
//  1. İ (U+0130) becomes two characters, i and a combining dot above
//     (U+0307), where Go writes i;
//  2. Σ (U+03A3) becomes the final ς (U+03C2) when it ends a word: a cased
//     letter comes before it and none after it, case-ignorable
//     characters (accents, apostrophes, ...) skipped on both sides; else
//     σ (U+03C3), as Go always writes.
//
// Every other character maps as Go maps it: Go's Unicode tables (15.0)
// and Python's (14.0 in 3.11, 15.1 in 3.13) agree on every simple
// lowercase mapping.
func pyLower(s string) string {
	if !strings.ContainsAny(s, "\u0130\u03a3") {
		return strings.ToLower(s)
	}
	rs := []rune(s)
	var b strings.Builder
	for i, r := range rs {
		switch r {
		case '\u0130':
			b.WriteString("i\u0307")
		case '\u03a3':
			if finalSigma(rs, i) {
				b.WriteRune('\u03c2')
			} else {
				b.WriteRune('\u03c3')
			}
		default:
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// finalSigma is CPython's handle_capital_sigma: rs[i] is in the
// Final_Sigma context \p{cased}\p{case-ignorable}* Σ
// !(\p{case-ignorable}*\p{cased}).
func finalSigma(rs []rune, i int) bool {
	j := i - 1
	for j >= 0 && caseIgnorable(rs[j]) {
		j--
	}
	if j < 0 || !cased(rs[j]) {
		return false
	}
	j = i + 1
	for j < len(rs) && caseIgnorable(rs[j]) {
		j++
	}
	return j == len(rs) || !cased(rs[j])
}

// cased is Unicode's Cased property.
func cased(r rune) bool {
	return unicode.In(r, unicode.Lu, unicode.Ll, unicode.Lt, unicode.Other_Lowercase, unicode.Other_Uppercase)
}

// caseIgnorable is Unicode's Case_Ignorable property: marks, format
// characters, modifier letters and symbols, and the characters whose
// Word_Break is MidLetter, MidNumLet or Single_Quote (listed here: Go's
// tables do not carry Word_Break).
func caseIgnorable(r rune) bool {
	switch r {
	case '\'', '.', ':', '\u00b7', '\u0387', '\u055f', '\u05f4', '\u2018', '\u2019', '\u2024', '\u2027', '\ufe13', '\ufe52', '\ufe55', '\uff07', '\uff0e', '\uff1a':
		return true
	}
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk)
}
