package dokimos

import (
	"context"

	"github.com/trajeval/trajeval/internal/align"
	"github.com/trajeval/trajeval/internal/argmatch"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval"
	"github.com/trajeval/trajeval/internal/eval/calls"
	"github.com/trajeval/trajeval/internal/eval/settings"
	"github.com/trajeval/trajeval/internal/trajeval"
)

func specsCorrectness() []eval.Spec {
	var out []eval.Spec
	out = append(out, eval.Spec{
		Type:      "tool_correctness",
		Aliases:   []string{"dokimos-tool-correctness"},
		Keys:      []string{"expected", "match", "args_match", "trim", "case_insensitive"},
		Threshold: 1,
		Build:     buildCorrectness,
	})
	return out
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
		if def, err = settings.ArgsMatch(v); err != nil {
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
	expected, err := settings.Calls(ev)
	if err != nil {
		return nil, err
	}
	for i, e := range expected {
		if e.MaxDurationMS != nil {
			return nil, ev.Items[i].Errorf("tool_correctness does not check max_duration_ms").With("use tool_trajectory for latency checks")
		}
		if c.Match != NamesAndArgs {
			expected[i].Args, expected[i].ArgsMatch = nil, trajeval.ArgsMatch{} // names only
		}
	}
	if c.Expected, err = calls.Compile(expected, def, opt); err != nil {
		return nil, n.Errorf("%v", err)
	}
	return c, nil
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
		calls.Explain(d, c.Expected, t.Steps, a, calls.Unordered)
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
		calls.Explain(d, c.Expected, t.Steps, a, calls.Ordered)
		score = eval.Ratio(len(a.Pairs), max(ne, na), 1)
	case NamesAndArgs:
		a := align.AnyOrder(calls.Relate(c.Expected, t.Steps))
		calls.Explain(d, c.Expected, t.Steps, a, calls.Unordered)
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
