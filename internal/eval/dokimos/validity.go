package dokimos

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/score"
	"github.com/trajeval/trajeval/internal/suggest"
)

// Validity is tool_call_validity: each call checked against its tool's
// JSON Schema.
type Validity struct {
	Tools  map[string]*Tool
	names  []string
	Strict bool
}

// NewValidity builds tool_call_validity over the tools. No tool, or two
// with one name, is an error.
func NewValidity(tools []*Tool, strict bool) (*Validity, error) {
	if len(tools) == 0 {
		return nil, errors.New("no tool definitions")
	}
	v := &Validity{Tools: map[string]*Tool{}, names: toolNames(tools), Strict: strict}
	for _, t := range tools {
		if _, dup := v.Tools[t.Name]; dup {
			return nil, fmt.Errorf("tool %q is defined twice", t.Name)
		}
		v.Tools[t.Name] = t
	}
	return v, nil
}

// ReadsText says that the evaluator is to be handed values, though it
// reads arguments through trajeval.Decoded (see eval.TextReader): it
// validates the arguments of every call of a defined tool, which the
// reader decodes at less cost than it scans them as text to be decoded
// after.
func (*Validity) ReadsText() bool { return false }

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
		args, err := trajeval.Decoded(s.Args)
		if err != nil {
			return trajeval.Outcome{}, fmt.Errorf("the trace's arguments or results: %s's arguments: %w", stepLabel(s, j), err)
		}
		fails := tool.validate(args, v.Strict)
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
	return trajeval.Outcome{Score: score.Ratio(d.Hits, len(t.Steps), 1), Details: d}, nil
}
