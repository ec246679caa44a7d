package dokimos

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"

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

// failure is Failure of step s, its result decoded where it is JSON
// text (see trajeval.Decoded). Without a pattern, only the member "error"
// of an object or array's text is looked at: the text is read for it, and
// only its value decoded. Other text (null, a scalar: never kept by a
// reader, or a nil *json.RawMessage) is decoded, so that it counts as its
// value does (no result, a blank one).
func (e *ToolError) failure(s *trajeval.Step, p **jsonv.Parser) (string, error) {
	raw, ok := trajeval.KeptText(s.Result)
	switch {
	case !ok || s.Failed():
		return e.Failure(s, s.Result), nil
	case e.Pattern != nil, len(raw) == 0, raw[0] != '{' && raw[0] != '[':
		return e.decodedFailure(s, raw)
	}
	if !bytes.Contains(raw, []byte(`"error"`)) && bytes.IndexByte(raw, '\\') < 0 {
		// No key can be "error", even escaped: a reader checked the text.
		return "", nil
	}
	if *p == nil {
		*p = parsers.Get().(*jsonv.Parser)
	}
	ev, ok := errorMember(*p, raw)
	switch {
	case !ok:
		// Text the parser does not take whole (invalid UTF-8, which
		// decoding replaces) is decoded.
		return e.decodedFailure(s, raw)
	case ev == nil:
		return "", nil
	}
	return "result has an error field: " + clip(jsonv.Marshal(ev)), nil
}

// none reports whether a step's result is no value: nil, or the JSON
// text null (a nil *json.RawMessage, see trajeval.KeptText), which
// decodes to nil.
func none(v any) bool {
	if v == nil {
		return true
	}
	text, ok := trajeval.KeptText(v)
	return ok && string(text) == "null"
}

// decodedFailure is Failure of step s with its result text raw decoded.
func (e *ToolError) decodedFailure(s *trajeval.Step, raw json.RawMessage) (string, error) {
	r, err := trajeval.Decoded(raw)
	if err != nil {
		return "", err
	}
	return e.Failure(s, r), nil
}

// parsers are the parsers errorMember reads with: each keeps some 8 KB
// of caches.
var parsers = sync.Pool{New: func() any { return new(jsonv.Parser) }}

// errorMember reads with p the value of the member "error" of the JSON
// text raw when raw is an object, the last such member as decoding keeps
// the last, or nil when it has none (or is not an object). The other
// members are skipped, not decoded. ok is false when p cannot read raw.
func errorMember(p *jsonv.Parser, raw json.RawMessage) (v any, ok bool) {
	p.Reset(raw)
	start, end := -1, -1
	if p.Peek() == '{' {
		ok = p.Object(func(key []byte) bool {
			if string(key) != "error" {
				return p.Skip()
			}
			var ok bool
			start, end, ok = p.Span()
			return ok
		})
	} else {
		ok = p.Skip()
	}
	if !ok || !p.End() {
		return nil, false
	}
	if start < 0 {
		return nil, true
	}
	v, err := jsonv.Decode(raw[start:end])
	return v, err == nil
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
	var p *jsonv.Parser // taken when a result is text
	defer func() {
		if p != nil {
			parsers.Put(p)
		}
	}()
	for j := range t.Steps {
		s := &t.Steps[j]
		if !none(s.Result) || s.Error != nil {
			anyResult = true
		}
		why, err := e.failure(s, &p)
		if err != nil {
			return trajeval.Outcome{}, fmt.Errorf("the trace's arguments or results: %s's result: %w", stepLabel(s, j), err)
		}
		if why != "" {
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
