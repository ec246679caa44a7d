package eval_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/eval"
)

// argsType is an evaluator that scores 1 when the first step's
// arguments are a decoded object; textArgs is the same saying it reads
// text itself (eval.TextReader).
type argsType struct{}

func (argsType) Evaluate(_ context.Context, t *trajeval.Trajectory) (trajeval.Outcome, error) {
	if _, ok := t.Steps[0].Args.(map[string]any); ok {
		return trajeval.Outcome{Score: 1}, nil
	}
	return trajeval.Outcome{}, nil
}

type textArgs struct{ argsType }

func (textArgs) ReadsText() bool { return true }

func TestConfigured_Run_text(t *testing.T) {
	traj := func(args json.RawMessage) *trajeval.Trajectory {
		return &trajeval.Trajectory{Steps: []trajeval.Step{{Index: 1, Name: "a", Args: args}}}
	}
	tests := []struct {
		name   string
		ev     trajeval.Evaluator
		args   json.RawMessage
		status trajeval.Status
		score  float64
		reason string
	}{
		{"decoded for it", argsType{}, json.RawMessage(`{"a": 1}`), trajeval.StatusPass, 1, "an evaluator that does not read text is handed values"},
		{"text for a reader", textArgs{}, json.RawMessage(`{"a": 1}`), trajeval.StatusFail, 0, "a TextReader is handed the text as it is"},
		{"broken text", argsType{}, json.RawMessage(`{"a": `), trajeval.StatusError, 0, "text that does not decode is an error, never a score"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &eval.Configured{Name: "x", Threshold: 1, Weight: 1, Required: true, Eval: tt.ev}
			in := traj(tt.args)
			r := c.Run(context.Background(), in)
			if r.Status != tt.status || r.Score != tt.score {
				t.Errorf("status %s, score %v (%s); want %s, %v: %s", r.Status, r.Score, r.Error, tt.status, tt.score, tt.reason)
			}
			if tt.status == trajeval.StatusError && !strings.Contains(r.Error, "arguments or results") {
				t.Errorf("error %q does not say what could not be read", r.Error)
			}
			if _, ok := in.Steps[0].Args.(json.RawMessage); !ok {
				t.Errorf("the trajectory handed in was changed")
			}
		})
	}
}

func TestValues_Args(t *testing.T) {
	steps := []trajeval.Step{
		{Index: 1, Name: "a", Args: map[string]any{"k": json.Number("1")}, Result: "plain"},
		{Index: 2, Name: "b", Args: json.RawMessage(`{"k": 1.0, "k": [1e400]}`), Result: json.RawMessage(`[{"ok": true}]`)},
		{Index: 3, Name: "c", Args: json.RawMessage(`{"k": `)},
	}
	tests := []struct {
		name   string
		get    func(v *eval.Values) any
		want   string // the value in canonical JSON
		err    string // in Err, after the call
		reason string
	}{
		{"value", func(v *eval.Values) any { return v.Args(0) }, `{"k":1}`, "", "a value is given as it is"},
		{"text", func(v *eval.Values) any { return v.Args(1) }, `{"k":[1e400]}`, "", "text gives the value a reader would have decoded: the last of repeated keys, numbers as spelt"},
		{"result", func(v *eval.Values) any { return v.Result(1) }, `[{"ok":true}]`, "", "results as arguments"},
		{"broken", func(v *eval.Values) any { return v.Args(2) }, `null`, "step 3's arguments", "text that does not decode is no value, and an error for the evaluator to return"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := eval.NewValues(steps)
			got := tt.get(v)
			if again := tt.get(v); tt.err == "" && !sameJSON(got, again) {
				t.Errorf("a second look gives %v, the first %v", again, got)
			}
			b, err := trajeval.AppendJSON(nil, &trajeval.Trajectory{Steps: []trajeval.Step{{Index: 1, Name: "x", Args: got}}})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), `"args":`+tt.want+`,`) {
				t.Errorf("got %s, want args %s: %s", b, tt.want, tt.reason)
			}
			if e := v.Err(); (e == nil) != (tt.err == "") || e != nil && !strings.Contains(e.Error(), tt.err) {
				t.Errorf("Err() = %v, want %q: %s", e, tt.err, tt.reason)
			}
		})
	}
}

func sameJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

func TestReadsText(t *testing.T) {
	tests := []struct {
		name   string
		ev     trajeval.Evaluator
		want   bool
		reason string
	}{
		{"not a reader", argsType{}, false, "an evaluator that says nothing is handed values"},
		{"reader", textArgs{}, true, "a TextReader that says so"},
		{"declines", declines{}, false, "a TextReader may answer no, as a composite of members that do not read text does"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &eval.Configured{Eval: tt.ev}
			if got := eval.ReadsText(tt.ev); got != tt.want || c.ReadsText() != tt.want {
				t.Errorf("ReadsText = %v, Configured.ReadsText = %v, want %v: %s", got, c.ReadsText(), tt.want, tt.reason)
			}
		})
	}
}

type declines struct{ argsType }

func (declines) ReadsText() bool { return false }
