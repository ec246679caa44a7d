// Package trace finds the format of a trace file and reads it into
// trajectories.
//
// Formats are recognised from content, not from the file name: each format
// sniffs the first MiB of the file, in a fixed order of priority, and the
// first that claims it reads it. A file that none claims gets an error
// naming the formats it came closest to, and why each said no; when it is
// not valid JSON, the error is the JSON syntax error, at its line and
// column.
//
// A file that is not valid in its format (cut off, or broken by a syntax
// error) is an error at its line and column, unless read leniently (see
// Options.Lenient and trajeval.Input.Damage).
//
// A UTF-8 byte order mark at the start of a file (or of the data a gzip
// file holds), as Windows tools write, is dropped before any format sniffs
// or reads the file, whichever the format: line 1's columns count from the
// byte after it. A mark anywhere else is the format's to judge, as any
// other bytes are (in JSON, a syntax error at its place).
//
// Traces are untrusted, and checked before they are decoded:
//  1. JSON nested deeper than jsonv.MaxDepth is an error at its line and
//     column, read leniently or not: the lines of the head before the
//     formats sniff it, then each line or document as its reader reads it.
//  2. Every text format is checked as UTF-8 as it is read: an invalid
//     sequence is an error at its place, or read leniently a warning, and
//     the readers decode it as U+FFFD. OTLP protobuf, which is binary,
//     checks its strings itself.
//  3. A record with none of its format's fields is an error at its line
//     (skipped with a warning when read leniently), never an empty run.
//
// A format forced by name (--from, Read's from) is used whatever the file
// holds, but it still sniffs the head, so that forcing the wrong format
// never reads nothing in silence:
//  1. The forced format claims the head: the file is read as usual. If
//     detection would choose another format (both claim the file) and the
//     forced reading finds no tool call, a warning names that format.
//  2. It does not, and no other format does: the file is read as forced,
//     with a warning giving the forced format's reason.
//  3. It does not, and detection would choose another format: the file is
//     read as forced. If that finds a tool call, a warning names the other
//     format and the reason. If it finds none (no trajectory, or none with
//     a step), that is an error naming the other format, and no trajectory
//     is passed on. An error of the forced reader names the other format
//     too.
//
// For example:
//
//	x.json: --from anthropic: read as anthropic, this file holds no tool
//	calls, and it looks like openai-chat; anthropic says: messages, but no
//	Anthropic content blocks (...) (drop --from, or use --from openai-chat)
//
// Case 3 is not an error whenever the forced reader finds calls, because
// detection sees only the first MiB: an Anthropic log opening with a long
// plain-text message looks like openai-chat there, and forcing anthropic is
// how its later tool_use blocks get read.
package trace

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/msglog"
	"github.com/trajeval/trajeval/internal/format/otlp"
	"github.com/trajeval/trajeval/internal/jsonl"
	"github.com/trajeval/trajeval/internal/sniff"
	"github.com/trajeval/trajeval/internal/suggest"
)

// headSize is how much of a file the formats see when sniffing.
const headSize = 1 << 20

// Formats returns every format, in sniffing order.
func Formats() []trajeval.Format {
	return append([]trajeval.Format(nil), formats...)
}

// Names returns the names of every format, in sniffing order.
func Names() []string {
	var names []string
	for _, f := range formats {
		names = append(names, f.Name())
	}
	return names
}

// Lookup returns the format called name.
func Lookup(name string) (trajeval.Format, error) {
	for _, f := range formats {
		if f.Name() == name {
			return f, nil
		}
	}
	msg := fmt.Sprintf("unknown format %q", name)
	if s := suggest.Closest(name, Names()); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	return nil, fmt.Errorf("%s; formats: %s: %w", msg, strings.Join(Names(), ", "), trajeval.ErrUnknownFormat)
}

// Detect returns the first format that claims head.
func Detect(name string, head []byte) (trajeval.Format, error) {
	return detect(name, msglog.NewHead(head))
}

// detect is Detect for a head whose facts are read once, by the first
// format that wants them, for every format that does.
func detect(name string, h *msglog.Head) (trajeval.Format, error) {
	head := h.Bytes()
	if len(bytes.TrimSpace(head)) == 0 {
		return nil, &trajeval.TraceError{File: name, Msg: "the file is empty", Hint: "record a trace into it, or point the case at another file", Err: trajeval.ErrEmptyTrace}
	}
	type reject struct {
		name string
		err  error
		c    int
	}
	var rejects []reject
	errs := make([]error, len(formats))
	for i, f := range formats {
		if d, ok := f.(msglog.Disclaimer); ok && d.Disclaims(h) {
			continue // sniffed below if no format claims the head
		}
		if errs[i] = sniffHead(f, h); errs[i] == nil {
			return f, nil
		}
	}
	for i, f := range formats {
		err := errs[i]
		if err == nil {
			err = sniffHead(f, h)
		}
		c := 0
		var se *trajeval.SniffError
		if errors.As(err, &se) {
			c = se.Closeness
		}
		rejects = append(rejects, reject{f.Name(), err, c})
	}
	if looksBinary(head) {
		return nil, &trajeval.TraceError{File: name, Msg: "binary file: not a trace in any known format", Hint: "traces are JSON, JSON Lines or OTLP protobuf", Err: trajeval.ErrUnknownFormat}
	}
	if err := invalidJSON(name, head); err != nil {
		return nil, err
	}
	sort.SliceStable(rejects, func(i, j int) bool { return rejects[i].c > rejects[j].c })
	var b strings.Builder
	for i, r := range rejects {
		if i == 3 {
			break
		}
		fmt.Fprintf(&b, "; %s: %v", r.name, r.err)
	}
	return nil, &trajeval.TraceError{
		File: name,
		Msg:  "no reader recognises this file" + b.String(),
		Hint: "force a format with --from (" + strings.Join(Names(), ", ") + ")",
		Err:  trajeval.ErrUnknownFormat,
	}
}

// sniffHead is f.Sniff, sharing h's facts when f reads them.
func sniffHead(f trajeval.Format, h *msglog.Head) error {
	if hs, ok := f.(msglog.HeadSniffer); ok {
		return hs.SniffHead(h)
	}
	return f.Sniff(h.Bytes())
}

// invalidJSON returns the syntax error of a head that starts like JSON but
// is not JSON, nor JSON Lines, nor JSON values one after another. A head
// of headSize bytes may be cut off by the sniffing, not by damage: its end
// is not an error.
func invalidJSON(name string, head []byte) error {
	if c := firstByte(head); c != '{' && c != '[' {
		return nil
	}
	d := json.NewDecoder(bytes.NewReader(head))
	for {
		var raw json.RawMessage
		err := d.Decode(&raw)
		switch {
		case errors.Is(err, io.EOF):
			return nil
		case err == nil:
			continue
		case jsonl.Truncated(err) && len(head) >= headSize:
			return nil
		}
		msg, line, col := jsonl.Describe(head, err, 1)
		return &trajeval.TraceError{File: name, Line: line, Col: col, Msg: msg,
			Hint: "no reader recognises a file that is not valid JSON; fix it, or force a format with --from and pass --lenient to score what comes before the damage",
			Err:  trajeval.ErrCorruptTrace}
	}
}

func firstByte(b []byte) byte {
	b = bytes.TrimLeft(sniff.TrimBOM(b), " \t\r\n")
	if len(b) == 0 {
		return 0
	}
	return b[0]
}

func looksBinary(head []byte) bool {
	if len(head) > 8000 {
		head = head[:8000]
	}
	return bytes.IndexByte(head, 0) >= 0 || !utf8.Valid(trimPartialRune(head))
}

func trimPartialRune(b []byte) []byte {
	for i := 0; i < utf8.UTFMax && len(b) > 0; i++ {
		if r, _ := utf8.DecodeLastRune(b); r != utf8.RuneError {
			break
		}
		b = b[:len(b)-1]
	}
	return b
}

// Options steer the reading of a trace file.
type Options struct {
	From string // a format name, to force it; "" detects the format
	// Lenient reads what comes before damage (a file cut off, a syntax
	// error) instead of failing, and marks the trajectories it touched
	// partial; see trajeval.Input.Damage.
	Lenient bool
	// KeepText lets a reader leave arguments and results as JSON text
	// (see trajeval.Input.KeepText).
	KeepText bool
	// Steps is where readers may take step slices from (see
	// trajeval.Input.Steps); nil for none.
	Steps *trajeval.StepPool
	Warn  func(trajeval.Warning) // each problem that did not stop the reading; nil drops them
	// Detected, when set, is called with the name of the format detected
	// for the input, before its first trajectory; not when From forces
	// one.
	Detected func(format string)
}

// Read reads the trace file at path ("-" for standard input) and calls
// yield with each trajectory. Gzip-compressed files are read
// transparently.
func Read(ctx context.Context, path string, opts Options, yield func(*trajeval.Trajectory) error) error {
	var r io.Reader
	name := path
	if path == "-" {
		r, name = os.Stdin, "<stdin>"
	} else {
		f, err := os.Open(path)
		if err != nil {
			return &trajeval.TraceError{File: path, Msg: "cannot open the trace: " + unwrapPathError(err), Err: trajeval.ErrNoTrace}
		}
		defer f.Close()
		if st, err := f.Stat(); err == nil && st.IsDir() {
			return &trajeval.TraceError{File: path, Msg: "is a directory, not a trace file", Err: trajeval.ErrNoTrace}
		}
		r = f
	}
	return ReadFrom(ctx, name, r, opts, yield)
}

// ReadFrom is Read for an open reader.
func ReadFrom(ctx context.Context, name string, r io.Reader, opts Options, yield func(*trajeval.Trajectory) error) error {
	in := trajeval.Input{Name: name, Warn: opts.Warn, Lenient: opts.Lenient, KeepText: opts.KeepText, Steps: opts.Steps}
	if in.Warn == nil {
		in.Warn = func(trajeval.Warning) {}
	}
	size := sizeOf(r)
	at, base := readerAt(r)
	br := bufio.NewReaderSize(r, bufferSize(size))
	var gz *gzipData
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return &trajeval.TraceError{File: name, Msg: "bad gzip data: " + err.Error(), Err: err}
		}
		defer zr.Close()
		gz = &gzipData{r: zr, in: in}
		size, at = -1, nil
		br = bufio.NewReaderSize(gz, headSize)
		y := yield
		yield = func(t *trajeval.Trajectory) error {
			t.Partial = t.Partial || gz.cut
			return y(t)
		}
	}
	// Peek no more than the buffer holds, so that it reads on to the
	// input's end and takes its error, as peeking a MiB does.
	head, err := br.Peek(br.Size())
	if len(head) == br.Size() && br.Size() < headSize {
		// The input holds more than it said (a file still being
		// written): the head is what it always is, the first MiB.
		br = bufio.NewReaderSize(br, headSize)
		head, err = br.Peek(headSize)
		size = -1
	}
	if b := sniff.TrimBOM(head); len(b) < len(head) {
		// The one place a byte order mark is dropped: no format sniffs
		// or reads it, and columns on line 1 count from the byte after
		// it. Dropped from what was peeked, which keeps the peek's error.
		br.Discard(len(head) - len(b))
		base += int64(len(head) - len(b))
		head = b
	}
	var te *trajeval.TraceError
	if errors.As(err, &te) {
		return err
	}
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return &trajeval.TraceError{File: name, Msg: "cannot read the trace: " + err.Error(), Err: err}
	}
	if err := headTooDeep(name, head); err != nil {
		return err
	}
	var f trajeval.Format
	if opts.From != "" {
		if f, err = Lookup(opts.From); err != nil {
			return err
		}
		if len(bytes.TrimSpace(head)) == 0 {
			return &trajeval.TraceError{File: name, Msg: "the file is empty", Err: trajeval.ErrEmptyTrace}
		}
	} else if f, err = Detect(name, head); err != nil {
		return err
	} else if opts.Detected != nil {
		opts.Detected(f.Name())
	}
	in.R = br
	if f != otlp.Proto { // the one binary format
		in.R = newUTF8Check(br, in, size, at, base)
	}
	if opts.From != "" {
		err = readForced(ctx, f, in, head, yield)
	} else {
		err = f.Read(ctx, in, yield)
	}
	// A line nested too deep is found by jsonl.Each, which does not know
	// the file's name.
	return jsonl.TooDeep(name, err)
}

// readerAt returns r as an io.ReaderAt and the offset in it of r's next
// byte, when r can read its bytes again where they stood (a file, data in
// memory); else nil: the UTF-8 check then counts lines as it goes (see
// utf8Check).
func readerAt(r io.Reader) (io.ReaderAt, int64) {
	ra, ok := r.(io.ReaderAt)
	s, sok := r.(io.Seeker)
	if !ok || !sok {
		return nil, 0
	}
	off, err := s.Seek(0, io.SeekCurrent)
	if err != nil {
		return nil, 0 // a pipe
	}
	return ra, off
}

// sizeOf returns how many bytes r holds when it can tell without
// reading (a regular file, or data in memory), else -1.
func sizeOf(r io.Reader) int64 {
	switch x := r.(type) {
	case *os.File:
		st, err := x.Stat()
		if err != nil || !st.Mode().IsRegular() {
			return -1
		}
		at, err := x.Seek(0, io.SeekCurrent)
		if err != nil || at > st.Size() {
			return -1
		}
		return st.Size() - at
	case interface{ Len() int }: // bytes.Reader, strings.Reader, bytes.Buffer
		return int64(x.Len())
	}
	return -1
}

// bufferSize is the size of the buffer that reads an input of size bytes
// (-1 if unknown): one byte more than the input, so that the head is all
// of it and its end is seen, and never more than the head. A small trace
// (a file per case) gets a few KiB, not a MiB.
func bufferSize(size int64) int {
	if size < 0 || size >= headSize {
		return headSize
	}
	return max(int(size)+1, 4<<10)
}

// headTooDeep checks each line of a head that starts like JSON for
// nesting deeper than jsonv.MaxDepth, before the formats sniff it: a
// line of JSON Lines, or a document on one line, nested that deep is an
// error at its place, as the reader would say. Each line is checked on
// its own, so that the lines a damaged file leaves open cannot add up;
// a pretty-printed document nested too deep is found by its reader,
// which checks the whole.
func headTooDeep(name string, head []byte) error {
	if c := firstByte(head); c != '{' && c != '[' {
		return nil
	}
	for n := 1; len(head) > 0; n++ {
		line := head
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			line, head = head[:i], head[i+1:]
		} else {
			head = nil
		}
		if err := jsonl.CheckDepth(name, line, n); err != nil {
			return err
		}
	}
	return nil
}

// gzipData reads a gzip stream whose damage (cut off, or corrupt) is
// damage to the trace (see trajeval.Input.Damage): read leniently, the
// data ends there, and every trajectory yielded after is partial, since
// the end of the data may fall where a record ends.
type gzipData struct {
	r   io.Reader
	in  trajeval.Input
	cut bool
}

func (g *gzipData) Read(p []byte) (int, error) {
	if g.cut {
		return 0, io.EOF
	}
	n, err := g.r.Read(p)
	var ce flate.CorruptInputError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		err = g.in.Damage(0, 0, "the gzip data is cut off")
	case errors.Is(err, gzip.ErrChecksum) || errors.Is(err, gzip.ErrHeader) || errors.As(err, &ce):
		err = g.in.Damage(0, 0, "the gzip data is corrupt: "+strings.TrimPrefix(err.Error(), "gzip: "))
	default:
		return n, err
	}
	if err != nil {
		return n, err
	}
	g.cut = true
	return n, io.EOF
}

func unwrapPathError(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
