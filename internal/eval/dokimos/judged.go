package dokimos

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/trajeval/trajeval"
	evaljudge "github.com/trajeval/trajeval/internal/eval/judge"
	"github.com/trajeval/trajeval/internal/judge"
	"github.com/trajeval/trajeval/internal/score"
)

var judgeKeys = []string{"judge", "model", "temperature"}

// NewTaskCompletion asks the judge h which of tasks the agent completed,
// a task done in breach of constraints (when not "") counting as not
// completed; input is the user's request ("": the trajectory's). No task
// is an error.
func NewTaskCompletion(tasks []string, constraints, input string, h judge.Handle) (*TaskCompletion, error) {
	if len(tasks) == 0 {
		return nil, errors.New("task_completion needs tasks")
	}
	return &TaskCompletion{judge: h, tasks: tasks, constraints: constraints, input: input}, nil
}

// NewHallucination asks the judge h whether each call's arguments are
// grounded in input ("": the trajectory's user messages) or in earlier
// results.
func NewHallucination(input string, h judge.Handle) *Hallucination {
	return &Hallucination{judge: h, input: input}
}

// TaskCompletion asks a judge which of the case's tasks the agent
// completed.
type TaskCompletion struct {
	judge       judge.Handle
	tasks       []string
	constraints string
	input       string
}

const taskRole = `You are a strict, impartial judge of whether an AI agent completed the tasks a user asked for. A task is
completed only when the agent's tool calls and answers show it done, not merely promised or described.`

// Evaluate scores the fraction of tasks completed.
func (e *TaskCompletion) Evaluate(ctx context.Context, t *trajeval.Trajectory) (trajeval.Outcome, error) {
	j, err := e.judge.Get()
	if err != nil {
		return trajeval.Outcome{}, err
	}
	input := e.input
	if input == "" {
		input = strings.Join(judge.UserInput(t), "\n")
	}
	user := "The user asked:\n" + judge.Data("input", input) + "\n\nThe agent's work:\n" + judge.Data("output_messages", judge.Messages(t))
	if e.constraints != "" {
		user += "\n\nA task done in breach of these constraints is not completed: " + e.constraints
	}
	vs, usage, err := evaljudge.Checklist(ctx, j, taskRole, user, "completed", e.tasks)
	if err != nil {
		return trajeval.Outcome{Judge: usage}, err
	}
	d := &trajeval.Details{Expected: len(e.tasks)}
	for i, v := range vs {
		d.Checks = append(d.Checks, verdictCheck(e.tasks[i], v))
		if v.Yes {
			d.Hits++
		}
	}
	return trajeval.Outcome{Score: score.Ratio(d.Hits, len(e.tasks), 1), Details: d, Judge: usage}, nil
}

func verdictCheck(name string, v evaljudge.Verdict) trajeval.Check {
	c := trajeval.Check{Name: name, Status: trajeval.CheckPass, Message: v.Reason}
	if !v.Yes {
		c.Status = trajeval.CheckFail
	}
	return c
}

// Hallucination asks a judge whether each call's arguments are grounded.
type Hallucination struct {
	judge judge.Handle
	input string
}

const groundRole = `You are a strict, impartial judge of whether an AI agent invented the arguments of its tool calls. An
argument value is grounded when it can be derived from what the user said, or from the results of the agent's earlier tool
calls; a value that appears in neither (an invented id, date, amount, name) is a hallucination.`

// Evaluate scores the fraction of calls whose arguments are grounded; no
// calls score 1 without asking.
func (e *Hallucination) Evaluate(ctx context.Context, t *trajeval.Trajectory) (trajeval.Outcome, error) {
	if len(t.Steps) == 0 {
		return trajeval.Outcome{Score: 1, Details: &trajeval.Details{}}, nil
	}
	j, err := e.judge.Get()
	if err != nil {
		return trajeval.Outcome{}, err
	}
	users := judge.UserInput(t)
	if e.input != "" && len(users) == 0 {
		users = []string{e.input}
	}
	user := "What the user said:\n" + judge.Data("input", users) + "\n\nThe agent's tool calls, in order, with their results:\n" + judge.Data("tool_calls", judge.ToolCalls(t))
	items := make([]string, len(t.Steps))
	for i, s := range t.Steps {
		// Only the index: the tool's name is the agent's text and stays in
		// the data section.
		items[i] = fmt.Sprintf("the arguments of the call with index %d are grounded", s.Index)
	}
	vs, usage, err := evaljudge.Checklist(ctx, j, groundRole, user, "grounded", items)
	if err != nil {
		return trajeval.Outcome{Judge: usage}, err
	}
	d := &trajeval.Details{Expected: len(items), Actual: len(t.Steps)}
	for i, v := range vs {
		d.Checks = append(d.Checks, verdictCheck(fmt.Sprintf("step %d %s", t.Steps[i].Index, t.Steps[i].Name), v))
		if v.Yes {
			d.Hits++
		}
	}
	return trajeval.Outcome{Score: score.Ratio(d.Hits, len(items), 1), Details: d, Judge: usage}, nil
}
