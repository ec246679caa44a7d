// Package code is the code evaluator (AgentV's code grader; also called
// code_grader and code_judge): a program of the user's reads the case and
// the trajectory and prints a score (docs/judges.md, The code evaluator).
//
// Keys: command (or script): the program and its arguments, a list
// (["python3", "check.py"]) or one string split at spaces; timeout
// (seconds or "30s"; default 30s).
//
// The rules:
//  1. The program runs in the suite's folder; a program named by a path
//     with a slash is found relative to it, any other on PATH. A program
//     that cannot be found is a configuration error.
//  2. It reads one JSON object on standard input: case_id, input,
//     expected_outcome, expected_output (when the case gives one),
//     candidate_answer (the agent's last answer),
//     tool_calls and trajectory (the canonical trajectory).
//  3. It prints one JSON object on standard output (alone, or as its last
//     line): {"score": 0..1, "reason": "..."}, or {"pass": true|false,
//     "reason": "..."}; reasoning is accepted for reason, and hits and
//     misses are kept. A printed pass decides pass or fail in place of the
//     threshold (the score, when not printed too, is 1 or 0); a score alone
//     passes when it reaches the threshold.
//  4. A non-zero exit, output that is not such an object, a score out of
//     range, or a run past the timeout (the program's whole process group
//     is then killed) make the evaluator an error, never a score. The end
//     of its standard error is kept in the details.
//
// Its default threshold is 0.5.
//
// This package knows nothing of suite files: [New] builds the evaluator
// from [Options], and package builtin reads the keys above into them.
package code

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/eval"
	"github.com/trajeval/trajeval/internal/judge"
)

// An Evaluator runs a grading program.
type Evaluator struct {
	Command []string
	Dir     string
	Timeout time.Duration
	c       eval.Case
}

// Options configure a code evaluator.
type Options struct {
	// Command is the program and its arguments.
	Command []string
	// Dir is the folder the program runs in, where a program named by a
	// path with a slash is found; "" is the current folder.
	Dir string
	// Timeout bounds one run of the program; 0 is 30 seconds.
	Timeout time.Duration
	// Case is what the program reads of the case.
	Case eval.Case
}

// New builds a code evaluator. It refuses an empty command, a negative
// timeout, and a program that cannot be found (relative to Dir when its
// name has a slash, else on PATH), with an unplaced *trajeval.SpecError.
func New(o Options) (*Evaluator, error) {
	if len(o.Command) == 0 || o.Command[0] == "" {
		return nil, &trajeval.SpecError{Msg: "the command is empty"}
	}
	if o.Timeout < 0 {
		return nil, &trajeval.SpecError{Msg: "timeout must be a positive number of seconds"}
	}
	e := &Evaluator{Command: o.Command, Dir: o.Dir, Timeout: o.Timeout, c: o.Case}
	if e.Dir == "" {
		e.Dir = "."
	}
	if e.Timeout == 0 {
		e.Timeout = 30 * time.Second
	}
	prog := o.Command[0]
	if strings.ContainsRune(prog, '/') || strings.ContainsRune(prog, filepath.Separator) {
		p := prog
		if !filepath.IsAbs(p) {
			p = filepath.Join(e.Dir, p)
		}
		if _, err := os.Stat(p); err != nil {
			return nil, &trajeval.SpecError{Msg: fmt.Sprintf("program %s not found", prog), Hint: "paths are relative to the suite's folder: " + p}
		}
	} else if _, err := exec.LookPath(prog); err != nil {
		return nil, &trajeval.SpecError{Msg: fmt.Sprintf("program %s is not on PATH", prog)}
	}
	return e, nil
}

// Input is what the program reads on standard input.
type Input struct {
	CaseID          string               `json:"case_id"`
	Input           string               `json:"input"`
	ExpectedOutcome string               `json:"expected_outcome"`
	ExpectedOutput  string               `json:"expected_output,omitempty"`
	CandidateAnswer string               `json:"candidate_answer"`
	ToolCalls       []judge.Call         `json:"tool_calls"`
	Trajectory      *trajeval.Trajectory `json:"trajectory"`
}

// stderrTail is how much of the program's standard error is kept.
const stderrTail = 2000

// Evaluate runs the program.
func (e *Evaluator) Evaluate(ctx context.Context, t *trajeval.Trajectory) (trajeval.Outcome, error) {
	in, err := json.Marshal(Input{CaseID: e.c.ID, Input: e.c.Input, ExpectedOutcome: e.c.ExpectedOutcome,
		ExpectedOutput: e.c.ExpectedOutput, CandidateAnswer: judge.FinalAnswer(t), ToolCalls: judge.ToolCalls(t), Trajectory: t})
	if err != nil {
		return trajeval.Outcome{}, err
	}
	rctx, cancel := context.WithTimeout(ctx, e.Timeout)
	defer cancel()
	cmd := exec.CommandContext(rctx, e.Command[0], e.Command[1:]...)
	cmd.Dir = e.Dir
	cmd.Stdin = bytes.NewReader(in)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	killGroup(cmd)
	// Pipes a grandchild keeps open must not keep us waiting.
	cmd.WaitDelay = time.Second
	err = cmd.Run()
	tail := lastBytes(stderr.String(), stderrTail)
	name := e.name()
	if rctx.Err() == context.DeadlineExceeded && ctx.Err() == nil {
		return trajeval.Outcome{}, withTail(fmt.Errorf("%s did not finish within %s; its process group was killed", name, e.Timeout), tail)
	}
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return trajeval.Outcome{}, withTail(fmt.Errorf("%s exited with status %d", name, ee.ExitCode()), tail)
		}
		return trajeval.Outcome{}, withTail(fmt.Errorf("%s: %v", name, err), tail)
	}
	v, err := parse(stdout.String())
	if err != nil {
		return trajeval.Outcome{}, withTail(fmt.Errorf("%s: %v", name, err), tail)
	}
	d := &trajeval.Details{Mode: "code", Notes: map[string]any{}}
	if r := reason(v); r != "" {
		d.Notes["reason"] = r
	}
	for _, k := range []string{"hits", "misses"} {
		if x, ok := v[k]; ok {
			d.Notes[k] = x
		}
	}
	if tail != "" {
		d.Notes["stderr"] = tail
	}
	out := trajeval.Outcome{Details: d}
	if _, ok := v["score"]; ok {
		if out.Score, err = judge.Score(v, "score", 0, 1); err != nil {
			return trajeval.Outcome{}, fmt.Errorf("%s printed a bad score: %v", name, err)
		}
		if p, ok := v["pass"]; ok {
			b, ok := p.(bool)
			if !ok {
				return trajeval.Outcome{}, fmt.Errorf("%s printed pass %v, not true or false", name, p)
			}
			out.Verdict = eval.Bool(b)
		}
		return out, nil
	}
	b, ok := v["pass"].(bool)
	if !ok {
		return trajeval.Outcome{}, fmt.Errorf(`%s printed neither a score nor "pass": true|false`, name)
	}
	out.Verdict = eval.Bool(b)
	if b {
		out.Score = 1
	}
	return out, nil
}

// name is how errors call the program: the script an interpreter runs
// (python3 check.py → check.py), else the program.
func (e *Evaluator) name() string {
	a := e.Command
	if len(a) > 1 && !strings.ContainsRune(a[0], '/') && !strings.HasPrefix(a[1], "-") {
		return filepath.Base(a[1])
	}
	return filepath.Base(a[0])
}

// parse reads the program's verdict: all of its output, else its last
// non-empty line.
func parse(out string) (map[string]any, error) {
	s := strings.TrimSpace(out)
	var v map[string]any
	if json.Unmarshal([]byte(s), &v) == nil && v != nil {
		return v, nil
	}
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		if json.Unmarshal([]byte(strings.TrimSpace(s[i+1:])), &v) == nil && v != nil {
			return v, nil
		}
	}
	if s == "" {
		return nil, errors.New(`printed nothing; it must print {"score": 0..1, "reason": "..."}`)
	}
	return nil, fmt.Errorf(`printed %q, not {"score": 0..1, "reason": "..."}`, lastBytes(s, 200))
}

func reason(v map[string]any) string {
	for _, k := range []string{"reason", "reasoning"} {
		if s, ok := v[k].(string); ok {
			return s
		}
	}
	return ""
}

func lastBytes(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}

func withTail(err error, tail string) error {
	if tail == "" {
		return err
	}
	return fmt.Errorf("%w; stderr: %s", err, tail)
}
