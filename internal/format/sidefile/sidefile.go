// Package sidefile opens the files that a trace names beside itself: the
// transcripts of an agent's sub-agents, which Claude Code and Gemini CLI
// keep in a folder next to the session's file. The session names such a
// file, not the user, so it is opened with the bounds of a trace the user
// names:
//  1. A name is 1 to 128 ASCII letters, digits, '_' and '-' (see
//     [NameLike]); any other is no file's name, never a path.
//  2. The file must be inside its folder once symbolic links are followed,
//     in the file's path and in the folder's: a link to a file elsewhere
//     (or a folder linked elsewhere) is an error, and nothing is opened.
//  3. It is opened without waiting (a named pipe would wait for a writer)
//     and must then be a regular file: a pipe, a device such as /dev/zero
//     or a folder is an error. What was opened is what is read, whatever
//     stands at the path after.
//  4. It is read no further than the size it had when opened: a file that
//     grows while it is read is not followed.
//  5. A missing file is an error wrapping fs.ErrNotExist, which each
//     reader reports in its own way.
//
// The line-by-line checks (a byte order mark dropped, UTF-8 checked with
// line and column, nesting bounded) are the reader's: [InvalidUTF8] gives
// the column.
package sidefile

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"unicode/utf8"
)

// NameLike reports whether name is 1 to 128 ASCII letters, digits,
// underscores and hyphens: a name a side file may be named by, never a
// path (rule 1). (A pattern with {1,128} cost every start of the command
// its compilation, 5 M instructions.)
func NameLike(name string) bool {
	if name == "" || len(name) > 128 {
		return false
	}
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '_', c == '-':
		default:
			return false
		}
	}
	return true
}

// Open opens the file path, in the folder dir, when it is a regular file
// inside that folder once symbolic links are followed (rules 2 and 3). The
// reader it returns ends at the size the file had when opened (rule 4).
// An error wrapping fs.ErrNotExist is a file that is not there.
func Open(dir, path string) (io.ReadCloser, error) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil, err
	}
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, err
	}
	if rel, err := filepath.Rel(root, real); err != nil || !filepath.IsLocal(rel) {
		return nil, fmt.Errorf("it is a link to %s, outside the session's folder", real)
	}
	// Opened without waiting (openNoWait: opening a named pipe waits for a
	// writer), then asked what it is: what was opened is what is read,
	// whatever stands at the path after.
	f, err := os.OpenFile(real, os.O_RDONLY|openNoWait, 0)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = fmt.Errorf("it is not a regular file (%s)", st.Mode().Type())
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return struct {
		io.Reader
		io.Closer
	}{io.LimitReader(f, st.Size()), f}, nil
}

// InvalidUTF8 returns the index of the first byte of b that does not
// start a valid UTF-8 sequence, or -1.
func InvalidUTF8(b []byte) int {
	if utf8.Valid(b) {
		return -1
	}
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return -1
}
