package trajeval_test

import (
	"testing"
	"time"

	"github.com/trajeval/trajeval"
)

// TestAppendJSON_times checks the hand-written times of steps against
// encoding/json at the edges of RFC 3339 with nanoseconds: no fraction, a
// fraction with trailing zeros, every digit, the first and last years
// written, and a zone other than UTC.
func TestAppendJSON_times(t *testing.T) {
	tests := []struct {
		name   string
		at     time.Time
		reason string
	}{
		{"whole second", time.Date(2025, 6, 1, 12, 0, 5, 0, time.UTC), "no fraction, no dot"},
		{"milliseconds", time.Date(2025, 6, 1, 12, 0, 5, 120_000_000, time.UTC), "trailing zeros of the fraction are left out"},
		{"one nanosecond", time.Date(2025, 6, 1, 12, 0, 5, 1, time.UTC), "leading zeros of the fraction are kept"},
		{"every digit", time.Date(2025, 12, 31, 23, 59, 59, 987_654_321, time.UTC), "nine digits"},
		{"year 0", time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC), "the year is padded to four digits"},
		{"year 9999", time.Date(9999, 12, 31, 23, 59, 59, 999_999_999, time.UTC), "the last year written"},
		{"zone", time.Date(2025, 6, 1, 1, 30, 0, 500, time.FixedZone("", -5*3600)), "written in UTC, with Z"},
		{"zone into next year", time.Date(2025, 12, 31, 23, 30, 0, 0, time.FixedZone("", -3600)), "the UTC date, not the local one"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := &trajeval.Trajectory{Steps: []trajeval.Step{{Index: 1, Name: "x", StartTime: tt.at, EndTime: tt.at}}}
			sameAsStd(t, tr, tt.reason)
		})
	}
}

func BenchmarkAppendJSON_times(b *testing.B) {
	t0 := time.Date(2025, 6, 1, 12, 0, 0, 123_456_000, time.UTC)
	tr := &trajeval.Trajectory{}
	for i := range 20 {
		at := t0.Add(time.Duration(i) * time.Second)
		tr.Steps = append(tr.Steps, trajeval.Step{Index: i + 1, Name: "x", StartTime: at, EndTime: at})
	}
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		buf, _ = trajeval.AppendJSON(buf[:0], tr)
	}
}
