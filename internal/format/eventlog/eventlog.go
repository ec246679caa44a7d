// Package eventlog holds what the readers of JSON Lines event streams
// (claudecode, codex, gemini, mcp) share: decoding a line, skipping the
// lines that are not events, and reading a tool call's arguments.
package eventlog

import (
	"fmt"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/jsonl"
	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/plural"
)

// Decode reads line number n of in, whose bytes are data. A line that is
// not valid JSON is damage (see trajeval.Input.Damage): err stops a strict
// read; read leniently, damaged is set, the line is skipped (v is nil) and
// the reader marks the trajectory it was building partial.
func Decode(in trajeval.Input, data []byte, n int) (v any, damaged bool, err error) {
	v, err = jsonl.Decode(data)
	if err == nil {
		return v, false, nil
	}
	return nil, true, jsonl.Damaged(in, data, err, n)
}

// Skipped counts the lines a reader skips when read leniently: the first
// is reported where it is, the others in one summary when the stream
// ends.
type Skipped struct {
	// One and Many name what a skipped line is not: `a Codex event (an
	// object with a "type")` and "Codex events".
	One, Many string
	n         int
}

// Line is line number n of in, which is JSON but not an event: never an
// empty run (see jsonl.NotARecord). Read strictly, it is the error Line
// returns; read leniently, it is skipped, and only the first skipped line
// is reported.
func (s *Skipped) Line(in trajeval.Input, n int) error {
	if !in.Lenient {
		return jsonl.NotARecord(in, n, 0, "not "+s.One)
	}
	s.n++
	if s.n > 1 {
		return nil
	}
	in.Warn(trajeval.Warning{File: in.Name, Line: n, Msg: "not " + s.One + "; skipped"})
	return nil
}

// Has reports whether e holds one of keys: an event with none of its
// format's fields is not an event.
func Has(e map[string]any, keys ...string) bool {
	for _, k := range keys {
		if _, ok := e[k]; ok {
			return true
		}
	}
	return false
}

// Report reports, once the stream has ended, how many lines were skipped
// in all when there were more than one.
func (s *Skipped) Report(in trajeval.Input) {
	if s.n > 1 {
		in.Warn(trajeval.Warning{File: in.Name, Msg: fmt.Sprintf("%s in all were not %s and were skipped", plural.Count(s.n, "line", "lines"), s.Many)})
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

// Cut is what a reader of a stream that ends each run with a closing
// event (closing, e.g. "result") calls when t's stream ends, or the next
// session starts, before that event came: the run was cut off, so it may
// lack its last calls. t is marked partial, with a warning: never a whole
// run in silence.
func Cut(in trajeval.Input, t *trajeval.Trajectory, closing string) {
	t.Partial = true
	place := ""
	if t.ID != "" {
		place = "session " + t.ID
	}
	in.Warn(trajeval.Warning{File: in.Name, Place: place,
		Msg: fmt.Sprintf("the stream ends before its closing %q event: the run was cut off and may lack its last calls; read as partial", closing)})
}
