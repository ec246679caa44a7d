// Package eventlog holds what the readers of JSON Lines event streams
// (claudecode, codex, gemini, mcp) share: skipping the lines that are not
// events, and reading a tool call's arguments.
package eventlog

import (
	"fmt"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/jsonl"
	"github.com/trajeval/trajeval/internal/jsonv"
)

// Skipped counts the lines a reader skips: the first is reported where it
// is, the others in one summary when the stream ends.
type Skipped struct {
	// One and Many name what a skipped line is not: "a JSON object" and
	// "JSON objects".
	One, Many string
	n         int
}

// Line skips line number n of in, whose bytes are data: err is why it is
// not JSON, or nil when it is JSON but not an event. Only the first skipped
// line is reported.
func (s *Skipped) Line(in trajeval.Input, data []byte, n int, err error) {
	s.n++
	if s.n > 1 {
		return
	}
	msg, col := "not "+s.One+"; skipped", 0
	if err != nil {
		msg, _, col = jsonl.Describe(data, err, n)
		msg += "; line skipped"
	}
	place := ""
	if col > 0 {
		place = fmt.Sprintf("column %d", col)
	}
	in.Warn(trajeval.Warning{File: in.Name, Line: n, Place: place, Msg: msg})
}

// Report reports, once the stream has ended, how many lines were skipped
// in all when there were more than one.
func (s *Skipped) Report(in trajeval.Input) {
	if s.n > 1 {
		in.Warn(trajeval.Warning{File: in.Name, Msg: fmt.Sprintf("%d lines in all were not %s and were skipped", s.n, s.Many)})
	}
}

// Args reads a tool call's arguments: none gives {}, a JSON string is
// parsed, a blank one gives {}, and any other string is kept as it is
// after calling notJSON, which reports it.
func Args(v any, notJSON func()) any {
	switch x := v.(type) {
	case nil:
		return map[string]any{}
	case string:
		if p, err := jsonv.Decode([]byte(x)); err == nil {
			return p
		}
		if strings.TrimSpace(x) == "" {
			return map[string]any{}
		}
		notJSON()
	}
	return v
}
