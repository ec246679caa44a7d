package dokimos

import (
	"context"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/align"
	"github.com/trajeval/trajeval/internal/argmatch"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval"
	"github.com/trajeval/trajeval/internal/eval/calls"
)

func init() {
	eval.Register(eval.Spec{
		Type:      "tool_correctness",
		Aliases:   []string{"dokimos-tool-correctness"},
		Keys:      []string{"expected", "match", "args_match", "trim", "case_insensitive"},
		Threshold: 1,
		Build:     buildCorrectness,
	})
}

// The match modes of tool_correctness.
const (
	NamesOnly     = "names_only"
	NamesAndOrder = "names_and_order"
	NamesAndArgs  = "names_and_args"
)

// Correctness is tool_correctness.
type Correctness struct {
	Match    string
	Expected []calls.Item
}

func buildCorrectness(n *config.Node, _ *eval.Env) (trajeval.Evaluator, error) {
	c := &Correctness{Match: NamesOnly}
	var err error
	if v := n.Get("match"); v != nil {
		if c.Match, err = v.Enum(NamesOnly, NamesAndOrder, NamesAndArgs); err != nil {
			return nil, err
		}
	}
	def := trajeval.ArgsMatch{Mode: trajeval.ArgsExact}
	if v := n.Get("args_match"); v != nil {
		if def, err = argsMatch(v); err != nil {
			return nil, err
		}
	}
	var opt argmatch.Options
	for key, p := range map[string]*bool{"trim": &opt.Trim, "case_insensitive": &opt.CaseInsensitive} {
		if v := n.Get(key); v != nil {
			if *p, err = v.BoolValue(); err != nil {
				return nil, err
			}
		}
	}
	ev := n.Get("expected")
	if ev == nil {
		return nil, n.Errorf("missing expected").With("list the expected calls: expected: [{tool: name, args: {...}}]")
	}
	items, err := ev.List()
	if err != nil {
		return nil, err
	}
	for _, it := range items {
		item, err := expectedItem(it, def, opt, c.Match == NamesAndArgs)
		if err != nil {
			return nil, err
		}
		c.Expected = append(c.Expected, item)
	}
	return c, nil
}

// argsMatch reads an args_match value: a mode name or a list of paths.
func argsMatch(v *config.Node) (trajeval.ArgsMatch, error) {
	if v.Kind == config.List {
		paths, err := v.Strings()
		return trajeval.ArgsMatch{Mode: trajeval.ArgsPaths, Paths: paths}, err
	}
	s, err := v.Enum(argmatch.Modes...)
	if err != nil {
		return trajeval.ArgsMatch{}, err
	}
	m, _ := argmatch.ParseMode(s)
	return trajeval.ArgsMatch{Mode: m}, nil
}

// expectedItem reads one expected call: a name, or {tool, args, args_match}.
func expectedItem(n *config.Node, def trajeval.ArgsMatch, opt argmatch.Options, useArgs bool) (calls.Item, error) {
	if n.Kind == config.String {
		return calls.Item{Tool: n.Text}, nil
	}
	if n.Kind != config.Map {
		return calls.Item{}, n.Errorf("an expected call is {tool, args}, got %s", n.Kind)
	}
	if err := n.Check("tool", "name", "args", "args_match"); err != nil {
		return calls.Item{}, err
	}
	tn, _ := n.First("tool", "name")
	if tn == nil {
		return calls.Item{}, n.Errorf("the expected call has no tool").With("give tool: <name>")
	}
	tool, err := tn.Name()
	if err != nil {
		return calls.Item{}, err
	}
	m := def
	if v := n.Get("args_match"); v != nil {
		if m, err = argsMatch(v); err != nil {
			return calls.Item{}, err
		}
	}
	var args any
	a := n.Get("args")
	if a != nil && !(a.Kind == config.String && a.Text == "any") {
		args = a.Value()
	}
	mt, err := argmatch.New(args, m, opt)
	if err != nil {
		if ce, ok := err.(*argmatch.CompileError); ok && a != nil {
			e := a.At(ce.Path...).Errorf("%s", ce.Error())
			e.Hint = ce.Hint
			return calls.Item{}, e
		}
		return calls.Item{}, n.Errorf("%v", err)
	}
	if !useArgs {
		return calls.Item{Tool: tool}, nil
	}
	return calls.Args(tool, mt), nil
}

// Evaluate scores t.
func (c *Correctness) Evaluate(_ context.Context, t *trajeval.Trajectory) (trajeval.Outcome, error) {
	d := &trajeval.Details{Mode: c.Match}
	ne, na := len(c.Expected), len(t.Steps)
	var score float64
	switch c.Match {
	case NamesOnly:
		// Explain with a name-only matching; score on the name sets.
		a := align.AnyOrder(calls.Relate(c.Expected, t.Steps))
		calls.Explain(d, c.Expected, t.Steps, a)
		want, got := map[string]bool{}, map[string]bool{}
		for _, it := range c.Expected {
			want[it.Tool] = true
		}
		for _, s := range t.Steps {
			got[s.Name] = true
		}
		common := 0
		for n := range want {
			if got[n] {
				common++
			}
		}
		score = f1(common, len(want), len(got))
		d.Notes = map[string]any{"expected_tools": len(want), "actual_tools": len(got), "common_tools": common}
	case NamesAndOrder:
		a := align.InOrder(calls.Relate(c.Expected, t.Steps))
		calls.Explain(d, c.Expected, t.Steps, a)
		score = eval.Ratio(len(a.Pairs), max(ne, na), 1)
	case NamesAndArgs:
		a := align.AnyOrder(calls.Relate(c.Expected, t.Steps))
		calls.Explain(d, c.Expected, t.Steps, a)
		score = f1(len(a.Pairs), ne, na)
	}
	return trajeval.Outcome{Score: score, Details: d}, nil
}

// f1 is 2·hits / (want + got): 1 when both are empty, 0 when one is.
func f1(hits, want, got int) float64 {
	if want+got == 0 {
		return 1
	}
	return 2 * float64(hits) / float64(want+got)
}
