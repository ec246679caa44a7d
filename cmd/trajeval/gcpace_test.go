package main

import "testing"

func TestPaceFor(t *testing.T) {
	const mb = 1 << 20
	tests := []struct {
		name       string
		pace       int
		held, live uint64
		want       int
		reason     string
	}{
		{"right after loading", 400, 400 * mb, 400 * mb, 50, "the suites' own half is the headroom: the goal is 600 MB, not 2000"},
		{"scoring holds little", 400, 400 * mb, 410 * mb, 48, "the goal follows the live heap: half the suites and what the scoring holds"},
		{"scoring holds much", 400, 100 * mb, 200 * mb, 200, "the scoring's own pace over what it holds: 400 MB of headroom"},
		{"huge suites", 400, 8000 * mb, 8000 * mb, 50, "half the suites: the collector does not run over and over"},
		{"the scoring holds most", 400, 10 * mb, 1000 * mb, 396, "the scoring's pace over what it holds, as a share of all"},
		{"the least", 400, 800 * mb, 900 * mb, 44, "where the two headrooms meet (scoring = held/8)"},
		{"unknown live heap", 400, 100 * mb, 0, 400, "a runtime that does not say keeps the pace"},
		{"never over the pace", 400, 1 * mb, 2 * mb, 200, "the pace is the most"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := paceFor(tt.pace, tt.held, tt.live); got != tt.want {
				t.Errorf("paceFor(%d, %d MB, %d MB) = %d, want %d (%s)", tt.pace, tt.held/mb, tt.live/mb, got, tt.want, tt.reason)
			}
		})
	}
}
