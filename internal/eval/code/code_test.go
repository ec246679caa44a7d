package code_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval"
	"github.com/trajeval/trajeval/internal/eval/builtin"
	_ "github.com/trajeval/trajeval/internal/eval/code"
	"github.com/trajeval/trajeval/internal/eval/spec"
)

func build(t *testing.T, yaml string) (*eval.Configured, error) {
	t.Helper()
	n, err := config.Parse("suite.yaml", []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	return spec.Build(n, &spec.Env{Types: builtin.Types(), Dir: "testdata", Case: eval.Case{ID: "c1", Input: "find it"}})
}

func trace() *trajeval.Trajectory {
	answer := "found"
	return &trajeval.Trajectory{ID: "c1", Turns: []trajeval.Turn{{Turn: 1, FinalResponse: &answer}},
		Steps: []trajeval.Step{{Index: 1, Turn: 1, Name: "search", Args: map[string]any{"q": "x"}}}}
}

func TestEvaluator_Evaluate(t *testing.T) {
	tests := []struct {
		name   string
		yaml   string
		status trajeval.Status
		score  float64
		err    string
		reason string
	}{
		{"score from the trajectory", `command: ["sh", "grade.sh"]`, trajeval.StatusPass, 0.75, "",
			"the program reads the case and the trace on stdin"},
		{"pass", `command: ./verdict.sh true`, trajeval.StatusPass, 1, "", "pass: true scores 1; earlier log lines are skipped"},
		{"fail", `command: ./verdict.sh false`, trajeval.StatusFail, 0, "", "pass: false fails"},
		{"non-zero exit", `command: [sh, crash.sh]`, trajeval.StatusError, 0, "crash.sh exited with status 3; stderr: Traceback: boom",
			"a crash is an error with the end of stderr, never a score"},
		{"not JSON", `command: [./say.sh, "looks good to me"]`, trajeval.StatusError, 0, "not {\"score\"", "prose is not a verdict"},
		{"out of range", `command: [./say.sh, '{"score": 1.5}']`, trajeval.StatusError, 0, "outside 0 to 1", "never clamped"},
		{"no verdict", `command: [./say.sh, '{"reason": "hm"}']`, trajeval.StatusError, 0, "neither a score", "a reason alone is no verdict"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := build(t, "type: code\n"+tt.yaml)
			if err != nil {
				t.Fatal(err)
			}
			r := c.Run(context.Background(), trace())
			if r.Status != tt.status || r.Score != tt.score || !strings.Contains(r.Error, tt.err) {
				t.Fatalf("%s %v (%s), want %s %v with error %q: %s", r.Status, r.Score, r.Error, tt.status, tt.score, tt.err, tt.reason)
			}
		})
	}
}

func TestEvaluator_details(t *testing.T) {
	c, err := build(t, "type: code\ncommand: [sh, grade.sh]")
	if err != nil {
		t.Fatal(err)
	}
	r := c.Run(context.Background(), trace())
	if r.Details == nil || r.Details.Notes["reason"] != "searched" || r.Details.Notes["stderr"] != "debug: graded" {
		t.Errorf("details %+v, want the reason and the end of stderr", r.Details)
	}
}

func TestEvaluator_timeout(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	// On a loaded machine the grader can be killed before it has started
	// its child and written the pid: then again, with twice the timeout,
	// up to one of 10 s or more, by which it must have.
	var b []byte
	for timeout := 200 * time.Millisecond; ; timeout *= 2 {
		c, err := build(t, "type: code\ncommand: [./hang.sh, "+pidFile+"]\ntimeout: "+strconv.FormatFloat(timeout.Seconds(), 'f', -1, 64))
		if err != nil {
			t.Fatal(err)
		}
		r := c.Run(context.Background(), trace())
		if r.Status != trajeval.StatusError || !strings.Contains(r.Error, "did not finish within "+timeout.String()) {
			t.Fatalf("%s (%s), want an error for the timeout of %v", r.Status, r.Error, timeout)
		}
		if b, err = os.ReadFile(pidFile); err == nil {
			break
		}
		if timeout >= 10*time.Second {
			t.Fatalf("the grader had not written its pid when its timeout of %v ran out: %v", timeout, err)
		}
		t.Logf("the grader had not started its child when its timeout of %v ran out: again, with twice as long", timeout)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	// The grader's child must be gone: its process group was killed. A
	// kill takes effect a moment later on a busy machine, so wait a while;
	// a zombie not yet reaped still answers signal 0, so look at its state.
	alive := func() bool {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		return err == nil && !strings.Contains(string(stat), ") Z") && syscall.Kill(pid, 0) == nil
	}
	for i := 0; i < 200 && alive(); i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if alive() {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("the grader's child %d survived the timeout", pid)
	}
}

func TestBuild_errors(t *testing.T) {
	for _, tt := range []struct{ yaml, want string }{
		{"command: ./nope.py", "suite.yaml:2:10: command: program ./nope.py not found"},
		{"command: [no-such-program-xyz]", "is not on PATH"},
		{"timeout: 3", "code needs a command"},
		{"command: [sh]\ntimeout: soon", "timeout \"soon\""},
	} {
		_, err := build(t, "type: code\n"+tt.yaml)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: error %v, want %q", tt.yaml, err, tt.want)
		}
	}
}
