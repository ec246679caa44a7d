package history

import (
	_ "embed" // the image
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
)

// imageFile is the image of an empty SQLite history at the newest schema,
// its versions recorded, in WAL mode: what [Open] makes of a new file
// from migrations/sqlite.sql, checkpointed and closed. TestOpen_image
// fails when it is not what sqlite.sql and the migrations make, and
// writes it again with -update. An image older than the migrations is
// still correct (Open migrates the file from its version), only slower.
const imageFile = "migrations/sqlite.db"

// image is the image's bytes: a string, which a file is written from as
// it stands, where embed.FS's ReadFile gave a copy (64 KiB of memory
// touched for the first time, about 16 page faults, in every run that
// makes a history).
//
//go:embed migrations/sqlite.db
var image string

// useImage makes new SQLite files from the image; off in the test that
// makes the image.
var useImage = true

// writeImage makes the new SQLite file dsn a copy of the image, which
// costs a write and a sync (SQLite syncs the folder) rather than the
// schema's statements and the syncs of a new file's switch to WAL. The
// copy is written beside dsn under a name of its own, synced, then linked
// to dsn, which it never replaces: a reader never sees half an image, and
// of two runs making dsn at once, one links its copy and the other finds
// that one. When there is no image or the file system cannot link, it
// leaves nothing behind: SQLite makes the file, from its schema (see
// DB.migrate).
func writeImage(dsn string) error {
	if image == "" {
		return nil // no image: made from the schema
	}
	var f *os.File
	var err error
	for range 3 {
		// The mode SQLite gives a file it makes (umask applied).
		f, err = os.OpenFile(fmt.Sprintf("%s.new-%d-%08x", dsn, os.Getpid(), rand.Uint32()), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	_, err = f.WriteString(image)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	// The folder is not synced here: the first commit into the file
	// creates its WAL, and SQLite syncs the folder after the WAL's first
	// sync, which makes the link last with it. Before that commit the
	// file holds no run, and a power cut that loses the link loses an
	// empty history (the next run makes it again).
	// A file system that cannot link leaves SQLite to make the file; a
	// file another run linked first is the one both open.
	_ = os.Link(f.Name(), dsn)
	return nil
}
