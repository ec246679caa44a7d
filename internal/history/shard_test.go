package history_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/history"
)

// shardRows are the rows of shard k of 3: case k, k+3, k+6, …, of nine.
func shardRows(k int) []trajeval.CaseResult {
	var rows []trajeval.CaseResult
	for i := k; i <= 9; i += 3 {
		r := results()[i%3]
		r.ID, r.Shard = fmt.Sprint("case-", i), fmt.Sprint(k, "/3")
		rows = append(rows, r)
	}
	return rows
}

func TestDB_BeginShard(t *testing.T) {
	each(t, func(t *testing.T, dsn string) {
		open(t, dsn) // created and migrated first, as the first eval would
		run := history.Run{Start: time.Now(), Suites: []string{"shop"}, Key: "ci-42", Shards: 3}
		begin := func(h *history.DB, k int) *history.Recorder {
			t.Helper()
			rec, err := h.BeginShard(context.Background(), run, k)
			if err != nil {
				t.Fatal(err)
			}
			return rec
		}
		// Three shards at once, each in its own connection, as three CI
		// jobs would: one run.
		recs := make([]*history.Recorder, 4)
		var wg sync.WaitGroup
		var mu sync.Mutex
		for k := 1; k <= 3; k++ {
			wg.Go(func() {
				h, err := history.Open(context.Background(), dsn, history.Options{Create: true})
				if err != nil {
					t.Error(err)
					return
				}
				t.Cleanup(func() { h.Close() })
				rec, err := h.BeginShard(context.Background(), run, k)
				if err != nil {
					t.Error(err)
					return
				}
				for _, r := range shardRows(k) {
					rec.Record(r)
				}
				mu.Lock()
				recs[k] = rec
				mu.Unlock()
			})
		}
		wg.Wait()
		if t.Failed() {
			return
		}
		id := recs[1].ID()
		if recs[2].ID() != id || recs[3].ID() != id {
			t.Fatalf("run ids %d, %d, %d: the shards of one key must be one run", id, recs[2].ID(), recs[3].ID())
		}
		h := open(t, dsn)
		status := func(want string, cases int, why string) {
			t.Helper()
			r, err := h.Run(t.Context(), id)
			if err != nil {
				t.Fatal(err)
			}
			if r.Status != want || (cases >= 0 && r.Cases != cases) || r.Key != "ci-42" || r.Shards != 3 {
				t.Errorf("run %+v: want status %s with %d cases: %s", r, want, cases, why)
			}
		}
		if err := recs[1].End(time.Now(), false); err != nil {
			t.Fatal(err)
		}
		if err := recs[3].End(time.Now(), false); err != nil {
			t.Fatal(err)
		}
		status(history.StatusRunning, -1, "a run with a shard still under way is running")
		if err := recs[2].End(time.Now(), false); err != nil {
			t.Fatal(err)
		}
		status(history.StatusDone, 9, "every shard ended: done, with every shard's cases")
		rows, err := h.Rows(t.Context(), id, false)
		if err != nil {
			t.Fatal(err)
		}
		var got, want []string
		for _, r := range rows {
			got = append(got, r.ID+" "+r.Shard)
		}
		for k := 1; k <= 3; k++ {
			for _, r := range shardRows(k) {
				want = append(want, r.ID+" "+r.Shard)
			}
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("rows %q, want %q: each row once, with its shard", got, want)
		}

		// A shard run again replaces what it recorded: here, one case.
		rec := begin(h, 2)
		status(history.StatusRunning, 6, "a shard begun again takes its rows out, and the run is under way again")
		rec.Record(shardRows(2)[0])
		if err := rec.End(time.Now(), false); err != nil {
			t.Fatal(err)
		}
		status(history.StatusDone, 7, "the retried shard's rows replace its old ones")

		// A shard interrupted ends the run as interrupted.
		rec = begin(h, 1)
		if err := rec.End(time.Now(), true); err != nil {
			t.Fatal(err)
		}
		status(history.StatusInterrupted, 4, "a shard that stopped early makes the run interrupted")

		// Shards that disagree on their count are refused.
		if _, err := h.BeginShard(t.Context(), history.Run{Start: time.Now(), Key: "ci-42", Shards: 4}, 1); !errors.Is(err, history.ErrShards) {
			t.Errorf("error %v, want ErrShards for a shard of 4 joining a run of 3", err)
		}
		// A run without a key is not joined by anything.
		other := record(t, h, history.Run{Start: time.Now()}, results())
		if other == id {
			t.Errorf("a run without a key got the sharded run's id")
		}
	})
}
