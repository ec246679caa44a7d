package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/suite"
)

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
		floor  bool     // the suites load
		roots  uint64   // stacks and globals
		lives  []uint64 // the live heap after each collection
		want   []int
		reason string
	}{
		{"many listed cases", 100 * mb, false, 2 * mb, []uint64{110 * mb, 160 * mb, 105 * mb, 170 * mb}, []int{45, 31, 47, 29},
			"what a long collection finds allocated meanwhile is not multiplied: half the suites is the headroom"},
		{"suites that hold little", 10 * mb, false, 2 * mb, []uint64{20 * mb, 60 * mb}, []int{175, 98},
			"the scoring's own pace over what it holds now, up to 64 MB of headroom, less half the suites' 10 MB"},
		{"the scoring's first collections", 2 * mb, false, 0, []uint64{3 * mb, 5 * mb, 9 * mb, 12 * mb}, []int{400, 400, 400, 325},
			"the scoring's pace for the floor, then its own (51 MB at the fourth): not GOGC 33, 220 and 300"},
		{"the peer set's scoring on one core", 2 * mb, false, 2 * mb, []uint64{10 * mb}, []int{316},
			"the scoring's pace puts the goal at 41 MB: the floor's 48 MB is more, with the roots' 2 MB counted"},
		{"just over the floor", 0, false, 2 * mb, []uint64{12 * mb}, []int{400},
			"the scoring's pace puts the goal at 60 MB and more: over the floor, the pace is the most"},
		{"while the suites load", 0, true, 2 * mb, []uint64{1 * mb, 4 * mb, 30 * mb, 100 * mb}, []int{400, 400, 100, 100},
			"the pace's 400 for the floor while the heap is small (not 1200 and 733: see heapFloor), then twice the live heap (GOGC 100)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &followed{pace: 400, held: tt.held, floor: tt.floor}
			for i, live := range tt.lives {
				if got := f.percent(live, tt.roots); got != tt.want[i] {
					t.Errorf("collection %d (%d MB live): GOGC %d, want %d (%s)", i+1, live/mb, got, tt.want[i], tt.reason)
				}
			}
		})
	}
}

// TestFollowed_percent_history: what the run history holds
// (history.Holding) is bounded and not the scoring's garbage, so the
// scoring's pace does not apply to it.
func TestFollowed_percent_history(t *testing.T) {
	const mb = 1 << 20
	tests := []struct {
		name    string
		held    uint64 // the suites'
		history uint64
		lives   []uint64 // the live heap after each collection
		want    []int
		reason  string
	}{
		{"the history's buffers", 0, 5 * mb / 2, []uint64{14 * mb, 20 * mb}, []int{328, 320},
			"4 times the history's 2.5 MB is not added to the goal: 46 MB of headroom at 14 MB, not 56"},
		{"no history", 0, 0, []uint64{14 * mb, 20 * mb}, []int{400, 320},
			"the scoring's pace, up to 64 MB of headroom"},
		{"under the floor", 0, 5 * mb / 2, []uint64{10 * mb}, []int{380},
			"the floor's 48 MB holds whatever the history holds"},
		{"large suites", 100 * mb, 5 * mb / 2, []uint64{110 * mb}, []int{45},
			"half the suites is the headroom whatever the history holds"},
		{"more than the heap", 0, 30 * mb, []uint64{20 * mb}, []int{140},
			"the history cannot hold more than the heap: the scoring holds nothing, the floor sets the goal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &followed{pace: 400, held: tt.held, besides: func() uint64 { return tt.history }}
			for i, live := range tt.lives {
				if got := f.percent(live, 0); got != tt.want[i] {
					t.Errorf("collection %d (%d MB live): GOGC %d, want %d (%s)", i+1, live/mb, got, tt.want[i], tt.reason)
				}
			}
		})
	}
}

func TestLoad_heapGoal(t *testing.T) {
	if os.Getenv("GOGC") != "" {
		t.Skip("GOGC is set: load leaves the collector alone")
	}
	var text strings.Builder
	text.WriteString("name: small\nexecution:\n  evaluators:\n    - {name: check, type: tool_trajectory, mode: any_order, expected: [search]}\nevalcases:\n")
	for i := range 100 {
		text.WriteString("  - {id: case-" + string(rune('a'+i%26)) + strings.Repeat("x", i) + ", input: hello}\n")
	}
	path := filepath.Join(t.TempDir(), "suite.yaml")
	if err := os.WriteFile(path, []byte(text.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	old := debug.SetGCPercent(400)
	limit := debug.SetMemoryLimit(-1)
	t.Cleanup(func() {
		following.Store(nil)
		debug.SetGCPercent(old)
		debug.SetMemoryLimit(limit)
	})
	if _, err := load(suite.RunOptions{}, []string{path}); err != nil {
		t.Fatal(err)
	}
	following.Store(nil)
	live, roots := heapStats()
	percent := debug.SetGCPercent(400)
	if live == 0 {
		t.Skip("the runtime does not say the live heap")
	}
	// What puts the goal (live and percent of live and roots) at 48 MB, up
	// to the pace.
	if want := min(100*(48<<20-min(48<<20, live))/(live+roots), 400); uint64(percent) < want {
		t.Errorf("after loading a small suite: GOGC %d over %d KB live and %d KB of roots, want %d (toward the floor's goal, up to the pace: not a goal of a few MB)",
			percent, live>>10, roots>>10, want)
	}
}

func TestFloorPercent(t *testing.T) {
	const mb = 1 << 20
	tests := []struct {
		name        string
		live, roots uint64
		want        int
		reason      string
	}{
		{"start-up's heap", 1 * mb, 2 * mb, 1200, "the runtime's least goal, 4 MB at GOGC 100, is the floor at 1200: 1566 % would have put it at 63 MB"},
		{"after loading the peer set", 3 * mb, 2 * mb, 900, "3 MB and 9 times 5 MB is 48: the roots count"},
		{"without roots", 6 * mb, 0, 700, "6 MB and 7 times 6 MB is 48"},
		{"at the floor", 48 * mb, 2 * mb, 0, "no floor over the live heap"},
		{"over the floor", 100 * mb, 2 * mb, 0, "no floor over the live heap"},
		{"unknown live heap", 0, 2 * mb, 0, "a runtime that does not say has no floor"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := floorPercent(heapFloor, tt.live, tt.roots); got != tt.want {
				t.Errorf("floorPercent(48 MB, %d MB, %d MB) = %d, want %d (%s)", tt.live/mb, tt.roots/mb, got, tt.want, tt.reason)
			}
		})
	}
}

// TestLoad_forcedCollections holds load to one collection of its own (the
// one before the suites load) when loading them allocates little: a
// second, after loading, marked every case to learn what they hold, and
// cost the peer set's 10,000 cases about 2 % of their run.
func TestLoad_forcedCollections(t *testing.T) {
	if os.Getenv("GOGC") != "" {
		t.Skip("GOGC is set: load leaves the collector alone")
	}
	tests := []struct {
		name   string
		cases  int
		want   uint64
		reason string
	}{
		{"small suite", 1_000, 1, "what it holds is estimated: a collection would mark every case for little"},
		{"large suite", 40_000, 2, "what it holds is measured after the parse's garbage goes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var text strings.Builder
			text.WriteString("name: many\nexecution:\n  evaluators:\n    - {name: check, type: tool_trajectory, mode: any_order, expected: [search]}\nevalcases:\n")
			for i := range tt.cases {
				fmt.Fprintf(&text, "  - {id: case-%07d, input: Research the history of Python}\n", i)
			}
			path := filepath.Join(t.TempDir(), "suite.yaml")
			if err := os.WriteFile(path, []byte(text.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			old := debug.SetGCPercent(400)
			limit := debug.SetMemoryLimit(-1)
			t.Cleanup(func() {
				following.Store(nil)
				debug.SetGCPercent(old)
				debug.SetMemoryLimit(limit)
			})
			before := forcedCollections()
			if _, err := load(suite.RunOptions{}, []string{path}); err != nil {
				t.Fatal(err)
			}
			if got := forcedCollections() - before; got != tt.want {
				t.Errorf("load forced %d collections, want %d (%s)", got, tt.want, tt.reason)
			}
		})
	}
}

func forcedCollections() uint64 {
	sample := []metrics.Sample{{Name: "/gc/cycles/forced:gc-cycles"}}
	metrics.Read(sample)
	return sample[0].Value.Uint64()
}
