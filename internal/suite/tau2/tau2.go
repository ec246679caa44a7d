// Package tau2 loads τ²-bench task files (sierra-research's tau2-bench
// tasks.json) as suites, so that a τ² run's results are scored as τ²
// scores them.
//
// A JSON file is a τ² task file when it is a list whose first item has
// evaluation_criteria or user_scenario:
//
//	[{"id", "user_scenario": {"instructions": ...}, "evaluation_criteria": {
//	    "actions": [{"action_id", "name", "arguments", "compare_args", "requestor"}],
//	    "communicate_info": [text], "nl_assertions": [text], "env_assertions": [...],
//	    "reward_basis": ["DB", "COMMUNICATE", "ACTION", "NL_ASSERTION", "ENV_ASSERTION"]}}]
//
// Loading follows these rules:
//  1. Each task is one case; its ID is the task's id and its input the
//     user scenario's instructions (their JSON when structured).
//  2. A case has one evaluator, "reward" (type tau2_reward): the product of
//     the components of the task's reward_basis (default DB and
//     COMMUNICATE, as in τ²), each a member of the result, scored as
//     package eval/tau2 says. It passes when the reward is 1.
//  3. DB and ENV_ASSERTION need τ²'s environment, which trajeval does not
//     have: a basis that holds them makes the case an error naming them.
//     Options.Basis (--basis ACTION,COMMUNICATE) narrows every task's
//     basis to the components it names, so that the others are scored; a
//     task left with none is an error, never a reward of 1.
//  4. NL_ASSERTION asks the run's judge; without one it is an error.
//  5. A reward basis τ² does not know, a misspelt key in
//     evaluation_criteria or an action, an action without a name and a
//     requestor other than assistant or user are configuration errors at
//     their place. A task without evaluation_criteria (which τ² rewards 1
//     whatever the agent does) is an error when it runs, never a pass.
//  6. The results are the traces: results.json (or NAME.results.json for
//     NAME.json) beside the task file, else the run's --traces; they are
//     read with the tau2 trace format, one trajectory per simulation,
//     matched to tasks by task id, each trial an attempt of its case.
//
// Every error carries its file, line and column and is reported before
// anything runs.
package tau2

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval"
	"github.com/trajeval/trajeval/internal/eval/builtin"
	"github.com/trajeval/trajeval/internal/eval/spec"
	evaltau2 "github.com/trajeval/trajeval/internal/eval/tau2"
	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/suggest"
	"github.com/trajeval/trajeval/internal/suite"
)

// Dialect is the τ²-bench task file dialect, for the loader's list of
// dialects (package dialects).
var Dialect = suite.Dialect{Name: "tau2", Claims: Claims, Load: Load}

// Claims reports whether the file is a τ² task file.
func Claims(path string, root *config.Node) bool {
	if root.Kind != config.List || len(root.Items) == 0 {
		return false
	}
	first := root.Items[0]
	return first.Kind == config.Map && (first.Has("evaluation_criteria") || first.Has("user_scenario"))
}

// Why DB and ENV_ASSERTION cannot be assessed.
const (
	whyDB  = "needs τ²'s environment: it replays the simulation there and compares τ²'s database; leave it out of the reward basis (--basis) to score the others"
	whyEnv = "needs τ²'s environment: it runs τ²'s assertion functions on it; leave it out of the reward basis (--basis) to score the others"
)

// CheckBasis returns an error for the first name of basis that is not a
// τ² reward component, and for a basis that is empty but not nil (an
// empty --basis).
func CheckBasis(basis []string) error {
	if basis != nil && len(basis) == 0 {
		// An empty --basis would leave every reward nothing to score.
		return fmt.Errorf("--basis names no reward component; components: %s", strings.Join(evaltau2.Components, ", "))
	}
	for _, b := range basis {
		if !slices.Contains(evaltau2.Components, b) {
			msg := fmt.Sprintf("--basis: unknown reward component %q", b)
			if s := suggest.Closest(b, evaltau2.Components); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			return fmt.Errorf("%s; components: %s", msg, strings.Join(evaltau2.Components, ", "))
		}
	}
	return nil
}

// Load reads a task file.
func Load(path string, root *config.Node, opts suite.Options) (*suite.Suite, []error) {
	if err := CheckBasis(opts.Basis); err != nil {
		return nil, []error{&trajeval.SpecError{File: path, Msg: err.Error()}}
	}
	s := &suite.Suite{File: path, Name: suiteName(path), Traces: results(path), Exhaustive: true}
	env := &spec.Env{Dir: filepath.Dir(path), Threshold: opts.Threshold, Judges: opts.Judges}
	var errs []error
	for _, it := range root.Items {
		c, cerrs := buildCase(it, env, opts.Basis)
		errs = append(errs, cerrs...)
		if c != nil {
			s.Cases = append(s.Cases, c)
		}
	}
	return s, errs
}

// suiteName is the file's name without .json; a file called tasks.json
// takes its folder's name (data/tau2/domains/airline/tasks.json is
// "airline").
func suiteName(path string) string {
	name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	if strings.EqualFold(name, "tasks") {
		if dir := filepath.Base(filepath.Dir(path)); dir != "." && dir != string(filepath.Separator) {
			return dir
		}
	}
	return name
}

// results returns the results file beside the task file, "" when there is
// none.
func results(path string) string {
	dir := filepath.Dir(path)
	name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	for _, c := range []string{name + ".results.json", "results.json"} {
		p := filepath.Join(dir, c)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p
		}
	}
	return ""
}

var (
	criteriaKeys = []string{"actions", "communicate_info", "nl_assertions", "env_assertions", "reward_basis"}
	// defaultBasis is τ²'s reward_basis when a task gives none.
	defaultBasis = []string{evaltau2.DB, evaltau2.Communicate}
)

func buildCase(it *config.Node, env *spec.Env, narrow []string) (*suite.Case, []error) {
	if it.Kind != config.Map {
		return nil, []error{it.Errorf("a task is an object {id, user_scenario, evaluation_criteria}, got %s", it.Kind)}
	}
	idn := it.Get("id")
	if idn == nil {
		return nil, []error{it.Errorf("the task has no id")}
	}
	id, err := idn.Name()
	if err != nil {
		return nil, []error{err}
	}
	if id == "" {
		return nil, []error{idn.Errorf("the task's id is empty").With("give the task an id: results are matched to tasks by it")}
	}
	c := &suite.Case{ID: id, Place: config.PlaceOf(it)}
	if in := it.Get("user_scenario").Get("instructions"); in != nil && in.Kind != config.Null {
		if in.Kind == config.String {
			c.Input = in.Text
		} else {
			c.Input = jsonv.Marshal(in.Value())
		}
	}
	crit := it.Get("evaluation_criteria")
	if crit == nil || crit.Kind == config.Null {
		c.Evaluators = []*eval.Configured{reward(env, []evaltau2.Part{{Component: "criteria",
			Eval: evaltau2.NotAssessed("the task", "has no evaluation_criteria: τ² rewards it 1 whatever the agent did, and trajeval does not score it")}})}
		return c, nil
	}
	if crit.Kind != config.Map {
		return nil, []error{crit.Errorf("evaluation_criteria must be an object, got %s", crit.Kind)}
	}
	if err := crit.Check(criteriaKeys...); err != nil {
		return nil, []error{err}
	}
	basis, err := readBasis(crit.Get("reward_basis"))
	if err != nil {
		return nil, []error{err}
	}
	used := basis
	if narrow != nil {
		used = nil
		for _, b := range basis {
			if slices.Contains(narrow, b) {
				used = append(used, b)
			}
		}
	}
	var parts []evaltau2.Part
	var errs []error
	// τ²'s order: the environment's components, then ACTION, NL_ASSERTION
	// and COMMUNICATE.
	for _, b := range []string{evaltau2.DB, evaltau2.EnvAssertion, evaltau2.Action, evaltau2.NLAssertion, evaltau2.Communicate} {
		if !slices.Contains(used, b) {
			continue
		}
		var e trajeval.Evaluator
		switch b {
		case evaltau2.DB:
			e = evaltau2.NotAssessed(b, whyDB)
		case evaltau2.EnvAssertion:
			e = evaltau2.NotAssessed(b, whyEnv)
		case evaltau2.Action:
			acts, err := builtin.Tau2Actions(crit.Get("actions"))
			if err != nil {
				errs = append(errs, err)
				continue
			}
			e = evaltau2.NewAction(acts)
		case evaltau2.Communicate:
			info, err := builtin.Tau2Texts(crit.Get("communicate_info"))
			if err != nil {
				errs = append(errs, err)
				continue
			}
			e = evaltau2.NewCommunicate(info)
		case evaltau2.NLAssertion:
			as, err := builtin.Tau2Texts(crit.Get("nl_assertions"))
			if err != nil {
				errs = append(errs, err)
				continue
			}
			h, err := env.Judge(crit, true)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			e = evaltau2.NewNLAssertions(as, h)
		}
		parts = append(parts, evaltau2.Part{Component: b, Eval: e})
	}
	if len(errs) > 0 {
		return nil, errs
	}
	if len(used) == 0 && len(basis) > 0 {
		// A reward over nothing would be 1: not a silent pass.
		why := fmt.Sprintf("has none of its reward basis (%s) in --basis %s (add one of them, or leave --basis out)", strings.Join(basis, ", "), strings.Join(narrow, ","))
		parts = []evaltau2.Part{{Component: "basis", Eval: evaltau2.NotAssessed("the reward", why)}}
	}
	c.Evaluators = []*eval.Configured{reward(env, parts)}
	return c, nil
}

// reward is a case's one evaluator: the product of parts.
func reward(env *spec.Env, parts []evaltau2.Part) *eval.Configured {
	threshold := 1.0
	if env.Threshold != nil {
		threshold = *env.Threshold
	}
	return &eval.Configured{Name: "reward", Type: "tau2_reward", Weight: 1, Required: true, Threshold: threshold, Eval: evaltau2.NewReward(parts)}
}

// readBasis reads reward_basis; absent or null is τ²'s default.
func readBasis(n *config.Node) ([]string, error) {
	if n == nil || n.Kind == config.Null {
		return defaultBasis, nil
	}
	items, err := n.List()
	if err != nil {
		return nil, err
	}
	out := []string{}
	for _, it := range items {
		b, err := it.Str()
		if err != nil {
			return nil, err
		}
		if !slices.Contains(evaltau2.Components, b) {
			e := it.Errorf("unknown reward basis %q", b)
			if s := suggest.Closest(b, evaltau2.Components); s != "" {
				e.Hint = fmt.Sprintf("did you mean %q?", s)
			} else {
				e.Hint = "τ²'s reward components: " + strings.Join(evaltau2.Components, ", ")
			}
			return nil, e
		}
		out = append(out, b)
	}
	return out, nil
}
