package history_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/history"
)

// A run is begun, its results recorded as they come, and ended; its rows
// then read back as eval wrote them.
func Example() {
	dir, _ := os.MkdirTemp("", "history")
	defer os.RemoveAll(dir)
	ctx := context.Background()
	h, err := history.Open(ctx, filepath.Join(dir, ".trajeval", "runs.db"), history.Options{Create: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer h.Close()
	start := time.Date(2026, 1, 31, 12, 0, 0, 0, time.UTC)
	rec, err := h.Begin(ctx, history.Run{Suites: []string{"shop"}, Paths: []string{"shop.yaml"}, Start: start})
	if err != nil {
		fmt.Println(err)
		return
	}
	rec.Record(trajeval.CaseResult{ID: "refund", Suite: "shop", Status: trajeval.StatusPass, Score: 1, Evaluators: []trajeval.Result{}})
	rec.Record(trajeval.CaseResult{ID: "late", Suite: "shop", Status: trajeval.StatusFail, Score: 0.5, Evaluators: []trajeval.Result{}})
	if err := rec.End(start.Add(2*time.Second), false); err != nil {
		fmt.Println(err)
		return
	}
	id, _ := h.Resolve(ctx, "last")
	run, _ := h.Run(ctx, id)
	fmt.Printf("run %d: %d cases, %d passed, %s, took %v\n", run.ID, run.Cases, run.Passed, run.Status, run.End.Sub(run.Start))
	rows, _ := h.Rows(ctx, id, false)
	for _, r := range rows {
		fmt.Println(r.Suite, r.ID, r.Status, r.Score)
	}
	// Output:
	// run 1: 2 cases, 1 passed, done, took 2s
	// shop refund pass 1
	// shop late fail 0.5
}
