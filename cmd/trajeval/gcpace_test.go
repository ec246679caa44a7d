package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
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

func TestFollowed_goal(t *testing.T) {
	const mb = 1 << 20
	tests := []struct {
		name    string
		held    uint64
		loading bool     // the suites load
		roots   uint64   // stacks and globals
		lives   []uint64 // the live heap after each collection
		want    []uint64 // the goals, in MB (rounded down)
		reason  string
	}{
		{"many listed cases", 100 * mb, false, 2 * mb, []uint64{110 * mb, 160 * mb}, []uint64{160, 210},
			"what a long collection finds allocated meanwhile is not multiplied: half the suites is the headroom"},
		{"suites that hold little", 10 * mb, false, 2 * mb, []uint64{20 * mb, 60 * mb}, []uint64{58, 120},
			"the scoring's own pace over what it holds now, up to 64 MB of headroom, less half the suites' 10 MB"},
		{"the scoring's first collections", 2 * mb, false, 0, []uint64{3 * mb, 5 * mb, 9 * mb, 12 * mb}, []uint64{40, 40, 40, 51},
			"the floor while the scoring's pace puts the goal under it, whatever the live heap: not 15, 25 and 36 MB"},
		{"the peer set's scoring on one core", 2 * mb, false, 2 * mb, []uint64{6 * mb, 9 * mb}, []uint64{40, 42},
			"the scoring's pace puts the goal at 30 MB, then 42: the floor's 40 MB is the least goal of each collection"},
		{"over the floor", 0, false, 2 * mb, []uint64{12 * mb}, []uint64{68},
			"the scoring's pace puts the goal at 68 MB: over the floor, the pace is the most"},
		{"while the suites load", 0, true, 2 * mb, []uint64{1 * mb, 4 * mb, 30 * mb, 100 * mb}, []uint64{40, 40, 62, 202},
			"the floor while the heap is small, then twice the live heap and the roots (GOGC 100)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &followed{pace: 400, held: tt.held, loading: tt.loading}
			for i, live := range tt.lives {
				if got := f.goal(live, tt.roots) / mb; got != tt.want[i] {
					t.Errorf("collection %d (%d MB live): goal %d MB, want %d MB (%s)", i+1, live/mb, got, tt.want[i], tt.reason)
				}
			}
		})
	}
}

// TestFollowed_goal_history: what the run history holds
// (history.Holding) is bounded and not the scoring's garbage, so the
// scoring's pace does not apply to it.
func TestFollowed_goal_history(t *testing.T) {
	const mb = 1 << 20
	tests := []struct {
		name    string
		held    uint64 // the suites'
		history uint64
		lives   []uint64 // the live heap after each collection
		want    []uint64 // the goals, in MB (rounded down)
		reason  string
	}{
		{"the history's buffers", 0, 5 * mb / 2, []uint64{14 * mb, 20 * mb}, []uint64{59, 84},
			"4 times the history's 2.5 MB is not added to the goal: 46 MB of headroom at 14 MB, not 56"},
		{"no history", 0, 0, []uint64{14 * mb, 20 * mb}, []uint64{70, 84},
			"the scoring's pace, up to 64 MB of headroom"},
		{"under the floor", 0, 5 * mb / 2, []uint64{6 * mb}, []uint64{40},
			"the floor's 40 MB holds whatever the history holds"},
		{"large suites", 100 * mb, 5 * mb / 2, []uint64{110 * mb}, []uint64{159},
			"half the suites is the headroom whatever the history holds"},
		{"more than the heap", 0, 30 * mb, []uint64{20 * mb}, []uint64{40},
			"the history cannot hold more than the heap: the scoring holds nothing, the floor sets the goal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &followed{pace: 400, held: tt.held, besides: func() uint64 { return tt.history }}
			for i, live := range tt.lives {
				if got := f.goal(live, 0) / mb; got != tt.want[i] {
					t.Errorf("collection %d (%d MB live): goal %d MB, want %d MB (%s)", i+1, live/mb, got, tt.want[i], tt.reason)
				}
			}
		})
	}
}

// TestFollowed_apply holds the memory limit a quarter over the goal (with
// what the runtime maps besides the live heap), or at what it maps, and
// GOGC at what puts the runtime's goal at the floor.
func TestFollowed_apply(t *testing.T) {
	const mb = 1 << 20
	old := debug.SetGCPercent(400)
	oldLimit := debug.SetMemoryLimit(-1)
	t.Cleanup(func() {
		debug.SetGCPercent(old)
		debug.SetMemoryLimit(oldLimit)
	})
	tests := []struct {
		name                   string
		live, estimated, roots uint64
		m                      mapping
		percent                int
		limit                  int64
		reason                 string
	}{
		{"after loading the peer set", 1 * mb, 2 * mb, 0, mapping{ready: 20 * mb, inuse: 15 * mb}, 1000, (15 - 1 + 50) * mb,
			"GOGC for the 1 MB the last collection found puts the goal at the floor (the runtime's minimum: 4 MB times 10); the limit is 50 MB and what is mapped besides the live heap"},
		{"much mapped", 10 * mb, 0, 0, mapping{ready: 200 * mb, inuse: 20 * mb}, 400, 200 * mb,
			"the limit does not ask for memory back: the parse's free heap stays for the scoring"},
		{"over the floor", 40 * mb, 0, 0, mapping{ready: 60 * mb, inuse: 45 * mb}, 160, (5 + 104 + 26) * mb,
			"the scoring's 64 MB of headroom: a goal of 104 MB and a quarter more"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &followed{pace: 400, ceiling: 1 << 40}
			f.apply(tt.live, tt.estimated, tt.roots, tt.m)
			if got := debug.SetGCPercent(400); got != tt.percent {
				t.Errorf("GOGC %d, want %d (%s)", got, tt.percent, tt.reason)
			}
			if got := debug.SetMemoryLimit(-1); got != tt.limit {
				t.Errorf("memory limit %.2f MB, want %.2f MB (%s)", float64(got)/mb, float64(tt.limit)/mb, tt.reason)
			}
		})
	}
	t.Run("pads", func(t *testing.T) {
		old := heapPadBytes
		t.Cleanup(func() { heapPadBytes = old })
		heapPadBytes = 2 * mb
		f := &followed{pace: 400, ceiling: 1 << 40}
		f.apply(10*mb, 0, 0, mapping{ready: 200 * mb, inuse: 20 * mb})
		// f's goal for 10 MB live is 50 MB; the runtime counts 12 MB live,
		// so 333% of it puts its goal at 52 MB: f's and the pads. 400%
		// would put it at 60 MB, five times the pads over.
		if got := debug.SetGCPercent(400); got != 333 {
			t.Errorf("GOGC %d with 2 MiB of pads, want 333: the runtime's goal at f's and the pads, not the pads and four times them more", got)
		}
	})
	t.Run("ceiling", func(t *testing.T) {
		f := &followed{pace: 400, ceiling: 30 * mb}
		f.apply(1*mb, 0, 0, mapping{ready: 10 * mb, inuse: 5 * mb})
		if got := debug.SetMemoryLimit(-1); got != 30*mb {
			t.Errorf("memory limit %d MB, want the ceiling's 30 MB (GOMEMLIMIT wins)", got/mb)
		}
	})
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
	oldLimit := debug.SetMemoryLimit(-1)
	oldStart := smallStart
	smallStart = 0 // the live heap measured before loading, as after a huge heap
	t.Cleanup(func() {
		following.Store(nil)
		debug.SetGCPercent(old)
		debug.SetMemoryLimit(oldLimit)
		smallStart = oldStart
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
	// What puts the goal (live and percent of live and roots, at least
	// the runtime's minimum) at 48 MB, even over the pace.
	if want := percentFor(heapFloor, live, roots); percent < want {
		t.Errorf("after loading a small suite: GOGC %d over %d KB live and %d KB of roots, want %d (the floor's goal: not a goal of a few MB, nor one the pace holds under it)",
			percent, live>>10, roots>>10, want)
	}
}

// TestLoad_forcedCollections holds load to one collection of its own (the
// one before the suites load) when loading them allocates little: a
// second, after loading, marked every case to learn what they hold, and
// cost the peer set's 10,000 cases about 2 % of their run. Nor is there
// the one before loading when start-up allocated little (no huge heap):
// on a one-case suite it cost some 140 page faults of 900.
func TestLoad_forcedCollections(t *testing.T) {
	if os.Getenv("GOGC") != "" {
		t.Skip("GOGC is set: load leaves the collector alone")
	}
	tests := []struct {
		name       string
		cases      int
		smallStart uint64 // the most start-up may allocate for no collection before loading
		since      uint64 // bytes allocated since the huge heap's collection (collectedAt); 0: none was made
		want       uint64
		reason     string
	}{
		{"small suite", 1_000, 0, 0, 1, "what it holds is estimated: a collection would mark every case for little"},
		{"large suite", 40_000, 0, 0, 2, "what it holds is measured after the parse's garbage goes"},
		{"small start", 1_000, math.MaxUint64, 0, 0, "what start-up allocated stands for the live heap: no huge heap to free, and the collector's first touch of its tables is not paid before the first case"},
		{"small start, large suite", 40_000, math.MaxUint64, 0, 1, "the suites' garbage still goes after loading"},
		{"after the huge heap's collection", 1_000, 8 << 20, 1, 0, "the huge heap is freed already: a second collection before loading costs the sweep's fresh span-set blocks"},
		{"after the huge heap's collection, large suite", 40_000, 8 << 20, 1, 1, "the suites' garbage still goes after loading"},
		{"long after the huge heap's collection", 1_000, 8 << 20, 16 << 20, 1, "more than smallStart allocated since: the live heap is measured again"},
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
			oldStart, oldCollected := smallStart, collectedAt
			smallStart = tt.smallStart
			if tt.since > 0 {
				runtime.GC()
				collectedAt = allocated() - tt.since
			}
			t.Cleanup(func() {
				following.Store(nil)
				debug.SetGCPercent(old)
				debug.SetMemoryLimit(limit)
				smallStart, collectedAt = oldStart, oldCollected
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

func TestReserveHugeHeap_oneCollection(t *testing.T) {
	if os.Getenv("GOGC") != "" {
		t.Skip("GOGC is set")
	}
	old := debug.SetGCPercent(400)
	oldCollected := collectedAt
	t.Cleanup(func() {
		debug.SetGCPercent(old)
		collectedAt = oldCollected
	})
	runtime.GC() // no cycle under way when it starts
	cycles, forced := gcCycles(), forcedCollections()
	reserveHugeHeap(64 << 20)
	if got := gcCycles() - cycles; got != 1 {
		t.Errorf("reserving the huge heap took %d collections, want 1 (its allocation starts none, one forced frees it)", got)
	}
	if got := forcedCollections() - forced; got != 1 {
		t.Errorf("%d forced collections, want 1 (the one that frees it)", got)
	}
	if got := debug.SetGCPercent(400); got != 400 {
		t.Errorf("GOGC %d after, want 400 (the pace is given back)", got)
	}
	if collectedAt == 0 || collectedAt > allocated() {
		t.Errorf("collectedAt %d, allocated %d: want the allocation when the collection ended (load's rule 1)", collectedAt, allocated())
	}
}

func gcCycles() uint64 {
	sample := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(sample)
	return sample[0].Value.Uint64()
}

func TestReserveHugeHeap_collectorOff(t *testing.T) {
	old := debug.SetGCPercent(-1)
	oldCollected := collectedAt
	collectedAt = 0
	t.Cleanup(func() {
		debug.SetGCPercent(old)
		collectedAt = oldCollected
	})
	cycles := gcCycles()
	reserveHugeHeap(8 << 20)
	if got := gcCycles() - cycles; got != 0 {
		t.Errorf("%d collections with the collector off, want 0 (GOGC=off is obeyed)", got)
	}
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Errorf("GOGC %d after, want -1 (off, as it was)", got)
	}
	if collectedAt != 0 {
		t.Errorf("collectedAt %d, want 0: no collection ended", collectedAt)
	}
}

func TestHeapStats_padsLeftOut(t *testing.T) {
	old := heapPadBytes
	t.Cleanup(func() { heapPadBytes = old })
	keep := make([]byte, 4<<20)
	runtime.GC()
	heapPadBytes = 0
	live, _ := heapStats()
	heapPadBytes = 1 << 20
	less, _ := heapStats()
	if live-less != 1<<20 {
		t.Errorf("live %d with no pads, %d with 1 MiB: want 1 MiB less (the pads take no memory and set no pace)", live, less)
	}
	heapPadBytes = live + 1
	if none, _ := heapStats(); none != 0 {
		t.Errorf("live %d with pads over it, want 0 (never under)", none)
	}
	runtime.KeepAlive(keep)
}
