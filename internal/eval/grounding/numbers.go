package grounding

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// canonical returns a key equal for equal decimal numbers and different
// for different ones: the significant digits and the exponent, so 42 =
// 42.0 = 4.2e1 and 9007199254740993 ≠ 9007199254740992. It accepts a
// JSON number (or a number token); false for anything else.
func canonical(s string) (string, bool) {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	mant, exp := s, int64(0)
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.ParseInt(strings.TrimPrefix(s[i+1:], "+"), 10, 32)
		if err != nil {
			return "", false
		}
		mant, exp = s[:i], e
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	if intPart == "" && frac == "" {
		return "", false
	}
	digits := intPart + frac
	for _, c := range digits {
		if c < '0' || c > '9' {
			return "", false
		}
	}
	exp -= int64(len(frac))
	digits = strings.TrimLeft(digits, "0")
	if digits == "" {
		return "0", true
	}
	trimmed := strings.TrimRight(digits, "0")
	exp += int64(len(digits) - len(trimmed))
	k := trimmed + "e" + strconv.FormatInt(exp, 10)
	if neg {
		k = "-" + k
	}
	return k, true
}

// numberTokens returns the canonical numbers written in a text: runs of
// digits with an optional fraction, commas between groups of three
// digits, and a minus sign directly before when no letter or digit
// precedes the sign.
func numberTokens(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		c := s[i]
		if c < '0' || c > '9' {
			i++
			continue
		}
		start := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		digits := s[start:i]
		// Thousands: a first group of at most three digits, then ,ddd
		// groups, each not followed by another digit.
		for len(digits) <= 3 || strings.Contains(digits, ",") {
			if !(i+4 <= len(s) && s[i] == ',' && isDigit(s[i+1]) && isDigit(s[i+2]) && isDigit(s[i+3]) && (i+4 == len(s) || !isDigit(s[i+4]))) {
				break
			}
			digits += s[i : i+4]
			i += 4
		}
		if i+1 < len(s) && s[i] == '.' && isDigit(s[i+1]) {
			j := i + 1
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			digits += s[i:j]
			i = j
		}
		// A digit right before start was consumed with it, so only the
		// sign needs a look back.
		if start > 0 && s[start-1] == '-' && !wordBefore(s, start-1) {
			digits = "-" + digits
		}
		if k, ok := canonical(strings.ReplaceAll(digits, ",", "")); ok {
			out = append(out, k)
		}
	}
	return out
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// wordBefore reports whether a letter or digit ends s[:i].
func wordBefore(s string, i int) bool {
	if i == 0 {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}
