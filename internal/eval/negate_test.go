package eval_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval"
	"github.com/trajeval/trajeval/internal/eval/builtin"
	_ "github.com/trajeval/trajeval/internal/eval/builtin"
	"github.com/trajeval/trajeval/internal/eval/spec"
	"github.com/trajeval/trajeval/internal/run"
	"github.com/trajeval/trajeval/internal/suite"
)

// fixed is an evaluator whose outcome the test writes down:
// {type: fixed, score: S, verdict: true|false, broken: true}.
type fixed struct {
	score   float64
	verdict *bool
	broken  bool
}

func (f fixed) Evaluate(context.Context, *trajeval.Trajectory) (trajeval.Outcome, error) {
	if f.broken {
		return trajeval.Outcome{}, errors.New("cannot run")
	}
	return trajeval.Outcome{Score: f.score, Verdict: f.verdict}, nil
}

// types are the built-in types and fixed, a type of these tests.
var types, _ = spec.NewRegistry(append(builtin.Specs(), spec.Spec{
	Type: "fixed", Keys: []string{"score", "verdict", "broken"}, Threshold: 1,
	Build: func(n *config.Node, _ *spec.Env) (trajeval.Evaluator, error) {
		var f fixed
		var err error
		if v := n.Get("score"); v != nil {
			if f.score, err = v.Float(); err != nil {
				return nil, err
			}
		}
		if v := n.Get("verdict"); v != nil {
			b, err := v.BoolValue()
			if err != nil {
				return nil, err
			}
			f.verdict = &b
		}
		if v := n.Get("broken"); v != nil {
			if f.broken, err = v.BoolValue(); err != nil {
				return nil, err
			}
		}
		return f, nil
	},
})...)

// build configures one evaluator from its YAML.
func build(t *testing.T, yaml string) *eval.Configured {
	t.Helper()
	n, err := config.Parse("suite.yaml", []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	c, err := spec.Build(n, &spec.Env{Types: types})
	if err != nil {
		t.Fatalf("Build(%s): %v", yaml, err)
	}
	return c
}

func TestConfigured_Run_negate(t *testing.T) {
	tests := []struct {
		name   string
		yaml   string
		score  float64
		status trajeval.Status
		reason string
	}{
		{"pass becomes fail", "{type: fixed, score: 1, negate: true}", 0, trajeval.StatusFail, "a full score negated is 0, and a fail"},
		{"fail becomes pass", "{type: fixed, score: 0, negate: true}", 1, trajeval.StatusPass, "a zero score negated is 1, and a pass"},
		{"not negated", "{type: fixed, score: 0.25, negate: false}", 0.25, trajeval.StatusFail, "negate: false changes nothing"},
		{"partial score", "{type: fixed, score: 0.25, negate: true}", 0.75, trajeval.StatusPass, "1 − 0.25; below the threshold of 1 before negation, so a pass"},
		{"threshold before negation: pass", "{type: fixed, score: 0.75, threshold: 0.5, negate: true}", 0.25, trajeval.StatusFail,
			"0.75 reaches 0.5, so the negated evaluator fails"},
		{"threshold before negation: fail", "{type: fixed, score: 0.25, threshold: 0.5, negate: true}", 0.75, trajeval.StatusPass,
			"0.25 misses 0.5, so the negated evaluator passes"},
		{"threshold reached exactly", "{type: fixed, score: 0.5, threshold: 0.5, negate: true}", 0.5, trajeval.StatusFail,
			"0.5 reaches 0.5 before negation: a fail, though the negated score 0.5 equals the threshold too"},
		{"required as a minimum", "{type: fixed, score: 0.75, required: 0.7, negate: true}", 0.25, trajeval.StatusFail,
			"required: 0.7 is the threshold, applied before negation"},
		{"verdict: pass becomes fail", "{type: fixed, score: 0.25, verdict: true, negate: true}", 0.75, trajeval.StatusFail,
			"an evaluator's own verdict is swapped like a threshold's"},
		{"verdict: fail becomes pass", "{type: fixed, score: 0.75, verdict: false, negate: true}", 0.25, trajeval.StatusPass,
			"an evaluator's own verdict is swapped like a threshold's"},
		{"clamped first", "{type: fixed, score: 1.5, negate: true}", 0, trajeval.StatusFail, "the score is clamped to [0,1] before negation"},
		{"error stays an error", "{type: fixed, broken: true, negate: true}", 0, trajeval.StatusError, "an evaluator that cannot run is never negated into a pass"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := build(t, tt.yaml).Run(context.Background(), &trajeval.Trajectory{})
			if r.Status != tt.status || math.Abs(r.Score-tt.score) > 1e-12 {
				t.Errorf("Run = %s %v, want %s %v: %s", r.Status, r.Score, tt.status, tt.score, tt.reason)
			}
		})
	}
}

func TestConfigured_Run_negateComposite(t *testing.T) {
	tests := []struct {
		name    string
		yaml    string
		score   float64
		status  trajeval.Status
		members []trajeval.Status
		reason  string
	}{
		{"negated member, weighted average",
			"{type: composite, threshold: 0.8, evaluators: [{name: a, type: fixed, score: 0.25, negate: true}, {name: b, type: fixed, score: 1}]}",
			0.875, trajeval.StatusPass, []trajeval.Status{trajeval.StatusPass, trajeval.StatusPass},
			"the member counts with its negated score, 0.75"},
		{"negated member, min",
			"{type: composite, aggregator: min, threshold: 0.7, evaluators: [{name: a, type: fixed, score: 0.25, negate: true}, {name: b, type: fixed, score: 1}]}",
			0.75, trajeval.StatusPass, []trajeval.Status{trajeval.StatusPass, trajeval.StatusPass},
			"min sees the negated score"},
		{"negated member, all pass",
			"{type: composite, aggregator: all_pass, evaluators: [{name: a, type: fixed, score: 0, negate: true}, {name: b, type: fixed, score: 1}]}",
			1, trajeval.StatusPass, []trajeval.Status{trajeval.StatusPass, trajeval.StatusPass},
			"all_pass counts the member's negated verdict"},
		{"negated composite",
			"{type: composite, aggregator: all_pass, negate: true, evaluators: [{name: a, type: fixed, score: 1}, {name: b, type: fixed, score: 0}]}",
			0.5, trajeval.StatusPass, []trajeval.Status{trajeval.StatusPass, trajeval.StatusFail},
			"the composite's verdict is swapped, its members' are not"},
		{"negated composite of passing members",
			"{type: composite, negate: true, evaluators: [{name: a, type: fixed, score: 1}, {name: b, type: fixed, score: 1}]}",
			0, trajeval.StatusFail, []trajeval.Status{trajeval.StatusPass, trajeval.StatusPass},
			"1 − the weighted average"},
		{"negated composite with a broken member",
			"{type: composite, negate: true, evaluators: [{name: a, type: fixed, broken: true}, {name: b, type: fixed, score: 0}]}",
			0, trajeval.StatusError, nil,
			"a member that cannot run makes the composite an error, negated or not"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := build(t, tt.yaml).Run(context.Background(), &trajeval.Trajectory{})
			if r.Status != tt.status || math.Abs(r.Score-tt.score) > 1e-12 {
				t.Errorf("Run = %s %v, want %s %v: %s", r.Status, r.Score, tt.status, tt.score, tt.reason)
			}
			if tt.status == trajeval.StatusError {
				if !strings.Contains(r.Error, "member a") {
					t.Errorf("error %q does not name the member that cannot run", r.Error)
				}
				return
			}
			var members []trajeval.Status
			for _, m := range r.Members {
				members = append(members, m.Status)
			}
			if len(members) != len(tt.members) {
				t.Fatalf("members %v, want %v: %s", members, tt.members, tt.reason)
			}
			for i := range members {
				if members[i] != tt.members[i] {
					t.Errorf("members %v, want %v: %s", members, tt.members, tt.reason)
					break
				}
			}
		})
	}
}

// TestScore_negateRequired checks a negated evaluator's part in its case's
// verdict: the case score uses the negated score, and required: false lets
// the case pass when the negated evaluator fails.
func TestScore_negateRequired(t *testing.T) {
	tests := []struct {
		name   string
		yaml   []string
		score  float64
		status trajeval.Status
		reason string
	}{
		{"required negated fail", []string{"{name: a, type: fixed, score: 1}", "{name: b, type: fixed, score: 1, negate: true}"},
			0.5, trajeval.StatusFail, "a required evaluator that fails once negated fails the case"},
		{"optional negated fail", []string{"{name: a, type: fixed, score: 1}", "{name: b, type: fixed, score: 1, negate: true, required: false}"},
			0.5, trajeval.StatusPass, "required: false: the negated failure is reported but does not fail the case"},
		{"negated pass", []string{"{name: a, type: fixed, score: 1}", "{name: b, type: fixed, score: 0.25, negate: true}"},
			0.875, trajeval.StatusPass, "the case score averages the negated score 0.75"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &suite.Case{ID: "c"}
			for _, y := range tt.yaml {
				c.Evaluators = append(c.Evaluators, build(t, y))
			}
			r := run.Score(context.Background(), &suite.Suite{Name: "s"}, c, &trajeval.Trajectory{ID: "c"})
			if r.Status != tt.status || math.Abs(r.Score-tt.score) > 1e-12 {
				t.Errorf("case %s %v, want %s %v: %s", r.Status, r.Score, tt.status, tt.score, tt.reason)
			}
		})
	}
}
