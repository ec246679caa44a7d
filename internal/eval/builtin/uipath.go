package builtin

import (
	"errors"
	"reflect"
	"slices"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/argmatch"
	"github.com/trajeval/trajeval/internal/config"
	evaljudge "github.com/trajeval/trajeval/internal/eval/judge"
	"github.com/trajeval/trajeval/internal/eval/spec"
	"github.com/trajeval/trajeval/internal/eval/uipath"
)

// UiPath's four tool-call evaluators: their criteria keys, read into the
// uipath package's constructors. Each type is also known by UiPath's own
// evaluatorTypeId (uipath-tool-call-order …).

type orderSettings struct {
	ToolCallsOrder *config.Node `config:"tool_calls_order,required"`
	Strict         *bool        `config:"strict"`
}

type countSettings struct {
	ToolCallsCount *config.Node `config:"tool_calls_count,required"`
	Strict         *bool        `config:"strict"`
}

type argsSettings struct {
	ToolCalls *config.Node `config:"tool_calls,required"`
	Strict    *bool        `config:"strict"`
	Subset    *bool        `config:"subset"`
}

type outputSettings struct {
	ToolOutputs *config.Node `config:"tool_outputs,required"`
	Strict      *bool        `config:"strict"`
}

func uipathSpecs() []spec.Spec {
	return []spec.Spec{
		{Type: "tool_call_order", Aliases: []string{"uipath-tool-call-order"}, Keys: config.Keys(reflect.TypeFor[orderSettings]()), Threshold: 1, Build: buildOrder},
		{Type: "tool_call_count", Aliases: []string{"uipath-tool-call-count"}, Keys: config.Keys(reflect.TypeFor[countSettings]()), Threshold: 1, Build: buildCount},
		{Type: "tool_call_args", Aliases: []string{"uipath-tool-call-args"}, Keys: config.Keys(reflect.TypeFor[argsSettings]()), Threshold: 1, Build: buildArgs},
		{Type: "tool_call_output", Aliases: []string{"uipath-tool-call-output"}, Keys: config.Keys(reflect.TypeFor[outputSettings]()), Threshold: 1, Build: buildOutput},
	}
}

func buildOrder(n *config.Node, _ *spec.Env) (trajeval.Evaluator, error) {
	var s orderSettings
	if err := config.Decode(n, &s, spec.CommonKeys...); err != nil {
		return nil, err
	}
	v := s.ToolCallsOrder
	items, err := nonEmptyList(v, "tool_calls_order", "tool name")
	if err != nil {
		return nil, err
	}
	names, err := v.Strings()
	if err != nil {
		return nil, err
	}
	e, err := uipath.NewOrder(names, isTrue(s.Strict))
	return e, placeUiPath(err, v, items)
}

func buildCount(n *config.Node, _ *spec.Env) (trajeval.Evaluator, error) {
	var s countSettings
	if err := config.Decode(n, &s, spec.CommonKeys...); err != nil {
		return nil, err
	}
	v := s.ToolCallsCount
	entries, err := v.MapEntries()
	if err != nil {
		return nil, err
	}
	if len(entries) == 0 {
		return nil, v.Errorf("tool_calls_count is empty").With(`give at least one constraint, e.g. search: [">=", 1]`)
	}
	var cs []uipath.Constraint
	var at []*config.Node
	for _, e := range entries {
		k, err := countConstraint(e.Key, e.Value)
		if err != nil {
			return nil, err
		}
		cs, at = append(cs, k), append(at, e.Value)
	}
	e, err := uipath.NewCount(cs, isTrue(s.Strict))
	return e, placeUiPath(err, v, at)
}

// countConstraint reads {tool: [op, n]} or {tool: n}.
func countConstraint(tool string, v *config.Node) (uipath.Constraint, error) {
	k := uipath.Constraint{Tool: tool, Op: "=="}
	num := v
	switch v.Kind {
	case config.Number:
	case config.List:
		if len(v.Items) != 2 {
			return k, v.Errorf("a count constraint is [operator, number], got %d items", len(v.Items)).With(`e.g. [">=", 1]`)
		}
		op, err := v.Items[0].Str()
		if err != nil {
			return k, err
		}
		if !slices.Contains(uipath.Ops, op) {
			return k, v.Items[0].Errorf("unknown operator %q", op).With("one of = == != > < >= <=")
		}
		k.Op = op
		num = v.Items[1]
	default:
		return k, v.Errorf("a count constraint is [operator, number], got %s", v.Kind).With(`e.g. [">=", 1]`)
	}
	n, err := num.Int()
	if err != nil {
		return k, err
	}
	if n < 0 {
		return k, num.Errorf("a count must not be negative, got %d", n)
	}
	k.N = n
	return k, nil
}

func buildArgs(n *config.Node, _ *spec.Env) (trajeval.Evaluator, error) {
	var s argsSettings
	if err := config.Decode(n, &s, spec.CommonKeys...); err != nil {
		return nil, err
	}
	list, err := nonEmptyList(s.ToolCalls, "tool_calls", "call {name, args}")
	if err != nil {
		return nil, err
	}
	var want []uipath.ArgsCall
	for _, it := range list {
		if err := it.Check("name", "tool", "args"); err != nil {
			return nil, err
		}
		name, err := uipathToolName(it)
		if err != nil {
			return nil, err
		}
		// No args: any arguments match (UiPath always gives an object).
		c := uipath.ArgsCall{Tool: name}
		if a := it.Get("args"); a != nil {
			if a.Kind != config.Map {
				return nil, a.Errorf("args must be an object, got %s", a.Kind)
			}
			c.Args = a.Value().(map[string]any)
		}
		want = append(want, c)
	}
	e, err := uipath.NewArgs(want, isTrue(s.Strict), isTrue(s.Subset))
	var oe *uipath.OptionError
	var ce *argmatch.CompileError
	if errors.As(err, &oe) && errors.As(oe.Err, &ce) {
		args := list[oe.Index].Get("args")
		e := args.At(ce.Path.Keys()...).Errorf("%s", ce.Error())
		e.Hint = ce.Hint
		return nil, e
	}
	return e, placeUiPath(err, s.ToolCalls, list)
}

func buildOutput(n *config.Node, _ *spec.Env) (trajeval.Evaluator, error) {
	var s outputSettings
	if err := config.Decode(n, &s, spec.CommonKeys...); err != nil {
		return nil, err
	}
	list, err := nonEmptyList(s.ToolOutputs, "tool_outputs", "output {name, output}")
	if err != nil {
		return nil, err
	}
	var want []uipath.Output
	for _, it := range list {
		if err := it.Check("name", "tool", "output"); err != nil {
			return nil, err
		}
		name, err := uipathToolName(it)
		if err != nil {
			return nil, err
		}
		o := it.Get("output")
		if o == nil {
			return nil, it.Errorf("the expected output of %s is missing", name).With("give output: <value>")
		}
		want = append(want, uipath.Output{Tool: name, Output: o.Value()})
	}
	e, err := uipath.NewOutput(want, isTrue(s.Strict))
	return e, placeUiPath(err, s.ToolOutputs, list)
}

// placeUiPath places a constructor's error at the item it concerns.
func placeUiPath(err error, list *config.Node, items []*config.Node) error {
	var oe *uipath.OptionError
	if !errors.As(err, &oe) {
		return err
	}
	at := list
	if oe.Index >= 0 && oe.Index < len(items) {
		at = items[oe.Index]
	}
	e := at.Errorf("%s", oe.Msg)
	e.Hint = oe.Hint
	return e
}

// nonEmptyList returns the items of a list that must not be empty.
func nonEmptyList(v *config.Node, key, what string) ([]*config.Node, error) {
	items, err := v.List()
	if err != nil {
		return nil, err
	}
	if len(items) == 0 {
		return nil, v.Errorf("%s is empty", key).With("list at least one %s", what)
	}
	return items, nil
}

// uipathToolName reads the name of an expected call: name, or tool.
func uipathToolName(n *config.Node) (string, error) {
	v, _ := n.First("name", "tool")
	if v == nil {
		return "", n.Errorf("the call has no name").With("give name: <tool>")
	}
	s, err := v.Name()
	if err == nil && s == "" {
		return "", v.Errorf("the tool name is empty")
	}
	return s, err
}

func isTrue(b *bool) bool { return b != nil && *b }

// uipathJudgeSpecs are UiPath's LLM judges: their criteria and
// evaluatorConfig keys, the prompt (UiPath's default, or the
// evaluator's own: text or a file) parsed with its placeholders.
func uipathJudgeSpecs() []spec.Spec {
	var out []spec.Spec
	for _, k := range uipath.JudgeKinds {
		out = append(out, spec.Spec{
			Type:      k.Type,
			Aliases:   []string{k.UiPath},
			Keys:      uipathJudgeKeys(k),
			Threshold: 0.5,
			Build:     func(n *config.Node, env *spec.Env) (trajeval.Evaluator, error) { return buildUiPathJudge(k, n, env) },
		})
	}
	return out
}

func buildUiPathJudge(k uipath.JudgeKind, n *config.Node, env *spec.Env) (trajeval.Evaluator, error) {
	crit := map[string]any{}
	for i, key := range k.Criteria {
		v := n.Get(key)
		if v == nil || v.Kind == config.Null {
			if i == 0 {
				return nil, n.Errorf("missing %s", key).With("give it in evaluationCriterias or defaultEvaluationCriteria")
			}
			crit[key] = ""
			continue
		}
		if v.Kind == config.String {
			crit[key] = v.Text
		} else {
			crit[key] = v.Value()
		}
	}
	text, at := k.Prompt, n
	if p := n.Get("prompt"); p != nil {
		var err error
		if text, err = promptText(p, env.Dir); err != nil {
			return nil, err
		}
		at = p
	}
	target, err := uipathTarget(k, n.Get("target_output_key"))
	if err != nil {
		return nil, err
	}
	if exp, ok := crit["expected_output"]; ok && exp != "" {
		if _, err := target.Select(exp); err != nil {
			return nil, n.Get("expected_output").Errorf("%v: the expected output has no such value", err).With("give the expected output whole, as the agent returns it")
		}
	}
	tp, err := evaljudge.ParseTemplate(text, uipath.Vars(crit, target))
	if err != nil {
		return nil, spec.Place(at, err)
	}
	if !tp.Uses() {
		return nil, at.Errorf("the prompt names none of UiPath's placeholders").With("e.g. {{AgentRunHistory}} and {{ExpectedAgentBehavior}}")
	}
	h, err := env.Judge(n, false)
	if err != nil {
		return nil, err
	}
	return uipath.NewJudged(k, tp, h, env.Case, target), nil
}

// uipathJudgeKeys are the keys of judge kind k: its criteria and configuration.
func uipathJudgeKeys(k uipath.JudgeKind) []string {
	keys := append(slices.Clone(k.Criteria), uipath.JudgeConfigKeys...)
	if slices.Contains(k.Criteria, "expected_output") {
		keys = append(keys, uipath.OutputConfigKeys...)
	}
	return keys
}

// uipathTarget reads an output judge's targetOutputKey: "*" (the whole
// output), a dot-path, or a list of dot-paths.
func uipathTarget(k uipath.JudgeKind, n *config.Node) (uipath.Target, error) {
	if n == nil || n.Kind == config.Null || (n.Kind == config.String && n.Text == "*") {
		return uipath.Target{}, nil
	}
	if !slices.Contains(k.Criteria, "expected_output") {
		return uipath.Target{}, n.Errorf("targetOutputKey is a setting of the output judges, not of %s", k.UiPath)
	}
	var tg uipath.Target
	if n.Kind == config.List {
		paths, err := n.Strings()
		if err != nil {
			return tg, err
		}
		if len(paths) == 0 {
			return tg, n.Errorf("targetOutputKey is an empty list").With(`write "*" for the whole output`)
		}
		tg = uipath.Target{Paths: paths, List: true}
	} else {
		p, err := n.Str()
		if err != nil {
			return tg, err
		}
		tg = uipath.Target{Paths: []string{p}}
	}
	for _, p := range tg.Paths {
		if _, err := argmatch.ParsePath(p); err != nil || p == "" {
			return tg, n.Errorf("targetOutputKey %q is not a path", p).With("a path is the output's keys, with . or an index: result, items[0].name")
		}
	}
	return tg, nil
}
