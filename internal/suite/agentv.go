package suite

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval"
	"github.com/trajeval/trajeval/internal/judge"
)

// AgentV's YAML suite (seeds 000 and 001):
//
//	name: ...                    # also version, description, category, author, tags, license
//	traces: traces.jsonl         # the cases' trajectories, matched by id (optional)
//	judge: {model: ..., base_url: ...}   # the judge of judged evaluators (optional)
//	execution:
//	  evaluators: [...]          # or assertions: run on every case
//	evalcases:                   # or eval_cases, tests
//	  - id: case-1
//	    expected_outcome: ...    # or criteria
//	    input: "text"            # or [{role, content}], or input_messages
//	    trace: traces/case-1.json   # relative to the suite file
//	    execution:
//	      evaluators: [...]      # or assertions, at the case or under execution
//	    skip_defaults: true      # drop the suite's evaluators for this case
//	    turns:                   # a multi-turn case: per-turn expectations
//	      - input: ...
//	        evaluators: [...]
var (
	suiteKeys = []string{"name", "version", "description", "category", "author", "tags", "license", "requires", "metadata",
		"execution", "evalcases", "eval_cases", "tests", "input", "evaluators", "assertions", "threshold", "traces", "judge"}
	executionKeys = []string{"evaluators", "assertions", "target", "targets", "threshold", "skip_defaults", "workers"}
	caseKeys      = []string{"id", "expected_outcome", "criteria", "input", "input_messages", "expected_output", "expected_messages",
		"execution", "evaluators", "assertions", "trace", "skip_defaults", "metadata", "vars", "tags", "turns", "description", "conversation_id", "mode"}
	turnKeys = []string{"input", "input_messages", "expected_output", "expected_outcome", "criteria", "evaluators", "assertions", "execution"}
)

func agentvClaims(root *config.Node) bool {
	_, k := root.First("evalcases", "eval_cases", "tests")
	return k != ""
}

func loadAgentV(path string, root *config.Node, opts Options) (*Suite, []error) {
	if root.Kind != config.Map {
		return nil, []error{root.Errorf("a suite is a map with evalcases (or tests), got a %s", root.Kind)}
	}
	if err := root.Check(suiteKeys...); err != nil {
		return nil, []error{err}
	}
	s := &Suite{File: path, Name: strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))}
	var errs []error
	if n := root.Get("name"); n != nil {
		if name, err := n.Name(); err != nil {
			errs = append(errs, err)
		} else {
			s.Name = name
		}
	}
	threshold := opts.Threshold
	if b := root.Get("judge"); b != nil {
		// Checked even when no evaluator asks a judge: a setting is never
		// silently ignored.
		if _, err := judge.Resolve(func(string) string { return "" }, b); err != nil {
			errs = append(errs, err)
		}
	}
	if v := root.Get("traces"); v != nil {
		if p, err := v.Str(); err != nil {
			errs = append(errs, err)
		} else if p != "" {
			if !filepath.IsAbs(p) {
				p = filepath.Join(filepath.Dir(path), p)
			}
			s.Traces = p
		}
	}
	defaults, skip, err := evaluatorList(root, root.Get("execution"))
	if err != nil {
		errs = append(errs, err)
	}
	_ = skip
	cases, k := root.First("evalcases", "eval_cases", "tests")
	if cases == nil {
		return nil, append(errs, root.Errorf("suite has no cases").With("add evalcases: [{id: ..., ...}]"))
	}
	if k2 := otherKey(root, k, "evalcases", "eval_cases", "tests"); k2 != "" {
		errs = append(errs, root.Get(k2).Errorf("cases are given under both %s and %s", k, k2))
	}
	items, err := cases.List()
	if err != nil {
		return nil, append(errs, err)
	}
	ids := map[string]*config.Node{}
	dir := filepath.Dir(path)
	// The suite's evaluators are built once and shared by every case: they
	// depend on their configuration, not on the case.
	var shared []*eval.Configured
	if defaults != nil {
		var es []error
		shared, es = eval.BuildList(defaults, &eval.Env{Dir: dir, Threshold: threshold, Judges: opts.Judges, JudgeBlock: root.Get("judge")}, map[string]*config.Node{})
		errs = append(errs, es...)
	}
	for _, cn := range items {
		c, es := loadCase(cn, eval.Env{Dir: dir, Threshold: threshold, Judges: opts.Judges, JudgeBlock: root.Get("judge")}, shared, defaults != nil)
		errs = append(errs, es...)
		if c == nil {
			continue
		}
		if prev, dup := ids[c.ID]; dup {
			errs = append(errs, cn.Errorf("case id %q is used twice", c.ID).With("the other is at line %d", prev.Line))
			continue
		}
		ids[c.ID] = cn
		s.Cases = append(s.Cases, c)
	}
	return s, errs
}

func otherKey(n *config.Node, used string, keys ...string) string {
	for _, k := range keys {
		if k != used && n.Get(k) != nil && config.Canon(k) != config.Canon(used) {
			return k
		}
	}
	return ""
}

// evaluatorList finds the evaluators of a suite, case or turn: under
// execution.evaluators / execution.assertions or directly under the node.
func evaluatorList(n, exec *config.Node) (*config.Node, bool, error) {
	var found *config.Node
	var where string
	skip := false
	if exec != nil {
		if exec.Kind != config.Map {
			return nil, false, exec.Errorf("execution must be a map")
		}
		if err := exec.Check(executionKeys...); err != nil {
			return nil, false, err
		}
		if v, k := exec.First("evaluators", "assertions"); v != nil {
			found, where = v, "execution."+k
		}
		if v := exec.Get("skip_defaults"); v != nil {
			b, err := v.BoolValue()
			if err != nil {
				return nil, false, err
			}
			skip = b
		}
	}
	if v, _ := n.First("evaluators", "assertions"); v != nil {
		if found != nil {
			return nil, false, v.Errorf("evaluators are given both here and under %s", where).With("keep one list")
		}
		found = v
	}
	return found, skip, nil
}

func loadCase(cn *config.Node, base eval.Env, defaults []*eval.Configured, hasDefaults bool) (*Case, []error) {
	dir := base.Dir
	if cn.Kind != config.Map {
		return nil, []error{cn.Errorf("a case is a map with an id, got %s", cn.Kind)}
	}
	if err := cn.Check(caseKeys...); err != nil {
		return nil, []error{err}
	}
	c := &Case{Node: cn}
	idn := cn.Get("id")
	if idn == nil {
		return nil, []error{cn.Errorf("case has no id").With("add id: a-unique-name")}
	}
	var err error
	if c.ID, err = idn.Name(); err != nil {
		return nil, []error{err}
	}
	if c.ID == "" {
		return nil, []error{idn.Errorf("case id is empty")}
	}
	var errs []error
	if v, _ := cn.First("expected_outcome", "criteria"); v != nil {
		if c.ExpectedOutcome, err = v.Str(); err != nil {
			errs = append(errs, err)
		}
	}
	if v, _ := cn.First("input", "input_messages"); v != nil {
		if c.Input, err = inputText(v); err != nil {
			errs = append(errs, err)
		}
	}
	if v := cn.Get("trace"); v != nil {
		p, err := v.Str()
		if err != nil {
			errs = append(errs, err)
		} else if p == "" {
			errs = append(errs, v.Errorf("trace path is empty"))
		} else {
			if !filepath.IsAbs(p) {
				p = filepath.Join(dir, p)
			}
			c.Trace = p
		}
	}
	env := &base
	env.Case = eval.Case{ID: c.ID, Input: c.Input, ExpectedOutcome: c.ExpectedOutcome}
	own, skip, err := evaluatorList(cn, cn.Get("execution"))
	if err != nil {
		errs = append(errs, err)
	}
	if v := cn.Get("skip_defaults"); v != nil {
		b, err := v.BoolValue()
		if err != nil {
			errs = append(errs, err)
		}
		skip = skip || b
	}
	taken := map[string]*config.Node{}
	if !skip {
		for _, d := range defaults {
			taken[d.Name] = d.Node
		}
		c.Evaluators = append(c.Evaluators, defaults...)
	}
	if own != nil {
		list, es := eval.BuildList(own, env, taken)
		errs = append(errs, es...)
		c.Evaluators = append(c.Evaluators, list...)
	}
	if tn := cn.Get("turns"); tn != nil {
		turns, es := loadTurns(tn, env)
		errs = append(errs, es...)
		c.Turns = turns
	}
	if len(c.Evaluators) == 0 && len(c.Turns) == 0 && len(errs) == 0 && !(hasDefaults && !skip) {
		errs = append(errs, cn.Errorf("case %q has no evaluators", c.ID).With("add execution.evaluators to the case or the suite"))
	}
	return c, errs
}

func loadTurns(tn *config.Node, env *eval.Env) ([]*Turn, []error) {
	items, err := tn.List()
	if err != nil {
		return nil, []error{err}
	}
	var turns []*Turn
	var errs []error
	for _, it := range items {
		if it.Kind != config.Map {
			errs = append(errs, it.Errorf("a turn is a map with input and evaluators, got %s", it.Kind))
			continue
		}
		if err := it.Check(turnKeys...); err != nil {
			errs = append(errs, err)
			continue
		}
		t := &Turn{Node: it}
		if v, _ := it.First("input", "input_messages"); v != nil {
			if t.Input, err = inputText(v); err != nil {
				errs = append(errs, err)
			}
		}
		list, _, err := evaluatorList(it, it.Get("execution"))
		if err != nil {
			errs = append(errs, err)
		}
		if list != nil {
			turnEnv := *env
			turnEnv.Case.Input = t.Input
			evs, es := eval.BuildList(list, &turnEnv, map[string]*config.Node{})
			errs = append(errs, es...)
			t.Evaluators = evs
		}
		turns = append(turns, t)
	}
	if len(turns) == 0 && len(errs) == 0 {
		errs = append(errs, tn.Errorf("turns is empty"))
	}
	return turns, errs
}

// inputText flattens an input (a string, or messages with role and
// content) to the text of its user messages.
func inputText(n *config.Node) (string, error) {
	switch n.Kind {
	case config.String:
		return n.Text, nil
	case config.Null:
		return "", nil
	case config.List:
		var parts []string
		for _, m := range n.Items {
			if m.Kind != config.Map {
				return "", m.Errorf("an input message is a map with role and content, got %s", m.Kind)
			}
			if err := m.Check("role", "content", "name"); err != nil {
				return "", err
			}
			role := m.Get("role")
			if role == nil {
				return "", m.Errorf("input message has no role")
			}
			r, err := role.Str()
			if err != nil {
				return "", err
			}
			if r != "user" {
				continue
			}
			if c := m.Get("content"); c != nil && c.Kind == config.String {
				parts = append(parts, c.Text)
			}
		}
		return strings.Join(parts, "\n"), nil
	}
	return "", n.Errorf("input must be text or a list of messages, got %s", fmt.Sprint(n.Kind))
}
