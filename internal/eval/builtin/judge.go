package builtin

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval/code"
	evaljudge "github.com/trajeval/trajeval/internal/eval/judge"
	"github.com/trajeval/trajeval/internal/eval/spec"
)

// The judges and code graders: llm_judge's prompt, criteria and judge
// keys, read into evaljudge.Options, and code's command and timeout, read
// into code.Options.

var llmJudgeSpec = spec.Spec{
	Type:      "llm_judge",
	Aliases:   []string{"llm_grader"},
	Keys:      []string{"prompt", "criteria", "rubrics", "model", "temperature", "judge"},
	Threshold: 0.5,
	Build:     buildLLMJudge,
}

var codeSpec = spec.Spec{
	Type:      "code",
	Aliases:   []string{"code_judge", "code_grader"},
	Keys:      []string{"command", "script", "timeout"},
	Threshold: 0.5,
	Build:     buildCode,
}

func buildLLMJudge(n *config.Node, env *spec.Env) (trajeval.Evaluator, error) {
	o := evaljudge.Options{Case: env.Case}
	if p := n.Get("prompt"); p != nil {
		text, err := promptText(p, env.Dir)
		if err != nil {
			return nil, err
		}
		if o.Prompt, err = evaljudge.ParsePrompt(text); err != nil {
			return nil, spec.Place(p, err)
		}
	}
	crit, key := n.First("criteria", "rubrics")
	if crit != nil {
		if k2 := "rubrics"; key != k2 && n.Has(k2) {
			return nil, n.Get(k2).Errorf("give criteria or rubrics, not both")
		}
		var err error
		if o.Criteria, err = criteria(crit); err != nil {
			return nil, err
		}
	}
	if n.Get("prompt") == nil && crit == nil {
		return nil, n.Errorf("llm_judge needs a prompt or criteria").With("e.g. prompt: \"Is {{candidate_answer}} correct?\"")
	}
	var err error
	if o.Judge, err = env.Judge(n, false); err != nil {
		return nil, err
	}
	e, err := evaljudge.New(o)
	if err != nil {
		return nil, spec.Place(n, err)
	}
	return e, nil
}

// promptText reads an inline prompt, or a prompt file: a one-line value
// that starts with ./ or ../, or ends in .md, .txt, .prompt or .tmpl,
// relative to the suite's folder.
func promptText(p *config.Node, dir string) (string, error) {
	s, err := p.Str()
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(s) == "" {
		return "", p.Errorf("prompt is empty")
	}
	if !isPromptPath(s) {
		return s, nil
	}
	path := s
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	data, err := config.ReadFile(path)
	if err != nil {
		e := p.Errorf("prompt file %s cannot be read: %s", s, config.FileErr(err))
		if os.IsNotExist(err) {
			e.Hint = "the path is relative to the suite's folder: " + path + " does not exist"
		}
		return "", e
	}
	if strings.TrimSpace(string(data)) == "" {
		return "", p.Errorf("prompt file %s is empty", s)
	}
	return string(data), nil
}

func isPromptPath(s string) bool {
	if strings.ContainsAny(s, "\n{}") {
		return false
	}
	if strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../") {
		return true
	}
	switch strings.ToLower(filepath.Ext(s)) {
	case ".md", ".txt", ".prompt", ".tmpl":
		return !strings.Contains(s, " ")
	}
	return false
}

// criteria reads a list of criteria: texts, or maps with description (or
// criterion, outcome), name (or id), weight and required.
func criteria(n *config.Node) ([]evaljudge.Criterion, error) {
	items, err := n.List()
	if err != nil {
		return nil, err
	}
	if len(items) == 0 {
		return nil, n.Errorf("the list of criteria is empty")
	}
	var out []evaljudge.Criterion
	for i, it := range items {
		c := evaljudge.Criterion{Name: fmt.Sprintf("criterion %d", i+1), Weight: 1}
		switch it.Kind {
		case config.String:
			c.Text = it.Text
		case config.Map:
			if err := it.Check("name", "id", "description", "criterion", "outcome", "weight", "required"); err != nil {
				return nil, err
			}
			if v, _ := it.First("name", "id"); v != nil {
				if c.Name, err = v.Name(); err != nil {
					return nil, err
				}
			}
			v, _ := it.First("description", "criterion", "outcome")
			if v == nil {
				return nil, it.Errorf("criterion has no description").With("give description: what the work must do")
			}
			if c.Text, err = v.Str(); err != nil {
				return nil, err
			}
			if w := it.Get("weight"); w != nil {
				if c.Weight, err = w.NonNegative(); err != nil {
					return nil, err
				}
			}
			if r := it.Get("required"); r != nil {
				if c.Required, err = r.BoolValue(); err != nil {
					return nil, err
				}
			}
		default:
			return nil, it.Errorf("a criterion is a text or a map with description, got %s", it.Kind)
		}
		if strings.TrimSpace(c.Text) == "" {
			return nil, it.Errorf("criterion is empty")
		}
		out = append(out, c)
	}
	return out, nil
}

// buildCode reads the program (command, or script: a list, or one string
// split at spaces) and its timeout (seconds, or a duration).
func buildCode(n *config.Node, env *spec.Env) (trajeval.Evaluator, error) {
	cn, _ := n.First("command", "script")
	if cn == nil {
		return nil, n.Errorf("code needs a command").With(`e.g. command: ["python3", "check.py"]`)
	}
	if n.Has("command") && n.Has("script") {
		return nil, n.Get("script").Errorf("give command or script, not both")
	}
	var argv []string
	var err error
	if cn.Kind == config.String {
		argv = strings.Fields(cn.Text)
	} else if argv, err = cn.Strings(); err != nil {
		return nil, err
	}
	e, err := code.New(code.Options{Command: argv, Dir: env.Dir, Case: env.Case})
	if err != nil {
		return nil, spec.Place(cn, err)
	}
	if v := n.Get("timeout"); v != nil {
		if v.Kind == config.Number {
			f, err := v.Float()
			if err != nil || f <= 0 {
				return nil, v.Errorf("timeout must be a positive number of seconds")
			}
			e.Timeout = time.Duration(f * float64(time.Second))
		} else {
			s, err := v.Str()
			if err != nil {
				return nil, err
			}
			if e.Timeout, err = time.ParseDuration(s); err != nil || e.Timeout <= 0 {
				return nil, v.Errorf("timeout %q is not a duration", s).With(`give seconds (30) or a duration ("30s")`)
			}
		}
	}
	return e, nil
}
