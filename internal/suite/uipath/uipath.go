// Package uipath loads UiPath evaluation sets as suites, with their
// evaluator files, so that a UiPath user's files run unchanged.
//
// A JSON file is a UiPath evaluation set when it has evaluations and
// evaluatorRefs or evaluatorConfigs:
//
//	{version, id, name, evaluatorRefs: [id] | evaluatorConfigs: [{ref, weight}],
//	 evaluations: [{id, name, inputs, evaluationCriterias: {evaluatorId: criteria | null}}]}
//
// Loading follows these rules:
//  1. Evaluator files are the *.json files of an evaluators folder beside
//     the evaluation set or above it: for the set's folder and up to four
//     folders above, X/evaluators, X/evaluations/evaluators and
//     X/evals/evaluators, nearest first (UiPath keeps sets in
//     evaluations/eval-sets and evaluators in evaluations/evaluators). An
//     evaluator file is {version, id, description, evaluatorTypeId,
//     evaluatorConfig: {name, strict, subset, defaultEvaluationCriteria}};
//     the nearest file with an id wins. As in UiPath, only the evaluators
//     the set references are read past their id: a file no set references
//     may be of a type trajeval does not run, or hold a mistake. A file
//     that is not JSON is a warning, or an error when some referenced id
//     is not found (it may be that file). Every key of UiPath's models is
//     known (see [Keys]): used, or accepted with a warning that it has no
//     effect here (modelSettings, mockingStrategy, …); an unknown key of a
//     set or an evaluation is a warning, as UiPath ignores it, and of an
//     evaluator an error.
//  2. Every referenced evaluator must exist and be one of UiPath's
//     tool-call evaluators (uipath-tool-call-order, -count, -args,
//     -output), which map onto trajeval's tool_call_order, tool_call_count,
//     tool_call_args and tool_call_output, or one of its LLM judges
//     (uipath-llm-judge-trajectory-similarity, -trajectory-simulation,
//     -output-semantic-similarity, -output-strict-json-similarity: see
//     package eval/uipath; their evaluatorConfig may give prompt, model and
//     temperature). UiPath's other evaluators (exact match, contains,
//     classification) are configuration errors, never skipped silently.
//  3. Each evaluation is one case; its ID is the evaluation's id, its input
//     the JSON of its inputs; its expectedOutput is the output judges'
//     when their criteria give none, as UiPath injects it. Its evaluators are those named in
//     evaluationCriterias, in file order, each named by its evaluator id and
//     weighted by evaluatorConfigs' weight (default 1). An evaluator left
//     out of evaluationCriterias does not score that evaluation, as in
//     UiPath.
//  4. Criteria null take the evaluator's defaultEvaluationCriteria; without
//     one that is a configuration error. Criteria keys are the evaluator's
//     own (toolCallsOrder, toolCallsCount, toolCalls, toolOutputs); a key
//     of the wrong name or a value of the wrong shape is an error at its
//     place, with a suggestion.
//  5. An evaluation may name its recorded trace with "trace" (a trajeval
//     extension; a path relative to the set); otherwise the run's traces
//     supply it, matched by the evaluation's id.
//
// Every error carries its file, line and column and is reported before
// anything runs.
package uipath

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval"
	"github.com/trajeval/trajeval/internal/eval/builtin"
	"github.com/trajeval/trajeval/internal/eval/spec"
	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/suggest"
	"github.com/trajeval/trajeval/internal/suite"
)

// Dialect is the UiPath evaluation set dialect, for the loader's list of
// dialects (package dialects).
var Dialect = suite.Dialect{Name: "uipath", Claims: Claims, Load: Load}

// Claims reports whether the file is a UiPath evaluation set.
func Claims(path string, root *config.Node) bool {
	return root.Kind == config.Map && root.Has("evaluations") && (root.Has("evaluator_refs") || root.Has("evaluator_configs"))
}

// types maps UiPath's evaluatorTypeId onto trajeval's evaluator types.
var types = map[string]string{
	"uipath-tool-call-order":  "tool_call_order",
	"uipath-tool-call-count":  "tool_call_count",
	"uipath-tool-call-args":   "tool_call_args",
	"uipath-tool-call-output": "tool_call_output",
	// The LLM judges (package eval/uipath): they need a judge.
	"uipath-llm-judge-trajectory-similarity":         "llm_judge_trajectory",
	"uipath-llm-judge-trajectory-simulation":         "llm_judge_trajectory_simulation",
	"uipath-llm-judge-output-semantic-similarity":    "llm_judge_output",
	"uipath-llm-judge-output-strict-json-similarity": "llm_judge_output_strict_json",
}

// sameAsAgent is UiPath's model for "the agent's own model", which a
// trace does not name: the run's judge model is used instead.
const sameAsAgent = "same-as-agent"

// judgeConfig are the evaluatorConfig keys of the LLM judges, passed on.
var judgeConfig = []string{"prompt", "model", "temperature", "target_output_key"}

func isJudge(typ string) bool { return strings.HasPrefix(typ, "llm_judge") }

// An evaluator is one evaluator file. Only its id is read until a set
// references it (rule 1): then read checks the rest.
type evaluator struct {
	id       string
	file     string
	typ      string       // trajeval type; "" for one trajeval does not run
	config   *config.Node // evaluatorConfig
	defaults *config.Node // defaultEvaluationCriteria, nil when none
	node     *config.Node
	read     bool  // read has run
	err      error // what read found wrong
}

// A broken file is a file of an evaluators folder that is not JSON, or
// whose id cannot be read: it may be the evaluator a set looks for.
type broken struct {
	file string
	err  error
}

// A ref is an evaluator the set uses, with its weight.
type ref struct {
	id     string
	weight float64
	node   *config.Node
}

// Load reads an evaluation set and its evaluators.
func Load(path string, root *config.Node, opts suite.Options) (*suite.Suite, []error) {
	s := &suite.Suite{File: path}
	warn := func(w trajeval.Warning) { s.Warnings = append(s.Warnings, w) }
	setKeys := &suite.KeyChecker{Table: &Keys, Warn: warn, Lenient: true}
	if err := setKeys.Check(root, "eval set"); err != nil {
		return nil, []error{err}
	}
	refs, err := readRefs(root, setKeys)
	if err != nil {
		return nil, []error{err}
	}
	found, dirs, bad := findEvaluators(filepath.Dir(path))
	evKeys := &suite.KeyChecker{Table: &Keys, Warn: warn}
	used := map[string]*evaluator{}
	weights := map[string]float64{}
	var errs []error
	missing := false
	for _, r := range refs {
		ev, ok := found[r.id]
		if !ok {
			missing = true
			e := r.node.Errorf("evaluator %q not found", r.id)
			if s := suggest.Closest(r.id, keys(found)); s != "" {
				e.Hint = fmt.Sprintf("did you mean %q?", s)
			} else {
				e.Hint = "looked for evaluator files with that id in " + strings.Join(dirs, ", ")
			}
			if len(bad) > 0 {
				e.Hint += fmt.Sprintf("; %d evaluator files there cannot be read, and it may be one of them", len(bad))
			}
			errs = append(errs, e)
			continue
		}
		if !ev.read {
			ev.read, ev.err = true, ev.readConfig(evKeys)
			if ev.err != nil {
				errs = append(errs, ev.err)
			}
		}
		if ev.err != nil {
			continue
		}
		used[r.id], weights[r.id] = ev, r.weight
	}
	// Rule 1: a file that cannot be read matters only when it may be an
	// evaluator the set looks for.
	for _, b := range bad {
		if missing {
			errs = append(errs, b.err)
		} else {
			warn(trajeval.Warning{File: b.file, Msg: fmt.Sprintf("not read, and not needed: the evaluation set references no evaluator it could be (%v)", b.err)})
		}
	}
	if n := root.Get("name"); n != nil {
		s.Name, _ = n.Name()
	}
	if s.Name == "" {
		if n := root.Get("id"); n != nil {
			s.Name, _ = n.Name()
		}
	}
	evs := root.Get("evaluations")
	items, err := evs.List()
	if err != nil {
		return nil, append(errs, err)
	}
	env := &spec.Env{Types: builtin.Types(), Dir: filepath.Dir(path), Threshold: opts.Threshold, Judges: opts.Judges}
	for _, it := range items {
		if err := setKeys.Check(it, "evaluation", "trace"); err != nil {
			errs = append(errs, err)
			continue
		}
		c, cerrs := buildCase(it, refs, found, used, weights, env)
		errs = append(errs, cerrs...)
		if c != nil {
			s.Cases = append(s.Cases, c)
		}
	}
	return s, errs
}

func isRef(refs []ref, id string) bool {
	for _, r := range refs {
		if r.id == id {
			return true
		}
	}
	return false
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// readRefs reads evaluatorRefs or evaluatorConfigs.
func readRefs(root *config.Node, kc *suite.KeyChecker) ([]ref, error) {
	var out []ref
	if n := root.Get("evaluator_configs"); n != nil {
		items, err := n.List()
		if err != nil {
			return nil, err
		}
		for _, it := range items {
			if it.Kind == config.String {
				// EvaluatorReference is also written as its bare id.
				it = &config.Node{Kind: config.Map, File: it.File, Line: it.Line, Col: it.Col, Path: it.Path,
					Entries: []config.Entry{{Key: "ref", KeyLine: it.Line, KeyCol: it.Col, Value: it}}}
			}
			kc.Lenient = false
			err := kc.Check(it, "evaluator config ref")
			kc.Lenient = true
			if err != nil {
				return nil, err
			}
			rn := it.Get("ref")
			if rn == nil {
				return nil, it.Errorf("an evaluator config has no ref")
			}
			id, err := rn.Name()
			if err != nil {
				return nil, err
			}
			r := ref{id: id, weight: 1, node: rn}
			if w := it.Get("weight"); w != nil && w.Kind != config.Null {
				if r.weight, err = w.NonNegative(); err != nil {
					return nil, err
				}
			}
			out = append(out, r)
		}
	}
	if n := root.Get("evaluator_refs"); n != nil {
		items, err := n.List()
		if err != nil {
			return nil, err
		}
		for _, it := range items {
			id, err := it.Name()
			if err != nil {
				return nil, err
			}
			if !isRef(out, id) {
				out = append(out, ref{id: id, weight: 1, node: it})
			}
		}
	}
	return out, nil
}

// findEvaluators reads the id of each evaluator file of every evaluators
// folder at or above dir, nearest first. It returns the folders it looked
// in, and the files it could not read an id from.
func findEvaluators(dir string) (map[string]*evaluator, []string, []broken) {
	found := map[string]*evaluator{}
	var looked []string
	var bad []broken
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	rel := dir
	for level := 0; level <= 4; level++ {
		for _, sub := range []string{"evaluators", filepath.Join("evaluations", "evaluators"), filepath.Join("evals", "evaluators")} {
			d := filepath.Join(rel, sub)
			files, _ := filepath.Glob(filepath.Join(d, "*.json"))
			if len(files) == 0 {
				continue
			}
			looked = append(looked, d)
			sort.Strings(files)
			for _, f := range files {
				ev, err := readEvaluator(f)
				if err != nil {
					bad = append(bad, broken{file: f, err: err})
					continue
				}
				if ev == nil {
					continue
				}
				if _, dup := found[ev.id]; !dup {
					found[ev.id] = ev
				}
			}
		}
		parent := filepath.Dir(abs)
		if parent == abs {
			break
		}
		abs, rel = parent, filepath.Join(rel, "..")
	}
	if len(looked) == 0 {
		looked = []string{filepath.Join(dir, "evaluators"), filepath.Join(dir, "..", "evaluators")}
	}
	return found, looked, bad
}

// readEvaluator reads the id of one evaluator file; nil when the file is
// not one (a types file, say).
func readEvaluator(file string) (*evaluator, error) {
	data, err := config.ReadFile(file)
	if err != nil {
		return nil, &trajeval.SpecError{File: file, Msg: "cannot read: " + err.Error()}
	}
	root, err := config.Parse(file, data)
	if err != nil {
		return nil, err
	}
	if root.Kind != config.Map || !root.Has("evaluator_type_id") || !root.Has("id") {
		return nil, nil
	}
	ev := &evaluator{file: file, node: root}
	if ev.id, err = root.Get("id").Name(); err != nil {
		return nil, err
	}
	return ev, nil
}

// readConfig reads the rest of an evaluator a set references: its type
// and its evaluatorConfig, whose keys are UiPath's (see [Keys]).
func (ev *evaluator) readConfig(kc *suite.KeyChecker) error {
	root := ev.node
	if err := kc.Check(root, "evaluator"); err != nil {
		return err
	}
	tn := root.Get("evaluator_type_id")
	t, err := tn.Str()
	if err != nil {
		return err
	}
	if ev.typ = types[t]; ev.typ == "" {
		return tn.Errorf("evaluator type %q is not supported", t).
			With("trajeval runs UiPath's tool-call evaluators (uipath-tool-call-order, -count, -args, -output) and LLM judges (uipath-llm-judge-trajectory-similarity, -trajectory-simulation, -output-semantic-similarity, -output-strict-json-similarity)")
	}
	ev.config = root.Get("evaluator_config")
	if ev.config == nil {
		return nil
	}
	if ev.config.Kind != config.Map {
		return ev.config.Errorf("evaluatorConfig must be an object, got %s", ev.config.Kind)
	}
	if err := kc.Check(ev.config, "evaluator config"); err != nil {
		return err
	}
	// Keys of UiPath's other evaluator types are mistakes here.
	only := map[string]func(string) bool{
		"strict":                 func(t string) bool { return !isJudge(t) },
		"subset":                 func(t string) bool { return t == "tool_call_args" },
		"prompt":                 isJudge,
		"model":                  isJudge,
		"temperature":            isJudge,
		"max_tokens":             isJudge,
		"target_output_key":      isOutputJudge,
		"line_by_line_evaluator": isOutputJudge,
		"line_delimiter":         isOutputJudge,
	}
	for _, e := range ev.config.Entries {
		if ok, known := only[config.Canon(e.Key)]; known && !ok(ev.typ) {
			return e.Value.Errorf("%s is not a setting of %s", e.Key, t)
		}
	}
	if v := ev.config.Get("line_by_line_evaluator"); v != nil && v.Kind != config.Null {
		if b, err := v.BoolValue(); err != nil {
			return err
		} else if b {
			return v.Errorf("trajeval judges the agent's output whole, not line by line").With("set lineByLineEvaluator to false")
		}
	}
	if d := ev.config.Get("default_evaluation_criteria"); d != nil && d.Kind != config.Null {
		ev.defaults = d
	}
	return nil
}

func isOutputJudge(typ string) bool { return strings.HasPrefix(typ, "llm_judge_output") }

func buildCase(it *config.Node, refs []ref, found, used map[string]*evaluator, weights map[string]float64, env *spec.Env) (*suite.Case, []error) {
	if it.Kind != config.Map {
		return nil, []error{it.Errorf("an evaluation is an object {id, name, inputs, evaluationCriterias}, got %s", it.Kind)}
	}
	idn := it.Get("id")
	if idn == nil {
		return nil, []error{it.Errorf("the evaluation has no id")}
	}
	id, err := idn.Name()
	if err != nil {
		return nil, []error{err}
	}
	c := &suite.Case{ID: id, Place: config.PlaceOf(it)}
	if in := it.Get("inputs"); in != nil && in.Kind != config.Null {
		if in.Kind == config.String {
			c.Input = in.Text
		} else {
			c.Input = jsonv.Marshal(in.Value())
		}
	}
	if tr := it.Get("trace"); tr != nil {
		p, err := tr.Str()
		if err != nil {
			return nil, []error{err}
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(env.Dir, p)
		}
		c.SetTrace(p, tr)
	}
	crit := it.Get("evaluation_criterias")
	if crit == nil || crit.Kind == config.Null {
		return c, nil
	}
	entries, err := crit.MapEntries()
	if err != nil {
		return nil, []error{err}
	}
	cenv := *env
	cenv.Case = eval.Case{ID: id, Input: c.Input}
	var errs []error
	for _, e := range entries {
		at := &config.Node{Kind: e.Value.Kind, File: crit.File, Line: e.KeyLine, Col: e.KeyCol, Path: crit.Path + "." + e.Key}
		if !isRef(refs, e.Key) {
			err := at.Errorf("evaluator %q is not in evaluatorRefs", e.Key)
			if _, exists := found[e.Key]; exists {
				err.Hint = "add it to evaluatorRefs"
			} else if s := suggest.Closest(e.Key, refIDs(refs)); s != "" {
				err.Hint = fmt.Sprintf("did you mean %q?", s)
			}
			errs = append(errs, err)
			continue
		}
		ev := used[e.Key]
		if ev == nil {
			continue // the evaluator's own error is reported once
		}
		cn := e.Value
		if out := it.Get("expected_output"); out != nil && out.Kind != config.Null && isOutputJudge(ev.typ) {
			cn = withExpectedOutput(cn, out)
		}
		if cn.Kind == config.Null {
			if ev.defaults == nil {
				errs = append(errs, cn.Errorf("criteria of %s are null and the evaluator has no defaultEvaluationCriteria", e.Key).
					With("give the criteria here, or defaultEvaluationCriteria in %s", ev.file))
				continue
			}
			cn = ev.defaults
		}
		if cn.Kind != config.Map {
			errs = append(errs, cn.Errorf("criteria of %s must be an object, got %s", e.Key, cn.Kind).With("e.g. %s", example(ev.typ)))
			continue
		}
		node := &config.Node{Kind: config.Map, File: cn.File, Line: cn.Line, Col: cn.Col, Path: cn.Path}
		node.Entries = append(node.Entries,
			config.Entry{Key: "type", KeyLine: cn.Line, KeyCol: cn.Col, Value: &config.Node{Kind: config.String, Text: ev.typ, File: ev.file, Line: ev.node.Line, Col: ev.node.Col}},
			config.Entry{Key: "name", KeyLine: cn.Line, KeyCol: cn.Col, Value: &config.Node{Kind: config.String, Text: ev.id, File: cn.File, Line: cn.Line, Col: cn.Col}},
		)
		for _, k := range append([]string{"strict", "subset"}, judgeConfig...) {
			if v := ev.config.Get(k); v != nil && v.Kind != config.Null && !(k == "model" && v.Text == sameAsAgent) {
				node.Entries = append(node.Entries, config.Entry{Key: k, KeyLine: v.Line, KeyCol: v.Col, Value: v})
			}
		}
		node.Entries = append(node.Entries, cn.Entries...)
		conf, err := spec.Build(node, &cenv)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		conf.Weight = weights[e.Key]
		c.Evaluators = append(c.Evaluators, conf)
	}
	return c, errs
}

// withExpectedOutput returns the criteria of an output judge with the
// evaluation's expectedOutput, as UiPath injects it: criteria null become
// {expectedOutput} (over the evaluator's defaults), and criteria without
// one get it; criteria that give their own keep it.
func withExpectedOutput(crit, out *config.Node) *config.Node {
	entry := config.Entry{Key: "expectedOutput", KeyLine: out.Line, KeyCol: out.Col, Value: out}
	switch {
	case crit.Kind == config.Null:
		return &config.Node{Kind: config.Map, File: crit.File, Line: crit.Line, Col: crit.Col, Path: crit.Path, Entries: []config.Entry{entry}}
	case crit.Kind == config.Map && !crit.Has("expected_output"):
		c := *crit
		c.Entries = append(slices.Clone(crit.Entries), entry)
		return &c
	}
	return crit
}

func refIDs(refs []ref) []string {
	out := make([]string, len(refs))
	for i, r := range refs {
		out[i] = r.id
	}
	return out
}

func example(typ string) string {
	switch typ {
	case "tool_call_order":
		return `{"toolCallsOrder": ["search", "book"]}`
	case "tool_call_count":
		return `{"toolCallsCount": {"search": [">=", 1]}}`
	case "tool_call_args":
		return `{"toolCalls": [{"name": "search", "args": {"q": "x"}}]}`
	case "llm_judge_trajectory", "llm_judge_trajectory_simulation":
		return `{"expectedAgentBehavior": "The agent looks the order up, then refunds it."}`
	case "llm_judge_output", "llm_judge_output_strict_json":
		return `{"expectedOutput": {"status": "refunded"}}`
	}
	return `{"toolOutputs": [{"name": "search", "output": "..."}]}`
}
