package config

import (
	"errors"
	"io/fs"
	"os"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/jsonl"
)

// ReadFile reads the file path whole: a suite, or a file a suite names
// (a tools file, a judge's prompt, a dialect's config or metrics, a
// question file, a targets file). Files a suite names are as untrusted
// as the suite, so it reads them as a trace read whole is read: at most
// jsonl.MaxDocument bytes, so that a device or a file that never ends
// (/dev/zero named as a prompt) is an error, not all of memory.
//
// Its error says why in a few words and leaves naming the file to the
// caller, who knows which suite named it: the *fs.PathError of a file
// that cannot be opened (errors.Is(err, fs.ErrNotExist) holds for one
// that does not exist), an error that wraps jsonl.ErrDocumentTooLarge for
// one too large.
func ReadFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := int64(-1)
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		size = st.Size()
	}
	data, err := jsonl.ReadDocument(path, f, size, nil)
	var de *jsonl.DocumentTooLargeError
	var te *trajeval.TraceError
	switch {
	case errors.As(err, &de):
		return nil, &tooLarge{de}
	case errors.As(err, &te) && te.Err != nil:
		return nil, te.Err
	case err != nil:
		return nil, err
	}
	return data, nil
}

// tooLarge is a *jsonl.DocumentTooLargeError of a file that need not be
// JSON.
type tooLarge struct{ de *jsonl.DocumentTooLargeError }

func (e *tooLarge) Error() string {
	return strings.TrimSuffix(e.de.Error(), " to read as one JSON document") + " (is it the file meant?)"
}

func (e *tooLarge) Unwrap() error { return e.de }

// FileErr is err of ReadFile without the path an *fs.PathError repeats.
func FileErr(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
