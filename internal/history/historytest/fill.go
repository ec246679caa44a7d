package historytest

import (
	"context"
	"fmt"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/history"
)

// FillStart is the start of the first run [Fill] records; each next run
// starts an hour later.
var FillStart = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// Fill records runs runs of the suite "bench", of cases cases each, in h
// through its [history.Recorder], as eval would: each case with two
// evaluators and a trajectory of 5 calls. Verdicts are fixed by the case
// and run numbers:
//  1. every 50th case is flaky: it passes in even runs and fails in odd
//     ones;
//  2. every 97th case always fails, every 331st is always an error;
//  3. the others pass.
func Fill(ctx context.Context, h *history.DB, runs, cases int) error {
	for r := range runs {
		start := FillStart.Add(time.Duration(r) * time.Hour)
		rec, err := h.Begin(ctx, history.Run{Start: start, Suites: []string{"bench"}, Paths: []string{"bench/suite.yaml"},
			Commit: fmt.Sprintf("%040x", r), Branch: "main"})
		if err != nil {
			return err
		}
		for c := range cases {
			rec.Record(fillCase(r, c, start))
		}
		if err := rec.End(start.Add(time.Duration(cases)*time.Millisecond), false); err != nil {
			return err
		}
	}
	return nil
}

// fillCase is case c of run r (see [Fill]).
func fillCase(r, c int, start time.Time) trajeval.CaseResult {
	status, score := trajeval.StatusPass, 1.0
	switch {
	case c%331 == 0:
		status, score = trajeval.StatusError, 0
	case c%97 == 0, c%50 == 0 && r%2 == 1:
		status, score = trajeval.StatusFail, 0.5
	}
	id := fmt.Sprintf("case-%05d", c)
	res := trajeval.CaseResult{ID: id, Suite: "bench", Status: status, Score: score, StartedAt: start.Add(time.Duration(c) * time.Millisecond),
		DurationMS: 1, Trace: "traces.jsonl", Trajectory: fillTrajectory(id, start)}
	if status == trajeval.StatusError {
		res.Error = "no trace for case " + id
		res.Evaluators = []trajeval.Result{}
		return res
	}
	res.Evaluators = []trajeval.Result{
		{Name: "tools", Type: "tool_trajectory", Status: status, Score: score, Threshold: 1, Weight: 1, Required: true,
			Details: &trajeval.Details{Mode: "in_order", Hits: 5, Expected: 5, Actual: 5}},
		{Name: "answer", Type: "contains", Status: trajeval.StatusPass, Score: 1, Threshold: 1, Weight: 1},
	}
	return res
}

func fillTrajectory(id string, at time.Time) *trajeval.Trajectory {
	user, answer := "Find the order of "+id, "Your order ships tomorrow."
	t := &trajeval.Trajectory{ID: id, Turns: []trajeval.Turn{{Turn: 1, User: &user, FinalResponse: &answer}}}
	for i, name := range []string{"search", "get_order", "check_stock", "get_order", "reply"} {
		ok := false
		d := float64(10 + 7*i)
		t.Steps = append(t.Steps, trajeval.Step{Index: i + 1, Turn: 1, ID: fmt.Sprintf("call_%d", i), Name: name,
			Args: map[string]any{"id": id}, Result: map[string]any{"ok": true}, Error: &ok, DurationMS: &d,
			StartTime: at, EndTime: at.Add(time.Duration(d) * time.Millisecond)})
	}
	return t
}
