package agentv_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/trajeval/trajeval/internal/format/agentv"
)

// TestFastTime: the fast path reads the common shape as time.Parse does,
// and leaves every other text to it.
func TestFastTime(t *testing.T) {
	tests := []struct {
		in     string
		read   bool
		reason string
	}{
		{"2026-01-01T00:00:00.061Z", true, "the bench's shape"},
		{"2026-01-01T00:00:00Z", true, "no fraction"},
		{"2026-12-31T23:59:59.999999999Z", true, "nine digits"},
		{"2024-02-29T12:00:00.5Z", true, "a leap day"},
		{"2000-02-29T12:00:00Z", true, "a leap day of a year divisible by 400"},
		{"2100-02-29T12:00:00Z", false, "not a leap year: time.Parse refuses it"},
		{"2026-02-29T12:00:00Z", false, "no such day"},
		{"2026-04-31T12:00:00Z", false, "April has 30 days"},
		{"2026-01-01T24:00:00Z", false, "hour out of range"},
		{"2026-01-01T00:00:60Z", false, "no leap second in time.Parse"},
		{"2026-13-01T00:00:00Z", false, "month out of range"},
		{"2026-00-01T00:00:00Z", false, "month zero"},
		{"2026-01-01T00:00:00.Z", false, "a dot without digits"},
		{"2026-01-01T00:00:00.1234567891Z", false, "ten digits"},
		{"2026-01-01T00:00:00,5Z", false, "a comma: time.Parse decides"},
		{"2026-01-01T00:00:00+02:00", false, "an offset"},
		{"2026-01-01t00:00:00Z", false, "a lower-case t"},
		{"2026-01-01 00:00:00Z", false, "a space"},
		{"2026-01-01T00:00:00z", false, "a lower-case z"},
		{"+026-01-01T00:00:00Z", false, "a sign is not a digit"},
		{"", false, "empty"},
		{"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00:00.000Z", false, "a new clock's zero minute is no minute"},
		{"2026-01-01T00:00:00.06aZ", false, "a millisecond that is not a digit"},
		{"2026-01-01T00:00:00:061Z", false, "a colon for the dot"},
		{"2026-01-01T00:00:00.061z", false, "a lower-case z, milliseconds"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			ts, oks := agentv.FastTime(tt.in)
			got, ok := ts[0], oks[0]
			if ok != tt.read {
				t.Fatalf("read %v, want %v: %s", ok, tt.read, tt.reason)
			}
			if ok {
				checkTime(t, tt.in, got)
			}
		})
	}
}

// TestFastTime_tail: a time of the clock's minute, its seconds and
// milliseconds read at fixed places, with every byte of them in turn
// made every other byte: read as time.Parse reads it when it is of the
// shape, left to time.Parse when it is not (a comma for the dot is
// time.Parse's to read).
func TestFastTime_tail(t *testing.T) {
	const minute, base = "2026-01-01T00:00:00.000Z", "2026-01-01T00:00:05.061Z"
	for at := 16; at < len(base); at++ {
		for c := range 256 {
			b := []byte(base)
			b[at] = byte(c)
			s := string(b)
			ts, oks := agentv.FastTime(minute, s)
			digit := c >= '0' && c <= '9'
			want := at == 16 && c == ':' || at == 19 && c == '.' || at == 23 && c == 'Z' ||
				at == 17 && digit && c <= '5' || (at == 18 || at >= 20 && at <= 22) && digit
			if oks[1] != want {
				t.Fatalf("%q after %q: read %v, want %v", s, minute, oks[1], want)
			}
			if oks[1] {
				checkTime(t, s, ts[1])
			}
		}
	}
}

// FuzzFastTime checks every time the fast path reads against time.Parse,
// a second time read with what the clock remembers of the first.
func FuzzFastTime(f *testing.F) {
	f.Add("2026-01-01T00:00:00.061Z", "2026-01-01T00:00:59.1Z")
	f.Add("2024-02-29T23:59:59Z", "2024-02-29T23:59:60Z")
	f.Add("2026-01-01T00:00:00.123456789Z", "2026-01-01T00:00:00+01:00")
	f.Add("2026-01-01T00:00:00.061Z", "2026-01-01T00:00:60.061Z")
	f.Add("\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00:00.000Z", "2026-01-01T00:00:00.0a1Z")
	f.Fuzz(func(t *testing.T, a, b string) {
		ts, oks := agentv.FastTime(a, b)
		for i, s := range []string{a, b} {
			if oks[i] {
				checkTime(t, s, ts[i])
			}
		}
	})
}

// checkTime fails t unless got is what time.Parse gives for s, UTC: the
// same instant, location and representation.
func checkTime(t *testing.T, s string, got time.Time) {
	t.Helper()
	want, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatalf("%q: fast path read %v, time.Parse fails: %v", s, got, err)
	}
	if want = want.UTC(); got != want {
		t.Fatalf("%q: fast path %#v, time.Parse %#v", s, got, want)
	}
}

// TestFastTime_grid: over every month and day number of years that are
// and are not leap years, with the edges of each clock field and each
// length of fraction, the fast path reads exactly what time.Parse reads.
func TestFastTime_grid(t *testing.T) {
	for _, year := range []int{0, 1, 1900, 1970, 2000, 2024, 2026, 2100, 9999} {
		for month := 0; month <= 13; month++ {
			for day := 0; day <= 32; day++ {
				for _, clock := range []string{"00:00:00", "23:59:59", "24:00:00", "12:60:00", "12:00:60"} {
					for _, frac := range []string{"", ".1", ".06", ".061", ".0610", ".12345", ".123456", ".1234567", ".12345678", ".123456789"} {
						s := fmt.Sprintf("%04d-%02d-%02dT%s%sZ", year, month, day, clock, frac)
						ts, oks := agentv.FastTime(s, s[:17]+"59Z", s[:17]+"60Z")
						got, ok := ts[0], oks[0]
						_, err := time.Parse(time.RFC3339Nano, s)
						if ok != (err == nil) {
							t.Fatalf("%q: fast path read %v, time.Parse error %v: the common shape must be read the same", s, ok, err)
						}
						if ok {
							checkTime(t, s, got)
						}
						if !oks[1] && err == nil || oks[2] {
							t.Fatalf("%q read as %v, then seconds 59 and 60 of its minute as %v: the minute remembered must not change the answer", s, ok, oks[1:])
						}
						if oks[1] {
							checkTime(t, s[:17]+"59Z", ts[1])
						}
					}
				}
			}
		}
	}
}

// TestFastTime_sameDay: a time of another minute of the day the clock
// read last takes that day as read then, and only its hour and minute
// are read anew: each edge of them is read as time.Parse reads it, as is
// a time of the day before or after, or of a day that does not exist,
// after one that does.
func TestFastTime_sameDay(t *testing.T) {
	hours := []string{"00", "09", "10", "19", "20", "23", "24", "29", "99", "0a", "a0", " 1", "-1", "/0", ":0"}
	minutes := []string{"00", "09", "10", "59", "60", "99", "0a", "a0", " 1", "/0", ":0"}
	dates := []string{"2024-02-29", "2024-02-28", "2024-03-01", "2100-02-28", "2100-02-29", "2026-12-31", "2027-01-01", "0000-01-01", "9999-12-31"}
	for _, date := range dates {
		for _, other := range dates {
			before := date + "T12:34:56.789Z"
			for _, h := range hours {
				for _, m := range minutes {
					for _, tail := range []string{":05.061Z", ":05Z", ":05.5Z"} {
						s := other + "T" + h + ":" + m + tail
						ts, oks := agentv.FastTime(before, s, s)
						_, err := time.Parse(time.RFC3339Nano, s)
						for i := 1; i <= 2; i++ {
							if oks[i] != (err == nil) {
								t.Fatalf("%q after %q (read %v): fast path read %v, time.Parse error %v", s, before, oks[:i], oks[i], err)
							}
							if oks[i] {
								checkTime(t, s, ts[i])
							}
						}
					}
				}
			}
		}
	}
}
