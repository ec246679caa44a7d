package judge_test

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/eval"
	evaljudge "github.com/trajeval/trajeval/internal/eval/judge"
	"github.com/trajeval/trajeval/internal/judge"
	"github.com/trajeval/trajeval/internal/judge/judgetest"
)

func TestNew_errors(t *testing.T) {
	tests := []struct {
		name   string
		opts   evaljudge.Options
		msg    string
		reason string
	}{
		{"nothing to ask", evaljudge.Options{}, "llm_judge needs a prompt or criteria", "a judge must be told what to score"},
		{"empty criterion", evaljudge.Options{Criteria: []evaljudge.Criterion{{Name: "a", Text: " ", Weight: 1}}}, "criterion is empty", "a blank criterion scores nothing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := evaljudge.New(tt.opts)
			var se *trajeval.SpecError
			if !errors.As(err, &se) || se.Msg != tt.msg || se.File != "" {
				t.Errorf("New: %v, want an unplaced SpecError %q (%s)", err, tt.msg, tt.reason)
			}
		})
	}
}

func TestParsePrompt(t *testing.T) {
	tests := []struct {
		text, msg, hint, reason string
	}{
		{"Is {{candidate_answer}} right?", "", "", "a known variable"},
		{"Does {{answer}} answer {{question}}?", "", "", "AgentV's aliases"},
		{"Is {{candidate_anwser}} right?", "unknown template variable {{candidate_anwser}}", "did you mean {{candidate_answer}}?", "a typo is named with the closest variable"},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			_, err := evaljudge.ParsePrompt(tt.text)
			if tt.msg == "" {
				if err != nil {
					t.Errorf("ParsePrompt: %v (%s)", err, tt.reason)
				}
				return
			}
			var se *trajeval.SpecError
			if !errors.As(err, &se) || se.Msg != tt.msg || se.Hint != tt.hint {
				t.Errorf("ParsePrompt: %v, want %q (%s) (%s)", err, tt.msg, tt.hint, tt.reason)
			}
		})
	}
}

func TestNew_judgeIsAGoValue(t *testing.T) {
	srv := judgetest.New(t, func(judgetest.Chat) string { return judgetest.Verdict(0.8, "close enough") })
	rt := &judge.Runtime{Getenv: srv.Env(), NoCache: true}
	j, err := rt.Judge(rt.Settings())
	if err != nil {
		t.Fatal(err)
	}
	prompt, err := evaljudge.ParsePrompt("Is {{candidate_answer}} about {{input}}?")
	if err != nil {
		t.Fatal(err)
	}
	e, err := evaljudge.New(evaljudge.Options{Prompt: prompt, Judge: judge.Handle{Judge: j}, Case: eval.Case{Input: "Python"}})
	if err != nil {
		t.Fatal(err)
	}
	out, err := e.Evaluate(context.Background(), &trajeval.Trajectory{ID: "t"})
	if err != nil || math.Abs(out.Score-0.8) > 1e-9 {
		t.Errorf("Evaluate = %v, %v; want the judge's 0.8", out.Score, err)
	}

	noJudge := errors.New("no judge here")
	e, err = evaljudge.New(evaljudge.Options{Prompt: prompt, Judge: judge.Handle{Err: noJudge}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Evaluate(context.Background(), &trajeval.Trajectory{}); !errors.Is(err, noJudge) {
		t.Errorf("Evaluate without a judge: %v, want the handle's reason", err)
	}
}
