package agentv

import (
	"encoding/binary"
	"time"

	"github.com/trajeval/trajeval/internal/format/msglog"
)

// parseTime is msglog.ParseTime for a call's time, with a fast path for
// the shape nearly every trace writes (see clock.parse).
func (c *clock) parseTime(s string, warn func(string)) time.Time {
	if t, ok := c.parse([]byte(s)); ok {
		return t.time()
	}
	return msglog.ParseTime(s, warn)
}

// A clock reads times of the shape 2006-01-02T15:04:05Z, with 1 to 9
// digits of a second after a dot before the Z, remembering the last
// minute it read: a trace's times mostly share their date, hour and
// minute with the time before.
type clock struct {
	// minute is "2006-01-02T15:04" of the last time read, as two
	// little-endian words: compared as words, not copied as an array.
	minute [2]uint64
	unix   int64 // the minute's start, in seconds since 1970 UTC
	day    int64 // the start of the minute's day, the same way
}

// maxTime is the length of the longest time clock.parse reads.
const maxTime = len("2006-01-02T15:04:05.999999999Z")

// parse gives the instant of what time.Parse(time.RFC3339Nano, s) gives, for
// a time of the clock's shape; ok false for any other text, which it
// leaves to time.Parse (an offset, a lower-case t or z, a comma, a date
// that does not exist). It reads s in place: the fast path hands it the
// bytes of the line.
func (c *clock) parse(s []byte) (t instant, ok bool) {
	if len(s) < len("2006-01-02T15:04:05Z") || len(s) > maxTime ||
		s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' || s[len(s)-1] != 'Z' {
		return t, false
	}
	// The zero minute never matches: a time of this shape has a '-' at 4.
	if m := minuteWords(s); m != c.minute {
		// The date "2006-01-02" is the first word and the low two bytes of
		// the second: the date of the minute before, checked then, read
		// again as the day it starts.
		day, ok := c.day, m[0] == c.minute[0] && uint16(m[1]) == uint16(c.minute[1])
		if !ok {
			if day, ok = dayOf(s); !ok {
				return t, false
			}
		}
		hour, ok1 := digits(s[11:13])
		minute, ok2 := digits(s[14:16])
		if !ok1 || !ok2 || hour > 23 || minute > 59 {
			return t, false
		}
		c.minute, c.day, c.unix = m, day, day+int64(hour)*3600+int64(minute)*60
	}
	tens, ones := s[17]-'0', s[18]-'0' // two digits, not a loop over them
	if tens > 5 || ones > 9 {
		return t, false
	}
	sec := int(tens)*10 + int(ones)
	ns := 0
	if frac := s[19 : len(s)-1]; len(frac) > 0 {
		if frac[0] != '.' || len(frac) == 1 {
			return t, false
		}
		n, ok := digits(frac[1:])
		if !ok {
			return t, false
		}
		ns = n * nanos[len(frac)-1] // no loop a digit short of nine
	}
	return instant{c.unix + int64(sec), int64(ns)}, true
}

// An instant is a time a clock read: seconds since 1970 UTC and the
// nanoseconds past them. A reader keeps it until a step takes the time
// (see time): a time.Time holds a pointer (its location), which costs
// each store of it a check, and its making costs more than the reading.
type instant struct{ sec, nsec int64 }

// time is the instant as time.Parse then UTC gives it.
func (a instant) time() time.Time { return time.Unix(a.sec, a.nsec).UTC() }

// startEnd is start.time() and end.time() in one call, a step's two
// times: each alone is a call (too large to be inlined), and a step
// makes both.
func startEnd(start, end instant) (time.Time, time.Time) {
	return time.Unix(start.sec, start.nsec).UTC(), time.Unix(end.sec, end.nsec).UTC()
}

// millisTime is the length of the shape nearly every trace writes,
// 2006-01-02T15:04:05.000Z, which millis reads.
const millisTime = len("2006-01-02T15:04:05.000Z")

// millis is parse for a text of millisTime bytes, read in two steps
// small enough to be inlined (see decoder.stamp): same checks whether
// the text is of the clock's minute and has the shape, every byte of it
// a digit or a separator in its place; then at reads it. Any other text
// goes to parse, which gives the same answer for it.
func (c *clock) millis(s *[millisTime]byte) (instant, bool) {
	if x, ok := c.same(s); ok {
		return c.at(x), true
	}
	return c.parse(s[:])
}

// same reports whether s is a time of the clock's minute, and of the
// shape 2006-01-02T15:04:05.000Z; x is its tail, the bytes after the
// minute, less ":00.000Z" byte by byte. It checks every byte, so that a
// reader may hand it bytes it has not scanned (see decoder.stamp).
//
// The tail is checked as one word: a byte of the shape leaves 0 in a
// separator's place of x and its value, 0 to 9, in a digit's; adding 6
// to a digit's byte (10 to the tens of seconds, whose digit is at most
// 5, 15 to a separator's) carries into its high half exactly when the
// byte is too large for its place, and a byte whose high half is set
// already is none of the shape's. A carry out of a byte only ever
// follows a byte that fails already.
func (c *clock) same(s *[millisTime]byte) (x uint64, ok bool) {
	x = binary.LittleEndian.Uint64(s[16:]) ^ tailZero
	// s[4] too: the zero minute a new clock holds is no minute.
	return x, minuteWords(s[:]) == c.minute && s[4] == '-' && (x+tailCarry|x)&0xf0f0f0f0_f0f0f0f0 == 0
}

// at is the instant of a time of the clock's minute whose tail is x (see
// same). Two digits in bytes b and b+1 of a word w, the first lower, are
// (w>>8b)*10 + w>>8(b+1) in the low byte: the rest of each is a multiple
// of 256.
func (c *clock) at(x uint64) instant {
	s, ms := x>>8, x>>40
	sec := (s*10 + s>>8) & 0xff
	ms = x>>32&15*100 + (ms*10+ms>>8)&0xff
	return instant{c.unix + int64(sec), int64(ms) * 1e6}
}

// minuteWords is the first 16 bytes of s, a time's minute, as two
// little-endian words.
func minuteWords(s []byte) [2]uint64 {
	return [2]uint64{binary.LittleEndian.Uint64(s[:8]), binary.LittleEndian.Uint64(s[8:16])}
}

// tailZero is ":00.000Z" as a little-endian word, and tailCarry what
// same adds to each of its bytes, the first lowest: 15 for a separator,
// 10 for the tens of seconds, 6 for another digit.
const (
	tailZero  = 'Z'<<56 | '0'<<48 | '0'<<40 | '0'<<32 | '.'<<24 | '0'<<16 | '0'<<8 | ':'
	tailCarry = 0x0f_06_06_06_0f_06_0a_0f
)

// nanos[k] is the nanoseconds of a unit of the k-th digit after the dot.
var nanos = [10]int{1, 1e8, 1e7, 1e6, 1e5, 1e4, 1e3, 1e2, 1e1, 1}

// dayOf reads the date of s, checked as time.Parse checks it, as the
// seconds since 1970 UTC at which the day starts.
func dayOf(s []byte) (int64, bool) {
	year, ok1 := digits(s[0:4])
	month, ok2 := digits(s[5:7])
	day, ok3 := digits(s[8:10])
	if !(ok1 && ok2 && ok3) || month < 1 || month > 12 || day < 1 || day > daysIn(month, year) {
		return 0, false
	}
	return days(year, month, day) * 86400, true
}

// days counts the days from 1970-01-01 to the date (proleptic
// Gregorian), negative before it: the count of whole 400-year eras, each
// 146097 days, and of the days into the era of a year that starts in
// March, so that a leap day ends it.
func days(year, month, day int) int64 {
	if month <= 2 {
		year--
	}
	era := year / 400
	if year < 0 {
		era = (year - 399) / 400
	}
	yoe := year - era*400
	m := month + 9
	if month > 2 {
		m = month - 3
	}
	doy := (153*m+2)/5 + day - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return int64(era)*146097 + int64(doe) - 719468
}

// digits reads s, 1 to 9 decimal digits.
func digits(s []byte) (int, bool) {
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
