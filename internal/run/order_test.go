package run_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/run"
)

// TestOrdered_recycled: the batches of an ordered run are reused once
// emitted (see ordered.newBatch), and a job scores into a result and
// warnings as zero as a new batch's, whatever the job before it left.
func TestOrdered_recycled(t *testing.T) {
	const n = 1000
	jobs := make([]func(func(trajeval.Warning), *trajeval.CaseResult), n)
	for i := range jobs {
		jobs[i] = func(warn func(trajeval.Warning), r *trajeval.CaseResult) {
			r.ID = fmt.Sprint(i)
			// Jobs that leave fields as they found them, and append to them.
			if i%3 == 0 {
				r.Warnings = append(r.Warnings, fmt.Sprint("w", i))
				warn(trajeval.Warning{Msg: fmt.Sprint("job ", i)})
			}
			if i%5 == 0 {
				r.Partial = true
			}
		}
	}
	for _, workers := range []int{2, 4} {
		var got []trajeval.CaseResult
		var warns []string
		err := run.Ordered(workers, jobs, func(w trajeval.Warning) { warns = append(warns, w.Msg) }, func(r *trajeval.CaseResult) error {
			got = append(got, *r)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != n {
			t.Fatalf("%d workers: %d results, want %d", workers, len(got), n)
		}
		var want []string
		for i, r := range got {
			var w []string
			if i%3 == 0 {
				w = []string{fmt.Sprint("w", i)}
				want = append(want, fmt.Sprint("job ", i))
			}
			if r.ID != fmt.Sprint(i) || !slices.Equal(r.Warnings, w) || r.Partial != (i%5 == 0) {
				t.Fatalf("%d workers: result %d is %q, warnings %q, partial %v: a batch's result reused without being cleared", workers, i, r.ID, r.Warnings, r.Partial)
			}
		}
		if !slices.Equal(warns, want) {
			t.Fatalf("%d workers: warnings %q, want %q", workers, warns, want)
		}
	}
}

// TestOrdered_allocs: jobs that allocate nothing cost next to no
// allocation a job: the batches in flight are made once and reused,
// not made (and their slices grown) for every 64 jobs.
func TestOrdered_allocs(t *testing.T) {
	jobs := make([]func(func(trajeval.Warning), *trajeval.CaseResult), 64*100)
	for i := range jobs {
		jobs[i] = func(warn func(trajeval.Warning), r *trajeval.CaseResult) { r.Score = 1 }
	}
	out := func(*trajeval.CaseResult) error { return nil }
	warn := func(trajeval.Warning) {}
	allocs := testing.AllocsPerRun(5, func() {
		if err := run.Ordered(2, jobs, warn, out); err != nil {
			t.Fatal(err)
		}
	})
	if per := allocs / float64(len(jobs)); per > 0.1 {
		t.Errorf("%.0f allocations for %d jobs (%.2f a job), want at most 0.1 a job", allocs, len(jobs), per)
	}
}
