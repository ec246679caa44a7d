package agentv

import (
	"time"

	"github.com/trajeval/trajeval/internal/format/msglog"
)

// parseTime is msglog.ParseTime for a call's time, with a fast path for
// the shape nearly every trace writes (see fastTime).
func parseTime(s string, warn func(string)) time.Time {
	if t, ok := fastTime(s); ok {
		return t
	}
	return msglog.ParseTime(s, warn)
}

// fastTime reads a time of the shape 2006-01-02T15:04:05Z, with 1 to 9
// digits of a second after a dot before the Z, giving what
// time.Parse(time.RFC3339Nano, s) then UTC gives; ok false for any other
// text, which it leaves to time.Parse (an offset, a lower-case t or z, a
// comma, a date that does not exist).
func fastTime(s string) (t time.Time, ok bool) {
	if len(s) < len("2006-01-02T15:04:05Z") || len(s) > len("2006-01-02T15:04:05.999999999Z") ||
		s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' || s[len(s)-1] != 'Z' {
		return t, false
	}
	year, ok1 := digits(s[0:4])
	month, ok2 := digits(s[5:7])
	day, ok3 := digits(s[8:10])
	hour, ok4 := digits(s[11:13])
	minute, ok5 := digits(s[14:16])
	sec, ok6 := digits(s[17:19])
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) ||
		month < 1 || month > 12 || day < 1 || day > daysIn(month, year) || hour > 23 || minute > 59 || sec > 59 {
		return t, false
	}
	ns := 0
	if frac := s[19 : len(s)-1]; frac != "" {
		if frac[0] != '.' || len(frac) == 1 {
			return t, false
		}
		n, ok := digits(frac[1:])
		if !ok {
			return t, false
		}
		for range 10 - len(frac) {
			n *= 10
		}
		ns = n
	}
	return time.Date(year, time.Month(month), day, hour, minute, sec, ns, time.UTC), true
}

// digits reads s, 1 to 9 decimal digits.
func digits(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i] - '0'
		if c > 9 {
			return 0, false
		}
		n = n*10 + int(c)
	}
	return n, len(s) > 0
}

// daysIn is the number of days of month in year (proleptic Gregorian).
func daysIn(month, year int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}
