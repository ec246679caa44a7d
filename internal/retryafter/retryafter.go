// Package retryafter reads the Retry-After header of an HTTP answer, for
// the clients that wait as a server asks before trying again (the LLM
// judge, serve's log exporter).
package retryafter

import (
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Parse returns the wait a Retry-After value asks for, from now:
//  1. a number of seconds (a fraction too) as that long, up to the
//     longest time.Duration;
//  2. an HTTP date as the time until it, 0 when it is past;
//  3. 0 for an empty value, a negative number, or anything else.
//
// Callers bound the wait as suits them.
func Parse(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if !(s > 0) { // negative, zero or NaN
			return 0
		}
		if d := s * float64(time.Second); d < math.MaxInt64 {
			return time.Duration(d)
		}
		return math.MaxInt64
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0)
	}
	return 0
}
