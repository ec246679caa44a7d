package history_test

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/trajeval/trajeval/internal/history"
)

var update = flag.Bool("update", false, "write the image of a new SQLite history (migrations/sqlite.db) again")

// TestOpen_image: a new SQLite file is a copy of the embedded image, and
// the image is what the schema (and so the migrations, TestOpen_newSchema)
// makes of a new file: the same tables, columns, keys, indexes and
// versions, in WAL mode, with the mode SQLite gives a file. When it is
// not (a migration added, sqlite.sql changed), this test fails; -update
// writes it again.
func TestOpen_image(t *testing.T) {
	dir := t.TempDir()
	made, copied := filepath.Join(dir, "made.db"), filepath.Join(dir, "copied.db")
	history.SetImage(t, false)
	h, err := history.Open(t.Context(), made, history.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	h.Close()
	if *update {
		data, err := os.ReadFile(made)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(history.ImageFile, data, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s (%d bytes): build again to embed it", history.ImageFile, len(data))
		return
	}
	history.SetImage(t, true)
	c, err := history.Open(t.Context(), copied, history.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	image, err := os.ReadFile(history.ImageFile)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(copied); err != nil || !bytes.Equal(got, image) {
		t.Errorf("a new file is not a copy of the image (%v)", err)
	}
	if got, want := sqliteSchema(t, copied), sqliteSchema(t, made); got != want {
		t.Fatalf("the image is stale (go test ./internal/history -run TestOpen_image -update)\ngot:\n%s\nwant:\n%s", got, want)
	}
	var mode string
	if err := rawDB(t, copied).QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal mode %q (%v), want wal", mode, err)
	}
	mi, err1 := os.Stat(made)
	ci, err2 := os.Stat(copied)
	if err := errors.Join(err1, err2); err != nil || mi.Mode() != ci.Mode() {
		t.Errorf("the copy's mode %v, the made file's %v (%v)", ci.Mode(), mi.Mode(), err)
	}
}

// TestOpen_imageAtOnce: runs making one new file at once all open one
// whole history, which keeps what each records; no copy of the image is
// left beside it.
func TestOpen_imageAtOnce(t *testing.T) {
	dir := t.TempDir()
	dsn := filepath.Join(dir, "runs.db")
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Go(func() {
			h, err := history.Open(context.Background(), dsn, history.Options{Create: true})
			if err != nil {
				errs[i] = err
				return
			}
			defer h.Close()
			rec, err := h.Begin(context.Background(), history.Run{Start: time.Now(), Paths: []string{"suite.yaml"}})
			if err == nil {
				err = rec.End(time.Now(), false)
			}
			errs[i] = err
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	var runs int
	if err := rawDB(t, dsn).QueryRow("SELECT COUNT(*) FROM runs").Scan(&runs); err != nil || runs != len(errs) {
		t.Errorf("%d runs recorded (%v), want %d", runs, err, len(errs))
	}
	left, _ := filepath.Glob(filepath.Join(dir, "*.new-*"))
	if len(left) > 0 {
		t.Errorf("copies left behind: %v", left)
	}
}

// TestWriteImage_keeps: a file that another run made meanwhile is kept,
// never replaced by the image.
func TestWriteImage_keeps(t *testing.T) {
	dir := t.TempDir()
	dsn := filepath.Join(dir, "runs.db")
	h := open(t, dsn)
	rec, err := h.Begin(t.Context(), history.Run{Start: time.Now(), Paths: []string{"suite.yaml"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := rec.End(time.Now(), false); err != nil {
		t.Fatal(err)
	}
	h.Close()
	if err := history.WriteImage(dsn); err != nil {
		t.Fatal(err)
	}
	var runs int
	if err := rawDB(t, dsn).QueryRow("SELECT COUNT(*) FROM runs").Scan(&runs); err != nil || runs != 1 {
		t.Errorf("%d runs (%v) after the image was written beside the file, want the 1 it had", runs, err)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".new-") {
			t.Errorf("a copy left behind: %s", e.Name())
		}
	}
}
