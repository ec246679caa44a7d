package history

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/jsonv"
)

// appendDetails appends the JSON array of ds (null for a nil one) to b,
// byte for byte as json.Marshal writes it, without reflection: the
// history writes the details of every failing case. Notes, a dialect's
// own values, go through encoding/json. On an error b comes back as it
// was given.
func appendDetails(b []byte, ds []*trajeval.Details) ([]byte, error) {
	e := detailsEncoder{b: b}
	e.b = append(e.b, '[')
	for i, d := range ds {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		if err := e.details(d); err != nil {
			return b, err
		}
	}
	return append(e.b, ']'), nil
}

type detailsEncoder struct {
	b       []byte
	compact bytes.Buffer // the JSON text of an argument difference, compacted
}

func (e *detailsEncoder) details(d *trajeval.Details) error {
	if d == nil {
		e.b = append(e.b, "null"...)
		return nil
	}
	e.b = append(e.b, '{')
	if d.Mode != "" {
		e.b = append(e.b, `"mode":`...)
		e.str(d.Mode)
		e.b = append(e.b, ',')
	}
	e.b = append(e.b, `"hits":`...)
	e.int(d.Hits)
	e.b = append(e.b, `,"expected":`...)
	e.int(d.Expected)
	e.b = append(e.b, `,"actual":`...)
	e.int(d.Actual)
	if len(d.Matched) > 0 {
		e.b = append(e.b, `,"matched":[`...)
		for i, p := range d.Matched {
			e.comma(i)
			e.b = append(e.b, `{"item":`...)
			e.int(p.Item)
			e.b = append(e.b, `,"step":`...)
			e.int(p.Step)
			e.b = append(e.b, `,"tool":`...)
			e.str(p.Tool)
			e.b = append(e.b, '}')
		}
		e.b = append(e.b, ']')
	}
	if len(d.Missing) > 0 {
		e.b = append(e.b, `,"missing":[`...)
		for i, m := range d.Missing {
			e.comma(i)
			e.b = append(e.b, `{"item":`...)
			e.int(m.Item)
			e.b = append(e.b, `,"tool":`...)
			e.str(m.Tool)
			if len(m.Near) > 0 {
				e.b = append(e.b, `,"near":[`...)
				for j, n := range m.Near {
					e.comma(j)
					if err := e.near(n); err != nil {
						return err
					}
				}
				e.b = append(e.b, ']')
			}
			e.b = append(e.b, '}')
		}
		e.b = append(e.b, ']')
	}
	if len(d.Extra) > 0 {
		e.b = append(e.b, `,"extra":[`...)
		for i, x := range d.Extra {
			e.comma(i)
			e.b = append(e.b, `{"step":`...)
			e.int(x.Step)
			e.b = append(e.b, `,"tool":`...)
			e.str(x.Tool)
			e.b = append(e.b, '}')
		}
		e.b = append(e.b, ']')
	}
	if len(d.Checks) > 0 {
		e.b = append(e.b, `,"checks":[`...)
		for i, c := range d.Checks {
			e.comma(i)
			e.b = append(e.b, `{"name":`...)
			e.str(c.Name)
			e.b = append(e.b, `,"status":`...)
			e.str(c.Status)
			if c.Message != "" {
				e.b = append(e.b, `,"message":`...)
				e.str(c.Message)
			}
			e.b = append(e.b, '}')
		}
		e.b = append(e.b, ']')
	}
	if len(d.Warnings) > 0 {
		e.b = append(e.b, `,"warnings":`...)
		e.strs(d.Warnings)
	}
	if s := d.Scope; s != nil {
		e.b = append(e.b, `,"scope":{"agents":`...)
		e.strs(s.Agents)
		if s.IncludeSubagents {
			e.b = append(e.b, `,"include_subagents":true`...)
		}
		e.b = append(e.b, `,"in_scope":`...)
		e.strs(s.InScope)
		e.b = append(e.b, `,"steps":`...)
		e.int(s.Steps)
		e.b = append(e.b, `,"of":`...)
		e.int(s.Of)
		e.b = append(e.b, '}')
	}
	if len(d.Notes) > 0 {
		data, err := json.Marshal(d.Notes)
		if err != nil {
			return err
		}
		e.b = append(e.b, `,"notes":`...)
		e.b = append(e.b, data...)
	}
	e.b = append(e.b, '}')
	return nil
}

func (e *detailsEncoder) near(n trajeval.NearMiss) error {
	e.b = append(e.b, `{"step":`...)
	e.int(n.Step)
	e.b = append(e.b, `,"tool":`...)
	e.str(n.Tool)
	if len(n.Diffs) > 0 {
		e.b = append(e.b, `,"diffs":[`...)
		for i, d := range n.Diffs {
			e.comma(i)
			if err := e.argDiff(d); err != nil {
				return err
			}
		}
		e.b = append(e.b, ']')
	}
	if n.Why != "" {
		e.b = append(e.b, `,"why":`...)
		e.str(n.Why)
	}
	e.b = append(e.b, '}')
	return nil
}

// argDiff writes d as json.Marshal does: its MarshalJSON's object,
// compacted, with <, >, &, U+2028 and U+2029 escaped.
func (e *detailsEncoder) argDiff(d trajeval.ArgDiff) error {
	e.b = append(e.b, `{"path":`...)
	e.str(d.Path)
	side := func(key, text, none string) error {
		if text == none {
			return nil
		}
		e.b = append(e.b, `,"`...)
		e.b = append(e.b, key...)
		e.b = append(e.b, `":`...)
		if !json.Valid([]byte(text)) {
			e.str(text)
			return nil
		}
		e.compact.Reset()
		if err := json.Compact(&e.compact, []byte(text)); err != nil {
			return err
		}
		e.b = appendEscapedHTML(e.b, e.compact.Bytes())
		return nil
	}
	if err := side("want", d.Want, trajeval.ArgAbsent); err != nil {
		return err
	}
	if err := side("got", d.Got, trajeval.ArgMissing); err != nil {
		return err
	}
	e.b = append(e.b, '}')
	return nil
}

// appendEscapedHTML appends the compact JSON text data to b with <, > and
// & escaped, and U+2028 and U+2029, as json.Marshal escapes the JSON a
// Marshaler returns: in valid JSON they stand only inside strings.
func appendEscapedHTML(b, data []byte) []byte {
	start := 0
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case c == '<' || c == '>' || c == '&':
			b = append(b, data[start:i]...)
			b = append(b, `\u00`...)
			b = append(b, "0123456789abcdef"[c>>4], "0123456789abcdef"[c&0xf])
			start = i + 1
		case c == 0xe2 && i+2 < len(data) && data[i+1] == 0x80 && data[i+2]&^1 == 0xa8:
			b = append(b, data[start:i]...)
			b = append(b, `\u202`...)
			b = append(b, "0123456789abcdef"[data[i+2]&0xf])
			i += 2
			start = i + 1
		}
	}
	return append(b, data[start:]...)
}

func (e *detailsEncoder) comma(i int) {
	if i > 0 {
		e.b = append(e.b, ',')
	}
}

func (e *detailsEncoder) int(n int) { e.b = strconv.AppendInt(e.b, int64(n), 10) }

func (e *detailsEncoder) str(s string) { e.b = jsonv.AppendString(e.b, s, true) }

// strs writes ss as a JSON array; nil is null.
func (e *detailsEncoder) strs(ss []string) {
	if ss == nil {
		e.b = append(e.b, "null"...)
		return
	}
	e.b = append(e.b, '[')
	for i, s := range ss {
		e.comma(i)
		e.str(s)
	}
	e.b = append(e.b, ']')
}
