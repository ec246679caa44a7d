package trajeval

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"

	"github.com/trajeval/trajeval/internal/jsonv"
)

// The texts of an ArgDiff side that has no value.
const (
	// ArgMissing is Got when the call lacks the expected key.
	ArgMissing = "(missing)"
	// ArgAbsent is Want when the call has a key the expectation does not
	// allow (exact arguments).
	ArgAbsent = "(absent)"
)

// MarshalJSON writes the difference as {"path", "want", "got"}, want and
// got as JSON values (the expected pattern as written, operators
// included; the actual value):
//  1. a side that is JSON text is written as that value: "want": "NYC",
//     "got": 3, "want": {"$regex": "^a"};
//  2. "want" is left out when the key is not expected (ArgAbsent), "got"
//     when the call lacks it (ArgMissing);
//  3. any other text (a reader's own word, such as "nothing") is written
//     as a JSON string.
func (d ArgDiff) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // the JSON reports never escape <, > and &
	b.WriteString(`{"path":`)
	if err := enc.Encode(d.Path); err != nil {
		return nil, err
	}
	side := func(key, text, none string) error {
		if text == none {
			return nil
		}
		b.WriteString(`,"` + key + `":`)
		if json.Valid([]byte(text)) {
			return json.Compact(&b, []byte(text))
		}
		return enc.Encode(text)
	}
	if err := side("want", d.Want, ArgAbsent); err != nil {
		return nil, err
	}
	if err := side("got", d.Got, ArgMissing); err != nil {
		return nil, err
	}
	b.WriteByte('}')
	// Encode ends each value with a newline, which JSON allows between
	// tokens; drop them for a compact row. C1 and bidi characters are
	// escaped as every JSON trajeval writes escapes them (jsonv.Escaped).
	return jsonv.Escape(bytes.ReplaceAll(b.Bytes(), []byte("\n"), nil)), nil
}

// UnmarshalJSON reads what MarshalJSON writes, and the rows of earlier
// versions, whose want and got were strings holding JSON text: a string
// that holds a JSON object, array or string, or is one of the texts of a
// side without a value, is read as that text; any other string is a
// string value. (So an earlier row's want "3", the number, reads as the
// string "3".)
func (d *ArgDiff) UnmarshalJSON(data []byte) error {
	var raw struct {
		Path *string         `json:"path"`
		Want json.RawMessage `json:"want"`
		Got  json.RawMessage `json:"got"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	if raw.Path == nil {
		return errors.New("an argument difference without a path")
	}
	d.Path = *raw.Path
	d.Want = sideText(raw.Want, ArgAbsent)
	d.Got = sideText(raw.Got, ArgMissing)
	return nil
}

func sideText(raw json.RawMessage, none string) string {
	if raw == nil {
		return none
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		switch {
		case s == ArgMissing || s == ArgAbsent:
			return s
		case (strings.HasPrefix(s, "{") || strings.HasPrefix(s, "[") || strings.HasPrefix(s, `"`)) && json.Valid([]byte(s)):
			return s // a row of an earlier version
		}
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}
