package mine

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/escape"
	"github.com/trajeval/trajeval/internal/eval"
	"github.com/trajeval/trajeval/internal/run"
	"github.com/trajeval/trajeval/internal/suite"
)

// A Checked suite: its evaluators and how many runs passed.
type Checked struct {
	Evaluators     []*eval.Configured
	Passed, Failed int
	First          string // why the first run that failed did not pass
}

// Check loads the suite in y and scores it on every run. The error is a
// suite that does not load.
func Check(ctx context.Context, y []byte, runs []*trajeval.Trajectory) (Checked, error) {
	s, errs := suite.LoadYAML("mined.yaml", y, suite.Options{})
	if len(errs) > 0 {
		return Checked{}, fmt.Errorf("the mined suite does not load: %w", errors.Join(errs...))
	}
	c := Checked{Evaluators: s.Evaluators}
	cs := &suite.Case{Evaluators: s.Evaluators}
	for i, t := range runs {
		r := run.Score(ctx, s, cs, t)
		if r.Status == trajeval.StatusPass {
			c.Passed++
			continue
		}
		c.Failed++
		if c.First == "" {
			c.First = fmt.Sprintf("run %d%s: %s", i+1, idOf(t), failure(r))
		}
	}
	return c, nil
}

func idOf(t *trajeval.Trajectory) string {
	if t.ID == "" {
		return ""
	}
	return " (" + t.ID + ")"
}

// failure says why a case did not pass.
func failure(r trajeval.CaseResult) string {
	var why []string
	if r.Error != "" {
		why = append(why, r.Error)
	}
	for _, e := range r.Evaluators {
		if e.Status == trajeval.StatusPass {
			continue
		}
		w := fmt.Sprintf("%s %s %.2f", e.Name, e.Status, e.Score)
		if e.Error != "" {
			w += ": " + e.Error
		}
		if d := e.Details; d != nil {
			for _, m := range d.Missing {
				w += fmt.Sprintf(", %s (expected call %d) missing", m.Tool, m.Item)
				if len(m.Near) > 0 && len(m.Near[0].Diffs) > 0 {
					w += fmt.Sprintf(" (step %d: %s)", m.Near[0].Step, m.Near[0].Diffs[0])
				}
			}
			for _, x := range d.Extra {
				w += fmt.Sprintf(", step %d %s not expected", x.Step, x.Tool)
			}
		}
		why = append(why, w)
	}
	return escape.Text(strings.Join(why, "; "))
}
