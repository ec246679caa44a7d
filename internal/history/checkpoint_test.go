package history_test

import (
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/history"
)

// TestRecorder_End_checkpointed checks that a run's writes reach the
// SQLite file itself before the close: a commit copies the WAL into the
// file once it holds a few hundred pages, so that the close, which the
// end of a run waits for, has little left to copy.
func TestRecorder_End_checkpointed(t *testing.T) {
	tests := []struct {
		name   string
		cases  int
		text   int // bytes of random text a case's trajectory keeps
		reason string
	}{
		{"2.4 MB", 300, 8 << 10, "a run that writes well under SQLite's own bound of 1,000 pages (4 MB) before its close"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dsn := filepath.Join(t.TempDir(), "runs.db")
			h := open(t, dsn)
			rec, err := h.Begin(t.Context(), history.Run{Start: time.Now(), Suites: []string{"shop"}})
			if err != nil {
				t.Fatal(err)
			}
			rnd := rand.New(rand.NewPCG(1, 2))
			raw := make([]byte, tt.text/2)
			for i := range tt.cases {
				for j := range raw {
					raw[j] = byte(rnd.Uint32())
				}
				rec.Record(trajeval.CaseResult{
					ID: fmt.Sprintf("case-%03d", i), Status: trajeval.StatusFail,
					Trajectory: &trajeval.Trajectory{ID: "t", Steps: []trajeval.Step{{Index: 1, Name: "read", Result: hex.EncodeToString(raw)}}},
					Evaluators: []trajeval.Result{{Name: "x", Type: "args", Status: trajeval.StatusFail, Threshold: 1, Weight: 1}},
				})
			}
			if err := rec.End(time.Now(), false); err != nil {
				t.Fatal(err)
			}
			// Before the close: what the commits copied into the file.
			fi, err := os.Stat(dsn)
			if err != nil {
				t.Fatal(err)
			}
			if want := int64(tt.cases*tt.text) / 2; fi.Size() < want {
				t.Errorf("%s: the file holds %d bytes before the close, want at least %d (the rest waits in the WAL for the close)", tt.reason, fi.Size(), want)
			}
			run, err := h.Run(t.Context(), rec.ID())
			if err != nil || run.Cases != tt.cases || run.Status != history.StatusDone {
				t.Fatalf("the run reads %+v, %v; want %d cases, done", run, err, tt.cases)
			}
		})
	}
}
