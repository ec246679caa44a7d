package run_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/run"
	"github.com/trajeval/trajeval/internal/suite"
)

// agentSuite writes a suite whose cases run a cli target: command is its
// command, cases its evalcases (YAML lines), and files what lies beside.
func agentSuite(t *testing.T, command, cases string, files map[string]string) []*suite.Suite {
	t.Helper()
	dir := t.TempDir()
	y := "targets:\n  - name: agent\n    provider: cli\n    timeout_seconds: 5\n    command: " + command + "\n" +
		"execution:\n  target: agent\n  evaluators:\n    - {name: flow, type: tool_trajectory, mode: exact, expected: [search, answer]}\nevalcases:\n" + cases
	files["suite.yaml"] = y
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	suites, errs := suite.Load([]string{filepath.Join(dir, "suite.yaml")}, suite.Options{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return suites
}

// flaky is an agent that gets the order right on odd attempts, and cannot
// run case "broken".
const flaky = `#!/bin/sh
id=$1 attempt=$2
case $id in broken) echo "agent crashed on $id" >&2; exit 4;; garbage) echo 'not a trace'; exit 0;; esac
if [ $((attempt % 2)) = 1 ]; then first=search second=answer; else first=answer second=search; fi
echo "{\"id\": \"$id\", \"output\": [{\"role\": \"assistant\", \"tool_calls\": [{\"tool\": \"$first\"}]}, {\"role\": \"assistant\", \"tool_calls\": [{\"tool\": \"$second\"}]}]}"
`

func rows(t *testing.T, suites []*suite.Suite, opts run.Options) ([]trajeval.CaseResult, error) {
	t.Helper()
	var got []trajeval.CaseResult
	_, err := run.Run(context.Background(), suites, opts, func(r trajeval.CaseResult) error {
		got = append(got, r)
		return nil
	})
	return got, err
}

func brief(rs []trajeval.CaseResult) []string {
	var out []string
	for _, r := range rs {
		line := fmt.Sprintf("%s#%d %s", r.ID, r.Attempt, r.Status)
		if r.Error != "" {
			line += ": " + strings.SplitN(r.Error, "\n", 2)[0]
		}
		out = append(out, line)
	}
	return out
}

func TestRun_target(t *testing.T) {
	cases := "  - {id: a, input: do a}\n  - {id: broken, input: do b}\n  - {id: garbage, input: do c}\n  - {id: silent}\n"
	suites := agentSuite(t, "./agent {EVAL_ID} {ATTEMPT}", cases, map[string]string{"agent": flaky})
	t.Run("once", func(t *testing.T) {
		got, err := rows(t, suites, run.Options{})
		if err != nil {
			t.Fatal(err)
		}
		want := []string{
			"a#0 pass",
			"broken#0 error: target agent: target failed: exit status 4; its standard error ends with:",
			"garbage#0 error: target agent (standard output): no reader recognises this file; agentv: not a JSON object; openai-chat: not a JSON object; openai-responses: not a JSON object (force a format with --from (otlp, otlp-proto, agentv, openai-chat, openai-responses, openai-agents, anthropic, codex, claude-code, gemini-cli, langchain, langsmith, adk-evalset, adk-session, mcp))",
			`silent#0 error: case "silent" has no input to give target agent; add input: to the case`,
		}
		if g := brief(got); !reflect.DeepEqual(g[:2], want[:2]) || !strings.HasPrefix(g[2], "garbage#0 error: target agent (standard output): no reader recognises this file") || g[3] != want[3] {
			t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(g, "\n"), strings.Join(want, "\n"))
		}
		if !strings.HasSuffix(got[1].Error, "agent crashed on broken") {
			t.Errorf("error %q, want the agent's standard error at its end", got[1].Error)
		}
	})
	t.Run("trials", func(t *testing.T) {
		want := []string{"a#1 pass", "a#2 fail", "a#3 pass"}
		for _, workers := range []int{1, 3} {
			got, err := rows(t, suites[:1], run.Options{Trials: 3, Workers: workers})
			if err != nil {
				t.Fatal(err)
			}
			if g := brief(got)[:3]; !reflect.DeepEqual(g, want) {
				t.Errorf("%d workers: rows %q, want %q: one row per attempt, in order", workers, g, want)
			}
		}
	})
}

func TestRun_targetOptions(t *testing.T) {
	suites := agentSuite(t, "./agent {EVAL_ID} {ATTEMPT}", "  - {id: a/1, input: do a}\n", map[string]string{"agent": flaky})
	dir := t.TempDir()
	got, err := rows(t, suites, run.Options{Trials: 2, DumpTraces: dir, IncludeTrace: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, attempt := range []int{1, 2} {
		data, err := os.ReadFile(filepath.Join(dir, "suite", fmt.Sprintf("a_1.attempt-%d.json", attempt)))
		if err != nil || !strings.Contains(string(data), `"id": "a/1"`) {
			t.Errorf("dumped trace of attempt %d: %q, %v; want the agent's output, under a safe name", attempt, data, err)
		}
	}
	if got[0].Trajectory == nil || len(got[0].Trajectory.Steps) != 2 || got[0].Trajectory.Steps[0].Name != "search" {
		t.Errorf("row's trajectory %+v, want the 2 steps scored", got[0].Trajectory)
	}
}

func TestRun_trialsNeedTarget(t *testing.T) {
	_, err := rows(t, fixture(t, 3), run.Options{Trials: 3})
	if !errors.Is(err, run.ErrTrialsNeedTarget) {
		t.Errorf("error %v, want ErrTrialsNeedTarget: recorded traces are the same on every trial", err)
	}
}

// TestRun_done: rows of a previous run are handed to Kept in their place,
// and their cases are not run again.
func TestRun_done(t *testing.T) {
	cases := "  - {id: a, input: do a}\n  - {id: b, input: do b}\n"
	suites := agentSuite(t, "echo {EVAL_ID}{ATTEMPT} >> runs.log; ./agent {EVAL_ID} {ATTEMPT}", cases, map[string]string{"agent": flaky})
	done := map[run.Key]trajeval.CaseResult{
		{Suite: "suite", ID: "a", Attempt: 2}: {ID: "a", Suite: "suite", Attempt: 2, Status: trajeval.StatusPass, Score: 1},
	}
	var kept []string
	var order []string
	sum, err := run.Run(context.Background(), suites, run.Options{Trials: 2, Done: done, Kept: func(r trajeval.CaseResult) error {
		kept = append(kept, brief([]trajeval.CaseResult{r})...)
		order = append(order, "kept")
		return nil
	}}, func(r trajeval.CaseResult) error {
		order = append(order, "new")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(kept, []string{"a#2 pass"}) || !reflect.DeepEqual(order, []string{"new", "kept", "new", "new"}) || sum.Cases != 4 {
		t.Errorf("kept %q, order %q, %d cases; want the kept row in its place, counted", kept, order, sum.Cases)
	}
	log, _ := os.ReadFile(filepath.Join(filepath.Dir(suites[0].File), "runs.log"))
	if got := strings.Fields(string(log)); !reflect.DeepEqual(got, []string{"a1", "b1", "b2"}) {
		t.Errorf("the agent ran %q, want a1 b1 b2: a done attempt does not run again", got)
	}
}

// TestRun_stop: once Stop is closed no case starts; those under way are
// handed on.
func TestRun_stop(t *testing.T) {
	cases := "  - {id: a, input: do a}\n  - {id: b, input: do b}\n  - {id: c, input: do c}\n"
	suites := agentSuite(t, "./agent {EVAL_ID} {ATTEMPT}", cases, map[string]string{"agent": flaky})
	stop := make(chan struct{})
	var got []string
	_, err := run.Run(context.Background(), suites, run.Options{Stop: stop}, func(r trajeval.CaseResult) error {
		got = append(got, r.ID)
		close(stop)
		return nil
	})
	if !errors.Is(err, run.ErrStopped) || !reflect.DeepEqual(got, []string{"a"}) {
		t.Errorf("error %v, rows %q; want ErrStopped after a", err, got)
	}
}

// TestRun_cancel: when the run's context ends, a target under way is
// killed and its case is not handed on.
func TestRun_cancel(t *testing.T) {
	suites := agentSuite(t, "touch started; sleep 300", "  - {id: a, input: do a}\n", map[string]string{})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for {
			if _, err := os.Stat(filepath.Join(filepath.Dir(suites[0].File), "started")); err == nil {
				cancel()
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	var got []trajeval.CaseResult
	_, err := run.Run(ctx, suites, run.Options{}, func(r trajeval.CaseResult) error {
		got = append(got, r)
		return nil
	})
	if !errors.Is(err, context.Canceled) || len(got) != 0 {
		t.Errorf("error %v, rows %q; want the cancellation and no row", err, brief(got))
	}
}

// TestRun_targetWorkers: with --workers 2, two agents run at once: each
// waits for the other to start, and only then prints its trace.
func TestRun_targetWorkers(t *testing.T) {
	const barrier = `#!/bin/sh
: > started.$1
i=0
while [ "$(ls started.* | wc -l)" -lt 2 ] && [ $i -lt 200 ]; do sleep 0.02; i=$((i + 1)); done
[ "$(ls started.* | wc -l)" -ge 2 ] || { echo "alone" >&2; exit 1; }
echo "{\"id\": \"$1\", \"output\": [{\"role\": \"assistant\", \"tool_calls\": [{\"tool\": \"search\"}]}, {\"role\": \"assistant\", \"tool_calls\": [{\"tool\": \"answer\"}]}]}"
`
	suites := agentSuite(t, "./agent {EVAL_ID}", "  - {id: a, input: do a}\n  - {id: b, input: do b}\n", map[string]string{"agent": barrier})
	got, err := rows(t, suites, run.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if g := brief(got); !reflect.DeepEqual(g, []string{"a#0 pass", "b#0 pass"}) {
		t.Errorf("rows %q, want both to pass: two workers run two agents at once", g)
	}
}
