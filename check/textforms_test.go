package check_test

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/check"
)

// textForms is a run's trajectory with its arguments and results made by
// form: "value" as JSON values, "text" as json.RawMessage (put there by
// hand), "pointer" as *json.RawMessage (as readers keep them). The
// second call of read_document and save_answer's result are given as
// none: nil, or a nil *json.RawMessage with text.
func textForms(form string) *trajeval.Trajectory {
	type call struct{ name, args, result string }
	calls := []call{
		{"search", `{"query": "Python tutorials", "limit": 5}`, `{"hits": ["doc-1", "doc-2"], "count": 2}`},
		{"read_document", `{"id": "doc-1"}`, `{"error": "not found"}`},
		{"read_document", "", `{"text": "Start with the official tutorial."}`},
		{"read_document", `{"id": "doc-2"}`, `[{"text": "Start with the official tutorial."}]`},
		{"save_answer", `{"text": "Start with the official tutorial.", "n": 9007199254740993}`, ""},
	}
	t := &trajeval.Trajectory{ID: "t", Turns: []trajeval.Turn{{}}}
	for _, c := range calls {
		s := trajeval.Step{Name: c.name, Turn: 1}
		for _, v := range []struct {
			text string
			to   *any
		}{{c.args, &s.Args}, {c.result, &s.Result}} {
			switch {
			case form == "value" && v.text != "":
				*v.to, _ = trajeval.Decoded(json.RawMessage(v.text))
			case form == "text" && v.text != "":
				*v.to = json.RawMessage(v.text)
			case form == "pointer" && v.text != "":
				raw := json.RawMessage(v.text)
				*v.to = &raw
			case form == "pointer":
				*v.to = (*json.RawMessage)(nil)
			}
		}
		t.Steps = append(t.Steps, s)
	}
	t.Finish()
	return t
}

// TestEvaluate_textForms: every evaluator scores a trajectory whose
// arguments and results are JSON text by value or by pointer as it scores
// their values, and a nil *json.RawMessage as no value.
func TestEvaluate_textForms(t *testing.T) {
	schema := json.RawMessage(`{"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}`)
	evaluators := []struct {
		name      string
		ev        trajeval.Evaluator
		readsText bool // handed text by a run (see trajeval.Decoded)
		reason    string
	}{
		{"in order", check.InOrder(
			check.Call("search", check.Args{"query": check.Regex("(?i)python"), "limit": 5}),
			check.Call("read_document", check.Args{"id": "doc-2"}),
			check.Call("save_answer", check.Args{"n": json.Number("9007199254740993")}),
		), true, "arguments matched"},
		{"exact", check.Exact(check.Call("search"), check.Call("read_document"), check.Call("read_document", check.Args{}), check.Call("read_document"), check.Call("save_answer")), true, "none is the empty object"},
		{"any order from", check.AnyOrder(check.Call("read_document", check.Args{"id": check.From("search.result.hits[1]")})), true, "a value an earlier call returned"},
		{"rules", check.Rules(check.NoRepeat("read_document"), check.Never("search", check.Args{"limit": check.Gt(10)})), true, "repeats compare arguments"},
		{"tool errors", check.ToolErrors(), true, "a result's error member, no result"},
		{"tool errors, pattern", check.ToolErrors(check.ErrorPattern("not found")), true, "a result's text"},
		{"efficiency", check.Efficiency(), false, "identical calls"},
		{"call args", check.ToolCallArgs(check.Call("read_document", check.Args{"id": "doc-1"}), check.Call("save_answer", check.Args{"text": "Start with the official tutorial.", "n": 9007199254740993})), true, "exact arguments"},
		{"call output", check.ToolCallOutput(check.Call("search", check.Returns(map[string]any{"hits": []any{"doc-1", "doc-2"}, "count": 2})), check.Call("save_answer", check.Returns(nil))), true, "results as values"},
		{"validity", check.ToolCallValidity([]check.Tool{{Name: "read_document", Parameters: &schema}, {Name: "search"}, {Name: "save_answer", Parameters: (*json.RawMessage)(nil)}}), false, "arguments against a schema, none the empty object"},
		{"grounding", check.Grounding(check.GroundingSettings{}), false, "arguments found in earlier results"},
		{"correctness", check.ToolCorrectness(check.Call("search"), check.Call("read_document", check.Args{"id": "doc-2"}), check.MatchArgs), true, "arguments matched"},
	}
	ctx := context.Background()
	for _, tt := range evaluators {
		t.Run(tt.name, func(t *testing.T) {
			want := check.Evaluate(ctx, textForms("value"), tt.ev)
			if want.Status == trajeval.StatusError {
				t.Fatalf("the values: %s", want.Error)
			}

			for _, form := range []string{"text", "pointer"} {
				if got := check.Evaluate(ctx, textForms(form), tt.ev); !reflect.DeepEqual(got, want) {
					t.Errorf("%s: got\n%s\nwant (the values)\n%s\n%s", form, got.Explain(), want.Explain(), tt.reason)
				}
			}
			if !tt.readsText {
				return
			}
			// Evaluate hands every evaluator the trajectory decoded; a run
			// hands those that read text the text itself.
			want1, err := tt.ev.Evaluate(ctx, textForms("value"))
			if err != nil {
				t.Fatal(err)
			}
			for _, form := range []string{"text", "pointer"} {
				got, err := tt.ev.Evaluate(ctx, textForms(form))
				if err != nil || !reflect.DeepEqual(got, want1) {
					t.Errorf("%s, handed as it is: got %+v (%v)\nwant (the values) %+v\n%s", form, got, err, want1, tt.reason)
				}
			}
		})
	}
}
