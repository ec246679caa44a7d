package builtin

import (
	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval/spec"
	"github.com/trajeval/trajeval/internal/eval/vertex"
	"github.com/trajeval/trajeval/internal/shape"
)

// Vertex AI's Gen AI evaluation trajectory metrics: each metric is its own
// type, with the reference trajectory as Vertex writes it, read into the
// vertex package's constructor.

var vertexCallShape = shape.Object("reference call {tool_name, tool_input}",
	shape.Field{Key: "tool_name", Shape: shape.Name(), Required: true, Doc: "The tool's name."},
	shape.Field{Key: "tool_input", Shape: shape.OneOf("map or null", shape.Shape{Text: "map", Schema: map[string]any{"type": "object"}}, shape.Shape{Text: "null", Schema: map[string]any{"type": "null"}}), Default: "{}", Doc: "The call's input, compared as a whole: same keys, equal values."},
)

var vertexReference = shape.Field{Key: "reference_trajectory", Shape: shape.List(vertexCallShape), Required: true, Doc: "The calls expected, in order; repeated calls must be repeated."}

var vertexSummaries = map[string]string{
	vertex.ExactMatch:    "Vertex AI's trajectory_exact_match: 1 iff the calls are the reference's, in order, with equal inputs and nothing else.",
	vertex.InOrderMatch:  "Vertex AI's trajectory_in_order_match: 1 iff every reference call was made, in order, other calls allowed between.",
	vertex.AnyOrderMatch: "Vertex AI's trajectory_any_order_match: 1 iff every reference call was made, in any order, other calls allowed.",
	vertex.Precision:     "Vertex AI's trajectory_precision: the share of the calls made that are reference calls (one-to-one).",
	vertex.Recall:        "Vertex AI's trajectory_recall: the share of the reference calls that were made (one-to-one).",
	vertex.SingleToolUse: "Vertex AI's trajectory_single_tool_use: 1 iff the named tool was called.",
}

func vertexSpecs() []spec.Spec {
	var out []spec.Spec
	for _, m := range vertex.Metrics {
		s := spec.Spec{Type: m, Threshold: 1, Summary: vertexSummaries[m], Build: buildVertex(m)}
		if m == vertex.SingleToolUse {
			s.Keys = []string{"tool_name"}
			s.Settings = []shape.Field{{Key: "tool_name", Shape: shape.Name(), Required: true, Doc: "The tool that must be called (with any input)."}}
			s.Example = "- type: trajectory_single_tool_use\n  tool_name: get_weather\n"
		} else {
			s.Keys = []string{"reference_trajectory"}
			s.Settings = []shape.Field{vertexReference}
			s.Example = "- type: " + m + "\n  reference_trajectory:\n    - tool_name: get_weather\n      tool_input: {city: Paris}\n"
		}
		out = append(out, s)
	}
	return out
}

func buildVertex(metric string) func(n *config.Node, _ *spec.Env) (trajeval.Evaluator, error) {
	return func(n *config.Node, _ *spec.Env) (trajeval.Evaluator, error) {
		o := vertex.Options{Metric: metric}
		if metric == vertex.SingleToolUse {
			if err := n.Check(append([]string{"tool_name"}, spec.CommonKeys...)...); err != nil {
				return nil, err
			}
			v := n.Get("tool_name")
			if v == nil {
				return nil, n.Errorf("missing tool_name").With("name the tool that must be called: tool_name: NAME")
			}
			name, err := v.Name()
			if err != nil {
				return nil, err
			}
			if name == "" {
				return nil, v.Errorf("the tool name is empty")
			}
			o.ToolName = name
		} else {
			if err := n.Check(append([]string{"reference_trajectory"}, spec.CommonKeys...)...); err != nil {
				return nil, err
			}
			v := n.Get("reference_trajectory")
			if v == nil {
				return nil, n.Errorf("missing reference_trajectory").With("list the calls expected: reference_trajectory: [{tool_name: NAME, tool_input: {...}}]")
			}
			calls, err := VertexTrajectory(v)
			if err != nil {
				return nil, err
			}
			o.Reference = calls
		}
		e, err := vertex.New(o)
		if err != nil {
			return nil, n.Errorf("%v", err)
		}
		return e, nil
	}
}

// VertexTrajectory reads a Vertex trajectory: a list of calls
// {tool_name, tool_input}, tool_input a map (absent or null: {}). It
// never returns nil for a list, so an empty reference stays one.
func VertexTrajectory(v *config.Node) ([]vertex.Call, error) {
	items, err := v.List()
	if err != nil {
		return nil, err
	}
	calls := make([]vertex.Call, 0, len(items))
	for _, it := range items {
		name, args, err := namedCall(it, "tool_name", "tool_input")
		if err != nil {
			return nil, err
		}
		calls = append(calls, vertex.Call{ToolName: name, ToolInput: args})
	}
	return calls, nil
}

// namedCall reads a call {nameKey, argsKey}: a non-empty name, and
// arguments that are a map, null or absent (nil).
func namedCall(it *config.Node, nameKey, argsKey string, also ...string) (string, map[string]any, error) {
	if it.Kind != config.Map {
		return "", nil, it.Errorf("a call is a map {%s, %s}, got %s", nameKey, argsKey, it.Kind)
	}
	if err := it.Check(append([]string{nameKey, argsKey}, also...)...); err != nil {
		return "", nil, err
	}
	nv := it.Get(nameKey)
	if nv == nil {
		return "", nil, it.Errorf("the call has no %s", nameKey).With("give %s: NAME", nameKey)
	}
	name, err := nv.Name()
	if err != nil {
		return "", nil, err
	}
	if name == "" {
		return "", nil, nv.Errorf("the tool name is empty")
	}
	var args map[string]any
	if a := it.Get(argsKey); a != nil {
		switch a.Kind {
		case config.Null:
		case config.Map:
			args = a.Value().(map[string]any)
		default:
			return "", nil, a.Errorf("%s must be a map of argument values, got %s", argsKey, a.Kind)
		}
	}
	return name, args, nil
}
