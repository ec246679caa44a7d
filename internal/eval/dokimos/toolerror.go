package dokimos

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/score"
)

// ToolError is tool_error: the fraction of calls that succeeded.
type ToolError struct {
	BlankIsError bool
	Pattern      *regexp.Regexp // nil: none
}

// NewToolError builds tool_error: blankIsError counts a call with no
// result as failed; pattern, when not "", is a regular expression whose
// match in a result marks it failed (an invalid one is an error).
func NewToolError(blankIsError bool, pattern string) (*ToolError, error) {
	e := &ToolError{BlankIsError: blankIsError}
	if pattern != "" {
		re, err := regexp.Compile(pattern)
		if err != nil {
			return nil, fmt.Errorf("invalid pattern: %v", err)
		}
		e.Pattern = re
	}
	return e, nil
}

// ReadsText says that the evaluator reads results through
// trajeval.Decoded (see eval.TextReader), and no arguments.
func (*ToolError) ReadsText() bool { return true }

// Failure says why step s, whose result as a value is result, failed,
// or "" when it succeeded.
func (e *ToolError) Failure(s *trajeval.Step, result any) string {
	if s.Failed() {
		if s.ErrorMessage != "" {
			return "error: " + s.ErrorMessage
		}
		return "the step is marked as failed"
	}
	r := result
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
		text, ok := result.(string)
		if !ok {
			text = jsonv.Marshal(result)
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
		var result any
		if !s.Failed() {
			var err error
			if result, err = trajeval.Decoded(s.Result); err != nil {
				return trajeval.Outcome{}, fmt.Errorf("the trace's arguments or results: %s's result: %w", stepLabel(s, j), err)
			}
		}
		if why := e.Failure(s, result); why != "" {
			d.Checks = append(d.Checks, trajeval.Check{Name: stepLabel(s, j), Status: trajeval.CheckFail, Message: why})
			continue
		}
		d.Hits++
	}
	if len(t.Steps) > 0 && !anyResult && e.BlankIsError {
		d.Warnings = append(d.Warnings, "the trace reports no tool results: every call counts as failed (set treat_blank_as_error: false to count only reported errors)")
	}
	return trajeval.Outcome{Score: score.Ratio(d.Hits, len(t.Steps), 1), Details: d}, nil
}
