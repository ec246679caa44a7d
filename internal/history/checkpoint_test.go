package history_test

import (
	"encoding/binary"
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

// TestRecorder_End_checkpointed checks when a run's writes reach the
// SQLite file itself before the close: a commit copies the WAL into the
// file once it holds 256 pages, so that the close, which the end of a
// run waits for, has little left to copy; a run that writes less is
// copied once, by the close, not by one of its last commits and then
// again by the close.
func TestRecorder_End_checkpointed(t *testing.T) {
	tests := []struct {
		name  string
		cases int
		text  int // bytes of random text a case's trajectory keeps
		// The bounds of the file's size before the close (0: none).
		least, most int64
		reason      string
	}{
		{"2.4 MB", 300, 8 << 10, 300 * 8 << 10 / 2, 0, "a run that writes well under SQLite's own bound of 1,000 pages (4 MB) before its close"},
		{"600 kB", 75, 8 << 10, 0, 64 << 10, "a run whose WAL stays under 256 pages (1 MiB) is copied once, by the close: the file is still the image's 64 KiB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dsn := filepath.Join(t.TempDir(), "runs.db")
			h, id := recordText(t, dsn, tt.cases, tt.text)
			// Before the close: what the commits copied into the file.
			fi, err := os.Stat(dsn)
			if err != nil {
				t.Fatal(err)
			}
			if fi.Size() < tt.least {
				t.Errorf("%s: the file holds %d bytes before the close, want at least %d (the rest waits in the WAL for the close)", tt.reason, fi.Size(), tt.least)
			}
			if tt.most > 0 && fi.Size() > tt.most {
				t.Errorf("%s: the file holds %d bytes before the close, want at most %d (a commit copied the WAL into it)", tt.reason, fi.Size(), tt.most)
			}
			run, err := h.Run(t.Context(), id)
			if err != nil || run.Cases != tt.cases || run.Status != history.StatusDone {
				t.Fatalf("the run reads %+v, %v; want %d cases, done", run, err, tt.cases)
			}
		})
	}
}

// TestRecorder_End_checkpointedAside checks what the close of a large
// run still copies into the file: once a run's commits have written
// past a first bound, its WAL is copied beside its writer each time
// they write another, and the close copies only the pages written
// since; before that bound, and without the copies beside, the WAL
// waits for the writer's own checkpoints, every 256 pages. The bounds
// are made small here (SetAside): 11,000 cases of a row and a
// trajectory of 64 random bytes each make a WAL of about 600 pages, in
// eleven commits.
func TestRecorder_End_checkpointedAside(t *testing.T) {
	tests := []struct {
		name        string
		from, every int // the bounds, in bytes of rows and chunks
		least, most int // frames of the WAL the close must copy
		reason      string
	}{
		{"aside", 64 << 10, 64 << 10, 0, 80, "copies beside the writer leave the close at most the last commit's pages (about 55)"},
		{"never", 1 << 30, 1 << 30, 81, 0, "a run under the first bound leaves the close what the writer's last checkpoint left (about 200 pages here)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			history.SetAside(t, tt.from, tt.every)
			dsn := filepath.Join(t.TempDir(), "runs.db")
			h, id := recordText(t, dsn, 11000, 128)
			left := walLeft(t, dsn)
			if left < tt.least || tt.most > 0 && left > tt.most {
				t.Errorf("%s: the close must copy %d frames of the WAL, want %d to %d", tt.reason, left, tt.least, tt.most)
			}
			run, err := h.Run(t.Context(), id)
			if err != nil || run.Cases != 11000 || run.Status != history.StatusDone {
				t.Fatalf("the run reads %+v, %v; want 11000 cases, done", run, err)
			}
		})
	}
}

// recordText records a run of that many failing cases into a new history
// at dsn, each keeping a trajectory of text bytes of random hex, ends it
// and returns the history, still open, and the run's id.
func recordText(t *testing.T, dsn string, cases, text int) (*history.DB, int64) {
	t.Helper()
	h := open(t, dsn)
	rec, err := h.Begin(t.Context(), history.Run{Start: time.Now(), Suites: []string{"shop"}})
	if err != nil {
		t.Fatal(err)
	}
	rnd := rand.New(rand.NewPCG(1, 2))
	raw := make([]byte, text/2)
	for i := range cases {
		for j := range raw {
			raw[j] = byte(rnd.Uint32())
		}
		rec.Record(trajeval.CaseResult{
			ID: fmt.Sprintf("case-%05d", i), Status: trajeval.StatusFail,
			Trajectory: &trajeval.Trajectory{ID: "t", Steps: []trajeval.Step{{Index: 1, Name: "read", Result: hex.EncodeToString(raw)}}},
			Evaluators: []trajeval.Result{{Name: "x", Type: "args", Status: trajeval.StatusFail, Threshold: 1, Weight: 1}},
		})
	}
	if err := rec.End(time.Now(), false); err != nil {
		t.Fatal(err)
	}
	return h, rec.ID()
}

// walLeft returns how many frames of the WAL of the SQLite file dsn are
// not yet copied into the file: its index's last frame (mxFrame, at byte
// 16 of the index's header) less the frames copied (nBackfill, at byte
// 96, after the header's two copies), in this machine's byte order.
func walLeft(t *testing.T, dsn string) int {
	t.Helper()
	b, err := os.ReadFile(dsn + "-shm")
	if err != nil || len(b) < 100 {
		t.Fatalf("the WAL's index: %d bytes, %v", len(b), err)
	}
	return int(binary.NativeEndian.Uint32(b[16:])) - int(binary.NativeEndian.Uint32(b[96:]))
}
