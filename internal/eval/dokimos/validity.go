package dokimos

import (
	"context"
	"fmt"
	"strings"

	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval"
	"github.com/trajeval/trajeval/internal/suggest"
	"github.com/trajeval/trajeval/internal/trajeval"
)

func specsValidity() []eval.Spec {
	var out []eval.Spec
	out = append(out, eval.Spec{
		Type:      "tool_call_validity",
		Aliases:   []string{"dokimos-tool-call-validity"},
		Keys:      append([]string{"strict"}, toolKeys...),
		Threshold: 1,
		Build:     buildValidity,
	})
	return out
}

// Validity is tool_call_validity: each call checked against its tool's
// JSON Schema.
type Validity struct {
	Tools  map[string]*Tool
	names  []string
	Strict bool
}

func buildValidity(n *config.Node, env *eval.Env) (trajeval.Evaluator, error) {
	tools, err := loadTools(n, env)
	if err != nil {
		return nil, err
	}
	v := &Validity{Tools: map[string]*Tool{}, names: toolNames(tools)}
	for _, t := range tools {
		v.Tools[t.Name] = t
	}
	if s := n.Get("strict"); s != nil {
		if v.Strict, err = s.BoolValue(); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// Evaluate scores t.
func (v *Validity) Evaluate(_ context.Context, t *trajeval.Trajectory) (trajeval.Outcome, error) {
	d := &trajeval.Details{Mode: "schema", Actual: len(t.Steps)}
	if v.Strict {
		d.Mode = "strict schema"
	}
	for j := range t.Steps {
		s := &t.Steps[j]
		tool, ok := v.Tools[s.Name]
		if !ok {
			msg := "unknown tool"
			if c := suggest.Closest(s.Name, v.names); c != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", c)
			}
			d.Checks = append(d.Checks, trajeval.Check{Name: stepLabel(s, j), Status: trajeval.CheckFail, Message: msg})
			continue
		}
		fails := tool.validate(s.Args, v.Strict)
		if len(fails) == 0 {
			d.Hits++
			continue
		}
		msgs := make([]string, len(fails))
		for i, f := range fails {
			msgs[i] = f.String()
		}
		d.Checks = append(d.Checks, trajeval.Check{Name: stepLabel(s, j), Status: trajeval.CheckFail, Message: strings.Join(msgs, "; ")})
	}
	return trajeval.Outcome{Score: eval.Ratio(d.Hits, len(t.Steps), 1), Details: d}, nil
}
