package adk_test

import (
	"context"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval/builtin"
	"github.com/trajeval/trajeval/internal/eval/spec"
)

// TestResponseMatch_defaultThreshold: the verdict shown for each
// invocation uses the same threshold as the evaluator: the default the
// suite or the command line gives, when the evaluator sets none.
func TestResponseMatch_defaultThreshold(t *testing.T) {
	n, err := config.Parse("suite.yaml", []byte("type: response_match_score\ninvocations: [{final_response: a b c d}]\n"))
	if err != nil {
		t.Fatal(err)
	}
	low := 0.3
	c, err := spec.Build(n, &spec.Env{Types: builtin.Types(), Threshold: &low})
	if err != nil {
		t.Fatal(err)
	}
	r := c.Run(context.Background(), &trajeval.Trajectory{Turns: []trajeval.Turn{{FinalResponse: str("a b x y")}}})
	if r.Status != trajeval.StatusPass || len(r.Members) != 1 {
		t.Fatalf("status %s with %d members, want pass at 0.3 with one member", r.Status, len(r.Members))
	}
	if m := r.Members[0]; m.Threshold != 0.3 || m.Status != trajeval.StatusPass {
		t.Errorf("invocation 1: threshold %v %s, want 0.3 pass like the evaluator (score %v)", m.Threshold, m.Status, m.Score)
	}
}
