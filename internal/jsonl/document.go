package jsonl

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"github.com/trajeval/trajeval"
)

// MaxDocument is the most bytes a reader that decodes a file whole (a
// τ²-bench results file, an ADK session, a pretty-printed OTLP export,
// AgentV or canonical file) reads: 1 GiB, four lines of MaxLine. A
// τ²-bench run of 5,000 simulations writes about 200 MB, and a file that
// is not one document (a device, a log that never ends) is refused before
// it fills memory. What may be longer has a JSON Lines form, read a line
// at a time with no limit on the file.
const MaxDocument = 1 << 30

// maxDocument is MaxDocument, made smaller by SetMaxDocument.
var maxDocument int64 = MaxDocument

// SetMaxDocument makes MaxDocument n until restore is called. It is for
// tests, of the readers and of the command line, which cannot read a GiB
// to see it refused; it is not safe to call while a reader runs.
func SetMaxDocument(n int64) (restore func()) {
	old := maxDocument
	maxDocument = n
	return func() { maxDocument = old }
}

// SetMaxLine makes MaxLine n until restore is called: for tests, as
// SetMaxDocument.
func SetMaxLine(n int) (restore func()) {
	old := maxLine
	maxLine = n
	return func() { maxLine = old }
}

// LineLimit returns MaxLine, or what SetMaxLine made it: for a reader
// that bounds its records itself (a CSV dataset's).
func LineLimit() int { return maxLine }

// ErrDocumentTooLarge is the sentinel of every *DocumentTooLargeError.
var ErrDocumentTooLarge = errors.New("file too large")

// A DocumentTooLargeError is a file read whole that holds more than
// MaxDocument bytes. ReadDocument returns it in a *trajeval.TraceError
// that names the file and says what to do.
type DocumentTooLargeError struct {
	Max int64 // the limit, in bytes
}

func (e *DocumentTooLargeError) Error() string {
	return ErrDocumentTooLarge.Error() + ": more than " + sizeText(e.Max) + " to read as one JSON document"
}

func (e *DocumentTooLargeError) Unwrap() error { return ErrDocumentTooLarge }

// DocumentHint is what to do about a file too large.
const DocumentHint = "is it the file meant? Split its runs into several files, or write them as JSON Lines, one record a line, which is read a line at a time"

// sizeText is n bytes in the largest unit that states it exactly.
func sizeText(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// SizeOf returns how many bytes r says it holds (see msglog.Sizer and the
// trace package's inputs), -1 when it cannot say.
func SizeOf(r io.Reader) int64 {
	if s, ok := r.(interface{ Size() int64 }); ok {
		return s.Size()
	}
	return -1
}

// ReadDocument appends all of r to data, the start of the file name
// already read, and returns it, as io.ReadAll does, but never more than
// MaxDocument bytes in all:
//  1. size is how many bytes the file holds, data included, -1 if
//     unknown (see SizeOf). A file known to hold more than MaxDocument
//     is refused before a byte more is read; one that holds less is read
//     into one buffer of its size.
//  2. An input of unknown size (standard input, a compressed file, a
//     device) is read into a buffer that doubles, up to MaxDocument and
//     a byte: reading up to the limit holds at most about twice it.
//  3. A file too large is a *trajeval.TraceError naming it, wrapping a
//     *DocumentTooLargeError; an error reading is ReadError's.
func ReadDocument(name string, r io.Reader, size int64, data []byte) ([]byte, error) {
	limit := maxDocument
	tooLarge := func() error { return CheckDocument(name, limit+1) }
	if size > limit || int64(len(data)) > limit {
		return nil, tooLarge()
	}
	if size >= 0 {
		// A byte more than it holds, so that the read that sees the end
		// needs no more room.
		data = growTo(data, max(size, int64(len(data)))+1)
	}
	for {
		if len(data) == cap(data) {
			// Doubling, and straight to the limit and a byte when that
			// reaches it: a buffer of exactly the limit, full, would
			// need a copy of itself to learn whether the input ends.
			c := max(2*int64(cap(data)), 64<<10)
			if c >= limit {
				c = limit + 1
			}
			data = growTo(data, c)
		}
		n, err := r.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if int64(len(data)) > limit {
			return nil, tooLarge()
		}
		if errors.Is(err, io.EOF) {
			return data, nil
		}
		if err != nil {
			return nil, ReadError(name, err)
		}
	}
}

// CheckDocument returns the error of ReadDocument for the file name when
// n, the bytes read of it, is more than MaxDocument: for a reader that
// gathers the start of a document itself.
func CheckDocument(name string, n int64) error {
	if n <= maxDocument {
		return nil
	}
	e := &DocumentTooLargeError{Max: maxDocument}
	return &trajeval.TraceError{File: name, Msg: e.Error(), Hint: DocumentHint, Err: e}
}

// growTo returns b with a capacity of at least c.
func growTo(b []byte, c int64) []byte {
	if int64(cap(b)) >= c {
		return b
	}
	return append(make([]byte, 0, c), b...)
}

// ReadLine returns the next line of br, line n of the file, with its line
// ending; nil and no error when nothing is left. A line longer than
// MaxLine is a *LineTooLongError, found before more than MaxLine bytes of
// it are held.
func ReadLine(br *bufio.Reader, n int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(line)+len(chunk) > maxLine {
			return nil, &LineTooLongError{Line: n, Max: maxLine}
		}
		line = grow(line, len(chunk))
		line = append(line, chunk...)
		switch {
		case err == nil, errors.Is(err, io.EOF):
			return line, nil
		case !errors.Is(err, bufio.ErrBufferFull):
			return line, err
		}
	}
}
