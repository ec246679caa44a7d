package msglog

import "time"

// ISOTime reads the text of a time of the shape most tools write,
// YYYY-MM-DDTHH:MM:SS with 1 to 9 digits of fraction after a dot or
// none, then Z, an offset ±HH:MM or no zone (UTC), without the string
// ParseTimeOf takes or the layouts it tries in turn. ok is false for any
// other text, valid or not, which ParseTimeOf is then to read; for text
// it reads, it gives the time ParseTimeOf gives.
func ISOTime(b []byte) (t time.Time, ok bool) {
	if len(b) < 19 || b[4] != '-' || b[7] != '-' || b[10] != 'T' || b[13] != ':' || b[16] != ':' {
		return t, false
	}
	year, ok1 := digits(b[0:4])
	month, ok2 := digits(b[5:7])
	day, ok3 := digits(b[8:10])
	hour, ok4 := digits(b[11:13])
	minute, ok5 := digits(b[14:16])
	sec, ok6 := digits(b[17:19])
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) || month < 1 || month > 12 || day < 1 ||
		day > daysIn(time.Month(month), year) || hour > 23 || minute > 59 || sec > 59 {
		return t, false
	}
	rest := b[19:]
	nsec := 0
	if len(rest) > 0 && rest[0] == '.' {
		n := 1
		for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
			n++
		}
		if n == 1 || n > 10 {
			return t, false
		}
		f, _ := digits(rest[1:n])
		for range 10 - n {
			f *= 10
		}
		nsec, rest = f, rest[n:]
	}
	offset := 0
	switch {
	case len(rest) == 0:
	case len(rest) == 1 && rest[0] == 'Z':
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		h, ok1 := digits(rest[1:3])
		m, ok2 := digits(rest[4:6])
		if !ok1 || !ok2 || h > 23 || m > 59 {
			return t, false
		}
		if offset = (h*60 + m) * 60; rest[0] == '-' {
			offset = -offset
		}
	default:
		return t, false
	}
	t = time.Date(year, time.Month(month), day, hour, minute, sec, nsec, time.UTC)
	return t.Add(-time.Duration(offset) * time.Second), true
}

// digits reads b, all decimal digits, as a number.
func digits(b []byte) (int, bool) {
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// daysIn is the number of days of month m of year y.
func daysIn(m time.Month, y int) int {
	return time.Date(y, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
}
