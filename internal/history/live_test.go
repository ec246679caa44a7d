package history_test

import (
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/trajeval/trajeval/internal/history"
)

// deadPID returns the id of a process that has exited.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

func TestDB_Run_live(t *testing.T) {
	host, _ := os.Hostname()
	now := time.Now().UnixMilli()
	old := time.Now().Add(-2 * history.HeartbeatLive).UnixMilli()
	tests := []struct {
		name   string
		set    string // SQL assignments to the run's row; "" none
		want   string
		reason string
	}{
		{"this process", "", history.StatusRunning, "a run whose process lives on this host is running"},
		{"killed here", fmt.Sprintf("pid = %d", deadPID(t)), history.StatusInterrupted,
			"a run whose process is gone from this host was killed, however recent its heartbeat"},
		{"elsewhere, beating", fmt.Sprintf("host = 'elsewhere', pid = 1, heartbeat_at = %d", now), history.StatusRunning,
			"another host's run that wrote less than a minute ago is running"},
		{"elsewhere, silent", fmt.Sprintf("host = 'elsewhere', pid = 1, heartbeat_at = %d", old), history.StatusInterrupted,
			"another host's run silent for over a minute was killed"},
		{"recorded before version 2", "host = NULL, pid = NULL, heartbeat_at = NULL", history.StatusInterrupted,
			"a run with no process or heartbeat cannot be told from a killed one: interrupted, as before"},
	}
	each(t, func(t *testing.T, dsn string) {
		h := open(t, dsn)
		raw := rawDB(t, dsn)
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				rec, err := h.Begin(t.Context(), history.Run{Start: time.Now(), Suites: []string{"shop"}})
				if err != nil {
					t.Fatal(err)
				}
				defer rec.End(time.Now(), false)
				if tt.set != "" {
					if _, err := raw.Exec(fmt.Sprintf("UPDATE runs SET %s WHERE id = %d", tt.set, rec.ID())); err != nil {
						t.Fatal(err)
					}
				}
				run, err := h.Run(t.Context(), rec.ID())
				if err != nil {
					t.Fatal(err)
				}
				if run.Status != tt.want {
					t.Errorf("status %q, want %q: %s (%+v)", run.Status, tt.want, tt.reason, run)
				}
				runs, err := h.Runs(t.Context(), history.Filter{})
				if err != nil || runs[len(runs)-1].Status != tt.want {
					t.Errorf("Runs gives %+v, %v; want status %q as Run does", runs[len(runs)-1], err, tt.want)
				}
				if tt.set == "" && (run.Host != host || run.PID != os.Getpid() || run.Heartbeat.IsZero()) {
					t.Errorf("run %+v: want host %q, pid %d and a heartbeat", run, host, os.Getpid())
				}
			})
		}
		// An ended run keeps the status it ended with, whatever its process.
		rec, err := h.Begin(t.Context(), history.Run{Start: time.Now()})
		if err != nil {
			t.Fatal(err)
		}
		if err := rec.End(time.Now(), false); err != nil {
			t.Fatal(err)
		}
		if run, _ := h.Run(t.Context(), rec.ID()); run.Status != history.StatusDone {
			t.Errorf("an ended run shows %q, want done", run.Status)
		}
	})
}

// TestOpen_migrateVersion1: a database of schema version 1 is brought to
// the newest, its runs kept; one left running by an older trajeval reads
// as interrupted.
func TestOpen_migrateVersion1(t *testing.T) {
	each(t, func(t *testing.T, dsn string) {
		h := open(t, dsn)
		h.Close()
		raw := rawDB(t, dsn)
		// Back to version 1: without the columns of version 2, the
		// index of version 3, the shards of version 4, the packed
		// evaluators of version 5 and the chunks of version 6.
		for _, q := range []string{
			"DELETE FROM schema_version WHERE version > 1", "DROP TABLE packs", "DROP TABLE chunks",
			"ALTER TABLE cases DROP COLUMN evals", "ALTER TABLE cases DROP COLUMN details",
			"DROP TABLE run_shards", "DROP INDEX runs_by_key", "ALTER TABLE runs DROP COLUMN run_key", "ALTER TABLE runs DROP COLUMN shards",
			"DROP INDEX runs_by_start",
			"ALTER TABLE runs DROP COLUMN host", "ALTER TABLE runs DROP COLUMN pid", "ALTER TABLE runs DROP COLUMN heartbeat_at",
			"INSERT INTO runs (suites, paths, started_at, status, options) VALUES ('[\"shop\"]', '[]', 0, 'running', '{}')",
		} {
			if _, err := raw.Exec(q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		h = open(t, dsn)
		if v, err := h.SchemaVersion(t.Context()); err != nil || v != history.Version() {
			t.Fatalf("schema version %d, %v; want %d", v, err, history.Version())
		}
		runs, err := h.Runs(t.Context(), history.Filter{})
		if err != nil || len(runs) != 1 || runs[0].Status != history.StatusInterrupted || runs[0].Suites[0] != "shop" {
			t.Errorf("runs %+v, %v; want the version 1 run, interrupted", runs, err)
		}
	})
}
