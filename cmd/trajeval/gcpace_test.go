package main

import "testing"

func TestScoringPercent(t *testing.T) {
	const mb = 1 << 20
	tests := []struct {
		pace   int
		live   uint64
		want   int
		reason string
	}{
		{400, 20 * mb, 400, "suites that hold little keep the scoring's pace"},
		{400, 32 * mb, 400, "at 32 MB, GOGC 400 is the fixed headroom itself"},
		{400, 64 * mb, 200, "twice as much held: half the percentage, the same headroom"},
		{400, 512 * mb, 100, "never under 100: a huge suite is not collected over and over"},
		{400, 0, 400, "a runtime that does not say keeps the pace"},
		{100, 20 * mb, 100, "a pace of 100 or less is never raised"},
	}
	for _, tt := range tests {
		if got := scoringPercent(tt.pace, tt.live); got != tt.want {
			t.Errorf("scoringPercent(%d, %d MB) = %d, want %d (%s)", tt.pace, tt.live/mb, got, tt.want, tt.reason)
		}
	}
}
