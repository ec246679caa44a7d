package main

import "testing"

func TestPaceFor(t *testing.T) {
	const mb = 1 << 20
	tests := []struct {
		name                string
		pace                int
		held, scoring, live uint64
		want                int
		reason              string
	}{
		{"right after loading", 400, 400 * mb, 0, 400 * mb, 50, "the suites' own half is the headroom: the goal is 600 MB, not 2000"},
		{"scoring holds little", 400, 400 * mb, 10 * mb, 410 * mb, 48, "the goal follows the live heap: half the suites over what is live"},
		{"scoring holds much", 400, 100 * mb, 100 * mb, 200 * mb, 25, "half the suites is more than the scoring's 64 MB of headroom: half the suites is the headroom"},
		{"scoring holds much, suites little", 400, 20 * mb, 100 * mb, 120 * mb, 45, "the scoring's own pace, but at most 64 MB of headroom, less half the suites' 20 MB"},
		{"100,000 listed cases", 400, 26 * mb, 20 * mb, 46 * mb, 110, "half the cases' 26 MB comes out of the scoring's 64 MB: the goal is 97 MB, not 110 MB"},
		{"suites past the scoring's headroom", 400, 48 * mb, 10 * mb, 58 * mb, 41, "the scoring's 40 MB of headroom is less than the suites' 48 MB: half of them, with no step at a size"},
		{"scoring holds a usual amount", 400, 0, 14 * mb, 14 * mb, 400, "under 16 MB held, the scoring's own pace"},
		{"a moment of much live", 400, 0, 25 * mb, 25 * mb, 256, "the run history's batch and the traces read ahead: 64 MB of headroom, not 100"},
		{"scoring holds nothing yet", 400, 40 * mb, 0, 40 * mb, 50, "half the suites: the collector does not run over and over"},
		{"no suites", 400, 0, 12 * mb, 12 * mb, 400, "a suite with no cases keeps the scoring's pace"},
		{"huge suites", 400, 8000 * mb, 20 * mb, 8020 * mb, 49, "half the suites: the collector does not run over and over"},
		{"unknown live heap", 400, 100 * mb, 0, 0, 400, "a runtime that does not say keeps the pace"},
		{"never over the pace", 400, 0, 1 * mb, 1 * mb, 400, "the pace is the most"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := paceFor(tt.pace, tt.held, tt.scoring, tt.live); got != tt.want {
				t.Errorf("paceFor(%d, %d MB, %d MB, %d MB) = %d, want %d (%s)", tt.pace, tt.held/mb, tt.scoring/mb, tt.live/mb, got, tt.want, tt.reason)
			}
		})
	}
}

func TestFollowed_percent(t *testing.T) {
	const mb = 1 << 20
	tests := []struct {
		name   string
		held   uint64
		lives  []uint64 // the live heap after each collection
		want   []int
		reason string
	}{
		{"many listed cases", 100 * mb, []uint64{110 * mb, 160 * mb, 105 * mb, 170 * mb}, []int{45, 31, 47, 29},
			"what a long collection finds allocated meanwhile is not multiplied: half the suites is the headroom"},
		{"suites that hold little", 10 * mb, []uint64{20 * mb, 60 * mb}, []int{175, 98},
			"the scoring's own pace over what it holds now, up to 64 MB of headroom, less half the suites' 10 MB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &followed{pace: 400, held: tt.held}
			for i, live := range tt.lives {
				if got := f.percent(live); got != tt.want[i] {
					t.Errorf("collection %d (%d MB live): GOGC %d, want %d (%s)", i+1, live/mb, got, tt.want[i], tt.reason)
				}
			}
		})
	}
}
