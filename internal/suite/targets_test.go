package suite_test

import (
	"errors"

	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/suite"
	"github.com/trajeval/trajeval/internal/suite/dialects"
	"github.com/trajeval/trajeval/internal/target"
)

const targetCase = "evalcases:\n  - id: a\n    input: hello\n" + okEval

func TestLoadFile_targets(t *testing.T) {
	tests := []struct {
		name   string
		files  map[string]string // suite.yaml and what lies around it
		opts   suite.Options
		check  func(t *testing.T, tg *target.Target, dir string)
		reason string
	}{
		{"in the suite", map[string]string{
			"suite.yaml": "targets:\n  - name: canned\n    provider: cli\n    command: cp fixtures/{EVAL_ID}.json {OUTPUT_FILE}\n    timeout_seconds: 1.5\n    env: {A: b, N: 2}\n    format: agentv\nexecution:\n  target: canned\n" + targetCase,
		}, suite.Options{Dialects: dialects.All()}, func(t *testing.T, tg *target.Target, dir string) {
			if tg.Provider != target.CLI || tg.Shell != "cp fixtures/{EVAL_ID}.json {OUTPUT_FILE}" || tg.Timeout != 1500*time.Millisecond ||
				strings.Join(tg.Env, " ") != "A=b N=2" || tg.Format != "agentv" || tg.Dir != dir {
				t.Errorf("target %+v", tg)
			}
		}, "every setting of a cli target is read; the command runs in the suite's folder"},
		{"targets.yaml beside", map[string]string{
			"suite.yaml":   "execution:\n  target: codex_agent\n" + targetCase,
			"targets.yaml": "$schema: agentv-targets-v2\ntargets:\n  - name: azure\n    provider: azure\n    endpoint: x\n  - name: codex_agent\n    provider: codex-cli\n    binary: bin/codex\n    model: gpt-5\n    args: [--full-auto]\n    cwd: work\n",
			"work/.keep":   "",
		}, suite.Options{Dialects: dialects.All()}, func(t *testing.T, tg *target.Target, dir string) {
			if tg.Provider != target.Codex || tg.Binary != filepath.Join(dir, "bin/codex") || tg.Model != "gpt-5" ||
				strings.Join(tg.Args, " ") != "--full-auto" || tg.Dir != filepath.Join(dir, "work") {
				t.Errorf("target %+v", tg)
			}
		}, "AgentV's codex-cli alias; an entry of a provider trajeval does not run is left alone when not chosen"},
		{".agentv above", map[string]string{
			"evals/suite.yaml":         "execution:\n  target: claude\n" + targetCase,
			".agentv/targets.yaml":     "targets:\n  - {name: claude, provider: claude, cwd: ..}\n",
			"evals/.agentv/other.yaml": "",
		}, suite.Options{Dialects: dialects.All()}, func(t *testing.T, tg *target.Target, dir string) {
			if tg.Provider != target.ClaudeCode || tg.Dir != dir {
				t.Errorf("target %+v", tg)
			}
		}, "AgentV keeps targets in .agentv/targets.yaml at the project root; cwd is relative to that file"},
		{"suite first", map[string]string{
			"suite.yaml":   "targets:\n  - {name: t, provider: cli, command: own}\nexecution:\n  target: t\n" + targetCase,
			"targets.yaml": "targets:\n  - {name: t, provider: cli, command: beside}\n",
		}, suite.Options{Dialects: dialects.All()}, func(t *testing.T, tg *target.Target, dir string) {
			if tg.Shell != "own" {
				t.Errorf("command %q, want the suite's own", tg.Shell)
			}
		}, "the suite's own definition wins"},
		{"--target wins", map[string]string{
			"suite.yaml": "targets:\n  - {name: t1, provider: cli, command: one}\n  - {name: t2, provider: cli, command: [two, '{PROMPT}']}\nexecution:\n  target: t1\n" + targetCase,
		}, suite.Options{Dialects: dialects.All(), Target: "t2"}, func(t *testing.T, tg *target.Target, dir string) {
			if strings.Join(tg.Argv, " ") != "two {PROMPT}" {
				t.Errorf("target %+v, want t2 as a list of arguments", tg)
			}
		}, "the command line chooses over the suite"},
		{"suite-level target", map[string]string{
			"suite.yaml": "target: t\ntargets:\n  - {name: t, provider: codex, arguments: [--full-auto], healthcheck: {command: x}, log_dir: logs}\n" + targetCase,
		}, suite.Options{Dialects: dialects.All()}, func(t *testing.T, tg *target.Target, dir string) {
			if tg.Provider != target.Codex || strings.Join(tg.Args, " ") != "--full-auto" {
				t.Errorf("target %+v, want codex with its arguments", tg)
			}
		}, "AgentV's suite-level target: is execution.target; arguments is args; healthcheck and log_dir are warnings"},
		{"max_output", map[string]string{
			"suite.yaml": "targets:\n  - {name: t, provider: cli, command: x, max_output: 1048576}\nexecution:\n  target: t\n" + targetCase,
		}, suite.Options{Dialects: dialects.All()}, func(t *testing.T, tg *target.Target, dir string) {
			if tg.MaxOutput != 1<<20 {
				t.Errorf("MaxOutput %d, want 1048576", tg.MaxOutput)
			}
		}, "the output cap is read in bytes"},
		{"--max-output wins", map[string]string{
			"suite.yaml": "targets:\n  - {name: t, provider: cli, command: x, max_output: 1048576}\nexecution:\n  target: t\n" + targetCase,
		}, suite.Options{Dialects: dialects.All(), MaxOutput: 4096}, func(t *testing.T, tg *target.Target, dir string) {
			if tg.MaxOutput != 4096 {
				t.Errorf("MaxOutput %d, want the flag's 4096", tg.MaxOutput)
			}
		}, "the command line's cap wins over the target's, as --target wins over execution.target"},
		{"seed 001", map[string]string{
			"suite.yaml":   "description: Validate research agent tool usage\nexecution:\n  target: codex_agent  # Provider that returns traces\n" + targetCase,
			"traces.jsonl": "{}\n",
		}, suite.Options{Dialects: dialects.All()}, func(t *testing.T, tg *target.Target, dir string) {
			if tg != nil {
				t.Errorf("target %+v, want none", tg)
			}
		}, "AgentV's own example loads when its cases have recorded traces; the undefined target is a warning"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := write(t, tt.files)
			p := filepath.Join(dir, "suite.yaml")
			if _, ok := tt.files["evals/suite.yaml"]; ok {
				p = filepath.Join(dir, "evals", "suite.yaml")
			}
			s, errs := suite.LoadFile(p, tt.opts, true)
			if len(errs) > 0 {
				t.Fatalf("LoadFile: %v (%s)", errs, tt.reason)
			}
			if tt.name != "seed 001" && s.Target == nil {
				t.Fatalf("no target (%s)", tt.reason)
			}
			tt.check(t, s.Target, dir)
		})
	}
}

func TestLoadFile_targetErrors(t *testing.T) {
	tests := []struct {
		name      string
		files     map[string]string
		opts      suite.Options
		line, col int
		msg, hint string
		reason    string
	}{
		{"unknown name", map[string]string{"suite.yaml": "targets:\n  - {name: codex_agent, provider: codex}\nexecution:\n  target: codx_agent\n" + targetCase},
			suite.Options{Dialects: dialects.All()}, 4, 11, `unknown target "codx_agent"`, `did you mean "codex_agent"?`, "a typo is placed and corrected"},
		{"unknown --target", map[string]string{"suite.yaml": targetCase, "targets.yaml": "targets:\n  - {name: canned, provider: cli, command: x}\n"},
			suite.Options{Dialects: dialects.All(), Target: "caned"}, 0, 0, `--target caned: the suite has no target "caned"`, `did you mean "canned"?`, "the flag's typo names the suite and the close name"},
		{"unknown provider", map[string]string{"suite.yaml": "targets:\n  - {name: t, provider: openai}\nexecution:\n  target: t\n" + targetCase},
			suite.Options{Dialects: dialects.All()}, 2, 25, `provider "openai" is not supported`, "cli, codex and claude-code", "an LLM provider cannot produce a trace of tool calls"},
		{"misspelt provider", map[string]string{"suite.yaml": "targets:\n  - {name: t, provider: codx}\nexecution:\n  target: t\n" + targetCase},
			suite.Options{Dialects: dialects.All()}, 2, 25, `provider "codx" is not supported`, `did you mean "codex"?`, "close names are suggested"},
		{"no command", map[string]string{"suite.yaml": "targets:\n  - {name: t, provider: cli}\nexecution:\n  target: t\n" + targetCase},
			suite.Options{Dialects: dialects.All()}, 2, 6, `cli target "t" has no command`, "{OUTPUT_FILE}", "a cli target runs its command"},
		{"bad placeholder", map[string]string{"suite.yaml": "targets:\n  - {name: t, provider: cli, command: 'run {PROMT}'}\nexecution:\n  target: t\n" + targetCase},
			suite.Options{Dialects: dialects.All()}, 2, 39, "unknown placeholder {PROMT}", "did you mean {PROMPT}?", "a misspelt placeholder would reach the agent as it is"},
		{"command for codex", map[string]string{"suite.yaml": "targets:\n  - {name: t, provider: codex, command: codex exec}\nexecution:\n  target: t\n" + targetCase},
			suite.Options{Dialects: dialects.All()}, 2, 41, "a codex target runs codex itself and takes no command", "binary:", "the command would be ignored"},
		{"unknown key", map[string]string{"suite.yaml": "targets:\n  - {name: t, provider: cli, command: x, timeout: 3}\nexecution:\n  target: t\n" + targetCase},
			suite.Options{Dialects: dialects.All()}, 2, 42, "timeout", "timeout_seconds", "an ignored timeout would let an agent hang"},
		{"AgentV's system_prompt", map[string]string{"suite.yaml": "targets:\n  - {name: t, provider: codex, system_prompt: be brief}\nexecution:\n  target: t\n" + targetCase},
			suite.Options{Dialects: dialects.All()}, 2, 47, "system_prompt is not supported in a target", "in args", "a setting that would change the agent is refused by name, with what to do instead"},
		{"AgentV's {FILES}", map[string]string{"suite.yaml": "targets:\n  - {name: t, provider: cli, command: 'run {FILES}'}\nexecution:\n  target: t\n" + targetCase},
			suite.Options{Dialects: dialects.All()}, 2, 39, "placeholder {FILES} is not supported", "{PROMPT_FILE}", "cases have no input files"},
		{"replay without fixtures", map[string]string{"suite.yaml": "targets:\n  - {name: r, provider: replay, source_target: live}\nexecution:\n  target: r\n" + targetCase},
			suite.Options{Dialects: dialects.All()}, 2, 6, `replay target "r" has no fixtures`, "fixtures: PATH", "a replay target replays its fixtures"},
		{"replay with a command", map[string]string{"suite.yaml": "targets:\n  - {name: r, provider: replay, fixtures: f.jsonl, command: x}\nexecution:\n  target: r\n" + targetCase},
			suite.Options{Dialects: dialects.All()}, 2, 0, "a replay target runs nothing and takes no command", "only fixtures", "a command would never run"},
		{"replay fixtures missing", map[string]string{"suite.yaml": "targets:\n  - {name: r, provider: replay, fixtures: f.jsonl}\nexecution:\n  target: r\n" + targetCase},
			suite.Options{Dialects: dialects.All()}, 2, 0, "cannot be read", "relative to the file that defines the target", "the cases would have no traces"},
		{"bad timeout", map[string]string{"suite.yaml": "targets:\n  - {name: t, provider: cli, command: x, timeout_seconds: 0}\nexecution:\n  target: t\n" + targetCase},
			suite.Options{Dialects: dialects.All()}, 2, 59, "timeout_seconds must be more than 0", "", "no time at all cannot run anything"},
		{"bad max_output", map[string]string{"suite.yaml": "targets:\n  - {name: t, provider: cli, command: x, max_output: 0}\nexecution:\n  target: t\n" + targetCase},
			suite.Options{Dialects: dialects.All()}, 2, 54, "max_output must be more than 0 bytes", "268435456 (256 MiB)", "a cap of nothing would fail every run"},
		{"max_output with a unit", map[string]string{"suite.yaml": "targets:\n  - {name: t, provider: cli, command: x, max_output: 64MiB}\nexecution:\n  target: t\n" + targetCase},
			suite.Options{Dialects: dialects.All()}, 2, 54, "max_output is a whole number of bytes, got 64MiB", "67108864 for 64 MiB", "the cap is a number of bytes, never a string read as 0"},
		{"missing cwd", map[string]string{"suite.yaml": "targets:\n  - {name: t, provider: cli, command: x, cwd: nowhere}\nexecution:\n  target: t\n" + targetCase},
			suite.Options{Dialects: dialects.All()}, 2, 47, "does not exist", "relative to the file that defines the target", "a command cannot run in a missing folder"},
		{"bad format", map[string]string{"suite.yaml": "targets:\n  - {name: t, provider: cli, command: x, format: codx}\nexecution:\n  target: t\n" + targetCase},
			suite.Options{Dialects: dialects.All()}, 2, 50, `unknown trace format "codx"`, `did you mean "codex"?`, "a forced format must exist"},
		{"twice", map[string]string{"suite.yaml": "targets:\n  - {name: t, provider: cli, command: x}\n  - {name: t, provider: cli, command: y}\nexecution:\n  target: t\n" + targetCase},
			suite.Options{Dialects: dialects.All()}, 3, 12, `target "t" is defined twice`, "line 2", "one definition would be ignored"},
		{"broken targets file", map[string]string{"suite.yaml": "execution:\n  target: t\n" + targetCase, "targets.yaml": "targets: [oops\n"},
			suite.Options{Dialects: dialects.All()}, 1, 0, "", "", "a targets file that cannot be read is an error, not an empty list"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := write(t, tt.files)
			_, errs := suite.LoadFile(filepath.Join(dir, "suite.yaml"), tt.opts, true)
			if len(errs) == 0 {
				t.Fatalf("no error (%s)", tt.reason)
			}
			se := specError(t, errs[0])
			if se.Line != tt.line || (tt.col != 0 && se.Col != tt.col) || !strings.Contains(se.Msg, tt.msg) || !strings.Contains(se.Hint, tt.hint) {
				t.Errorf("got %d:%d %q hint %q; want %d:%d %q hint %q (%s)", se.Line, se.Col, se.Msg, se.Hint, tt.line, tt.col, tt.msg, tt.hint, tt.reason)
			}
		})
	}
}

func specError(t *testing.T, err error) *trajeval.SpecError {
	t.Helper()
	var se *trajeval.SpecError
	if !errors.As(err, &se) {
		t.Fatalf("error %v is not a SpecError", err)
	}
	return se
}
