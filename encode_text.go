package trajeval

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/trajeval/trajeval/internal/jsonv"
)

// The pieces of the canonical JSON that every step repeats (its strings,
// its two times, its duration, the keys of its arguments), written the
// short way when the value allows it and handed to the general writer
// otherwise. The run history encodes the trajectory of every case that
// did not pass: these are on its path.

// appendFloat appends f as encoding/json writes a float64; false, and b
// unchanged, for NaN and the infinities. A whole number below 1e15 (a
// duration in milliseconds, a count) is written as the integer it is,
// which is what %f gives it; negative zero keeps its sign the long way.
func appendFloat(b []byte, f float64) ([]byte, bool) {
	if f == math.Trunc(f) && math.Abs(f) < 1e15 && (f != 0 || !math.Signbit(f)) {
		return strconv.AppendInt(b, int64(f), 10), true
	}
	return jsonv.AppendFloat(b, f)
}

// A member is a key and value of an object, to be sorted by key.
type member struct {
	key   string
	value any
}

// sortMembers sorts ms by key, byte by byte as encoding/json sorts the
// keys of a map: by insertion, the objects of arguments and results
// being small.
func sortMembers(ms []member) {
	if len(ms) > 12 {
		sortMembersLarge(ms)
		return
	}
	for i := 1; i < len(ms); i++ {
		for j := i; j > 0 && ms[j].key < ms[j-1].key; j-- {
			ms[j], ms[j-1] = ms[j-1], ms[j]
		}
	}
}

func sortMembersLarge(ms []member) {
	slices.SortFunc(ms, func(a, b member) int { return strings.Compare(a.key, b.key) })
}

const secondsPerDay = 86400

// A dayCache writes times in UTC as time.Time's MarshalJSON does
// (RFC 3339 with nanoseconds, the fraction without its trailing zeros),
// keeping the date of the last day written: the times of a trajectory's
// steps mostly fall on one day, and the calendar is the costly part.
type dayCache struct {
	known bool
	day   int64    // days since 1970-01-01 UTC, when known
	date  [10]byte // YYYY-MM-DD of day
}

// appendTime appends t, quoted; false, and b unchanged, for a year
// outside 0–9999, which RFC 3339 cannot write.
func (c *dayCache) appendTime(b []byte, t time.Time) ([]byte, bool) {
	sec := t.Unix()
	day := sec / secondsPerDay
	if sec%secondsPerDay < 0 {
		day--
	}
	if !c.known || day != c.day {
		year, month, d := t.UTC().Date()
		if year < 0 || year > 9999 {
			return b, false
		}
		c.date = [10]byte{byte('0' + year/1000), byte('0' + year/100%10), byte('0' + year/10%10), byte('0' + year%10), '-',
			byte('0' + month/10), byte('0' + month%10), '-', byte('0' + d/10), byte('0' + d%10)}
		c.known, c.day = true, day
	}
	s := sec - day*secondsPerDay
	hour, minute, second := s/3600, s/60%60, s%60
	// The whole time is made on the stack and appended at once.
	var buf [32]byte
	buf[0] = '"'
	copy(buf[1:11], c.date[:])
	buf[11], buf[12], buf[13], buf[14] = 'T', byte('0'+hour/10), byte('0'+hour%10), ':'
	buf[15], buf[16], buf[17] = byte('0'+minute/10), byte('0'+minute%10), ':'
	buf[18], buf[19] = byte('0'+second/10), byte('0'+second%10)
	n := 20 + putFraction(buf[20:30], t.Nanosecond())
	buf[n], buf[n+1] = 'Z', '"'
	return append(b, buf[:n+2]...), true
}

// putFraction puts ns nanoseconds into b as the fraction of a second
// RFC3339Nano writes, a dot and up to nine digits without trailing zeros,
// and returns how many bytes it took: 0 for 0. b holds ten bytes.
func putFraction(b []byte, ns int) int {
	if ns == 0 {
		return 0
	}
	digits := 9
	if ns%1_000_000 == 0 { // milliseconds, the common case
		ns /= 1_000_000
		digits = 3
	}
	for ns%10 == 0 {
		ns /= 10
		digits--
	}
	b = b[:10]
	b[0] = '.'
	for i := digits; i >= 1; i-- {
		b[i] = byte('0' + ns%10)
		ns /= 10
	}
	return digits + 1
}
