package history_test

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/history"
)

// manyResults are n results of the bench's shape, each with a trajectory
// of its own (its id, tools and times), failing where fail says.
func manyResults(n int, fail func(i int) bool) []trajeval.CaseResult {
	rows := make([]trajeval.CaseResult, n)
	for i := range rows {
		status := trajeval.StatusPass
		if fail(i) {
			status = trajeval.StatusFail
		}
		d := &trajeval.Details{Mode: "in_order", Hits: i % 4, Expected: 3, Actual: 20,
			Extra: []trajeval.Extra{{Step: i%20 + 1, Tool: fmt.Sprintf("tool-%d", i)}}}
		rows[i] = trajeval.CaseResult{ID: fmt.Sprintf("case-%05d", i), Suite: "bench", Status: status, Score: float64(i%4) / 3,
			Trajectory: benchTrajectoryOf(i, i%2 == 0), Evaluators: []trajeval.Result{
				{Name: "check", Type: "tool_trajectory", Status: status, Score: float64(i%4) / 3, Threshold: 1, Weight: 1, Required: true, Details: d},
				{Name: "budget", Type: "execution_metrics", Status: trajeval.StatusPass, Score: 1, Threshold: 1, Weight: 1},
			}}
	}
	return rows
}

// TestRecorder_Record_batches records runs of several batches, each
// result with a trajectory and details of its own: the groups of results
// and the batches' buffers are used again once written, and no row may
// read back another's bytes.
func TestRecorder_Record_batches(t *testing.T) {
	tests := []struct {
		name        string
		n           int
		fail        func(i int) bool
		keepPassing bool
		keepFailing int
		why         string
	}{
		{"mixed", 2600, func(i int) bool { return i%3 != 0 }, false, 0, "three batches of the bench's mix, two thirds failing: the failing cases' trajectories and details are their own"},
		{"all kept", 2100, func(i int) bool { return i%2 == 0 }, true, 0, "every trajectory kept (--include-trace) over groups and batches used again"},
		{"a group past a batch", 1024 + 64 + 1, func(i int) bool { return i%5 == 0 }, false, 0, "a full batch, a group, and one result left for End"},
		{"failing past KeepFailing", 2600, func(i int) bool { return i%3 != 0 }, false, 1000,
			"the first 1,000 failing cases keep their trajectories and details, in the order recorded, and the 733 after them keep what a passing case keeps"},
		{"KeepPassing over KeepFailing", 1100, func(i int) bool { return i%3 != 0 }, true, 10,
			"a run that keeps the passing cases' trajectories keeps every failing one's too"},
	}
	each(t, func(t *testing.T, dsn string) {
		h := open(t, dsn)
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				rows := manyResults(tt.n, tt.fail)
				rec := recorded(t, h, history.Run{Suites: []string{"bench"}, Start: time.Now(), KeepPassing: tt.keepPassing, KeepFailing: tt.keepFailing}, rows)
				got, err := h.Rows(t.Context(), rec.ID(), true)
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != len(rows) {
					t.Fatalf("%s: %d rows read back, %d recorded", tt.why, len(got), len(rows))
				}
				want := make([]trajeval.CaseResult, len(rows))
				failing, unkept := 0, 0
				for i, r := range rows {
					past := false
					if r.Status != trajeval.StatusPass && !tt.keepPassing {
						failing++
						past = tt.keepFailing > 0 && failing > tt.keepFailing
					}
					if past {
						unkept++
					}
					if past || !tt.keepPassing && r.Status == trajeval.StatusPass {
						r.Trajectory = nil
						r.Evaluators = []trajeval.Result{r.Evaluators[0], r.Evaluators[1]}
						for j := range r.Evaluators {
							r.Evaluators[j].Details = nil
						}
					}
					want[i] = r
				}
				if rec.Unkept() != unkept {
					t.Errorf("%s: Unkept() = %d, want %d", tt.why, rec.Unkept(), unkept)
				}
				if keeps := tt.keepPassing || tt.keepFailing == 0 || failing < tt.keepFailing; rec.KeepsFailing() != keeps {
					t.Errorf("%s: KeepsFailing() = %t after %d failing cases, want %t", tt.why, rec.KeepsFailing(), failing, keeps)
				}
				g, w := strings.SplitAfter(jsonl(t, got), "\n"), strings.SplitAfter(jsonl(t, want), "\n")
				for i := range g {
					if g[i] != w[i] {
						t.Fatalf("%s: row %d differs\ngot:  %s\nwant: %s", tt.why, i, g[i], w[i])
					}
				}
			})
		}
	})
}

// TestRecorder_Record_allocations counts the allocations of a whole run's
// recording (Begin to End, every goroutine of the program) a case. A
// result's row goes into its group's buffer, a group and a batch's pack
// are used again once written, and a reference into a chunk is built on
// the stack: what is left a case is its trajectory's and details' share
// of the chunks, and what SQLite allocates a batch. Before, a passing case
// took 1.2 allocations and a failing one 4.3 (its row, its pack's share
// grown afresh each batch, two references).
// The bytes: a batch's pack is made at its size from its first group's
// rows, a chunk's buffer at its size, and a pack compressed into the
// committer's buffer; grown by append's steps, they took 345 bytes a
// passing case and 929 a failing one.
func TestRecorder_Record_allocations(t *testing.T) {
	if testing.Short() {
		t.Skip("records 12,800 cases")
	}
	if raceEnabled {
		t.Skip("the race detector allocates, and empties sync.Pools at random")
	}
	tests := []struct {
		name   string
		fail   bool
		most   float64
		bytes  uint64 // allocated a case, the whole run's over its count
		reason string
	}{
		{"passing", false, 0.6, 315, "a passing case keeps its row alone, written into memory used again"},
		{"failing", true, 3.5, 800, "a failing case keeps its trajectory and details too, copied into the chunks"},
	}
	h := newHistory(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			const n = 6400
			rows := manyResults(n, func(int) bool { return tt.fail })
			run := func() (allocs, bytes uint64) {
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				rec, err := h.Begin(t.Context(), history.Run{Suites: []string{"bench"}, Start: time.Now()})
				if err != nil {
					t.Fatal(err)
				}
				for _, r := range rows {
					rec.Record(r)
				}
				if err := rec.End(time.Now(), false); err != nil {
					t.Fatal(err)
				}
				runtime.ReadMemStats(&after)
				return after.Mallocs - before.Mallocs, after.TotalAlloc - before.TotalAlloc
			}
			run() // the statements prepared, the pools filled
			allocs, bytes := run()
			got := float64(allocs) / n
			if got > tt.most {
				t.Errorf("%s: %.2f allocations a case, want at most %.1f", tt.reason, got, tt.most)
			}
			if b := bytes / n; b > tt.bytes {
				t.Errorf("%s: %d bytes allocated a case, want at most %d", tt.reason, b, tt.bytes)
			}
			t.Logf("%.2f allocations, %d bytes a case", got, bytes/n)
		})
	}
}

// TestRecorder_Record_chunkSize reads the chunks of runs of failing cases
// back from the file: each holds at most 64 kB before compression (but
// for a single larger value), the bound docs/history.md gives. Larger
// chunks made the recording touch more fresh memory (its buffers, and the
// scoring's objects spread over a heap whose goal they raise).
func TestRecorder_Record_chunkSize(t *testing.T) {
	tests := []struct {
		name   string
		big    int // bytes of one step's result, 0 for the bench's
		most   int
		reason string
	}{
		{"the bench's", 0, 64 << 10, "a chunk closes before a value would take it past 64 kB"},
		{"a value larger than a chunk", 100 << 10, 100<<10 + 4<<10, "a single larger value takes a chunk of its own"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dsn := filepath.Join(t.TempDir(), "runs.db")
			h := open(t, dsn)
			rows := manyResults(600, func(int) bool { return true })
			if tt.big > 0 {
				rows = rows[:3]
				for i := range rows {
					traj := *rows[i].Trajectory
					traj.Steps = slices.Clone(traj.Steps)
					traj.Steps[0].Result = strings.Repeat("x", tt.big)
					rows[i].Trajectory = &traj
				}
			}
			record(t, h, history.Run{Suites: []string{"bench"}, Start: time.Now()}, rows)
			db, err := sql.Open("sqlite", dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			q, err := db.Query("SELECT data FROM chunks")
			if err != nil {
				t.Fatal(err)
			}
			defer q.Close()
			n, biggest := 0, 0
			for q.Next() {
				var blob []byte
				if err := q.Scan(&blob); err != nil {
					t.Fatal(err)
				}
				data, err := history.Unsqueeze(blob)
				if err != nil {
					t.Fatal(err)
				}
				n, biggest = n+1, max(biggest, len(data))
			}
			if err := q.Err(); err != nil {
				t.Fatal(err)
			}
			if n == 0 || biggest > tt.most {
				t.Errorf("%s: %d chunks, the largest %d bytes before compression, want at most %d", tt.reason, n, biggest, tt.most)
			}
		})
	}
}

// TestHolding: what the recorders hold is counted from Begin to End, so
// that a program pacing its collector can leave it out (cmd/trajeval), and
// no longer once the run is written, whether it ended well or not.
func TestHolding(t *testing.T) {
	h := newHistory(t)
	before := history.Holding()
	a, err := h.Begin(t.Context(), history.Run{Suites: []string{"bench"}, Start: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	one := history.Holding() - before
	if one == 0 || one > 8<<20 {
		t.Fatalf("a recorder holds %d bytes, want more than none and at most 8 MB: the buffers of MaxPending results and a batch", one)
	}
	b, err := h.Begin(t.Context(), history.Run{Suites: []string{"bench"}, Start: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	if got := history.Holding() - before; got != 2*one {
		t.Errorf("two recorders hold %d bytes, want %d: each its own buffers", got, 2*one)
	}
	for _, r := range manyResults(300, func(i int) bool { return i%3 != 0 }) {
		a.Record(r)
	}
	if err := a.End(time.Now(), false); err != nil {
		t.Fatal(err)
	}
	if got := history.Holding() - before; got != one {
		t.Errorf("after one End, %d bytes held, want %d: the ended recorder's buffers are gone", got, one)
	}
	if err := b.End(time.Now(), true); err != nil {
		t.Fatal(err)
	}
	if got := history.Holding(); got != before {
		t.Errorf("after both ended, %d bytes held, want %d", got, before)
	}
}

// TestRecorder_ReturnDetailsTo: the recorder gives each result's details
// back exactly once, when it holds them no more: once encoded, by the
// encoders, whether the result keeps its row alone or its trajectory and
// details too. Details given back are written over at once (as the
// scoring does with them): the rows read back are those of a run that
// gives nothing back.
func TestRecorder_ReturnDetailsTo(t *testing.T) {
	tests := []struct {
		name        string
		keepPassing bool
		keepFailing int
		reason      string
	}{
		{"mixed", false, 0, "two thirds failing, kept; the passing keep their rows alone: each given back once encoded"},
		{"past KeepFailing", false, 300, "past the first 300 failing cases a failing case keeps its row alone: given back once encoded"},
		{"KeepPassing", true, 0, "every case kept: each given back once encoded"},
	}
	h := newHistory(t)
	const n = 1500 // over a batch and many groups
	fail := func(i int) bool { return i%3 != 0 }
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := history.Run{Suites: []string{"bench"}, Start: time.Now(), KeepPassing: tt.keepPassing, KeepFailing: tt.keepFailing}
			want, err := h.Rows(t.Context(), recorded(t, h, run, manyResults(n, fail)).ID(), true)
			if err != nil {
				t.Fatal(err)
			}
			rec, err := h.Begin(t.Context(), run)
			if err != nil {
				t.Fatal(err)
			}
			var mu sync.Mutex
			given := map[*trajeval.Details]int{}
			rec.ReturnDetailsTo(func(d *trajeval.Details) {
				if d == nil {
					return
				}
				mu.Lock()
				given[d]++
				mu.Unlock()
				*d = trajeval.Details{Mode: "written over"}
			})
			rows := manyResults(n, fail)
			for _, r := range rows {
				rec.Record(r)
			}
			if err := rec.End(time.Now(), false); err != nil {
				t.Fatal(err)
			}
			for _, r := range rows {
				if g := given[r.Evaluators[0].Details]; g != 1 {
					t.Fatalf("%s (%s): its details given back %d times by End, want 1 (%s)", r.ID, r.Status, g, tt.reason)
				}
			}
			if !sameRows(t, h, rec.ID(), want) {
				t.Fatalf("the rows read back differ from those of a run that gives nothing back (%s): details given back before they were encoded", tt.reason)
			}
		})
	}
}

// TestRecorder_Record_encodedAside: Record, on the run's ordered path,
// only queues a result; the encoders encode it, its row alone as well as
// a kept one, and give its details back. Here the encoders are held (the
// function that takes the details back waits), and Record still returns
// for 1,000 results, under a batch (MaxPending: a commit that waits for
// a checkpoint's syncs must not hold up the scoring); once let go, every
// row reads back.
func TestRecorder_Record_encodedAside(t *testing.T) {
	tests := []struct {
		name        string
		keepFailing int
		fail        func(i int) bool
		reason      string
	}{
		{"passing", 0, func(int) bool { return false }, "a passing case keeps its row alone: encoded by the encoders, not by Record"},
		{"past KeepFailing", 1, func(int) bool { return true }, "past the first failing case a failing case keeps its row alone: the same"},
		{"mixed", 0, func(i int) bool { return i%3 != 0 }, "the kept cases were always encoded aside; the passing ones now too"},
	}
	h := newHistory(t)
	const n = 1000
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := history.Run{Suites: []string{"bench"}, Start: time.Now(), KeepFailing: tt.keepFailing}
			want, err := h.Rows(t.Context(), recorded(t, h, run, manyResults(n, tt.fail)).ID(), true)
			if err != nil {
				t.Fatal(err)
			}
			rec, err := h.Begin(t.Context(), run)
			if err != nil {
				t.Fatal(err)
			}
			hold := make(chan struct{})
			rec.ReturnDetailsTo(func(*trajeval.Details) { <-hold })
			returned := make(chan struct{})
			go func() {
				defer close(returned)
				for _, r := range manyResults(n, tt.fail) {
					rec.Record(r)
				}
			}()
			select {
			case <-returned:
			case <-time.After(10 * time.Second):
				close(hold)
				<-returned
				t.Fatalf("Record waited for the encoders: it encoded a row itself, or has room for fewer than %d results (%s)", n, tt.reason)
			}
			close(hold)
			if err := rec.End(time.Now(), false); err != nil {
				t.Fatal(err)
			}
			if !sameRows(t, h, rec.ID(), want) {
				t.Fatalf("the rows read back differ from those of a run recorded without waiting (%s)", tt.reason)
			}
		})
	}
}

// sameRows reports whether the rows of run id, with their details, read
// back as want, less their starts.
func sameRows(t *testing.T, h *history.DB, id int64, want []trajeval.CaseResult) bool {
	t.Helper()
	got, err := h.Rows(t.Context(), id, true)
	if err != nil {
		t.Fatal(err)
	}
	for i := range got {
		got[i].StartedAt = time.Time{}
	}
	for i := range want {
		want[i].StartedAt = time.Time{}
	}
	return jsonl(t, got) == jsonl(t, want)
}

// TestRecorder_ReturnDetailsTo_writerStopped: results handed over after
// the writer stopped on an error reach no encoder; the recorder gives
// their details back then, as it does their trajectories, so that a
// caller that recycles them loses none.
func TestRecorder_ReturnDetailsTo_writerStopped(t *testing.T) {
	tests := []struct {
		name   string
		fail   func(i int) bool
		reason string
	}{
		{"kept", func(int) bool { return true }, "failing cases keep their trajectories and details: both given back unencoded"},
		{"row only", func(int) bool { return false }, "passing cases keep their rows alone: their details given back all the same"},
	}
	h := newHistory(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec, err := h.Begin(t.Context(), history.Run{Suites: []string{"bench"}, Start: time.Now()})
			if err != nil {
				t.Fatal(err)
			}
			var mu sync.Mutex
			given := map[*trajeval.Details]int{}
			rec.ReturnDetailsTo(func(d *trajeval.Details) {
				mu.Lock()
				given[d]++
				mu.Unlock()
			})
			rows := manyResults(10, tt.fail) // under a group: none handed over before
			for _, r := range rows {
				rec.Record(r)
			}
			history.HandOverStopped(rec)
			for _, r := range rows {
				if g := given[r.Evaluators[0].Details]; g != 1 {
					t.Errorf("%s: its details given back %d times, want 1 (%s)", r.ID, g, tt.reason)
				}
			}
			if err := rec.End(time.Now(), true); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestRecorder_add: the writer takes a group's rows into its batch in
// one copy, as many as the batch has room for and up to the first
// result that could not be encoded; the batch's rows are the group's, in
// order, and no batch holds more than a batch's worth (1,024).
func TestRecorder_add(t *testing.T) {
	rows := func(from, to int) []byte {
		var b []byte
		for i := from; i < to; i++ {
			b = append(b, byte(i), byte(i))
		}
		return b
	}
	tests := []struct {
		name           string
		n, errAt, held int
		takes          []int
		packs          [][]byte
		err            bool
		reason         string
	}{
		{"whole group", 64, -1, 0, []int{64}, [][]byte{rows(0, 64)}, false, "room for all: one copy"},
		{"across batches", 64, -1, 1000, []int{24, 40}, [][]byte{rows(0, 24), rows(24, 64)}, false, "24 fill the batch; the rest begin the next"},
		{"last room", 64, -1, 1023, []int{1, 63}, [][]byte{rows(0, 1), rows(1, 64)}, false, "one place left"},
		{"error within", 64, 10, 0, []int{10}, [][]byte{rows(0, 10)}, true, "the ten before the error taken, then the error"},
		{"error first", 64, 0, 0, nil, [][]byte{nil}, true, "nothing taken before the error"},
		{"error past the batch", 64, 40, 1000, []int{24, 16}, [][]byte{rows(0, 24), rows(24, 40)}, true, "the batch's bound first, then the error's"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			takes, packs, err := history.AddGroup(tt.n, tt.errAt, tt.held)
			if !slices.Equal(takes, tt.takes) {
				t.Errorf("takes %v, want %v (%s)", takes, tt.takes, tt.reason)
			}
			if !slices.EqualFunc(packs, tt.packs, func(a, b []byte) bool { return string(a) == string(b) }) {
				t.Errorf("batches' rows %v, want %v (%s)", packs, tt.packs, tt.reason)
			}
			if (err != nil) != tt.err {
				t.Errorf("error %v, want one: %v (%s)", err, tt.err, tt.reason)
			}
		})
	}
}

// newHistory returns a new history in the test's folder, closed when the
// test ends.
func newHistory(t *testing.T) *history.DB {
	t.Helper()
	h, err := history.Open(t.Context(), filepath.Join(t.TempDir(), "runs.db"), history.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}
