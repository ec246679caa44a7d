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
	unix := civilDays(year, month, day)*86400 + int64(hour*3600+minute*60+sec-offset)
	return time.Unix(unix, int64(nsec)).UTC(), true
}

// civilDays is the number of days from 1970-01-01 to the date y-m-d of
// the proleptic Gregorian calendar (the days_from_civil of Howard
// Hinnant's date algorithms): time.Date costs more than the rest of
// ISOTime.
func civilDays(y, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 {
		era = (y - 399) / 400
	}
	yoe := y - era*400
	mp := m - 3
	if m <= 2 {
		mp = m + 9
	}
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return int64(era)*146097 + int64(doe) - 719468
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
	if m == time.February && y%4 == 0 && (y%100 != 0 || y%400 == 0) {
		return 29
	}
	return int(monthDays[m])
}

var monthDays = [...]uint8{0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}
