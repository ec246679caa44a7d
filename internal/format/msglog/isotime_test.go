package msglog_test

import (
	"testing"
	"time"

	"github.com/trajeval/trajeval/internal/format/msglog"
)

// checkISOTime fails t when msglog.ISOTime reads text otherwise than
// msglog.ParseTimeOf: another time, or a time where ParseTimeOf warns.
func checkISOTime(t *testing.T, text string) (ok bool) {
	t.Helper()
	got, ok := msglog.ISOTime([]byte(text))
	if !ok {
		return false
	}
	warned := false
	want := msglog.ParseTimeOf("time", text, func(string) { warned = true })
	if warned || !got.Equal(want) || got.Location() != want.Location() {
		t.Errorf("ISOTime(%q) = %v, ParseTimeOf gives %v (warned %v)", text, got, want, warned)
	}
	return true
}

func TestISOTime(t *testing.T) {
	tests := []struct {
		text   string
		ok     bool
		reason string
	}{
		{"2025-03-13T10:00:01.123456+00:00", true, "the Agents SDK's Python exporter"},
		{"2026-11-26T18:00:09.154Z", true, "the JS SDKs"},
		{"2025-03-13T10:00:01.123456", true, "LangSmith's Python client: no zone, UTC"},
		{"2025-03-13T10:00:01", true, "no fraction"},
		{"2025-03-13T10:00:01.5-07:30", true, "an offset west"},
		{"2025-03-13T23:59:59.999999999+14:00", true, "nine digits, a day back in UTC"},
		{"2024-02-29T00:00:00Z", true, "a leap day"},
		{"2025-02-29T00:00:00Z", false, "no such day: ParseTimeOf warns"},
		{"2025-03-13T24:00:00Z", false, "no such hour"},
		{"2025-03-13T10:00:60Z", false, "a leap second Go does not read"},
		{"2025-03-13T10:00:01.1234567891Z", false, "ten digits: left to ParseTimeOf"},
		{"2025-03-13T10:00:01.Z", false, "a dot and no digit"},
		{"2025-03-13T10:00:01,5Z", false, "a comma: left to ParseTimeOf"},
		{"2025-03-13 10:00:01", false, "a space: left to ParseTimeOf"},
		{"2025-03-13T10:00:01+0000", false, "an offset without a colon"},
		{"2025-03-13T10:00:01z", false, "a lower-case z"},
		{"2025-3-13T10:00:01Z", false, "a short month"},
		{"+2025-03-13T10:00:01Z", false, "a sign"},
		{"2025-03-13T10:00:01+24:00", false, "an offset out of range"},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			if ok := checkISOTime(t, tt.text); ok != tt.ok {
				t.Errorf("ISOTime(%q) ok %v, want %v: %s", tt.text, ok, tt.ok, tt.reason)
			}
		})
	}
	if got, _ := msglog.ISOTime([]byte("2025-03-13T10:00:01.5-07:30")); got != time.Date(2025, 3, 13, 17, 30, 1, 5e8, time.UTC) {
		t.Errorf("ISOTime: %v", got)
	}
}

// FuzzISOTime checks that ISOTime gives ParseTimeOf's time for any text
// it reads.
func FuzzISOTime(f *testing.F) {
	for _, s := range []string{"2025-03-13T10:00:01.123456+00:00", "2026-11-26T18:00:09.154Z", "2025-03-13T10:00:01", "0000-01-01T00:00:00-23:59", "2024-02-29T23:59:59.9+01:00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) { checkISOTime(t, text) })
}

// TestISOTime_days reads every day of years around the calendar's
// corners (year 0, centuries, leap years, 1970, 9999) and the last day
// of each month of every 37th year, with offsets either way, as
// ParseTimeOf reads them.
func TestISOTime_days(t *testing.T) {
	years := []int{0, 1, 4, 99, 100, 400, 1600, 1899, 1900, 1969, 1970, 1971, 2000, 2024, 2025, 2100, 9999}
	for y := 0; y <= 9999; y += 37 {
		years = append(years, y)
	}
	for _, y := range years {
		for d := time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC); d.Year() == y; d = d.AddDate(0, 0, 1) {
			for _, zone := range []string{"", "Z", "+14:00", "-23:59"} {
				if !checkISOTime(t, d.Format("2006-01-02T15:04:05")+".5"+zone) {
					t.Fatalf("%v not read", d)
				}
			}
		}
	}
}
