package vertex_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/eval/vertex"
	"github.com/trajeval/trajeval/internal/jsonv"
)

// calls reads "a{"x":1} b" shorthand: tool names, each optionally
// followed by its JSON input with no spaces.
func calls(t *testing.T, s string) []vertex.Call {
	t.Helper()
	var out []vertex.Call
	for _, f := range strings.Fields(s) {
		name, in, _ := strings.Cut(f, "{")
		c := vertex.Call{ToolName: name}
		if in != "" {
			v, err := jsonv.Decode([]byte("{" + in))
			if err != nil {
				t.Fatal(err)
			}
			c.ToolInput = v.(map[string]any)
		}
		out = append(out, c)
	}
	return out
}

func traj(t *testing.T, s string) *trajeval.Trajectory {
	tr := &trajeval.Trajectory{ID: "t"}
	for _, c := range calls(t, s) {
		st := trajeval.Step{Name: c.ToolName}
		if c.ToolInput != nil {
			st.Args = c.ToolInput
		}
		tr.Steps = append(tr.Steps, st)
	}
	tr.Finish()
	return tr
}

// scores are the five reference metrics in order: exact, in order, any
// order, precision, recall.
type scores [5]float64

var fiveMetrics = []string{vertex.ExactMatch, vertex.InOrderMatch, vertex.AnyOrderMatch, vertex.Precision, vertex.Recall}

func TestEvaluator_Evaluate(t *testing.T) {
	tests := []struct {
		name, ref, pred string
		want            scores
		reason          string
	}{
		{"identical", `a{"x":1} b`, `a{"x":1} b`, scores{1, 1, 1, 1, 1}, "the same calls in the same order"},
		{"numbers by value", `a{"x":1}`, `a{"x":1.0}`, scores{1, 1, 1, 1, 1}, "1 and 1.0 are the same input"},
		{"swapped", `a b`, `b a`, scores{0, 0, 1, 1, 1}, "any order still finds both"},
		{"extra call between", `a b`, `a c b`, scores{0, 1, 1, 2.0 / 3, 1}, "in order allows gaps; precision counts the extra"},
		{"input differs", `a{"x":1} b`, `a{"x":2} b`, scores{0, 0, 0, 0.5, 0.5}, "a different value is a different call"},
		{"extra input key", `a{"x":1}`, `a{"x":1,"y":2}`, scores{0, 0, 0, 0, 0}, "inputs are compared whole, as Vertex compares dicts"},
		{"missing input is empty", `a`, `a`, scores{1, 1, 1, 1, 1}, "no tool_input and no arguments are both {}"},
		{"missing input against arguments", `a`, `a{"x":1}`, scores{0, 0, 0, 0, 0}, "{} is not {x: 1}"},
		{"reference repeats", `a a`, `a`, scores{0, 0, 0, 1, 0.5}, "one call cannot stand for two"},
		{"prediction repeats", `a`, `a a`, scores{0, 1, 1, 0.5, 1}, "the repeat is an extra call"},
		{"both empty", ``, ``, scores{1, 1, 1, 1, 1}, "nothing expected, nothing done"},
		{"empty reference", ``, `a`, scores{0, 1, 1, 0, 1}, "exact wants nothing; precision has no correct call"},
		{"empty prediction", `a`, ``, scores{0, 0, 0, 0, 0}, "nothing was done"},
		{"dollar keys are literal", `a{"$regex":"x"}`, `a{"$regex":"x"}`, scores{1, 1, 1, 1, 1}, "a key from data is never an operator"},
		{"dollar keys stay literal", `a{"$regex":".*"}`, `a{"$regex":"x"}`, scores{0, 0, 0, 0, 0}, "the pattern is a literal string here"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for k, m := range fiveMetrics {
				e, err := vertex.New(vertex.Options{Metric: m, Reference: calls(t, tt.ref)})
				if err != nil {
					t.Fatal(err)
				}
				out, err := e.Evaluate(context.Background(), traj(t, tt.pred))
				if err != nil {
					t.Fatal(err)
				}
				if math.Abs(out.Score-tt.want[k]) > 1e-9 {
					t.Errorf("%s = %v, want %v: %s", m, out.Score, tt.want[k], tt.reason)
				}
				if out.Details == nil {
					t.Errorf("%s: no details", m)
				}
			}
		})
	}
}

func TestEvaluator_singleToolUse(t *testing.T) {
	tests := []struct {
		pred   string
		want   float64
		reason string
	}{
		{`a b`, 1, "b was called"},
		{`b{"x":1}`, 1, "any input"},
		{`a`, 0, "b was not called"},
		{``, 0, "nothing was called"},
		{`B`, 0, "names are case-sensitive"},
	}
	e, err := vertex.New(vertex.Options{Metric: vertex.SingleToolUse, ToolName: "b"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.pred, func(t *testing.T) {
			out, err := e.Evaluate(context.Background(), traj(t, tt.pred))
			if err != nil {
				t.Fatal(err)
			}
			if out.Score != tt.want {
				t.Errorf("score %v, want %v: %s", out.Score, tt.want, tt.reason)
			}
		})
	}
}

func TestNew_errors(t *testing.T) {
	tests := []struct {
		name string
		o    vertex.Options
		want string
	}{
		{"unknown metric", vertex.Options{Metric: "trajectory_f1"}, "unknown metric"},
		{"single without a tool", vertex.Options{Metric: vertex.SingleToolUse}, "needs a tool_name"},
		{"single with a reference", vertex.Options{Metric: vertex.SingleToolUse, ToolName: "a", Reference: []vertex.Call{}}, "takes no reference"},
		{"tool name elsewhere", vertex.Options{Metric: vertex.Recall, ToolName: "a"}, "takes no tool_name"},
		{"empty tool name", vertex.Options{Metric: vertex.Recall, Reference: []vertex.Call{{}}}, "reference call 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := vertex.New(tt.o)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("New error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func ExampleNew() {
	e, _ := vertex.New(vertex.Options{Metric: vertex.Precision, Reference: []vertex.Call{
		{ToolName: "get_weather", ToolInput: map[string]any{"city": "Paris"}},
	}})
	t := &trajeval.Trajectory{Steps: []trajeval.Step{
		{Name: "get_weather", Args: map[string]any{"city": "Paris"}},
		{Name: "search", Args: map[string]any{"q": "Paris"}},
	}}
	t.Finish()
	out, _ := e.Evaluate(context.Background(), t)
	fmt.Printf("%.2f, extra: %s\n", out.Score, out.Details.Extra[0].Tool)
	// Output: 0.50, extra: search
}
