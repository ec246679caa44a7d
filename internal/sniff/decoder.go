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

// A Kind is what a token is.
type Kind int

// The kinds of token.
const (
	Open    Kind = iota // [ or {
	Close               // ] or }
	Key                 // an object's key, a string
	String              // a string value
	Literal             // a number, true, false or null
)

// Token is encoding/json's Decoder.Token: a json.Delim, a string, a
// json.Number, a bool, or nil for null.
func (d *Decoder) Token() (json.Token, error) {
	k, raw, plain, err := d.Next()
	switch {
	case err != nil:
		return nil, err
	case k == Open || k == Close:
		return json.Delim(raw[0]), nil
	case k == Key || k == String:
		d.text = Unquote(d.text[:0], raw, plain)
		return string(d.text), nil
	}
	switch raw[0] {
	case 't':
		return true, nil
	case 'f':
		return false, nil
	case 'n':
		return nil, nil
	}
	return json.Number(raw), nil
}

// Next reads the token Token would, without decoding it: its kind, and
// its bytes in b (a string with its quotes; plain says it holds no escape
// and no byte past ASCII).
func (d *Decoder) Next() (k Kind, raw []byte, plain bool, err error) {
	for {
		c, err := d.peek()
		if err != nil {
			return 0, nil, false, err
		}
		switch c {
		case '[', '{':
			if !d.valueAllowed() {
				return 0, nil, false, errSyntax
			}
			d.i++
			d.stack = append(d.stack, d.state)
			d.state = arrayStart
			if c == '{' {
				d.state = objectStart
			}
			return Open, d.b[d.i-1 : d.i], false, nil
		case ']', '}':
			if c == ']' && d.state != arrayStart && d.state != arrayComma ||
				c == '}' && d.state != objectStart && d.state != objectComma {
				return 0, nil, false, errSyntax
			}
			d.i++
			d.state = d.stack[len(d.stack)-1]
			d.stack = d.stack[:len(d.stack)-1]
			d.valueEnd()
			return Close, d.b[d.i-1 : d.i], false, nil
		case ':':
			if d.state != objectColon {
				return 0, nil, false, errSyntax
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
				return 0, nil, false, errSyntax
			}
			d.i++
			continue
		case '"':
			if d.state == objectStart || d.state == objectKey {
				if d.err != nil {
					return 0, nil, false, d.err
				}
				raw, plain, err := d.scalar()
				if err != nil {
					return 0, nil, false, err
				}
				d.state = objectColon
				return Key, raw, plain, nil
			}
		}
		if !d.valueAllowed() {
			return 0, nil, false, errSyntax
		}
		if d.err != nil {
			return 0, nil, false, d.err
		}
		raw, plain, err := d.scalar()
		if err != nil {
			return 0, nil, false, err
		}
		d.valueEnd()
		k := Literal
		if c == '"' {
			k = String
		}
		return k, raw, plain, nil
	}
}

// scalar reads the string, number or literal at d.i.
func (d *Decoder) scalar() (raw []byte, plain bool, err error) {
	rest := d.b[d.i:]
	var n int
	ok := false
	if rest[0] == '"' {
		n, plain, ok = ScanString(rest)
	} else {
		n, ok = ScanLiteral(rest)
	}
	if !ok {
		d.err = errSyntax
		return nil, false, d.err
	}
	d.i += n
	return rest[:n], plain, nil
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
