package adk

import (
	"context"
	"errors"
	"fmt"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/rouge"
)

// ResponseMatch is response_match_score.
type ResponseMatch struct {
	want      []*string
	threshold float64
}

// NewResponseMatch returns response_match_score for the expected
// invocations; threshold only sets the verdict shown for each invocation.
func NewResponseMatch(invocations []Invocation, threshold float64) *ResponseMatch {
	r := &ResponseMatch{threshold: threshold}
	for _, inv := range invocations {
		r.want = append(r.want, inv.FinalResponse)
	}
	return r
}

// errNoReference is the error of an eval case without expected responses.
var errNoReference = errors.New("no invocation has an expected final response to compare with")

// ReadsText says that the evaluator may be handed arguments and results
// kept as JSON text (see eval.TextReader): it looks only at the final
// responses.
func (*ResponseMatch) ReadsText() bool { return true }

// Evaluate scores t.
func (m *ResponseMatch) Evaluate(_ context.Context, t *trajeval.Trajectory) (trajeval.Outcome, error) {
	d := &trajeval.Details{Mode: "rouge1_f", Expected: len(m.want), Actual: len(t.Turns)}
	if w := countWarning(len(m.want), len(turns(t))); w != "" {
		d.Warnings = append(d.Warnings, w)
	}
	var sum float64
	var members []trajeval.Result
	for i, want := range m.want {
		if want == nil {
			continue
		}
		d.Hits++
		r := trajeval.Result{Name: fmt.Sprintf("invocation %d", i+1), Type: ResponseMetric, Threshold: m.threshold, Weight: 1, Required: true, Turn: i + 1, Details: &trajeval.Details{Mode: "rouge1_f"}}
		var got string
		switch {
		case i >= len(t.Turns):
			r.Details.Warnings = append(r.Details.Warnings, "the trace has no such turn")
		case t.Turns[i].FinalResponse == nil:
			r.Details.Warnings = append(r.Details.Warnings, "the turn has no final response")
		default:
			got = *t.Turns[i].FinalResponse
		}
		s := rouge.Rouge1(*want, got)
		r.Score = s.F
		r.Details.Notes = map[string]any{"precision": s.Precision, "recall": s.Recall, "expected": *want, "actual": got}
		r.Status = trajeval.StatusFail
		if s.F >= m.threshold-1e-9 {
			r.Status = trajeval.StatusPass
		}
		sum += s.F
		members = append(members, r)
	}
	if d.Hits == 0 {
		return trajeval.Outcome{}, errNoReference
	}
	// Hits counts the scored invocations here; the score is their mean.
	return trajeval.Outcome{Score: sum / float64(d.Hits), Details: d, Members: members}, nil
}
