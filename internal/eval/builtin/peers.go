package builtin

import (
	"reflect"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval/deepeval"
	"github.com/trajeval/trajeval/internal/eval/ragas"
	"github.com/trajeval/trajeval/internal/eval/spec"
	"github.com/trajeval/trajeval/internal/shape"
)

// DeepEval's ToolCorrectnessMetric and Ragas's ToolCallAccuracy and
// ToolCallF1: their settings, spelt as in Python, read into the deepeval
// and ragas packages' constructors. Each is also known by its class name
// (tool_correctness_metric, tool_call_accuracy, tool_call_f1; Dokimos
// owns tool_correctness).

type deepevalSettings struct {
	ExpectedTools          *config.Node `config:"expected_tools,required"`
	EvaluationParams       *config.Node `config:"evaluation_params"`
	ShouldExactMatch       bool         `config:"should_exact_match"`
	ShouldConsiderOrdering bool         `config:"should_consider_ordering"`
	IncludeReason          *bool        `config:"include_reason"`
	StrictMode             bool         `config:"strict_mode"`
}

type ragasAccuracySettings struct {
	ReferenceToolCalls *config.Node `config:"reference_tool_calls,required"`
	StrictOrder        *bool        `config:"strict_order"`
}

type ragasF1Settings struct {
	ReferenceToolCalls *config.Node `config:"reference_tool_calls,required"`
}

var (
	objectOrNull = shape.OneOf("map or null", shape.Shape{Text: "map", Schema: map[string]any{"type": "object"}}, shape.Shape{Text: "null", Schema: map[string]any{"type": "null"}})
	ragasCalls   = shape.Field{Key: "reference_tool_calls", Shape: shape.List(shape.Object("tool call {name, args}",
		shape.Field{Key: "name", Shape: shape.Name(), Required: true, Doc: "The tool's name."},
		shape.Field{Key: "args", Shape: objectOrNull, Default: "{}", Doc: "The arguments expected."},
	)), Required: true, Doc: "The calls expected, as Ragas's reference_tool_calls."}
)

func peerSpecs() []spec.Spec {
	return []spec.Spec{
		{
			Type: "deepeval_tool_correctness", Aliases: []string{"tool_correctness_metric"},
			Keys: []string{"expected_tools", "evaluation_params", "should_exact_match", "should_consider_ordering", "include_reason", "strict_mode"}, Threshold: 1,
			Build:   buildDeepEval,
			Summary: "DeepEval's ToolCorrectnessMetric: the expected tools found among the calls, with partial credit for inputs, paired optimally.",
			Example: `- type: deepeval_tool_correctness
  expected_tools:
    - name: search
      input_parameters: {query: weather Paris}
  evaluation_params: [input_parameters]
  threshold: 0.5
`,
			Settings: []shape.Field{
				{Key: "expected_tools", Shape: shape.List(shape.Object("tool {name, input_parameters, output}",
					shape.Field{Key: "name", Shape: shape.Name(), Required: true, Doc: "The tool's name."},
					shape.Field{Key: "input_parameters", Shape: objectOrNull, Default: "{}", Doc: "The input expected (compared with input_parameters in evaluation_params)."},
					shape.Field{Key: "output", Shape: shape.Any(), Doc: "The result expected (compared with output in evaluation_params)."},
				)), Required: true, Doc: "The tools expected, as DeepEval's expected_tools."},
				{Key: "evaluation_params", Shape: shape.List(shape.Enum("tool", "input_parameters", "output")), Default: "[tool]", Doc: "What is compared besides the name: input_parameters, output."},
				{Key: "should_exact_match", Shape: shape.Bool(), Default: "false", Doc: "1 iff the calls are the expected ones, position by position, else 0."},
				{Key: "should_consider_ordering", Shape: shape.Bool(), Default: "false", Doc: "Pair in order (a weighted longest common subsequence)."},
				{Key: "include_reason", Shape: shape.Bool(), Default: "true", Doc: "Add DeepEval's one-sentence reason to the details."},
				{Key: "strict_mode", Shape: shape.Bool(), Default: "false", Doc: "Score 1 when everything matches, else 0."},
			},
		},
		{
			Type: "ragas_tool_call_accuracy", Aliases: []string{"tool_call_accuracy"},
			Keys: config.Keys(reflect.TypeFor[ragasAccuracySettings]()), Threshold: 1,
			Build:   buildRagasAccuracy,
			Summary: "Ragas's ToolCallAccuracy: 0 unless the tools called are the reference's (in order with strict_order), else the mean argument score of optimally paired calls.",
			Example: `- type: ragas_tool_call_accuracy
  reference_tool_calls:
    - name: weather_check
      args: {location: New York}
  strict_order: true
`,
			Settings: []shape.Field{ragasCalls,
				{Key: "strict_order", Shape: shape.Bool(), Default: "true", Doc: "The tools must be called in the reference's order; false: as a multiset."},
			},
		},
		{
			Type: "ragas_tool_call_f1", Aliases: []string{"tool_call_f1"},
			Keys: config.Keys(reflect.TypeFor[ragasF1Settings]()), Threshold: 1,
			Build:   buildRagasF1,
			Summary: "Ragas's ToolCallF1: F1 of the calls made against the reference calls (name and equal arguments), repeats counted.",
			Example: `- type: ragas_tool_call_f1
  reference_tool_calls:
    - name: weather_check
      args: {location: New York}
`,
			Settings: []shape.Field{ragasCalls},
		},
	}
}

func buildDeepEval(n *config.Node, _ *spec.Env) (trajeval.Evaluator, error) {
	var s deepevalSettings
	if err := config.Decode(n, &s, spec.CommonKeys...); err != nil {
		return nil, err
	}
	o := deepeval.Options{ExactMatch: s.ShouldExactMatch, ConsiderOrdering: s.ShouldConsiderOrdering, Strict: s.StrictMode, Reason: s.IncludeReason == nil || *s.IncludeReason}
	if s.ShouldExactMatch && s.ShouldConsiderOrdering {
		return nil, n.Get("should_consider_ordering").Errorf("should_consider_ordering has no effect with should_exact_match").With("exact match already compares position by position; drop one of them")
	}
	if p := s.EvaluationParams; p != nil {
		items, err := p.List()
		if err != nil {
			return nil, err
		}
		for _, it := range items {
			w, err := it.Enum("tool", "input_parameters", "output")
			if err != nil {
				return nil, err
			}
			switch w {
			case "input_parameters":
				o.InputParameters = true
			case "output":
				o.Output = true
			}
		}
	}
	items, err := s.ExpectedTools.List()
	if err != nil {
		return nil, err
	}
	for _, it := range items {
		name, in, err := namedCall(it, "name", "input_parameters", "output")
		if err != nil {
			return nil, err
		}
		c := deepeval.Call{Name: name, InputParameters: in}
		if out := it.Get("output"); out != nil {
			c.Output, c.HasOutput = out.Value(), true
		} else if o.Output {
			return nil, it.Errorf("output is in evaluation_params but this tool gives none").With("add output: ..., or drop output from evaluation_params")
		}
		o.Expected = append(o.Expected, c)
	}
	e, err := deepeval.New(o)
	if err != nil {
		return nil, n.Errorf("%v", err)
	}
	return e, nil
}

func ragasReference(v *config.Node) ([]ragas.Call, error) {
	items, err := v.List()
	if err != nil {
		return nil, err
	}
	calls := make([]ragas.Call, 0, len(items))
	for _, it := range items {
		name, args, err := namedCall(it, "name", "args")
		if err != nil {
			return nil, err
		}
		calls = append(calls, ragas.Call{Name: name, Args: args})
	}
	return calls, nil
}

func buildRagasAccuracy(n *config.Node, _ *spec.Env) (trajeval.Evaluator, error) {
	var s ragasAccuracySettings
	if err := config.Decode(n, &s, spec.CommonKeys...); err != nil {
		return nil, err
	}
	ref, err := ragasReference(s.ReferenceToolCalls)
	if err != nil {
		return nil, err
	}
	e, err := ragas.NewAccuracy(ref, s.StrictOrder == nil || *s.StrictOrder)
	if err != nil {
		return nil, n.Errorf("%v", err)
	}
	return e, nil
}

func buildRagasF1(n *config.Node, _ *spec.Env) (trajeval.Evaluator, error) {
	var s ragasF1Settings
	if err := config.Decode(n, &s, spec.CommonKeys...); err != nil {
		return nil, err
	}
	ref, err := ragasReference(s.ReferenceToolCalls)
	if err != nil {
		return nil, err
	}
	e, err := ragas.NewF1(ref)
	if err != nil {
		return nil, n.Errorf("%v", err)
	}
	return e, nil
}
