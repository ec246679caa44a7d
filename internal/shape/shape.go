// Package shape describes the values of suite settings once, for two
// readers: in words, for `trajeval evaluators NAME`, and as JSON Schema
// (draft 2020-12), for editors and for checking suite files.
//
// The rules the schemas follow, so that they accept what the loader
// accepts:
//  1. a key may be written in snake_case, kebab-case or camelCase
//     (max_duration_ms = max-duration-ms = maxDurationMs): an [Object]
//     lists the snake_case spelling under properties, for completion, and
//     accepts the other two through patternProperties;
//  2. an [Enum] word is accepted in the same three spellings, and as
//     listed;
//  3. an object lists every key it takes: any other key is refused, as
//     the loader refuses it.
package shape

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/trajeval/trajeval/internal/suggest"
)

// A Shape is what a setting's value may be.
type Shape struct {
	Text   string         // in words, e.g. "number ≥ 0"
	Schema map[string]any // as JSON Schema
}

// A Field is one key of an object: a setting, documented.
type Field struct {
	Key      string // snake_case
	Shape    Shape
	Default  string // in words; "" when it has none
	Required bool
	Doc      string // one line
}

// Text is any text.
func Text() Shape { return Shape{"text", map[string]any{"type": "string"}} }

// Name is a name: text, or an unquoted number or boolean read as text
// (a tool called 2fa, a case called 42).
func Name() Shape {
	return Shape{"name", map[string]any{"type": []any{"string", "number", "boolean"}}}
}

// Number is any number.
func Number() Shape { return Shape{"number", map[string]any{"type": "number"}} }

// NonNegative is a number ≥ 0.
func NonNegative() Shape {
	return Shape{"number ≥ 0", map[string]any{"type": "number", "minimum": 0}}
}

// Fraction is a number from 0 to 1.
func Fraction() Shape {
	return Shape{"number from 0 to 1", map[string]any{"type": "number", "minimum": 0, "maximum": 1}}
}

// Count is a whole number ≥ min.
func Count(min int) Shape {
	return Shape{fmt.Sprintf("whole number ≥ %d", min), map[string]any{"type": "integer", "minimum": min}}
}

// Bool is true or false.
func Bool() Shape { return Shape{"true or false", map[string]any{"type": "boolean"}} }

// Any is any value.
func Any() Shape { return Shape{"any value", map[string]any{}} }

// Duration is seconds, or a duration with a unit ("30s", "2m").
func Duration() Shape {
	return Shape{`seconds, or a duration such as "30s"`, map[string]any{"anyOf": []any{
		map[string]any{"type": "number", "minimum": 0},
		map[string]any{"type": "string", "pattern": `^([0-9]+(\.[0-9]*)?(ns|us|µs|ms|s|m|h))+$`},
	}}}
}

// Enum is one of words, in any spelling (see the package rules).
func Enum(words ...string) Shape {
	return Shape{"one of " + strings.Join(words, ", "), map[string]any{"enum": toAny(Spellings(words...))}}
}

// List is a list of items of one shape.
func List(of Shape) Shape {
	return Shape{"list of " + of.Text, map[string]any{"type": "array", "items": of.Schema}}
}

// Map is a map from the user's names (never respelled) to values of one
// shape.
func Map(of Shape) Shape {
	return Shape{"map of names to " + of.Text, map[string]any{"type": "object", "additionalProperties": of.Schema}}
}

// OneOf is a value of any of shapes; text names them in words.
func OneOf(text string, shapes ...Shape) Shape {
	var alts []any
	for _, s := range shapes {
		alts = append(alts, s.Schema)
	}
	return Shape{text, map[string]any{"anyOf": alts}}
}

// Ref is the shape defined under $defs/name in the schema that uses it.
func Ref(name, text string) Shape {
	return Shape{text, map[string]any{"$ref": "#/$defs/" + name}}
}

// Object is a map of the fields, and of nothing else.
func Object(text string, fields ...Field) Shape {
	return Shape{text, ObjectSchema(fields, false)}
}

// ObjectSchema returns the JSON Schema of an object of fields; open
// objects also take keys not listed.
func ObjectSchema(fields []Field, open bool) map[string]any {
	props := map[string]any{}
	patterns := map[string]any{}
	var required, either []any
	for _, f := range fields {
		s := FieldSchema(f)
		props[f.Key] = s
		var others []string
		for _, sp := range keySpellings(f.Key) {
			if sp != f.Key {
				others = append(others, regexp.QuoteMeta(sp))
			}
		}
		if len(others) > 0 {
			patterns["^(?:"+strings.Join(others, "|")+")$"] = s
		}
		switch {
		case f.Required && len(others) == 0:
			required = append(required, f.Key)
		case f.Required:
			var alts []any
			for _, sp := range keySpellings(f.Key) {
				alts = append(alts, map[string]any{"required": []any{sp}})
			}
			either = append(either, map[string]any{"anyOf": alts})
		}
	}
	out := map[string]any{"type": "object", "properties": props}
	if len(patterns) > 0 {
		out["patternProperties"] = patterns
	}
	if len(required) > 0 {
		out["required"] = required
	}
	if len(either) > 0 {
		out["allOf"] = either
	}
	if !open {
		out["additionalProperties"] = false
	}
	return out
}

// FieldSchema returns the schema of a field's value with its description.
func FieldSchema(f Field) map[string]any {
	s := make(map[string]any, len(f.Shape.Schema)+1)
	for k, v := range f.Shape.Schema {
		s[k] = v
	}
	if d := f.Describe(); d != "" {
		s["description"] = d
	}
	return s
}

// Describe returns the field's doc with its value in words and its
// default, for an editor's hover.
func (f Field) Describe() string {
	d := f.Doc
	if f.Shape.Text != "" {
		d += " (" + f.Shape.Text
		if f.Default != "" {
			d += "; default " + f.Default
		}
		d += ")"
	}
	return strings.TrimSpace(d)
}

// Spellings returns each word as listed, in snake_case (lower and upper
// case), in kebab-case and in camelCase, without repeats: the spellings the loader takes as the
// same word.
func Spellings(words ...string) []string {
	var out []string
	for _, w := range words {
		c := suggest.Canon(w)
		for _, s := range append([]string{w, strings.ToUpper(c)}, keySpellings(c)...) {
			if !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	return out
}

// keySpellings returns a snake_case key in snake_case, kebab-case and
// camelCase.
func keySpellings(snake string) []string {
	parts := strings.Split(snake, "_")
	camel := parts[0]
	for _, p := range parts[1:] {
		if p != "" {
			camel += strings.ToUpper(p[:1]) + p[1:]
		}
	}
	out := []string{snake}
	for _, s := range []string{strings.ReplaceAll(snake, "_", "-"), camel} {
		if !slices.Contains(out, s) && suggest.Canon(s) == snake {
			out = append(out, s)
		}
	}
	return out
}

func toAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}
