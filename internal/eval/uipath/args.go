package uipath

import (
	"context"

	"github.com/trajeval/trajeval/internal/align"
	"github.com/trajeval/trajeval/internal/argmatch"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval"
	"github.com/trajeval/trajeval/internal/eval/calls"
	"github.com/trajeval/trajeval/internal/trajeval"
)

func specsArgs() []eval.Spec {
	var out []eval.Spec
	out = append(out, eval.Spec{
		Type:      "tool_call_args",
		Aliases:   []string{"uipath-tool-call-args"},
		Keys:      []string{"tool_calls", "strict", "subset"},
		Threshold: 1,
		Build:     buildArgs,
	})
	return out
}

// Matching is tool_call_args and tool_call_output: expected calls paired
// with steps in any order by a maximum matching.
type Matching struct {
	Items  []calls.Item
	Strict bool
	mode   string
}

func buildArgs(n *config.Node, _ *eval.Env) (trajeval.Evaluator, error) {
	v, err := required(n, "tool_calls")
	if err != nil {
		return nil, err
	}
	list, err := nonEmptyList(v, "tool_calls", "call {name, args}")
	if err != nil {
		return nil, err
	}
	subset, err := boolKey(n, "subset")
	if err != nil {
		return nil, err
	}
	m := &Matching{mode: "exact"}
	am := trajeval.ArgsMatch{Mode: trajeval.ArgsExact}
	if subset {
		am.Mode, m.mode = trajeval.ArgsPartial, "subset"
	}
	for _, it := range list {
		if err := it.Check("name", "tool", "args"); err != nil {
			return nil, err
		}
		name, err := toolName(it)
		if err != nil {
			return nil, err
		}
		// No args: any arguments match (UiPath always gives an object).
		var args any
		if a := it.Get("args"); a != nil {
			if a.Kind != config.Map {
				return nil, a.Errorf("args must be an object, got %s", a.Kind)
			}
			args = a.Value()
		}
		mt, err := argmatch.New(args, am, argmatch.Options{})
		if err != nil {
			return nil, compileErr(it.Get("args"), err)
		}
		m.Items = append(m.Items, calls.Args(name, mt))
	}
	if m.Strict, err = boolKey(n, "strict"); err != nil {
		return nil, err
	}
	if m.Strict {
		m.mode = "strict " + m.mode
	}
	return m, nil
}

// compileErr places an argmatch compile error at the args node.
func compileErr(args *config.Node, err error) error {
	if ce, ok := err.(*argmatch.CompileError); ok && args != nil {
		e := args.At(ce.Path...).Errorf("%s", ce.Error())
		e.Hint = ce.Hint
		return e
	}
	return args.Errorf("%v", err)
}

// Evaluate scores t.
func (m *Matching) Evaluate(_ context.Context, t *trajeval.Trajectory) (trajeval.Outcome, error) {
	a := align.AnyOrder(calls.Relate(m.Items, t.Steps))
	d := newDetails(m.mode)
	calls.Explain(d, m.Items, t.Steps, a, calls.Unordered)
	score := float64(d.Hits) / float64(len(m.Items))
	if m.Strict {
		score = binary(d.Hits, len(m.Items))
	}
	return trajeval.Outcome{Score: score, Details: d}, nil
}
