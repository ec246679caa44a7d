package dokimos

import (
	"context"
	"regexp"
	"strings"

	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval"
	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/trajeval"
)

func specsToolerror() []eval.Spec {
	var out []eval.Spec
	out = append(out, eval.Spec{
		Type:      "tool_error",
		Aliases:   []string{"dokimos-tool-error"},
		Keys:      []string{"treat_blank_as_error", "pattern"},
		Threshold: 1,
		Build:     buildToolError,
	})
	return out
}

// ToolError is tool_error: the fraction of calls that succeeded.
type ToolError struct {
	BlankIsError bool
	Pattern      *regexp.Regexp // nil: none
}

func buildToolError(n *config.Node, _ *eval.Env) (trajeval.Evaluator, error) {
	e := &ToolError{BlankIsError: true}
	var err error
	if v := n.Get("treat_blank_as_error"); v != nil {
		if e.BlankIsError, err = v.BoolValue(); err != nil {
			return nil, err
		}
	}
	if v := n.Get("pattern"); v != nil {
		s, err := v.Str()
		if err != nil {
			return nil, err
		}
		if e.Pattern, err = regexp.Compile(s); err != nil {
			return nil, v.Errorf("invalid pattern: %v", err)
		}
	}
	return e, nil
}

// Failure says why a step failed, or "" when it succeeded.
func (e *ToolError) Failure(s *trajeval.Step) string {
	if s.Failed() {
		if s.ErrorMessage != "" {
			return "error: " + s.ErrorMessage
		}
		return "the step is marked as failed"
	}
	r := s.Result
	if str, ok := r.(string); ok {
		if strings.TrimSpace(str) == "" {
			r = nil
		} else if v, err := jsonv.Decode([]byte(strings.TrimSpace(str))); err == nil {
			if _, isObj := v.(map[string]any); isObj {
				r = v
			}
		}
	}
	if r == nil {
		if e.BlankIsError {
			return "no result"
		}
		return ""
	}
	if m, ok := r.(map[string]any); ok {
		if ev, has := m["error"]; has && ev != nil {
			return "result has an error field: " + clip(jsonv.Marshal(ev))
		}
	}
	if e.Pattern != nil {
		text, ok := s.Result.(string)
		if !ok {
			text = jsonv.Marshal(s.Result)
		}
		if e.Pattern.MatchString(text) {
			return "result matches " + e.Pattern.String()
		}
	}
	return ""
}

func clip(s string) string {
	const max = 120
	if len(s) > max {
		return s[:max] + "…"
	}
	return s
}

// Evaluate scores t.
func (e *ToolError) Evaluate(_ context.Context, t *trajeval.Trajectory) (trajeval.Outcome, error) {
	d := &trajeval.Details{Mode: "errors", Actual: len(t.Steps)}
	anyResult := false
	for j := range t.Steps {
		s := &t.Steps[j]
		if s.Result != nil || s.Error != nil {
			anyResult = true
		}
		if why := e.Failure(s); why != "" {
			d.Checks = append(d.Checks, trajeval.Check{Name: stepLabel(s, j), Status: trajeval.CheckFail, Message: why})
			continue
		}
		d.Hits++
	}
	if len(t.Steps) > 0 && !anyResult && e.BlankIsError {
		d.Warnings = append(d.Warnings, "the trace reports no tool results: every call counts as failed (set treat_blank_as_error: false to count only reported errors)")
	}
	return trajeval.Outcome{Score: eval.Ratio(d.Hits, len(t.Steps), 1), Details: d}, nil
}
