// Package adk loads Google ADK eval sets as suites, so that an ADK user's
// files run unchanged (docs/dialects.md).
//
// A file is an ADK eval set when its name ends in .evalset.json or
// .test.json, or when it is a JSON object with eval_set_id or eval_cases
// (or a single eval case: eval_id with conversation). Three shapes are
// read, by package format/adk: the eval set, the newer .test.json (one
// eval set or one eval case) and the legacy list of {query,
// expected_tool_use, reference}.
//
// The metrics come from a test_config.json:
//  1. the file given by --config, else test_config.json beside the eval
//     set; without either, ADK's defaults apply:
//     tool_trajectory_avg_score 1.0 with match_type EXACT, and
//     response_match_score 0.8 (a --threshold replaces these defaults);
//  2. it is {"criteria": {metric: threshold | {threshold, match_type,
//     ignore_args}}}; keys may be snake_case or camelCase, as ADK's
//     pydantic models write them. Every key of ADK's models is known (see
//     [Keys]): used, or accepted with a warning that it has no effect here
//     (user_simulator_config, include_intermediate_responses_in_final:
//     true), or refused with why; any other key of a test config is an
//     error with a suggestion, and of an eval set a warning (ADK keeps it
//     unread);
//  3. tool_trajectory_avg_score and response_match_score are run (see
//     package eval/adk), and so are the judged final_response_match_v2,
//     rubric_based_final_response_quality_v1,
//     rubric_based_tool_use_quality_v1 (with their rubrics) and
//     hallucinations_v1, asked of the run's judge:
//     judge_model_options.judge_model names its model (TRAJEVAL_JUDGE_MODEL
//     wins), num_samples above 1 is a warning (trajeval asks once at
//     temperature 0). Metrics that need Vertex AI or a user simulator
//     (response_evaluation_score, safety_v1, the multi-turn ones) and
//     custom_metrics are configuration errors, never silently skipped.
//
// Each eval case becomes one case: ID is its eval_id, its input the first
// user message, and its evaluators are named after the metrics. The
// expected invocations are the case's conversation; the agent's actual
// trajectory comes from the run's traces (matched by eval_id), and its
// invocations are the trace's turns. Every problem is reported before
// anything runs: a case without invocations, or without any expected
// final response when response_match_score is asked for.
package adk

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval"
	adkeval "github.com/trajeval/trajeval/internal/eval/adk"
	"github.com/trajeval/trajeval/internal/eval/builtin"
	"github.com/trajeval/trajeval/internal/eval/settings"
	"github.com/trajeval/trajeval/internal/eval/spec"
	adkformat "github.com/trajeval/trajeval/internal/format/adk"
	"github.com/trajeval/trajeval/internal/sniff"
	"github.com/trajeval/trajeval/internal/suggest"
	"github.com/trajeval/trajeval/internal/suite"
)

// Dialect is the ADK eval set dialect, for the loader's list of dialects
// (package dialects).
var Dialect = suite.Dialect{Name: "adk", Claims: Claims, Load: Load}

// Claims reports whether the file is an ADK eval set.
func Claims(path string, root *config.Node) bool {
	base := strings.ToLower(filepath.Base(path))
	if strings.HasSuffix(base, ".evalset.json") || strings.HasSuffix(base, ".test.json") {
		return true
	}
	if !strings.HasSuffix(base, ".json") || root.Kind != config.Map {
		return false
	}
	return root.Has("eval_set_id") || root.Has("eval_cases") || (root.Has("eval_id") && root.Has("conversation"))
}

// A Criterion is one metric of test_config.json.
type Criterion struct {
	Metric     string
	Threshold  float64
	MatchType  string // tool_trajectory_avg_score only
	IgnoreArgs bool
	explicit   bool // the threshold was written, not defaulted
	Node       *config.Node
	// The judged metrics': their rubrics, and their judge's settings
	// (judge_model_options.judge_model as the model).
	Rubrics []adkeval.Rubric
	Judge   *config.Node
	// Warnings say what of the criterion trajeval does differently.
	Warnings []string
}

// DefaultCriteria are ADK's criteria when no test_config.json is given.
func DefaultCriteria() []Criterion {
	return []Criterion{
		{Metric: adkeval.TrajectoryMetric, Threshold: 1, MatchType: adkeval.Exact},
		{Metric: adkeval.ResponseMetric, Threshold: 0.8},
	}
}

// unsupported are ADK's metrics that need Vertex AI or a user simulator.
var unsupported = []string{
	"response_evaluation_score", "safety_v1",
	"per_turn_user_simulator_quality_v1", "rubric_based_multi_turn_trajectory_quality_v1",
}

var supported = append([]string{adkeval.TrajectoryMetric, adkeval.ResponseMetric}, adkeval.JudgedMetrics...)

// Load reads an eval set and its criteria.
func Load(path string, root *config.Node, opts suite.Options) (*suite.Suite, []error) {
	var warnings []trajeval.Warning
	warn := func(w trajeval.Warning) { warnings = append(warnings, w) }
	crit, err := loadCriteria(path, opts, warn)
	if err != nil {
		return nil, []error{err}
	}
	if err := checkSetKeys(root, crit, warn); err != nil {
		return nil, []error{err}
	}
	data, err := config.ReadFile(path)
	if err != nil {
		return nil, []error{&trajeval.SpecError{File: path, Msg: "cannot read: " + err.Error()}}
	}
	set, err := adkformat.DecodeEvalSet(sniff.TrimBOM(data), path)
	if err != nil {
		return nil, []error{specError(path, err)}
	}
	s := &suite.Suite{Name: set.Name, File: path, Warnings: append(warnings, set.Warnings...)}
	for _, cr := range crit {
		for _, msg := range cr.Warnings {
			w := trajeval.Warning{Msg: msg}
			if cr.Node != nil {
				w.File, w.Line = cr.Node.File, cr.Node.Line
			}
			s.Warnings = append(s.Warnings, w)
		}
	}
	if s.Name == "" {
		s.Name = set.ID
	}
	if s.Name == "" {
		s.Name = strings.TrimSuffix(strings.TrimSuffix(filepath.Base(path), ".json"), ".evalset")
	}
	nodes := caseNodes(root, len(set.Cases))
	var errs []error
	for k := range set.Cases {
		ec := &set.Cases[k]
		node := nodes[k]
		if node == nil {
			node = &config.Node{Kind: config.Map, File: path, Line: ec.Line, Col: 1, Path: fmt.Sprintf("eval case %s", ec.ID)}
		}
		c, err := buildCase(ec, node, crit, opts)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		s.Cases = append(s.Cases, c)
	}
	return s, errs
}

// specError turns a reader's error into a configuration error, keeping
// its place.
func specError(path string, err error) error {
	var te *trajeval.TraceError
	if errors.As(err, &te) {
		return &trajeval.SpecError{File: te.File, Line: te.Line, Col: te.Col, Msg: te.Msg, Hint: te.Hint}
	}
	return &trajeval.SpecError{File: path, Msg: err.Error()}
}

// caseNodes returns the node of each case of the new schema, for placing
// errors; nil entries where the shape does not say.
func caseNodes(root *config.Node, n int) []*config.Node {
	out := make([]*config.Node, n)
	if root.Kind != config.Map {
		return out
	}
	if list := root.Get("eval_cases"); list != nil && list.Kind == config.List && len(list.Items) == n {
		copy(out, list.Items)
	} else if n == 1 && root.Has("eval_id") {
		out[0] = root
	}
	return out
}

func buildCase(ec *adkformat.EvalCase, node *config.Node, crit []Criterion, opts suite.Options) (*suite.Case, error) {
	c := &suite.Case{ID: ec.ID, Place: config.PlaceOf(node)}
	if len(ec.Invocations) == 0 {
		return nil, node.Errorf("eval case %s has no invocations", ec.ID).With("give it a conversation of at least one invocation")
	}
	if u := ec.Invocations[0].User; u != nil {
		c.Input = *u
	}
	inv := make([]adkeval.Invocation, len(ec.Invocations))
	hasResponse := false
	caseRubrics, invRubrics, err := ownRubrics(node, len(ec.Invocations))
	if err != nil {
		return nil, err
	}
	for i, in := range ec.Invocations {
		inv[i].FinalResponse = in.FinalResponse
		inv[i].Rubrics = append(slices.Clone(caseRubrics), invRubrics[i]...)
		hasResponse = hasResponse || in.FinalResponse != nil
		for _, call := range in.Calls {
			inv[i].Calls = append(inv[i].Calls, adkeval.Call{Name: call.Name, Args: call.Args})
		}
	}
	for _, cr := range crit {
		conf := &eval.Configured{Name: cr.Metric, Type: cr.Metric, Weight: 1, Required: true, Threshold: cr.Threshold}
		if !cr.explicit && opts.Threshold != nil {
			conf.Threshold = *opts.Threshold
		}
		switch cr.Metric {
		case adkeval.TrajectoryMetric:
			e, err := adkeval.NewTrajectory(inv, cr.MatchType, cr.IgnoreArgs)
			if err != nil {
				return nil, node.Errorf("eval case %s: %v", ec.ID, err)
			}
			conf.Eval = e
		case adkeval.ResponseMetric:
			if !hasResponse {
				return nil, node.Errorf("eval case %s has no expected final_response for response_match_score", ec.ID).
					With("give final_response in its invocations, or leave response_match_score out of test_config.json")
			}
			conf.Eval = adkeval.NewResponseMatch(inv, conf.Threshold)
		default:
			env := &spec.Env{Types: builtin.Types(), Judges: opts.Judges}
			at := node
			if cr.Node != nil {
				at = cr.Node
			}
			own := cr.Judge
			if own == nil {
				own = &config.Node{Kind: config.Map, File: at.File, Line: at.Line, Col: at.Col}
			}
			h, err := env.Judge(own, false)
			if err != nil {
				return nil, err
			}
			e, err := adkeval.NewJudged(cr.Metric, inv, cr.Rubrics, h, conf.Threshold)
			if err != nil {
				return nil, node.Errorf("eval case %s: %v", ec.ID, err)
			}
			conf.Eval = e
		}
		c.Evaluators = append(c.Evaluators, conf)
	}
	return c, nil
}

// ownRubrics reads the rubrics of a case of the current schema and of
// each of its n invocations.
func ownRubrics(c *config.Node, n int) ([]adkeval.Rubric, [][]adkeval.Rubric, error) {
	per := make([][]adkeval.Rubric, n)
	if c == nil || c.Kind != config.Map {
		return nil, per, nil
	}
	read := func(v *config.Node) ([]adkeval.Rubric, error) {
		if v == nil || v.Kind == config.Null || (v.Kind == config.List && len(v.Items) == 0) {
			return nil, nil
		}
		return settings.Rubrics(v)
	}
	own, err := read(c.Get("rubrics"))
	if err != nil {
		return nil, nil, err
	}
	if conv := c.Get("conversation"); conv != nil && conv.Kind == config.List && len(conv.Items) == n {
		for i, it := range conv.Items {
			if it.Kind == config.Map {
				if per[i], err = read(it.Get("rubrics")); err != nil {
					return nil, nil, err
				}
			}
		}
	}
	return own, per, nil
}

// loadCriteria reads --config, else test_config.json beside the eval set,
// else ADK's defaults.
func loadCriteria(path string, opts suite.Options, warn func(trajeval.Warning)) ([]Criterion, error) {
	file := opts.Config
	if file == "" {
		p := filepath.Join(filepath.Dir(path), "test_config.json")
		if st, err := os.Stat(p); err != nil || st.IsDir() {
			return DefaultCriteria(), nil
		}
		file = p
	}
	data, err := config.ReadFile(file)
	if err != nil {
		return nil, &trajeval.SpecError{File: file, Msg: "cannot read the test config: " + unwrap(err)}
	}
	root, err := config.Parse(file, data)
	if err != nil {
		return nil, err
	}
	return ParseCriteria(root, warn)
}

func unwrap(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// ParseCriteria reads a test_config.json document. Its keys are ADK's
// (see [Keys]); one that has no effect here is given to warn.
func ParseCriteria(root *config.Node, warn func(trajeval.Warning)) ([]Criterion, error) {
	if root.Kind != config.Map {
		return nil, root.Errorf(`a test config is {"criteria": {...}}, got %s`, root.Kind)
	}
	kc := &suite.KeyChecker{Table: &Keys, Warn: warn}
	if err := kc.Check(root, "config"); err != nil {
		return nil, err
	}
	if cm := root.Get("custom_metrics"); cm != nil && !(cm.Kind == config.Map && len(cm.Entries) == 0) && cm.Kind != config.Null {
		return nil, cm.Errorf("custom_metrics run Python functions, which trajeval cannot").With("score them with trajeval's evaluators in a suite file instead")
	}
	cn := root.Get("criteria")
	if cn == nil {
		return nil, root.Errorf("the test config has no criteria").With(`give {"criteria": {"tool_trajectory_avg_score": 1.0}}`)
	}
	entries, err := cn.MapEntries()
	if err != nil {
		return nil, err
	}
	if len(entries) == 0 {
		return nil, cn.Errorf("criteria is empty")
	}
	var out []Criterion
	for _, e := range entries {
		metric := config.Canon(e.Key)
		at := &config.Node{File: cn.File, Line: e.KeyLine, Col: e.KeyCol, Path: "criteria." + e.Key}
		switch {
		case contains(supported, metric):
		case contains(unsupported, metric):
			return nil, at.Errorf("metric %s needs Vertex AI or a user simulator, which trajeval does not run", e.Key).
				With("leave it out, or score the case with trajeval's own evaluators")
		default:
			all := append(append([]string{}, supported...), unsupported...)
			sort.Strings(all)
			err := at.Errorf("unknown metric %q", e.Key)
			if s := suggest.Closest(metric, all); s != "" {
				err.Hint = fmt.Sprintf("did you mean %q?", s)
			} else {
				err.Hint = "metrics: " + strings.Join(supported, ", ")
			}
			return nil, err
		}
		cr, err := criterion(metric, e.Value, kc)
		if err != nil {
			return nil, err
		}
		out = append(out, cr)
	}
	return out, nil
}

func criterion(metric string, v *config.Node, kc *suite.KeyChecker) (Criterion, error) {
	cr := Criterion{Metric: metric, MatchType: adkeval.Exact, explicit: true, Node: v}
	var err error
	thr := v
	switch v.Kind {
	case config.Number:
	case config.Map:
		// Every criterion model is a BaseCriterion, whose keys all take.
		keys := []string{"threshold", "include_intermediate_responses_in_final"}
		switch metric {
		case adkeval.TrajectoryMetric:
			keys = append(keys, "match_type", "ignore_args")
		case adkeval.RubricResponse, adkeval.RubricToolUse:
			keys = append(keys, "judge_model_options", "rubrics")
		case adkeval.Hallucinations:
			keys = append(keys, "judge_model_options", "evaluate_intermediate_nl_responses")
		case adkeval.ResponseMatchV2:
			keys = append(keys, "judge_model_options")
		}
		for _, e := range v.Entries {
			// A key of another of ADK's criterion models: ADK would keep it
			// unread; it is a mistake in this metric's criterion.
			if k, ok := Keys.Lookup("criterion", e.Key); ok && !slices.Contains(keys, k.Name) {
				return cr, e.Value.Errorf("%s is not a setting of %s", e.Key, metric).With("it is read for other metrics: %s", k.Note)
			}
		}
		if err := v.Check(keys...); err != nil {
			return cr, err
		}
		if err := intermediate(&cr, v); err != nil {
			return cr, err
		}
		if err := judgeOptions(&cr, v, kc); err != nil {
			return cr, err
		}
		if thr = v.Get("threshold"); thr == nil {
			return cr, v.Errorf("%s has no threshold", metric).With(`e.g. {"threshold": 1.0}`)
		}
		if mt := v.Get("match_type"); mt != nil {
			if cr.MatchType, err = mt.Enum(adkeval.MatchTypes...); err != nil {
				return cr, err
			}
		}
		if ia := v.Get("ignore_args"); ia != nil {
			if cr.IgnoreArgs, err = ia.BoolValue(); err != nil {
				return cr, err
			}
		}
	default:
		return cr, v.Errorf("the criterion of %s must be a threshold or {threshold, match_type}, got %s", metric, v.Kind)
	}
	if cr.Threshold, err = thr.Float(); err != nil {
		return cr, err
	}
	if cr.Threshold < 0 || cr.Threshold > 1 {
		return cr, thr.Errorf("threshold must be between 0 and 1, got %s", thr.Text)
	}
	return cr, nil
}

// intermediate reads include_intermediate_responses_in_final: true asks
// for the text an agent wrote before its calls, which traces do not keep.
func intermediate(cr *Criterion, v *config.Node) error {
	n := v.Get("include_intermediate_responses_in_final")
	if n == nil {
		return nil
	}
	b, err := n.BoolValue()
	if err != nil || !b {
		return err
	}
	w := fmt.Sprintf("%s: %s has no effect here: traces keep each turn's final response only, so that alone is scored", cr.Metric, entryKey(v, n))
	cr.Warnings = append(cr.Warnings, w)
	return nil
}

// entryKey returns the key of v under which n is written.
func entryKey(v, n *config.Node) string {
	for _, e := range v.Entries {
		if e.Value == n {
			return e.Key
		}
	}
	return ""
}

// judgeOptions reads the judged metrics' settings.
func judgeOptions(cr *Criterion, v *config.Node, kc *suite.KeyChecker) error {
	if r := v.Get("rubrics"); r != nil {
		rs, err := settings.Rubrics(r)
		if err != nil {
			return err
		}
		cr.Rubrics = rs
	}
	if ev := v.Get("evaluate_intermediate_nl_responses"); ev != nil {
		b, err := ev.BoolValue()
		if err != nil {
			return err
		}
		if b {
			return ev.Errorf("trajeval's traces keep each turn's final response only, not the intermediate ones").
				With("set evaluate_intermediate_nl_responses to false")
		}
	}
	o := v.Get("judge_model_options")
	if o == nil {
		return nil
	}
	if err := kc.Check(o, "judge_model_options"); err != nil {
		return err
	}
	cr.Judge = &config.Node{Kind: config.Map, File: o.File, Line: o.Line, Col: o.Col, Path: o.Path}
	if m := o.Get("judge_model"); m != nil {
		cr.Judge.Entries = append(cr.Judge.Entries, config.Entry{Key: "model", KeyLine: m.Line, KeyCol: m.Col, Value: m})
	}
	if c := o.Get("judge_model_config"); c != nil && c.Kind != config.Null {
		return c.Errorf("judge_model_config is Gemini's generation config, which trajeval does not send").
			With("leave it out; trajeval asks at temperature 0")
	}
	if ns := o.Get("num_samples"); ns != nil {
		k, err := ns.Int()
		if err != nil {
			return err
		}
		if k > 1 {
			cr.Warnings = append(cr.Warnings, fmt.Sprintf("%s: num_samples %d: trajeval asks the judge once, at temperature 0, where samples would agree", cr.Metric, k))
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
