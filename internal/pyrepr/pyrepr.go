// Package pyrepr reads the Python repr of JSON-like values: what str(dict)
// prints, which some tracers record instead of JSON.
package pyrepr

import "github.com/trajeval/trajeval/internal/pylit"

// Parse reads the Python repr of a JSON-like value — what str(dict)
// prints — into the JSON data model: dicts, lists and tuples, strings in
// either quote, ints of any size, floats, True, False and None. Dict keys
// that are not strings become their JSON text, as json.dumps writes them.
// Anything else (a set, a datetime(...), a trailing token) is an error.
// It is [pylit.ParseValue], whose rules are the full ones.
func Parse(s string) (any, error) { return pylit.ParseValue(s) }
