package target_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/target"
	"github.com/trajeval/trajeval/internal/trace"
)

func testdata(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// steps reads out as trajeval would and returns its tool names.
func steps(t *testing.T, out target.Output) []string {
	t.Helper()
	var names []string
	err := trace.ReadFrom(context.Background(), out.Name, bytes.NewReader(out.Trace), trace.Options{From: out.Format}, func(tr *trajeval.Trajectory) error {
		for _, s := range tr.Steps {
			names = append(names, s.Name)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("read %s: %v", out.Name, err)
	}
	return names
}

func TestRun_CLI(t *testing.T) {
	dir := t.TempDir()
	trace := `{"output": [{"role": "assistant", "tool_calls": [{"tool": "search"}, {"tool": "answer"}]}]}`
	if err := os.WriteFile(filepath.Join(dir, "c1.json"), []byte(trace), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		tg     target.Target
		want   string
		reason string
	}{
		{"output file", target.Target{Shell: "cp {EVAL_ID}.json {OUTPUT_FILE}"}, "search answer",
			"a command naming {OUTPUT_FILE} writes its trace there"},
		{"stdout", target.Target{Shell: "cat {EVAL_ID}.json"}, "search answer",
			"without {OUTPUT_FILE} the trace is standard output"},
		{"argv", target.Target{Argv: []string{"cp", "{EVAL_ID}.json", "{OUTPUT_FILE}"}}, "search answer",
			"a list of arguments runs without a shell"},
		{"prompt quoted", target.Target{Shell: `test {PROMPT} = "it's a \$test" && cat c1.json`}, "search answer",
			"the prompt reaches the shell as one word, quotes and dollars intact"},
		{"prompt file and attempt", target.Target{Shell: `grep -q "it's" {PROMPT_FILE} && test {ATTEMPT} = 2 && cat c1.json`}, "search answer",
			"{PROMPT_FILE} holds the input; {ATTEMPT} is the trial"},
		{"env", target.Target{Shell: `cat "$CASE_FILE"`, Env: []string{"CASE_FILE=c1.json"}}, "search answer",
			"env adds to the environment"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tg := tt.tg
			tg.Name, tg.Provider, tg.Dir = "agent", target.CLI, dir
			out, err := target.Run(context.Background(), &tg, target.Request{CaseID: "c1", Input: "it's a $test", Attempt: 2})
			if err != nil {
				t.Fatalf("%v (%s)", err, tt.reason)
			}
			if got := strings.Join(steps(t, out), " "); got != tt.want {
				t.Errorf("steps %q, want %q (%s)", got, tt.want, tt.reason)
			}
		})
	}
}

func TestRun_Agents(t *testing.T) {
	tests := []struct {
		name     string
		provider string
		binary   string
		wantArgs string
		want     string
		reason   string
	}{
		{"codex", target.Codex, "fake-codex", "exec --json --model m1 --skip-git-repo-check do it", "command_execution",
			"codex exec --json, then the model and extra arguments, then the prompt"},
		{"claude-code", target.ClaudeCode, "fake-claude", "-p --output-format stream-json --verbose --model m1 --skip-git-repo-check do it", "Bash",
			"claude -p with stream-json and --verbose, then the model and extra arguments, then the prompt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := filepath.Join(t.TempDir(), "args")
			tg := &target.Target{Name: "agent", Provider: tt.provider, Binary: testdata(t, tt.binary), Model: "m1",
				Args: []string{"--skip-git-repo-check"}, Env: []string{"FAKE_ARGS=" + args}}
			out, err := target.Run(context.Background(), tg, target.Request{CaseID: "c1", Input: "do it", Attempt: 1})
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(steps(t, out), " "); got != tt.want {
				t.Errorf("steps %q, want %q (%s)", got, tt.want, tt.reason)
			}
			data, err := os.ReadFile(args)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(strings.Fields(string(data)), " "); got != tt.wantArgs {
				t.Errorf("arguments %q, want %q (%s)", got, tt.wantArgs, tt.reason)
			}
		})
	}
}

func TestRun_Failures(t *testing.T) {
	tests := []struct {
		name   string
		tg     target.Target
		is     error
		msg    string
		reason string
	}{
		{"not found", target.Target{Argv: []string{"no-such-agent-xyz"}}, target.ErrFailed, "no-such-agent-xyz: command not found",
			"a command that does not exist says so"},
		{"not found in a shell", target.Target{Shell: "no-such-agent-xyz"}, target.ErrFailed, "not found",
			"the shell's complaint is quoted from standard error"},
		{"non-zero exit", target.Target{Shell: "echo '{\"output\": []}'; echo boom >&2; exit 3"}, target.ErrFailed, "exit status 3; its standard error ends with:\n  | boom",
			"a failing agent is an error with its standard error's tail, even when it printed something"},
		{"nothing written", target.Target{Shell: "true {OUTPUT_FILE}"}, target.ErrNoTrace, "wrote nothing to {OUTPUT_FILE}",
			"a command that writes no trace is an error, not an empty trajectory"},
		{"empty stdout", target.Target{Shell: "echo '  '"}, target.ErrNoTrace, "printed nothing on standard output",
			"blank output is no trace"},
		{"empty command", target.Target{Argv: []string{}}, target.ErrFailed, "the command is empty",
			"an empty list of arguments cannot run"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tg := tt.tg
			tg.Name, tg.Provider = "agent", target.CLI
			_, err := target.Run(context.Background(), &tg, target.Request{CaseID: "c1", Attempt: 1})
			if !errors.Is(err, tt.is) {
				t.Fatalf("error %v, want %v (%s)", err, tt.is, tt.reason)
			}
			if !strings.Contains(err.Error(), tt.msg) || !strings.HasPrefix(err.Error(), "target agent: ") {
				t.Errorf("error %q, want it to name the target and hold %q (%s)", err, tt.msg, tt.reason)
			}
		})
	}
}

// gone reports whether process pid has ended: it no longer exists, or is a
// zombie waiting for its new parent to reap it.
func gone(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return true
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	// The state follows the command name in parentheses.
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && i+2 < len(s) && (s[i+2] == 'Z' || s[i+2] == 'X')
}

// waitGone waits for pid to end, at most 10 s: a killed process ends
// when the system gets to it, not at once, and a loaded system may take
// long.
func waitGone(pid int) bool {
	for range 1000 {
		if gone(pid) {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}

// checkGone fails the test when the process whose pid the agent wrote to
// pidFile is still running, and kills it.
func checkGone(t *testing.T, pidFile, why string) {
	t.Helper()
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	if !waitGone(pid) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("process %d is still running: %s", pid, why)
	}
}

func TestRun_KillsProcessGroup(t *testing.T) {
	t.Run("timeout", func(t *testing.T) {
		untilStarted(t, 200*time.Millisecond, func(timeout time.Duration) bool {
			pidFile := filepath.Join(t.TempDir(), "pid")
			tg := &target.Target{Name: "agent", Provider: target.CLI, Argv: []string{testdata(t, "hang"), pidFile}, Timeout: timeout}
			_, err := target.Run(context.Background(), tg, target.Request{CaseID: "c1", Attempt: 1})
			if !errors.Is(err, target.ErrTimeout) {
				t.Fatalf("error %v, want a timeout", err)
			}
			if _, err := os.Stat(pidFile); err != nil {
				return false
			}
			checkGone(t, pidFile, "the agent's child outlived the timeout: the process group was not killed")
			return true
		})
	})
	t.Run("stopped", func(t *testing.T) {
		pidFile := filepath.Join(t.TempDir(), "pid")
		tg := &target.Target{Name: "agent", Provider: target.CLI, Argv: []string{testdata(t, "hang"), pidFile}}
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			for {
				if _, err := os.Stat(pidFile); err == nil {
					cancel()
					return
				}
				time.Sleep(5 * time.Millisecond)
			}
		}()
		_, err := target.Run(ctx, tg, target.Request{CaseID: "c1", Attempt: 1})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("error %v, want the run's cancellation", err)
		}
		checkGone(t, pidFile, "the agent's child outlived the stop")
	})
	t.Run("left behind", func(t *testing.T) {
		pidFile := filepath.Join(t.TempDir(), "pid")
		tg := &target.Target{Name: "agent", Provider: target.CLI, Shell: "sleep 300 & echo $! > " + pidFile + "; echo '{\"output\": []}'"}
		if _, err := target.Run(context.Background(), tg, target.Request{CaseID: "c1", Attempt: 1}); err != nil {
			t.Fatal(err)
		}
		checkGone(t, pidFile, "a process the agent left running outlived it")
	})
}

// untilStarted calls try with a timeout of first, then twice as long,
// and so on, while try reports that its agent had not reached the point
// the test needs (its child started, its pid written) when the timeout
// ran out: on a loaded machine, starting an agent can take longer than
// a timeout short enough to keep the test quick. A call with a timeout
// of 10 s or more is the last: its agent must have started.
func untilStarted(t *testing.T, first time.Duration, try func(timeout time.Duration) (started bool)) {
	t.Helper()
	for timeout := first; !try(timeout); timeout *= 2 {
		if timeout >= 10*time.Second {
			t.Fatalf("the agent had not started when its timeout of %v ran out", timeout)
		}
		t.Logf("the agent had not started when its timeout of %v ran out: again, with twice as long", timeout)
	}
}

func TestUnknownPlaceholders(t *testing.T) {
	tests := []struct {
		command string
		want    string
		reason  string
	}{
		{"run {PROMPT} > {OUTPUT_FILE}", "", "known placeholders"},
		{"run {PROMT} --id {EVAL_ID}", "{PROMT}", "a misspelt placeholder is reported"},
		{"echo ${HOME} {a,b} {}", "", "shell code is not a placeholder"},
	}
	for _, tt := range tests {
		if got := strings.Join(target.UnknownPlaceholders(tt.command), " "); got != tt.want {
			t.Errorf("UnknownPlaceholders(%q) = %q, want %q (%s)", tt.command, got, tt.want, tt.reason)
		}
	}
}
