// Package jsonl reads JSON Lines and places JSON errors at a line and
// column.
//
// Traces and results files are untrusted: every line Each and Parallel
// hand on, and every value Decode reads, has been checked for nesting
// deeper than jsonv.MaxDepth before anything decodes it (see
// jsonv.CheckDepth). ParallelBounded leaves that to its decoder, which
// must bound depth itself.
//
// Lines may be as long as MaxLine: it does not use bufio.Scanner, whose
// default limit of 64 KiB would reject a long trace line. A longer line is
// a *LineTooLongError, found once MaxLine bytes of it have been read: a
// file of one endless line (/dev/zero given as a trace) takes no more
// memory than that.
package jsonl

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"sync/atomic"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/jsonv"
)

// Each calls fn with every non-blank line of r (without its line ending
// and trailing white space, with its leading white space, so that columns
// count from the start of the line) and its 1-based line number. The line's bytes are only valid during the
// call. It stops at the first error fn returns, at a line nested
// deeper than MaxDepth, with a *jsonv.DepthError placed at its line and column,
// before fn sees it, and at a line longer than MaxLine, with a
// *LineTooLongError, before more than MaxLine bytes of it are held.
func Each(r io.Reader, fn func(line []byte, n int) error) error {
	return each(r, true, fn)
}

// MaxLine is the most bytes a line may hold, its line ending included: as
// much as a target may write (256 MiB, see internal/target), so that every
// trace an agent can give is read, while a file that is not JSON Lines (a
// device, a binary without a newline) is refused before it fills memory.
const MaxLine = 256 << 20

// maxLine is MaxLine, made smaller by the tests.
var maxLine = MaxLine

// ErrLineTooLong is the sentinel of every *LineTooLongError.
var ErrLineTooLong = errors.New("line too long")

// A LineTooLongError is a line longer than MaxLine. Its File is empty when
// Each returns it; TooDeep and ReadError name the file.
type LineTooLongError struct {
	File string
	Line int // 1-based
	Max  int // the limit passed, in bytes
}

func (e *LineTooLongError) Error() string {
	s := fmt.Sprintf("line %d", e.Line)
	if e.File != "" {
		s = fmt.Sprintf("%s:%d", e.File, e.Line)
	}
	return fmt.Sprintf("%s: %s (%s)", s, e.Msg(), LineHint)
}

// Msg is the error without its place and hint.
func (e *LineTooLongError) Msg() string {
	size := fmt.Sprintf("%d bytes", e.Max)
	switch {
	case e.Max%(1<<20) == 0:
		size = fmt.Sprintf("%d MiB", e.Max>>20)
	case e.Max%(1<<10) == 0:
		size = fmt.Sprintf("%d KiB", e.Max>>10)
	}
	return ErrLineTooLong.Error() + ": longer than " + size
}

func (e *LineTooLongError) Unwrap() error { return ErrLineTooLong }

// LineHint is what to do about a line too long.
const LineHint = "no record of a trace or results file is this long: is it the file meant, and is it JSON Lines?"

// each is Each, checking each line's depth when checkDepth.
func each(r io.Reader, checkDepth bool, fn func(line []byte, n int) error) error {
	br := reader(r)
	var long []byte
	for n := 1; ; n++ {
		chunk, err := br.ReadSlice('\n')
		if len(chunk) > maxLine {
			return &LineTooLongError{Line: n, Max: maxLine}
		}
		line := chunk
		if errors.Is(err, bufio.ErrBufferFull) {
			long = append(long[:0], chunk...)
			for errors.Is(err, bufio.ErrBufferFull) {
				chunk, err = br.ReadSlice('\n')
				if len(long)+len(chunk) > maxLine {
					return &LineTooLongError{Line: n, Max: maxLine}
				}
				long = grow(long, len(chunk))
				long = append(long, chunk...)
			}
			line = long
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		if t := bytes.TrimRight(line, " \t\r\n"); len(bytes.TrimSpace(t)) > 0 {
			if checkDepth {
				if err := lineDepth(t, n); err != nil {
					return err
				}
			}
			if ferr := fn(t, n); ferr != nil {
				return ferr
			}
		}
		if err != nil {
			return nil
		}
	}
}

// grow makes room for n more bytes in b, doubling its capacity (no more
// than maxLine): append grows a large slice by a quarter, which leaves
// four times the line in old copies for the collector, where doubling
// leaves once the line.
func grow(b []byte, n int) []byte {
	if cap(b)-len(b) >= n {
		return b
	}
	c := min(max(2*cap(b), len(b)+n), maxLine)
	return append(make([]byte, 0, c), b...)
}

// bufferSize is the most Each buffers of its input: a line longer than
// the buffer is gathered in a copy, so this bounds only the reads.
const bufferSize = 64 << 10

// reader returns r buffered for Each: a *bufio.Reader as it is (the
// readers that sniffed the file's head with one read on with it), an
// input that says how many bytes it holds (a file, a bytes.Reader) with
// a buffer of that size when it is smaller than bufferSize, so that a
// suite with a trace file per case does not make 64 KiB for each.
func reader(r io.Reader) *bufio.Reader {
	if br, ok := r.(*bufio.Reader); ok {
		return br
	}
	size := bufferSize
	if s, ok := r.(interface{ Size() int64 }); ok && s.Size() >= 0 && s.Size() < bufferSize {
		// One byte more than it holds, so that the first read sees the end.
		size = int(s.Size()) + 1
	}
	return bufio.NewReaderSize(r, size)
}

// lineDepth is jsonv.CheckDepth for line n.
func lineDepth(line []byte, n int) error {
	err := jsonv.CheckDepth(line)
	if err != nil {
		err.(*jsonv.DepthError).Line = n
	}
	return err
}

// Position turns a byte offset in data into a 1-based line and column. It
// counts from the start of data: to place many offsets of one file, as a
// reader does for each value of a document, use Lines.
func Position(data []byte, offset int64) (line, col int) {
	offset = max(0, min(offset, int64(len(data))))
	before := data[:offset]
	scanned.Add(offset)
	line = bytes.Count(before, []byte{'\n'}) + 1
	col = int(offset) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}

// Lines places offsets of one data at their lines and columns, as
// Position does, in time linear in the size of data however many offsets
// it is asked about: Position counts from the start of data, so a reader
// that asked it for each of n values of a document would take time that
// grows with n times the size of the file. Lines counts on from the last
// offset asked about, and back from it to an earlier one, so that offsets
// asked in increasing order (as a reader meets its values) scan data once.
//
// A Lines is not safe for use by several goroutines at once.
type Lines struct {
	data  []byte
	off   int64 // the last offset asked about
	line  int   // its line
	start int64 // the offset of the first byte of that line
}

// NewLines returns the Lines of data, which must not change while they are
// in use.
func NewLines(data []byte) *Lines { return &Lines{data: data, line: 1} }

// Position returns the 1-based line and column of offset off in data,
// clamped to data as Position clamps it.
func (l *Lines) Position(off int64) (line, col int) {
	off = max(0, min(off, int64(len(l.data))))
	switch {
	case off >= l.off:
		seg := l.data[l.off:off]
		scanned.Add(off - l.off)
		if k := bytes.Count(seg, []byte{'\n'}); k > 0 {
			l.line += k
			l.start = l.off + int64(bytes.LastIndexByte(seg, '\n')) + 1
		}
	case off >= l.start:
		// Back, within the same line.
	default:
		// Back across lines: the newlines between are uncounted, and the
		// start of off's line is found by looking back from it.
		scanned.Add(l.off - off)
		l.line -= bytes.Count(l.data[off:l.off], []byte{'\n'})
		i := int64(bytes.LastIndexByte(l.data[:off], '\n')) + 1
		scanned.Add(off - i)
		l.start = i
	}
	l.off = off
	return l.line, int(off-l.start) + 1
}

// Line returns the 1-based line of offset off, as Position does.
func (l *Lines) Line(off int64) int {
	line, _ := l.Position(off)
	return line
}

// scanned counts the bytes Position and Lines have looked at for their
// newlines, for the tests (see Scanned).
var scanned atomic.Int64

// Scanned returns the number of bytes that Position and every Lines have
// scanned for newlines since the program started. The readers' tests read
// it before and after reading a file of many values, to check that its
// values were placed in time linear in its size: a count that is a small
// multiple of the file's size, where counting from the start of the file
// for each value would give their number times its size.
func Scanned() int64 { return scanned.Load() }

// A TrailingError is data after a whole JSON value where there must be
// none: the rest of a JSON Lines line, or of a one-value file.
type TrailingError struct {
	Offset int64 // of the first byte after the value
}

func (e *TrailingError) Error() string { return "unexpected data after the JSON value" }

// Decode reads the one JSON value of data with exact numbers
// (json.Number). Its errors place themselves for Describe: offsets count
// from the start of data.
//
// JSON nested deeper than MaxDepth is a *jsonv.DepthError, found before
// encoding/json reads it: a jsonv.Parser, which bounds depth itself, reads
// data first, and only what it refuses is checked and decoded by
// encoding/json, whose value or error is then the answer.
func Decode(data []byte) (any, error) {
	if v, ok := jsonv.FastDecode(data); ok {
		return v, nil
	}
	if err := jsonv.CheckDepth(data); err != nil {
		return nil, err
	}
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if rest := bytes.TrimLeft(data[d.InputOffset():], " \t\r\n"); len(rest) > 0 {
		return nil, &TrailingError{Offset: int64(len(data) - len(rest))}
	}
	return v, nil
}

// ErrorOffset returns the byte offset a JSON decoding error points at, if
// it has one: the offending byte of a syntax error, the start of the value
// of a type error.
func ErrorOffset(data []byte, err error) (int64, bool) {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	var tr *TrailingError
	var de *jsonv.DepthError
	switch {
	case errors.As(err, &tr):
		return tr.Offset, true
	case errors.As(err, &de):
		return de.Offset, true
	case errors.As(err, &se):
		// The offset counts the offending byte itself: point at it.
		return max(se.Offset-1, 0), true
	case errors.As(err, &te):
		return valueStart(data, te.Offset, te.Value), true
	}
	return 0, false
}

// Truncated reports whether err says the JSON ends before its value does.
func Truncated(err error) bool {
	var se *json.SyntaxError
	return errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) ||
		errors.As(err, &se) && se.Error() == "unexpected end of JSON input"
}

// Describe turns a JSON decoding error into a short message in the user's
// terms and the place in data it points at (line and column from
// firstLine, 1-based), with a hint for the common mistakes:
//  1. a value cut off points just after its last byte that is not white
//     space;
//  2. a syntax error points at the offending byte;
//  3. a value of the wrong type points at the value's first byte and says
//     what was expected and what came, never a Go type.
func Describe(data []byte, err error, firstLine int) (msg string, line, col int) {
	if Truncated(err) {
		// Just after the last byte that is not white space: where the
		// file stops.
		line, col = Position(data, int64(len(bytes.TrimRight(data, " \t\r\n"))))
		return "unexpected end of JSON: a value is cut off or a bracket is missing", line + firstLine - 1, col
	}
	off, ok := ErrorOffset(data, err)
	if !ok {
		return "invalid JSON: " + strings.TrimPrefix(err.Error(), "json: "), firstLine, 0
	}
	var te *json.UnmarshalTypeError
	var de *jsonv.DepthError
	switch {
	case errors.As(err, &te):
		msg = typeMessage(te)
	case errors.As(err, &de):
		msg = de.Error()
	case err.Error() == "":
		msg = "invalid JSON"
	default:
		msg = "invalid JSON: " + err.Error()
	}
	line, col = Position(data, off)
	return msg, line + firstLine - 1, col
}

// typeMessage says what a type error expected and what came.
func typeMessage(te *json.UnmarshalTypeError) string {
	got := te.Value
	switch {
	case got == "object", got == "array":
		got = "an " + got
	case got == "bool":
		got = "true or false"
	case strings.HasPrefix(got, "number "):
		got = strings.TrimPrefix(got, "number ")
	default:
		got = "a " + got
	}
	want := "a value"
	if te.Type != nil {
		want = kindName(te.Type)
	}
	field := te.Field
	if i := strings.LastIndexByte(field, '.'); i >= 0 {
		field = field[i+1:]
	}
	if field == "" {
		return fmt.Sprintf("expected %s, got %s", want, got)
	}
	return fmt.Sprintf("expected %s for %q, got %s", want, field, got)
}

func kindName(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return "another kind of value"
}

// valueStart finds the first byte of the value of a type error, whose
// offset points after the value (a string, number or literal) or after
// its opening bracket (an object or array).
func valueStart(data []byte, off int64, value string) int64 {
	off = min(max(off, 0), int64(len(data)))
	i := off - 1
	switch {
	case i < 0:
		return 0
	case value == "object" || value == "array":
		for i > 0 && data[i] != '{' && data[i] != '[' {
			i--
		}
		return i
	case data[i] == '"':
		// Back to the opening quote: one not escaped by an odd run of
		// backslashes.
		for i--; i >= 0; i-- {
			if data[i] != '"' {
				continue
			}
			n := 0
			for j := i - 1; j >= 0 && data[j] == '\\'; j-- {
				n++
			}
			if n%2 == 0 {
				return i
			}
		}
		return 0
	}
	for i > 0 && isLiteral(data[i-1]) {
		i--
	}
	return i
}

func isLiteral(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '+' || c == '.'
}

// Salvage reads the JSON value at the start of data as far as it is
// whole: when it is cut off or broken part-way, it returns what came
// before the break, with the open arrays and objects closed and the broken
// value dropped; nil when nothing came before. Numbers stay exact. It
// stops at the bracket that opens level MaxDepth+1, as if the data ended
// there.
func Salvage(data []byte) any {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	type frame struct {
		obj     map[string]any
		arr     []any
		isObj   bool
		key     string
		haveKey bool
	}
	var stack []*frame
	var root any
	put := func(x any) {
		if len(stack) == 0 {
			root = x
			return
		}
		f := stack[len(stack)-1]
		if f.isObj {
			f.obj[f.key] = x
			f.haveKey = false
		} else {
			f.arr = append(f.arr, x)
		}
	}
	closeTop := func() {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if f.isObj {
			put(f.obj)
		} else if f.arr == nil {
			put([]any{})
		} else {
			put(f.arr)
		}
	}
	for {
		tok, err := d.Token()
		if err != nil {
			for len(stack) > 0 {
				closeTop()
			}
			return root
		}
		if len(stack) > 0 {
			if f := stack[len(stack)-1]; f.isObj && !f.haveKey {
				if k, ok := tok.(string); ok {
					f.key, f.haveKey = k, true
					continue
				}
			}
		}
		switch t := tok.(type) {
		case json.Delim:
			if (t == '{' || t == '[') && len(stack) == jsonv.MaxDepth {
				for len(stack) > 0 {
					closeTop()
				}
				return root
			}
			switch t {
			case '{':
				stack = append(stack, &frame{obj: map[string]any{}, isObj: true})
			case '[':
				stack = append(stack, &frame{})
			default:
				closeTop()
			}
		default:
			put(t)
		}
		if len(stack) == 0 {
			return root
		}
	}
}

// ReadError is the error of a reader that could not read the file name:
// a *trajeval.TraceError (damage to a compressed file, say) or the end of
// the context as it is, any other error as "cannot read the trace".
func ReadError(name string, err error) error {
	if de, le := (*jsonv.DepthError)(nil), (*LineTooLongError)(nil); errors.As(err, &de) || errors.As(err, &le) {
		return TooDeep(name, err)
	}
	var te *trajeval.TraceError
	if errors.As(err, &te) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return &trajeval.TraceError{File: name, Msg: "cannot read the trace: " + err.Error(), Err: err}
}

// Damaged reports the JSON error err, found in data whose first line is
// firstLine, as damage to in (see trajeval.Input.Damage): it returns the
// error that stops a strict read, or nil when in is read leniently.
func Damaged(in trajeval.Input, data []byte, err error, firstLine int) error {
	msg, line, col := Describe(data, err, firstLine)
	return in.Damage(line, col, msg)
}

// TooDeep returns err, found reading the file name, as a
// *trajeval.TraceError placed at its line (and column) when it is a
// *jsonv.DepthError or a *LineTooLongError of its own (not one a
// TraceError already wraps); any other error as it is. Neither is damage
// that --lenient reads past: the data is hostile or corrupt beyond repair.
func TooDeep(name string, err error) error {
	var te *trajeval.TraceError
	if errors.As(err, &te) {
		return err
	}
	if le := (*LineTooLongError)(nil); errors.As(err, &le) {
		return &trajeval.TraceError{File: name, Line: le.Line, Msg: le.Msg(), Hint: LineHint, Err: err}
	}
	var de *jsonv.DepthError
	if !errors.As(err, &de) {
		return err
	}
	return &trajeval.TraceError{File: name, Line: de.Line, Col: de.Col, Msg: de.Error(), Hint: jsonv.DepthHint, Err: err}
}

// CheckDepth is jsonv.CheckDepth for data read from the file name, whose
// first line is firstLine: JSON nested deeper than jsonv.MaxDepth is a
// *trajeval.TraceError at its line and column.
func CheckDepth(name string, data []byte, firstLine int) error {
	err := jsonv.CheckDepth(data)
	if err == nil {
		return nil
	}
	de := err.(*jsonv.DepthError)
	de.Line += firstLine - 1
	return TooDeep(name, de)
}

// NotARecord is what a reader calls for a record, at line and col of in,
// that has none of its format's fields: `{}`, `null`, `{"id": "a"}`. It
// is never an empty run:
//  1. read strictly, it is a *trajeval.TraceError wrapping
//     trajeval.ErrCorruptTrace, which the reader returns;
//  2. read leniently, it is a warning, the record is skipped, and
//     NotARecord returns nil.
//
// what says what the record lacks, e.g. `no "output" or "output_messages"`.
func NotARecord(in trajeval.Input, line, col int, what string) error {
	msg := "not a record of this format: " + what
	if !in.Lenient {
		return &trajeval.TraceError{File: in.Name, Line: line, Col: col, Msg: msg,
			Hint: "a line of junk is not an empty run; remove it, or pass --lenient to skip it",
			Err:  trajeval.ErrCorruptTrace}
	}
	in.Warn(trajeval.Warning{File: in.Name, Line: line, Col: col, Msg: msg + "; skipped"})
	return nil
}
