// Package trace finds the format of a trace file and reads it into
// trajectories.
//
// Formats are recognised from content, not from the file name: each format
// sniffs the first MiB of the file, in a fixed order of priority, and the
// first that claims it reads it. A file that none claims gets an error
// naming the formats it came closest to, and why each said no.
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
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/suggest"
)

// headSize is how much of a file the formats see when sniffing.
const headSize = 1 << 20

type entry struct {
	prio int
	f    trajeval.Format
}

var registry []entry

// register adds a format; lower priorities sniff first. Each format package
// is registered from its own formats_*.go file in this package.
func register(prio int, f trajeval.Format) {
	registry = append(registry, entry{prio, f})
	sort.SliceStable(registry, func(i, j int) bool { return registry[i].prio < registry[j].prio })
}

// Formats returns every format, in sniffing order.
func Formats() []trajeval.Format {
	out := make([]trajeval.Format, len(registry))
	for i, e := range registry {
		out[i] = e.f
	}
	return out
}

// Names returns the names of every format, in sniffing order.
func Names() []string {
	var names []string
	for _, e := range registry {
		names = append(names, e.f.Name())
	}
	return names
}

// Lookup returns the format called name.
func Lookup(name string) (trajeval.Format, error) {
	for _, e := range registry {
		if e.f.Name() == name {
			return e.f, nil
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
	if len(bytes.TrimSpace(head)) == 0 {
		return nil, &trajeval.TraceError{File: name, Msg: "the file is empty", Hint: "record a trace into it, or point the case at another file", Err: trajeval.ErrEmptyTrace}
	}
	type reject struct {
		name string
		err  error
		c    int
	}
	var rejects []reject
	for _, e := range registry {
		err := e.f.Sniff(head)
		if err == nil {
			return e.f, nil
		}
		c := 0
		var se *trajeval.SniffError
		if errors.As(err, &se) {
			c = se.Closeness
		}
		rejects = append(rejects, reject{e.f.Name(), err, c})
	}
	if looksBinary(head) {
		return nil, &trajeval.TraceError{File: name, Msg: "binary file: not a trace in any known format", Hint: "traces are JSON, JSON Lines or OTLP protobuf", Err: trajeval.ErrUnknownFormat}
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

// Read reads the trace file at path ("-" for standard input) and calls
// yield with each trajectory. from forces a format by name; "" detects it.
// Gzip-compressed files are read transparently. warn receives each
// problem that did not stop the reading.
func Read(ctx context.Context, path, from string, warn func(trajeval.Warning), yield func(*trajeval.Trajectory) error) error {
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
	return ReadFrom(ctx, name, r, from, warn, yield)
}

// ReadFrom is Read for an open reader.
func ReadFrom(ctx context.Context, name string, r io.Reader, from string, warn func(trajeval.Warning), yield func(*trajeval.Trajectory) error) error {
	br := bufio.NewReaderSize(r, headSize)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return &trajeval.TraceError{File: name, Msg: "bad gzip data: " + err.Error(), Err: err}
		}
		defer zr.Close()
		br = bufio.NewReaderSize(zr, headSize)
	}
	head, err := br.Peek(headSize)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return &trajeval.TraceError{File: name, Msg: "cannot read the trace: " + err.Error(), Err: err}
	}
	var f trajeval.Format
	if from != "" {
		if f, err = Lookup(from); err != nil {
			return err
		}
		if len(bytes.TrimSpace(head)) == 0 {
			return &trajeval.TraceError{File: name, Msg: "the file is empty", Err: trajeval.ErrEmptyTrace}
		}
	} else if f, err = Detect(name, head); err != nil {
		return err
	}
	if warn == nil {
		warn = func(trajeval.Warning) {}
	}
	in := trajeval.Input{Name: name, R: br, Warn: warn}
	if from != "" {
		return readForced(ctx, f, in, head, yield)
	}
	return f.Read(ctx, in, yield)
}

func unwrapPathError(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
