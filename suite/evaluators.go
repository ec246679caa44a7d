package suite

import (
	"context"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/check"
	"github.com/trajeval/trajeval/internal/eval"
)

// evaluator is an evaluator of a loaded suite, with the settings its file
// gave it.
type evaluator struct{ c *eval.Configured }

// Evaluate returns the raw outcome; [check.Evaluate] applies the settings.
func (e evaluator) Evaluate(ctx context.Context, t *trajeval.Trajectory) (trajeval.Outcome, error) {
	return e.c.Eval.Evaluate(ctx, t)
}

// Settings returns the evaluator's settings from its suite file.
func (e evaluator) Settings() check.Settings {
	return check.Settings{Name: e.c.Name, Type: e.c.Type, Threshold: e.c.Threshold, Weight: e.c.Weight, Optional: !e.c.Required, Negate: e.c.Negate}
}

// Configured returns the evaluator as the suite configured it, so that
// check.Evaluate scores it exactly as a run does.
func (e evaluator) Configured() *eval.Configured { return e.c }
