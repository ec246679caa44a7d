package vertex_test

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/eval/vertex"
)

// TestEvaluator_textForms: a step's arguments as JSON text, by value or by
// pointer (as readers keep them), score as their value does; a nil
// *json.RawMessage, like nil, is the empty input.
func TestEvaluator_textForms(t *testing.T) {
	raw := func(s string) *json.RawMessage {
		r := json.RawMessage(s)
		return &r
	}
	forms := []struct {
		name      string
		none, obj any
		reason    string
	}{
		{"text", json.RawMessage(`{}`), json.RawMessage(`{"x": 1}`), "text put in a step by hand"},
		{"pointer", raw(`{}`), raw(`{"x": 1}`), "text as readers keep it"},
		{"nil pointer", (*json.RawMessage)(nil), raw(`{"x": 1}`), "a nil *json.RawMessage is no arguments: the empty input"},
		{"null", json.RawMessage(`null`), raw(`{"x": 1}`), "the text null is no arguments too"},
	}
	pred := func(none, obj any) *trajeval.Trajectory {
		tr := &trajeval.Trajectory{ID: "t", Steps: []trajeval.Step{{Name: "a", Args: none}, {Name: "b", Args: obj}}}
		tr.Finish()
		return tr
	}
	ref := calls(t, `a b{"x":1}`)
	for _, m := range fiveMetrics {
		e, err := vertex.New(vertex.Options{Metric: m, Reference: ref})
		if err != nil {
			t.Fatal(err)
		}
		want, err := e.Evaluate(context.Background(), pred(nil, map[string]any{"x": json.Number("1")}))
		if err != nil || want.Score != 1 {
			t.Fatalf("%s: the values score %v (%v), want 1", m, want.Score, err)
		}
		for _, f := range forms {
			t.Run(m+"/"+f.name, func(t *testing.T) {
				got, err := e.Evaluate(context.Background(), pred(f.none, f.obj))
				if err != nil || !reflect.DeepEqual(got, want) {
					t.Errorf("got %+v %+v (%v), want %+v %+v: %s", got, got.Details, err, want, want.Details, f.reason)
				}
			})
		}
	}
}
