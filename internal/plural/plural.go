// Package plural writes counts of things for people: "1 case", "2 cases",
// "0 cases". Every message that counts something goes through it, so that
// none reads "1 cases" or "case(s)".
package plural

import "strconv"

// Count returns n followed by one when n is 1, by many otherwise.
func Count[N ~int | ~int64](n N, one, many string) string {
	return strconv.FormatInt(int64(n), 10) + " " + Noun(n, one, many)
}

// Noun returns one when n is 1, many otherwise, for a count written apart
// from its noun ("1 of 1 case passed").
func Noun[N ~int | ~int64](n N, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
