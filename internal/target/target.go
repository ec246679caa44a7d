// Package target runs an agent to obtain the trace of a case that has none
// recorded.
//
// A target is a command trajeval runs once per case (once per trial with
// --trials N). Its providers:
//  1. cli: any command. Its trace is the file it writes to {OUTPUT_FILE}
//     when the command names that placeholder, else what it prints on
//     standard output, in any trace format trajeval reads (Format forces
//     one). See [Placeholders] for what the command may name.
//  2. codex: `codex exec --json [--model M] [ARGS...] PROMPT`; its standard
//     output is read as a codex stream.
//  3. claude-code: `claude -p --output-format stream-json --verbose
//     [--model M] [ARGS...] PROMPT`; its standard output is read as a
//     claude-code stream.
//
// How a command runs:
//  1. It starts in its own process group, in Dir, with the environment of
//     trajeval plus Env, and standard input empty, in a temporary folder
//     of its own that holds {PROMPT_FILE} and {OUTPUT_FILE}.
//  2. Its standard output, standard error and {OUTPUT_FILE} may each hold
//     at most MaxOutput bytes (DefaultMaxOutput, 256 MiB, when 0). The
//     streams are read as the command writes them: standard output is
//     kept in a file up to the cap, standard error only by its first
//     1 KiB and last 4 KiB (it is only quoted in errors); {OUTPUT_FILE}
//     is checked ten times a second and before it is read. The first
//     stream past the cap kills the command, and the run's error wraps
//     ErrTooMuchOutput, naming the stream and the cap ([OutputError]).
//  3. When it runs longer than Timeout, a stream goes over its cap, or the
//     run is stopped at once, the command and every process below it are
//     killed (SIGKILL). When it ends by itself, whatever it left running
//     is killed too. Which processes are found depends on the system (see
//     [Supervise]): on Linux every one of them, a process that called
//     setsid and was orphaned too, also when trajeval itself is killed;
//     elsewhere on Unix those that stay in the command's process group;
//     on Windows the command alone.
//  4. It fails, and the case is an error naming the target and ending with
//     the last lines the command wrote to standard error (and its first
//     lines when it wrote more than was kept), when it cannot be started,
//     exits with a non-zero status, is killed, or writes no trace. A trace
//     that no reader recognises is an error of the case too, never a trace
//     with no steps.
//  5. Its temporary folder is removed when the run ends, by the supervisor
//     when trajeval was killed, and else by the next run of trajeval that
//     runs a target (see [RemoveStale]).
package target

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// The providers.
const (
	CLI        = "cli"
	Codex      = "codex"
	ClaudeCode = "claude-code"
)

// Providers are the providers trajeval runs, in the order help lists them.
var Providers = []string{CLI, Codex, ClaudeCode}

// DefaultTimeout bounds a command that sets no timeout: an agent that
// hangs must not hang the run.
const DefaultTimeout = 10 * time.Minute

// Errors a failed run wraps, for errors.Is.
var (
	ErrFailed  = errors.New("target failed")
	ErrTimeout = errors.New("target timed out")
	ErrNoTrace = errors.New("target wrote no trace")
)

// A Target says how to run an agent.
type Target struct {
	Name     string
	Provider string // CLI, Codex or ClaudeCode
	// Command is a cli target's command: Shell is a command line run by
	// /bin/sh -c, Argv a list of arguments run as they are (no shell).
	// Exactly one is set.
	Shell string
	Argv  []string
	// Binary is the program of a codex or claude-code target ("codex",
	// "claude" when empty), found on PATH when it has no slash.
	Binary string
	Model  string   // codex and claude-code: --model, when set
	Args   []string // codex and claude-code: extra arguments, before the prompt
	// Dir is the folder the command runs in ("" for trajeval's own).
	Dir     string
	Timeout time.Duration // 0 for DefaultTimeout
	// MaxOutput caps what the command may write to standard output, to
	// standard error and to {OUTPUT_FILE}, each, in bytes; 0 for
	// DefaultMaxOutput.
	MaxOutput int64
	Env       []string // KEY=VALUE added to trajeval's environment
	// Format forces the trace format of the output ("" detects it; codex
	// and claude-code read their own).
	Format string
	// File is where the target is defined, for messages.
	File string
}

// A Request is one run of a target: a case, and which trial.
type Request struct {
	Suite   string
	CaseID  string
	Input   string // the case's input, as text: the prompt
	Attempt int    // 1-based
}

// An Output is what a run produced.
type Output struct {
	Trace []byte // the trace, as the command wrote it
	// Name names the trace in messages: the target and where the trace
	// came from.
	Name   string
	Format string // the format to read it in, "" to detect it
}

// TraceFormat returns the format a target's output is read in, "" to
// detect it.
func (t *Target) TraceFormat() string {
	switch {
	case t.Format != "":
		return t.Format
	case t.Provider == Codex:
		return "codex"
	case t.Provider == ClaudeCode:
		return "claude-code"
	}
	return ""
}

// Run runs t for req and returns the trace it produced. The error of a
// failed run wraps ErrFailed, ErrTimeout or ErrNoTrace, or ctx's error when
// ctx ended first.
func Run(ctx context.Context, t *Target, req Request) (Output, error) {
	tmp, unlock, err := makeTemp()
	if err != nil {
		return Output{}, fmt.Errorf("target %s: %w", t.Name, err)
	}
	defer func() {
		os.RemoveAll(tmp)
		unlock()
	}()
	files := runFiles{
		prompt: filepath.Join(tmp, "prompt.txt"),
		output: filepath.Join(tmp, "output"),
	}
	if err := os.WriteFile(files.prompt, []byte(req.Input), 0o600); err != nil {
		return Output{}, fmt.Errorf("target %s: %w", t.Name, err)
	}
	var argv []string
	usesFile := false
	switch t.Provider {
	case CLI:
		argv, usesFile = cliArgv(t, req, files)
	case Codex:
		argv = codexArgv(t, req)
	case ClaudeCode:
		argv = claudeArgv(t, req)
	default:
		return Output{}, fmt.Errorf("target %s: unknown provider %q", t.Name, t.Provider)
	}
	c := command{argv: argv, dir: t.Dir, env: t.Env, timeout: t.Timeout, maxOutput: t.MaxOutput, tmp: tmp}
	if c.timeout <= 0 {
		c.timeout = DefaultTimeout
	}
	if c.maxOutput <= 0 {
		c.maxOutput = DefaultMaxOutput
	}
	if usesFile {
		c.outputFile = files.output
	}
	res, err := execute(ctx, c)
	if err != nil {
		return Output{}, t.failure(err, res)
	}
	out := Output{Trace: res.stdout, Name: fmt.Sprintf("target %s (standard output)", t.Name), Format: t.TraceFormat()}
	if usesFile {
		out.Name = fmt.Sprintf("target %s ({OUTPUT_FILE})", t.Name)
		data, err := readCapped(files.output, c.maxOutput, "{OUTPUT_FILE}")
		switch {
		case errors.Is(err, os.ErrNotExist):
			return Output{}, t.failure(fmt.Errorf("%w: the command wrote nothing to {OUTPUT_FILE}", ErrNoTrace), res)
		case errors.Is(err, ErrTooMuchOutput):
			return Output{}, t.failure(err, res)
		case err != nil:
			return Output{}, t.failure(fmt.Errorf("%w: cannot read {OUTPUT_FILE}: %v", ErrNoTrace, err), res)
		}
		out.Trace = data
	}
	if len(bytes.TrimSpace(out.Trace)) == 0 {
		where := "printed nothing on standard output"
		if usesFile {
			where = "wrote an empty {OUTPUT_FILE}"
		}
		return Output{}, t.failure(fmt.Errorf("%w: the command %s", ErrNoTrace, where), res)
	}
	return out, nil
}

// failure is the error of a failed run, ending with the command's last
// lines of standard error.
func (t *Target) failure(err error, res *result) error {
	e := &Error{Target: t.Name, Err: err}
	e.StderrHead, e.Stderr = res.stderr.quote()
	if e.StderrHead != "" {
		e.StderrSize = res.stderr.total
	}
	return e
}

// An Error is a run of a target that failed.
type Error struct {
	Target string
	Err    error
	Stderr string // the last lines the command wrote on standard error
	// StderrHead is its first lines, and StderrSize its size, when it was
	// too long to be kept whole: only its head and tail are kept.
	StderrHead string
	StderrSize int64
}

func (e *Error) Error() string {
	msg := fmt.Sprintf("target %s: %v", e.Target, e.Err)
	// Quoted line by line: the lines are the command's, not trajeval's.
	quote := func(s string) string { return "\n  | " + strings.ReplaceAll(s, "\n", "\n  | ") }
	switch {
	case e.StderrHead != "":
		msg += fmt.Sprintf("; its standard error (%s) begins with:%s\nand ends with:%s", FormatSize(e.StderrSize), quote(e.StderrHead), quote(e.Stderr))
	case e.Stderr != "":
		msg += "; its standard error ends with:" + quote(e.Stderr)
	}
	return msg
}

// Unwrap returns the cause: ErrFailed, ErrTimeout, ErrNoTrace or the
// run's context error.
func (e *Error) Unwrap() error { return e.Err }
