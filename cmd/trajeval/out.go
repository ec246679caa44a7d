package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/jsonl"
	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/lockfile"
	"github.com/trajeval/trajeval/internal/plural"
	"github.com/trajeval/trajeval/internal/report"
	"github.com/trajeval/trajeval/internal/run"
	"github.com/trajeval/trajeval/internal/sniff"
)

// An outFile is the --out file: one JSON row per case.
//
// Its rules:
//  1. Each row is appended as soon as its case is done, in one write, so
//     that a run stopped or killed leaves every finished row complete and
//     at most its last line cut.
//  2. An existing file is replaced only when the run has its first row to
//     write: a run that fails before scoring anything leaves it as it was.
//  3. With --resume the file is kept and appended to; a cut last line is
//     dropped first (see readDone).
//  4. One run at a time writes it: the file is locked from the moment it
//     is opened, before --resume reads it, until the run ends (see
//     package lockfile); a second run on the same file stops at once,
//     naming the first, and changes nothing.
//
// Its first write error is kept, not returned, so that the report on
// standard output goes on; Close returns it, so that the run still ends
// with an error (exit code 2).
type outFile struct {
	name    string
	resume  *done // nil without --resume
	f       *os.File
	lock    *lockfile.Lock
	started bool // the first row has been written
	closed  bool
	buf     bytes.Buffer
	w       *report.JSONL
	err     error
}

// newOut opens and locks the --out file without changing it, so that a
// file that cannot be written, or that another run writes, is an error
// before any agent runs. The caller sets resume once the file is locked.
func newOut(name string) (*outFile, error) {
	f, lock, err := openLocked(name, os.O_WRONLY|os.O_CREATE)
	if err != nil {
		return nil, fmt.Errorf("--out: %w", err)
	}
	o := &outFile{name: name, f: f, lock: lock}
	o.w = report.NewJSONL(&o.buf)
	return o, nil
}

// openLocked opens name for writing with flag (without O_TRUNC: a file
// another run holds must be refused before it is changed) and locks it
// for this process (see package lockfile). Every writer of results and
// reports opens its file so: eval --out, report -o, serve --out.
func openLocked(name string, flag int) (*os.File, *lockfile.Lock, error) {
	f, err := os.OpenFile(name, flag, 0o644)
	if err != nil {
		return nil, nil, err
	}
	lock, err := lockfile.Acquire(f, name)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, lock, nil
}

// start readies the file for the first row (rule 2): emptied, or with
// --resume cut back to its complete rows.
func (o *outFile) start() error {
	st, err := o.f.Stat()
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return nil // a device or a pipe has nothing to replace
	}
	size := int64(0)
	if o.resume != nil {
		size = st.Size()
		if o.resume.cut >= 0 {
			size = o.resume.cut
		}
	}
	if err := o.f.Truncate(size); err != nil {
		return err
	}
	if _, err := o.f.Seek(size, io.SeekStart); err != nil {
		return err
	}
	if o.resume != nil && o.resume.noNewline {
		_, err := o.f.WriteString("\n")
		return err
	}
	return nil
}

func (o *outFile) Case(r trajeval.CaseResult) {
	if o.err != nil {
		return
	}
	if !o.started {
		o.started = true
		if o.err = o.start(); o.err != nil {
			return
		}
	}
	o.buf.Reset()
	if o.err = o.w.Case(r); o.err == nil {
		_, o.err = o.f.Write(o.buf.Bytes())
	}
}

// Close unlocks and closes the file, returning the first error met since
// it was created. Calls after the first do nothing.
func (o *outFile) Close() error {
	if o == nil || o.closed {
		return nil
	}
	o.closed = true
	if err := errors.Join(o.lock.Release(), o.f.Close()); o.err == nil {
		o.err = err
	}
	if o.err != nil {
		return fmt.Errorf("--out %s: %w", o.name, o.err)
	}
	return nil
}

// done is what --resume found in the --out file.
type done struct {
	rows map[run.Key]trajeval.CaseResult
	// cut is the length of the complete rows when the last line was cut
	// off, -1 otherwise.
	cut       int64
	noNewline bool // the last row lacks its line end
	warnings  []trajeval.Warning
	reported  int // rows handed to the report
}

// has reports whether r is a row of the file; false when d is nil.
func (d *done) has(r trajeval.CaseResult) bool {
	if d == nil {
		return false
	}
	_, ok := d.rows[run.KeyOf(r)]
	return ok
}

// warnUnused warns of rows of the file that the run did not have: other
// suites, cases or numbers of trials. They stay in the file.
func (d *done) warnUnused(name string, warn func(trajeval.Warning)) {
	if n := len(d.rows) - d.reported; n > 0 {
		warn(trajeval.Warning{File: name, Msg: plural.Count(n, "row is not a case", "rows are not cases") + " of this run (another suite, case or number of trials): kept in the file, left out of the report"})
	}
}

// readDone reads the rows of a previous run from the --out file name. A
// missing file is no rows. A last line that is not a complete row was cut
// by a stop or a crash: it is dropped, with a warning naming it, and its
// case runs again. A broken line before the last is an error: the file is
// not one this command wrote, and resuming would mix it into the results.
func readDone(name string) (*done, error) {
	d := &done{rows: map[run.Key]trajeval.CaseResult{}, cut: -1}
	f, err := os.Open(name)
	if errors.Is(err, os.ErrNotExist) {
		return d, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := bufio.NewReader(f)
	// A byte order mark is no row; the offset of a cut row counts it.
	off := int64(sniff.DiscardBOM(r))
	for line := 1; ; line++ {
		data, err := readLine(r, maxResumeLine)
		if len(data) == 0 && errors.Is(err, io.EOF) {
			return d, nil
		}
		if errors.Is(err, jsonl.ErrLineTooLong) {
			return nil, &trajeval.TraceError{File: name, Line: line, Msg: (&jsonl.LineTooLongError{Max: maxResumeLine}).Msg(), Hint: jsonl.LineHint, Err: err}
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, err
		}
		last := errors.Is(err, io.EOF)
		if _, perr := r.Peek(1); perr != nil && errors.Is(perr, io.EOF) {
			last = true
		}
		row, why, col := parseRow(data)
		switch {
		case why == "":
			if _, dup := d.rows[run.KeyOf(row)]; !dup {
				d.rows[run.KeyOf(row)] = row
			}
			d.noNewline = !bytes.HasSuffix(data, []byte("\n"))
		case last:
			d.cut = off
			d.warnings = append(d.warnings, trajeval.Warning{File: name, Line: line,
				Msg: "the last line is not a complete row (" + why + "): a run stopped while writing it; it is dropped, and its case runs again"})
			return d, nil
		default:
			return nil, &trajeval.TraceError{File: name, Line: line, Col: col, Msg: "not a result row: " + why,
				Hint: "--resume appends to a results file this command wrote; point --out at another file, or run without --resume to replace it"}
		}
		off += int64(len(data))
	}
}

// maxResumeLine is the longest line readDone reads, jsonl.MaxLine, made
// smaller by the tests.
var maxResumeLine = jsonl.MaxLine

// readLine is r.ReadBytes('\n') for lines of at most max bytes: a longer
// one is jsonl.ErrLineTooLong once max bytes of it are read, never the
// whole line in memory (--out /dev/zero --resume).
func readLine(r *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) > max {
			return nil, jsonl.ErrLineTooLong
		}
		line = append(line, chunk...)
		if !errors.Is(err, bufio.ErrBufferFull) {
			return line, err
		}
	}
}

// parseRow reads one line of a results file; why says what is wrong with
// it, "" when it is a row, and col where on the line, 0 when nowhere in
// particular. A blank line is no row and nothing wrong.
func parseRow(line []byte) (r trajeval.CaseResult, why string, col int) {
	if len(bytes.TrimSpace(line)) == 0 {
		return r, "a blank line", 0
	}
	if err := jsonv.CheckDepth(line); err != nil {
		return r, err.Error(), err.(*jsonv.DepthError).Col
	}
	if err := json.Unmarshal(line, &r); err != nil {
		msg, _, col := jsonl.Describe(bytes.TrimRight(line, "\r\n"), err, 1)
		return r, msg, col
	}
	switch {
	case r.ID == "":
		return r, "no id", 0
	case r.Status != trajeval.StatusPass && r.Status != trajeval.StatusFail && r.Status != trajeval.StatusError:
		return r, "no status", 0
	}
	return r, "", 0
}
