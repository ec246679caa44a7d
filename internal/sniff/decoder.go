package sniff

import (
	"encoding/json"
	"errors"
	"io"
)

// A Decoder reads the tokens of a head as encoding/json's Decoder does
// (with UseNumber), without its cost: Token, More and Skip (for
// Decode(&json.RawMessage)) give the same tokens, and fail at the same
// places, on any bytes. Its errors say less: only whether there was one
// is the same.
type Decoder struct {
	b     []byte
	i     int
	state int
	stack []int
	err   error // a value that did not read: every later value fails
	text  []byte
}

// errSyntax is the Decoder's one syntax error.
var errSyntax = errors.New("invalid JSON")

// The Decoder's states are encoding/json's: what may come next at the
// current level.
const (
	atTop       = iota // a value (one after another)
	arrayStart         // a value or ]
	arrayValue         // a value, after a comma
	arrayComma         // a comma or ]
	objectStart        // a key or }
	objectKey          // a key, after a comma
	objectColon        // a colon
	objectValue        // a value, after the colon
	objectComma        // a comma or }
)

// NewDecoder returns a Decoder reading b.
func NewDecoder(b []byte) *Decoder { return &Decoder{b: b} }

func (d *Decoder) peek() (byte, error) {
	d.i = skipSpace(d.b, d.i)
	if d.i >= len(d.b) {
		return 0, io.EOF
	}
	return d.b[d.i], nil
}

func (d *Decoder) valueAllowed() bool {
	return d.state == atTop || d.state == arrayStart || d.state == arrayValue || d.state == objectValue
}

func (d *Decoder) valueEnd() {
	switch d.state {
	case arrayStart, arrayValue:
		d.state = arrayComma
	case objectValue:
		d.state = objectComma
	}
}

// Token is encoding/json's Decoder.Token: a json.Delim, a string, a
// json.Number, a bool, or nil for null.
func (d *Decoder) Token() (json.Token, error) {
	for {
		c, err := d.peek()
		if err != nil {
			return nil, err
		}
		switch c {
		case '[', '{':
			if !d.valueAllowed() {
				return nil, errSyntax
			}
			d.i++
			d.stack = append(d.stack, d.state)
			d.state = arrayStart
			if c == '{' {
				d.state = objectStart
			}
			return json.Delim(c), nil
		case ']', '}':
			if c == ']' && d.state != arrayStart && d.state != arrayComma ||
				c == '}' && d.state != objectStart && d.state != objectComma {
				return nil, errSyntax
			}
			d.i++
			d.state = d.stack[len(d.stack)-1]
			d.stack = d.stack[:len(d.stack)-1]
			d.valueEnd()
			return json.Delim(c), nil
		case ':':
			if d.state != objectColon {
				return nil, errSyntax
			}
			d.i++
			d.state = objectValue
			continue
		case ',':
			switch d.state {
			case arrayComma:
				d.state = arrayValue
			case objectComma:
				d.state = objectKey
			default:
				return nil, errSyntax
			}
			d.i++
			continue
		case '"':
			if d.state == objectStart || d.state == objectKey {
				if d.err != nil {
					return nil, d.err
				}
				s, err := d.scalar()
				if err != nil {
					return nil, err
				}
				d.state = objectColon
				return s, nil
			}
		}
		if !d.valueAllowed() {
			return nil, errSyntax
		}
		if d.err != nil {
			return nil, d.err
		}
		v, err := d.scalar()
		if err != nil {
			return nil, err
		}
		d.valueEnd()
		return v, nil
	}
}

// scalar reads the string, number or literal at d.i.
func (d *Decoder) scalar() (json.Token, error) {
	rest := d.b[d.i:]
	if rest[0] == '"' {
		n, plain, ok := ScanString(rest)
		if !ok {
			d.err = errSyntax
			return nil, d.err
		}
		d.i += n
		d.text = Unquote(d.text[:0], rest[:n], plain)
		return string(d.text), nil
	}
	n, ok := ScanLiteral(rest)
	if !ok {
		d.err = errSyntax
		return nil, d.err
	}
	d.i += n
	switch rest[0] {
	case 't':
		return true, nil
	case 'f':
		return false, nil
	case 'n':
		return nil, nil
	}
	return json.Number(rest[:n]), nil
}

// More is encoding/json's Decoder.More.
func (d *Decoder) More() bool {
	c, err := d.peek()
	return err == nil && c != ']' && c != '}'
}

// Skip reads the next value whole, as encoding/json's Decoder.Decode
// does into a json.RawMessage.
func (d *Decoder) Skip() error {
	if d.err != nil {
		return d.err
	}
	switch d.state {
	case arrayComma, objectColon:
		c, err := d.peek()
		if err != nil {
			return err
		}
		if d.state == arrayComma && c != ',' || d.state == objectColon && c != ':' {
			return errSyntax
		}
		d.i++
		d.state = arrayValue
		if c == ':' {
			d.state = objectValue
		}
	}
	if !d.valueAllowed() {
		return errSyntax
	}
	n, ok := ScanValue(d.b[d.i:])
	if !ok {
		d.err = errSyntax
		return d.err
	}
	d.i += n
	d.valueEnd()
	return nil
}
