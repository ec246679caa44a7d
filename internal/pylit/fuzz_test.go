package pylit_test

import (
	"errors"
	"testing"

	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/pylit"
)

// FuzzParse checks ParseValue and ParseCalls on any text: they never
// panic; what they accept is JSON (it marshals and decodes back to the
// same text, once ParseCalls's tuples are made lists), each call placed
// where Locate places its offset; what they refuse is a *SyntaxError
// placed inside the text.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`[get_weather(city="Paris", days=1), f(a=[1,2], b={'k': True})]`,
		`[{'tool_name': 'get_weather', 'tool_input': {'city': 'Paris'}}]`,
		`{'a': (1, 2.5e-3, -0x1F, None), "b": r'\d+' 'x', 1: '''t'''}`,
		`f(a=g(b=1), c=h(2), d=..., e=name)`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := pylit.ParseValue(s)
		check(t, s, v, err)
		if calls, err := pylit.DecodePrompting(s); err == nil {
			for _, c := range calls {
				if line, col := pylit.Locate(s, c.Offset); c.Line != line || c.Col != col {
					t.Fatalf("DecodePrompting(%q): %s at %d:%d, Locate says %d:%d", s, c.Name, c.Line, c.Col, line, col)
				}
			}
		}
		calls, err := pylit.ParseCalls(s)
		if err != nil {
			check(t, s, nil, err)
			return
		}
		for _, c := range calls {
			if c.Name == "" || c.Args == nil || c.Line < 1 || c.Col < 1 {
				t.Fatalf("ParseCalls(%q) gave a call %+v", s, c)
			}
			check(t, s, pylit.JSON(c.Args), nil)
			if line, col := pylit.Locate(s, c.Offset); c.Line != line || c.Col != col {
				t.Fatalf("ParseCalls(%q): %s at %d:%d, Locate says %d:%d", s, c.Name, c.Line, c.Col, line, col)
			}
		}
	})
}

func check(t *testing.T, s string, v any, err error) {
	t.Helper()
	if err != nil {
		var se *pylit.SyntaxError
		if !errors.As(err, &se) || se.Line < 1 || se.Col < 1 || se.Offset < 0 || se.Offset > len(s) {
			t.Fatalf("%q: error %#v is not a placed *SyntaxError", s, err)
		}
		return
	}
	j := jsonv.Marshal(v)
	back, derr := jsonv.Decode([]byte(j))
	if derr != nil {
		t.Fatalf("%q: the value %s is not JSON: %v", s, j, derr)
	}
	if again := jsonv.Marshal(back); again != j {
		t.Fatalf("%q: %s decodes back as %s", s, j, again)
	}
}
