// Package judge registers the LLM-judged evaluator types
// (AgentV's llm_judge, with its newer name llm_grader), so suites that use
// them load and validate.
//
// trajeval has no judge client yet: a judged evaluator is checked like any
// other, then refused with a configuration error at load (validate and
// eval exit 2), never a silent pass or a made-up score. Its default
// threshold is 0.5.
package judge

import (
	"context"
	"errors"
	"os"
	"path/filepath"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval"
)

// ErrNoJudge is returned by every judged evaluator until a judge client
// exists.
var ErrNoJudge = errors.New("no judge configured: LLM-judged evaluators cannot run in this version of trajeval")

func init() {
	eval.Register(eval.Spec{
		Type:      "llm_judge",
		Aliases:   []string{"llm_grader"},
		Keys:      []string{"prompt", "rubrics", "model", "target", "temperature", "max_steps"},
		Threshold: 0.5,
		Build:     build,
	})
}

type judged struct{ prompt string }

func build(n *config.Node, env *eval.Env) (trajeval.Evaluator, error) {
	p := n.Get("prompt")
	if p == nil && n.Get("rubrics") == nil {
		return nil, n.Errorf("llm_judge needs a prompt or rubrics")
	}
	j := &judged{}
	if p != nil {
		s, err := p.Str()
		if err != nil {
			return nil, err
		}
		j.prompt = s
		// A prompt that names a file must name one that exists.
		if ext := filepath.Ext(s); (ext == ".md" || ext == ".txt") && !containsNewline(s) {
			path := s
			if !filepath.IsAbs(path) {
				path = filepath.Join(env.Dir, path)
			}
			if _, err := os.Stat(path); err != nil {
				return nil, p.Errorf("prompt file %s cannot be read", s)
			}
		}
	}
	return nil, n.Get("type").Errorf("%s cannot run in this version of trajeval: it has no judge client", n.Get("type").Text).
		With("score the case with deterministic evaluators such as tool_trajectory, or remove this one")
}

func containsNewline(s string) bool {
	for _, r := range s {
		if r == '\n' {
			return true
		}
	}
	return false
}

func (j *judged) Evaluate(context.Context, *trajeval.Trajectory) (trajeval.Outcome, error) {
	return trajeval.Outcome{}, ErrNoJudge
}
