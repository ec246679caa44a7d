package uipath

import (
	"strings"

	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval"
	"github.com/trajeval/trajeval/internal/eval/calls"
	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/trajeval"
)

func specsOutput() []eval.Spec {
	var out []eval.Spec
	out = append(out, eval.Spec{
		Type:      "tool_call_output",
		Aliases:   []string{"uipath-tool-call-output"},
		Keys:      []string{"tool_outputs", "strict"},
		Threshold: 1,
		Build:     buildOutput,
	})
	return out
}

func buildOutput(n *config.Node, _ *eval.Env) (trajeval.Evaluator, error) {
	v, err := required(n, "tool_outputs")
	if err != nil {
		return nil, err
	}
	list, err := nonEmptyList(v, "tool_outputs", "output {name, output}")
	if err != nil {
		return nil, err
	}
	m := &Matching{mode: "output"}
	for _, it := range list {
		if err := it.Check("name", "tool", "output"); err != nil {
			return nil, err
		}
		name, err := toolName(it)
		if err != nil {
			return nil, err
		}
		o := it.Get("output")
		if o == nil {
			return nil, it.Errorf("the expected output of %s is missing", name).With("give output: <value>")
		}
		want := o.Value()
		key := jsonv.Marshal(want)
		m.Items = append(m.Items, calls.Item{
			Tool:  name,
			Key:   key,
			Match: func(s *trajeval.Step) bool { return OutputEqual(want, s.Result) },
			Diff: func(s *trajeval.Step) []trajeval.ArgDiff {
				return []trajeval.ArgDiff{{Path: "output", Want: render(want), Got: render(s.Result)}}
			},
		})
	}
	if m.Strict, err = boolKey(n, "strict"); err != nil {
		return nil, err
	}
	if m.Strict {
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
