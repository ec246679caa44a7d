package suite

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval"
	"github.com/trajeval/trajeval/internal/eval/builtin"
	"github.com/trajeval/trajeval/internal/eval/spec"
	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/judge"
)

// AgentV's YAML suite (docs/dialects.md, AgentV):
//
//	name: ...                    # also version, description, category, author, tags, license, requires, metadata: descriptive only
//	traces: traces.jsonl         # the cases' trajectories, matched by id (optional)
//	input: ...                   # comes before every case's input
//	threshold: 0.8               # or execution.threshold: the default of evaluators that set none
//	judge: {model: ..., base_url: ...}   # the judge of judged evaluators (optional)
//	execution:
//	  evaluators: [...]          # or assertions: run on every case
//	  workers: 4                 # score up to 4 cases at once (--workers wins)
//	evalcases:                   # or eval_cases, tests
//	  - id: case-1
//	    expected_outcome: ...    # or criteria
//	    expected_output: ...     # or expected_messages: the reference answer
//	    input: "text"            # or [{role, content}], or input_messages
//	    trace: traces/case-1.json   # relative to the suite file
//	    execution:
//	      evaluators: [...]      # or assertions, at the case or under execution
//	      threshold: 0.5         # the default of this case's evaluators, the suite's too
//	    skip_defaults: true      # drop the suite's evaluators for this case
//	    mode: conversation       # optional with turns
//	    turns:                   # a multi-turn case: per-turn expectations
//	      - input: ...
//	        expected_output: ... # and expected_outcome, for this turn's evaluators
//	        evaluators: [...]    # and execution.threshold
//
//	targets: [{name, provider, ...}]   # the agents that can run the cases (see Targets below)
//	execution:
//	  target: my_agent           # runs the cases that have no recorded trace
//
// A key AgentV has but trajeval cannot honour is a configuration error
// that says why, never ignored: vars, conversation_id, workers or target
// below the suite, skip_defaults at suite or turn level, a matrix of
// several targets.
var (
	suiteKeys = []string{"name", "version", "description", "category", "author", "tags", "license", "requires", "metadata",
		"execution", "evalcases", "eval_cases", "tests", "input", "evaluators", "assertions", "threshold", "traces", "judge", "targets"}
	executionKeys = []string{"evaluators", "assertions", "target", "targets", "threshold", "skip_defaults", "workers"}
	caseKeys      = []string{"id", "expected_outcome", "criteria", "input", "input_messages", "expected_output", "expected_messages",
		"execution", "evaluators", "assertions", "trace", "skip_defaults", "metadata", "vars", "tags", "turns", "description", "conversation_id", "mode"}
	turnKeys = []string{"input", "input_messages", "expected_output", "expected_outcome", "criteria", "evaluators", "assertions", "execution"}
)

// caseListKeys are the keys of an AgentV suite's cases.
var caseListKeys = []string{"evalcases", "eval_cases", "tests"}

func agentvClaims(root *config.Node) bool {
	_, k := root.First(caseListKeys...)
	return k != ""
}

func loadAgentV(path string, root *config.Node, opts Options) (*Suite, []error) {
	if root.Kind != config.Map {
		return nil, []error{root.Errorf("a suite is a map with evalcases (or tests), got a %s", root.Kind)}
	}
	s := &Suite{File: path, Name: strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))}
	kc := &KeyChecker{Table: &AgentVKeys, Warn: s.warn}
	if err := kc.Check(root, "suite", suiteKeys...); err != nil {
		return nil, []error{err}
	}
	var errs []error
	if n := root.Get("name"); n != nil {
		if name, err := n.Name(); err != nil {
			errs = append(errs, err)
		} else {
			s.Name = name
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
			s.TracesNode = v
		}
	}
	ex, es := readExecution(root, root.Get("execution"), levelSuite, kc)
	errs = append(errs, es...)
	s.Workers = ex.workers
	if v := root.Get("target"); v != nil {
		// AgentV's suite-level target is execution.target.
		if ex.targetNode != nil {
			errs = append(errs, v.Errorf("the target is given both here and under execution at line %d", ex.targetNode.Line).With("keep one"))
		} else {
			ex.targetNode = v
		}
	}
	if v := ex.targetNode; v != nil {
		name, es := readTargetChoice(v)
		errs = append(errs, es...)
		s.choice.name, s.choice.node = name, v
	}
	if v := root.Get("targets"); v != nil {
		defs, es := readTargetDefs(v)
		errs = append(errs, es...)
		s.choice.own = defs
	}
	threshold := firstThreshold(opts.Threshold, ex.threshold)
	defaults := ex.list
	cases, k := root.First("evalcases", "eval_cases", "tests")
	if cases == nil && defaults == nil {
		return nil, append(errs, root.Errorf("suite has no cases").With("add evalcases: [{id: ..., ...}], or execution.evaluators to score every trajectory of --traces FILE"))
	}
	if k2 := otherKey(root, k, "evalcases", "eval_cases", "tests"); k2 != "" {
		errs = append(errs, root.Get(k2).Errorf("cases are given under both %s and %s", k, k2))
	}
	listed := 0
	if cases != nil {
		if cases.Kind != config.List {
			_, err := cases.List()
			return nil, append(errs, err)
		}
		listed = cases.Len()
	}
	var err error
	ids := NewIDIndex(listed) // the cases' positions in s.Cases, by id
	idOf := func(i int32) string { return s.Cases[i].ID }
	if b := root.Get("judge"); b != nil {
		// Checked even when no evaluator asks a judge: a setting is never
		// silently ignored.
		if _, err := spec.JudgeBlocks(b); err != nil {
			errs = append(errs, err)
		}
	}
	sc := &suiteContext{dir: filepath.Dir(path), defaults: defaults, threshold: threshold, cli: opts.Threshold,
		judges: opts.Judges, judgeBlock: root.Get("judge"), keys: kc}
	sc.shortPlain = kc.plain(&config.Node{Kind: config.Map, Entries: []config.Entry{{Key: "id"}, {Key: "input"}}}, "case", caseKeys)
	if v := root.Get("input"); v != nil {
		if sc.input, err = inputText(v); err != nil {
			errs = append(errs, err)
		}
	}
	// The suite's evaluators are built once and shared by every case: they
	// depend on their configuration, not on the case.
	if defaults != nil {
		var es []error
		sc.sharedNodes = map[string]*config.Node{}
		sc.shared, es = spec.BuildList(defaults, &spec.Env{Types: builtin.Types(), Dir: sc.dir, Threshold: threshold, Warn: s.warn, Judges: sc.judges, JudgeBlock: sc.judgeBlock, ForCases: listed > 0}, sc.sharedNodes)
		errs = append(errs, es...)
		s.Evaluators = sc.shared
	}
	if listed > 0 {
		s.Cases = make([]*Case, 0, listed)
	}
	if cases == nil {
		return s, errs
	}
	item := 0
	// The cases in one slice, not an allocation each.
	slab := make([]Case, listed)
	warn := s.warn // one func value, not one a case
	err = cases.EachItem(func(it config.Item) error {
		var into *Case
		if item < len(slab) {
			into = &slab[item]
		} else {
			into = &Case{}
		}
		c, es := loadItem(it, cases.Path, item, sc, warn, into)
		item++
		errs = append(errs, es...)
		if c == nil {
			return nil
		}
		if prev, dup := ids.Add(c.ID, int32(len(s.Cases)), idOf); dup {
			errs = append(errs, it.Node().Errorf("case id %q is used twice", c.ID).With("the other is at line %d", s.Cases[prev].Place.Line))
			return nil
		}
		s.Cases = append(s.Cases, c)
		return nil
	})
	if err != nil {
		errs = append(errs, err)
	}
	s.uniqueIDs = true
	return s, errs
}

// suiteContext is what every case of an AgentV suite inherits.
type suiteContext struct {
	dir      string
	places   config.Places      // the cases' places, sharing the file and path
	defaults *config.Node       // the suite's evaluators, nil when none
	shared   []*eval.Configured // built from defaults with the suite's threshold
	// sharedNodes are the nodes of shared, by name.
	sharedNodes map[string]*config.Node
	threshold   *float64 // the default threshold: --threshold, else the suite's
	cli         *float64 // --threshold
	input       string   // the suite's input, before each case's
	// judges and judgeBlock are the run's judge runtime and the suite's
	// judge: block, for judged evaluators.
	judges     *judge.Runtime
	judgeBlock *config.Node
	keys       *KeyChecker // AgentV's keys, warning once per file
	// shortPlain says that the key checker has nothing to say about a
	// case of only id and input, spelt so (see idAndInput).
	shortPlain bool
	// inputs holds the case inputs read so far, so that cases that share
	// an input share its bytes; bounded by maxInterned.
	inputs map[string]string
	// lastInput is the input interned last.
	lastInput string
	// text holds the cases' ids and new inputs, one after another (see
	// keep).
	text     strings.Builder
	textSize int // the size of the last block
}

// maxInterned bounds suiteContext.inputs: past it, inputs are new ones.
const maxInterned = 4096

// keep returns a copy of s in the suite's text: the ids and inputs of its
// cases, written one after another into blocks of up to textBlock bytes,
// where each would be an allocation of its own, rounded up to a size
// class, and an object the collector marks at every collection. s may be
// a substring of the text of many cases (see config.ParseList), which a
// case must not keep.
func (sc *suiteContext) keep(s string) string {
	b := &sc.text
	if b.Cap()-b.Len() < len(s) {
		// A new block: the strings kept in the last one keep it, and a
		// strings.Builder never writes over what it has written.
		*b = strings.Builder{}
		b.Grow(max(len(s), min(textBlock, max(256, 2*sc.textSize))))
		sc.textSize = b.Cap()
	}
	b.WriteString(s)
	t := b.String()
	return t[len(t)-len(s):]
}

// textBlock is the largest block of suiteContext.keep: blocks start at a
// few hundred bytes and double, so that a suite of one case holds a few
// hundred bytes and a million hold at most one block they do not use.
const textBlock = 64 << 10

// intern returns s, or an equal string read before. A new one is a copy:
// s may be a substring of the text of many cases (see config.ParseList).
func (sc *suiteContext) intern(s string) string {
	if s == sc.lastInput && s != "" {
		return sc.lastInput // the input of the case before: a suite's cases often share one
	}
	if t, ok := sc.inputs[s]; ok {
		sc.lastInput = t
		return t
	}
	if sc.inputs == nil {
		sc.inputs = map[string]string{}
	}
	s = sc.keep(s)
	if len(sc.inputs) < maxInterned {
		sc.inputs[s] = s
	}
	sc.lastInput = s
	return s
}

func otherKey(n *config.Node, used string, keys ...string) string {
	for _, k := range keys {
		if k != used && n.Get(k) != nil && config.Canon(k) != config.Canon(used) {
			return k
		}
	}
	return ""
}

// The levels an execution block may sit at.
const (
	levelSuite = "suite"
	levelCase  = "case"
	levelTurn  = "turn"
)

// execution is the settings of a suite, case or turn: its execution block
// and the keys that may stand beside it.
type execution struct {
	list      *config.Node // evaluators
	threshold *float64
	skip      bool // skip_defaults
	workers   int  // 0 when not set
	// targetNode is a suite's execution.target or execution.targets.
	targetNode *config.Node
}

// readExecution reads the evaluators and settings of a suite, case or turn:
// under execution (evaluators or assertions, threshold, skip_defaults,
// workers) or directly under the node (evaluators, assertions, and a
// suite's threshold). A setting that does not apply at its level is an
// error that says why, never ignored.
func readExecution(n, exec *config.Node, level string, kc *KeyChecker) (execution, []error) {
	var ex execution
	var errs []error
	var where string
	if exec != nil {
		if exec.Kind != config.Map {
			return ex, []error{exec.Errorf("execution must be a map")}
		}
		if err := kc.Check(exec, "execution", executionKeys...); err != nil {
			return ex, []error{err}
		}
		if v, k := exec.First("evaluators", "assertions"); v != nil {
			ex.list, where = v, "execution."+k
		}
		if v, k := exec.First("target", "targets"); v != nil {
			if level != levelSuite {
				errs = append(errs, v.Errorf("%s is a setting of the whole suite, not of one %s", k, level).
					With("set execution.target on the suite, or run with --target NAME"))
			} else {
				ex.targetNode = v
			}
		}
		if v := exec.Get("skip_defaults"); v != nil {
			b, err := v.BoolValue()
			switch {
			case err != nil:
				errs = append(errs, err)
			case level == levelSuite:
				errs = append(errs, v.Errorf("skip_defaults has nothing to skip at suite level: the suite's evaluators are the defaults").
					With("set skip_defaults: true on the cases that must not run them"))
			case level == levelTurn:
				errs = append(errs, v.Errorf("skip_defaults has nothing to skip in a turn: a turn runs only its own evaluators").
					With("remove it"))
			default:
				ex.skip = b
			}
		}
		if v := exec.Get("workers"); v != nil {
			if level != levelSuite {
				errs = append(errs, v.Errorf("workers is a setting of the whole run, not of one %s", level).
					With("set execution.workers on the suite, or run with --workers N"))
			} else if w, err := v.Int(); err != nil {
				errs = append(errs, err)
			} else if w < 1 {
				errs = append(errs, v.Errorf("workers must be at least 1, got %d", w))
			} else {
				ex.workers = int(min(w, maxWorkers))
			}
		}
	}
	if v, _ := n.First("evaluators", "assertions"); v != nil {
		if ex.list != nil {
			errs = append(errs, v.Errorf("evaluators are given both here and under %s", where).With("keep one list"))
		} else {
			ex.list = v
		}
	}
	var thr *config.Node
	if level == levelSuite {
		thr = n.Get("threshold")
	}
	if v := exec.Get("threshold"); v != nil {
		if thr != nil {
			errs = append(errs, v.Errorf("threshold is given both here and at line %d", thr.Line).With("keep one"))
		}
		thr = v
	}
	if thr != nil {
		f, err := thr.Float()
		switch {
		case err != nil:
			errs = append(errs, err)
		case f < 0 || f > 1:
			errs = append(errs, thr.Errorf("threshold must be between 0 and 1, got %s", thr.Text))
		default:
			ex.threshold = &f
		}
	}
	return ex, errs
}

// maxWorkers bounds execution.workers: more cases at once than that only
// costs memory on any machine trajeval runs on.
const maxWorkers = 256

// firstThreshold returns the first threshold set: the most specific
// default after the command line's.
func firstThreshold(ts ...*float64) *float64 {
	for _, t := range ts {
		if t != nil {
			return t
		}
	}
	return nil
}

// idAndInput returns the values of id and input (nil when absent) of the
// map cn when it has no keys but those two, spelt so; ok is false when it
// has others.
func idAndInput(cn *config.Node) (id, input *config.Node, ok bool) {
	for _, e := range cn.Entries {
		switch e.Key {
		case "id":
			id = e.Value
		case "input":
			input = e.Value
		default:
			return nil, nil, false
		}
	}
	return id, input, true
}

// loadItem reads it, item i of the suite's cases, the list at path list,
// into c: a case of only an id and an input written on one line as plain
// words (most cases of a large suite), which the one-line reader read,
// from its two words without its nodes, when the suite's evaluators are
// its own; else as loadCase reads the item's node. The case is the one
// loadCase makes of the node.
func loadItem(it config.Item, list string, i int, sc *suiteContext, warn func(trajeval.Warning), c *Case) (*Case, []error) {
	id, input, ok := it.Pair("id", "input")
	// With no suite evaluators the case is an error, placed at its node;
	// with another threshold than the suite's it builds its own.
	if !ok || !sc.shortPlain || sc.defaults == nil || firstThreshold(sc.cli, sc.threshold) != sc.threshold {
		return loadCase(it.Node(), list, i, sc, warn, c)
	}
	c.Place = it.Place(&sc.places, list, i)
	c.ID = sc.keep(id)
	if sc.input != "" {
		input = joinText(sc.input, input)
	}
	c.Input = sc.intern(input)
	c.Evaluators = sc.shared[:len(sc.shared):len(sc.shared)]
	return c, nil
}

// loadCase reads cn, item i of the suite's cases, the list at path list,
// into c.
func loadCase(cn *config.Node, list string, i int, sc *suiteContext, warn func(trajeval.Warning), c *Case) (*Case, []error) {
	if cn.Kind != config.Map {
		return nil, []error{cn.Errorf("a case is a map with an id, got %s", cn.Kind)}
	}
	// A case of just id and input, spelt so, as most cases of a large
	// suite are, is short: its keys need no check when the checker has
	// nothing to say about those two, and its other keys are asked of
	// opt, nil, which answers that each is absent without looking for it
	// in every spelling (a dozen look-ups a case).
	idn, inn, short := idAndInput(cn)
	if !short || !sc.shortPlain {
		if err := sc.keys.Check(cn, "case", caseKeys...); err != nil {
			return nil, []error{err}
		}
	}
	opt := cn
	if short {
		opt = nil
	} else {
		idn = cn.Get("id")
		inn, _ = cn.First("input", "input_messages")
	}
	c.Place = sc.places.Item(cn, list, i)
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
	c.ID = sc.keep(c.ID)
	var errs []error
	if v, _ := opt.First("expected_outcome", "criteria"); v != nil {
		outcome, err := v.Str()
		if err != nil {
			errs = append(errs, err)
		}
		c.SetExpectedOutcome(outcome)
	}
	c.Input = sc.input
	if v := inn; v != nil {
		in, err := inputText(v)
		if err != nil {
			errs = append(errs, err)
		}
		if sc.input != "" {
			in = joinText(sc.input, in)
		}
		c.Input = sc.intern(in)
	}
	var expectedOutput string
	var ex execution
	if opt != nil {
		expectedOutput, ex, errs = caseSettings(opt, c, sc, errs)
	}
	threshold := firstThreshold(sc.cli, ex.threshold, sc.threshold)
	// The case's own evaluators' environment, made only for a case that
	// has some.
	var caseEnv *spec.Env
	env := func() *spec.Env {
		if caseEnv != nil {
			return caseEnv
		}
		caseEnv = &spec.Env{Types: builtin.Types(), Dir: sc.dir, Threshold: threshold, Warn: warn, Judges: sc.judges, JudgeBlock: sc.judgeBlock, Case: eval.Case{ID: c.ID, Input: c.Input, ExpectedOutcome: c.ExpectedOutcome(), ExpectedOutput: expectedOutput}}
		return caseEnv
	}
	var taken map[string]*config.Node // the suite's evaluators a case's own may not rename, by name
	if ex.list != nil {
		taken = map[string]*config.Node{}
	}
	if !ex.skip {
		defaults, nodes := sc.shared, sc.sharedNodes
		if threshold != sc.threshold && sc.defaults != nil {
			// The case's threshold is the default of the suite's evaluators
			// too; their errors were reported when they were first built.
			nodes = map[string]*config.Node{}
			defaults, _ = spec.BuildList(sc.defaults, &spec.Env{Types: builtin.Types(), Dir: sc.dir, Threshold: threshold, Judges: sc.judges, JudgeBlock: sc.judgeBlock, ForCases: true}, nodes)
		}
		for _, d := range defaults {
			if taken != nil {
				taken[d.Name] = nodes[d.Name]
			}
		}
		// Shared, not copied: an append below makes the case its own.
		c.Evaluators = defaults[:len(defaults):len(defaults)]
	}
	if ex.list != nil {
		list, es := spec.BuildList(ex.list, env(), taken)
		errs = append(errs, es...)
		c.Evaluators = append(c.Evaluators, list...)
	}
	if tn := opt.Get("turns"); tn != nil {
		turns, es := loadTurns(tn, env(), sc.cli, sc.keys)
		errs = append(errs, es...)
		c.SetTurns(turns)
	}
	if len(c.Evaluators) == 0 && len(c.Turns()) == 0 && len(errs) == 0 && !(sc.defaults != nil && !ex.skip) {
		errs = append(errs, cn.Errorf("case %q has no evaluators", c.ID).With("add execution.evaluators to the case or the suite"))
	}
	return c, errs
}

// caseSettings reads the keys of case cn read after its input into c,
// and returns its expected output and execution settings, with errs and
// the errors found.
func caseSettings(cn *config.Node, c *Case, sc *suiteContext, errs []error) (string, execution, []error) {
	expectedOutput, es := expectedOutput(cn)
	errs = append(errs, es...)
	errs = append(errs, unsupportedCaseKeys(cn)...)
	if v := cn.Get("trace"); v != nil {
		p, err := v.Str()
		if err != nil {
			errs = append(errs, err)
		} else if p == "" {
			errs = append(errs, v.Errorf("trace path is empty"))
		} else {
			if !filepath.IsAbs(p) {
				p = filepath.Join(sc.dir, p)
			}
			// Its place, not the node: the nodes of a case are one
			// allocation, dropped once the case is read.
			c.SetTrace(p, config.PlaceOf(v).Node())
		}
	}
	ex, es := readExecution(cn, cn.Get("execution"), levelCase, sc.keys)
	errs = append(errs, es...)
	if v := cn.Get("skip_defaults"); v != nil {
		b, err := v.BoolValue()
		if err != nil {
			errs = append(errs, err)
		}
		ex.skip = ex.skip || b
	}
	return expectedOutput, ex, errs
}

// loadTurns reads a case's turns; env is the case's, cli the command
// line's threshold.
func loadTurns(tn *config.Node, env *spec.Env, cli *float64, kc *KeyChecker) ([]*Turn, []error) {
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
		if err := kc.Check(it, "turn", turnKeys...); err != nil {
			errs = append(errs, err)
			continue
		}
		t := &Turn{Node: it}
		if v, _ := it.First("input", "input_messages"); v != nil {
			if t.Input, err = inputText(v); err != nil {
				errs = append(errs, err)
			}
		}
		ex, es := readExecution(it, it.Get("execution"), levelTurn, kc)
		errs = append(errs, es...)
		out, es := expectedOutput(it)
		errs = append(errs, es...)
		if ex.list != nil {
			turnEnv := *env
			turnEnv.Case.Input = t.Input
			// A turn's expectations replace the case's for its evaluators.
			if v, _ := it.First("expected_outcome", "criteria"); v != nil {
				if turnEnv.Case.ExpectedOutcome, err = v.Str(); err != nil {
					errs = append(errs, err)
				}
			}
			if out != "" {
				turnEnv.Case.ExpectedOutput = out
			}
			turnEnv.Threshold = firstThreshold(cli, ex.threshold, env.Threshold)
			evs, es := spec.BuildList(ex.list, &turnEnv, map[string]*config.Node{})
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

// expectedOutput reads the expected output of a case or turn
// (expected_output, or a case's expected_messages), for the evaluators
// that compare the agent's answer with it.
func expectedOutput(n *config.Node) (string, []error) {
	v, k := n.First("expected_output", "expected_messages")
	if v == nil {
		return "", nil
	}
	if k2 := otherKey(n, k, "expected_output", "expected_messages"); k2 != "" {
		return "", []error{n.Get(k2).Errorf("the expected output is given under both %s and %s", k, k2).With("keep one")}
	}
	out, err := outputText(v)
	if err != nil {
		return "", []error{err}
	}
	return out, nil
}

// unsupportedCaseKeys returns an error for each key of AgentV's cases that
// trajeval accepts only to say why it cannot honour it, and checks mode.
func unsupportedCaseKeys(cn *config.Node) []error {
	var errs []error
	if v := cn.Get("vars"); v != nil {
		errs = append(errs, v.Errorf("vars are not supported: trajeval fills prompts only from the case (input, expected_outcome, expected_output) and its trace").
			With("remove vars; put what the judge needs in the case's input or expected_outcome"))
	}
	if v := cn.Get("conversation_id"); v != nil {
		errs = append(errs, v.Errorf("conversation_id is not supported: each case is scored on its own trace, matched by its id").
			With("remove it; give a multi-turn case its turns under turns:"))
	}
	if v := cn.Get("mode"); v != nil {
		if _, err := v.Enum("conversation"); err != nil {
			errs = append(errs, err)
		} else if cn.Get("turns") == nil {
			errs = append(errs, v.Errorf("mode conversation needs turns").With("list the expected turns under turns:"))
		}
	}
	return errs
}

// joinText joins the non-empty texts with a new line.
func joinText(texts ...string) string {
	var parts []string
	for _, t := range texts {
		if t != "" {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, "\n")
}

// inputText flattens an input (a string, or messages with role and
// content) to the text of its user messages.
func inputText(n *config.Node) (string, error) {
	return messagesText(n, "input", "user", "role", "content", "name")
}

// outputText flattens an expected output (a string, messages, or any other
// value, as JSON) to the text of its assistant messages.
func outputText(n *config.Node) (string, error) {
	if n.Kind == config.Map {
		return jsonv.Marshal(n.Value()), nil
	}
	return messagesText(n, "expected output", "assistant", "role", "content", "name", "tool_calls")
}

// messagesText flattens text, or a list of messages with the given keys,
// to the text content of the messages of role.
func messagesText(n *config.Node, what, role string, keys ...string) (string, error) {
	switch n.Kind {
	case config.String:
		return n.Text, nil
	case config.Null:
		return "", nil
	case config.List:
		var parts []string
		for _, m := range n.Items {
			if m.Kind != config.Map {
				return "", m.Errorf("an %s message is a map with role and content, got %s", what, m.Kind)
			}
			if err := m.Check(keys...); err != nil {
				return "", err
			}
			rn := m.Get("role")
			if rn == nil {
				return "", m.Errorf("%s message has no role", what)
			}
			r, err := rn.Str()
			if err != nil {
				return "", err
			}
			if r != role {
				continue
			}
			if c := m.Get("content"); c != nil && c.Kind == config.String {
				parts = append(parts, c.Text)
			}
		}
		return strings.Join(parts, "\n"), nil
	}
	return "", n.Errorf("%s must be text or a list of messages, got %s", what, fmt.Sprint(n.Kind))
}
