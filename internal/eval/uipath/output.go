package uipath

import (
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/eval/calls"
	"github.com/trajeval/trajeval/internal/jsonv"
)

// An Output is one expected result of tool_call_output: a tool and the
// value one of its calls should return.
type Output struct {
	Tool   string
	Output any
}

// NewOutput builds tool_call_output. It refuses an empty list and an
// empty tool name.
func NewOutput(expected []Output, strict bool) (*Matching, error) {
	if len(expected) == 0 {
		return nil, &OptionError{Index: -1, Msg: "the list of expected outputs is empty"}
	}
	m := &Matching{mode: "output", Strict: strict}
	for i, o := range expected {
		if o.Tool == "" {
			return nil, &OptionError{Index: i, Msg: "the tool name is empty"}
		}
		want := o.Output
		m.Items = append(m.Items, calls.Item{
			Tool: o.Tool,
			Key:  jsonv.Marshal(want),
			// A result kept as JSON text is decoded where it is compared
			// (see trajeval.Decoded); text that does not decode, put
			// there by hand, matches nothing.
			Match: func(s *trajeval.Step) bool {
				got, err := trajeval.Decoded(s.Result)
				return err == nil && OutputEqual(want, got)
			},
			Diff: func(s *trajeval.Step) []trajeval.ArgDiff {
				got, err := trajeval.Decoded(s.Result)
				shown := render(got)
				if err != nil {
					shown = "(not JSON: " + err.Error() + ")"
				}
				return []trajeval.ArgDiff{{Path: "output", Want: render(want), Got: shown}}
			},
		})
	}
	if strict {
		m.mode = "strict output"
	}
	return m, nil
}

// OutputEqual reports whether a tool's result equals the expected output:
// as JSON values when both are (or hold) JSON, else as strings; a result
// object with a "content" field also matches by that field.
func OutputEqual(want, got any) bool {
	if equalValue(want, got) {
		return true
	}
	if m, ok := parse(got).(map[string]any); ok {
		if c, ok := m["content"]; ok {
			return equalValue(want, c)
		}
	}
	return false
}

func equalValue(want, got any) bool {
	w, g := parse(want), parse(got)
	if jsonv.Equal(w, g) {
		return true
	}
	return text(want) == text(got)
}

// parse returns the JSON value a string holds, or the value itself.
func parse(v any) any {
	s, ok := v.(string)
	if !ok {
		return v
	}
	t := strings.TrimSpace(s)
	if t == "" {
		return s
	}
	if x, err := jsonv.Decode([]byte(t)); err == nil {
		return x
	}
	return s
}

func text(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return jsonv.Marshal(v)
}

func render(v any) string {
	if v == nil {
		return "nothing"
	}
	return jsonv.Marshal(v)
}
