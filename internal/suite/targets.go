package suite

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/suggest"
	"github.com/trajeval/trajeval/internal/target"
	"github.com/trajeval/trajeval/internal/trace"
)

// Targets, as AgentV writes them:
//
//	targets:                        # in the suite, or in a targets.yaml beside it,
//	  - name: canned                # or in .agentv/targets.yaml in its folder or above
//	    provider: cli               # cli | codex | claude-code | replay
//	    command: cp fixtures/{EVAL_ID}.json {OUTPUT_FILE}   # or a list of arguments
//	    cwd: ..                     # relative to the file that defines the target
//	    timeout_seconds: 30
//	    env: {API_BASE: http://localhost:8080}
//	    format: agentv              # force the trace format of the output
//	    max_output: 268435456       # bytes each of stdout, stderr, {OUTPUT_FILE}; --max-output wins
//	  - name: codex_agent
//	    provider: codex             # also claude-code
//	    binary: /opt/bin/codex      # or executable; default codex, claude
//	    model: gpt-5-codex
//	    args: [--skip-git-repo-check]
//	execution:
//	  target: canned                # the target of the suite's cases; --target NAME wins
//
// The rules:
//  1. The target is --target NAME, else the suite's execution.target (or an
//     execution.targets list of one name). A suite that names none runs no
//     agent.
//  2. A case's trace comes from, in order: its trace: file; the run's
//     --traces file; the suite's target; the suite's traces file (its
//     traces: key, or a traces.jsonl beside it). So a recorded trace the
//     user names always wins, and a target, when there is one, wins over a
//     traces file that merely sits beside the suite.
//  3. A name is looked up in the suite's targets:, then in targets.yaml (or
//     targets.yml) beside the suite, then in .agentv/targets.yaml in the
//     suite's folder and each folder above it; the first definition wins.
//  4. Only the chosen target is checked in full: a targets file may hold
//     entries for providers trajeval does not run (AgentV's LLM providers).
//  5. A name defined nowhere is an error at the key that names it (or of
//     --target), with the closest defined name, when some case would run
//     it; when every case has a recorded trace anyway it is a warning.
//  6. The command runs in cwd, else in the suite's folder.
//  7. execution.targets with several names (AgentV's matrix) is an error:
//     run once per --target NAME.
//  8. Every key of AgentV's targets is known ([AgentVKeys]): a setting with
//     no effect here (healthcheck, grader_target, …) is a warning that
//     names it, one that would change the agent (system_prompt, …) an
//     error that says what to do instead.
//  9. A replay target (provider: replay) runs nothing: its fixtures file,
//     relative to the file that defines it, is the suite's traces file,
//     each case taking the recorded output of its test id.
var targetKeys = []string{"name", "provider", "command", "cwd", "timeout_seconds", "max_output", "env", "format", "binary", "executable", "model", "args"}

// providerAliases are AgentV's other spellings of the providers trajeval
// runs.
var providerAliases = map[string]string{
	"cli":         target.CLI,
	"codex":       target.Codex,
	"codex-cli":   target.Codex,
	"claude-code": target.ClaudeCode,
	"claude":      target.ClaudeCode,
	"claude-cli":  target.ClaudeCode,
	"replay":      replay,
}

// replay is AgentV's replay provider: the recorded outputs of its
// fixtures file are the traces of the cases that have none.
const replay = "replay"

// A targetDef is one entry of a targets list, checked in full only when a
// suite chooses it.
type targetDef struct {
	name string
	node *config.Node
}

// targetChoice is how a suite chooses its target: the execution.target
// key that names it, and the suite's own targets: list.
type targetChoice struct {
	name string
	node *config.Node // execution.target, nil when not set
	own  []targetDef
}

// readTargetDefs reads a list of target definitions.
func readTargetDefs(list *config.Node) ([]targetDef, []error) {
	items, err := list.List()
	if err != nil {
		return nil, []error{err}
	}
	var defs []targetDef
	var errs []error
	seen := map[string]*config.Node{}
	for _, it := range items {
		if it.Kind != config.Map {
			errs = append(errs, it.Errorf("a target is a map with a name and a provider, got %s", it.Kind))
			continue
		}
		nn := it.Get("name")
		if nn == nil {
			errs = append(errs, it.Errorf("target has no name").With("add name: my-agent"))
			continue
		}
		name, err := nn.Name()
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if prev, dup := seen[name]; dup {
			errs = append(errs, nn.Errorf("target %q is defined twice", name).With("the other is at line %d", prev.Line))
			continue
		}
		seen[name] = nn
		defs = append(defs, targetDef{name: name, node: it})
	}
	return defs, errs
}

// readTargetChoice reads a suite's execution.target or execution.targets.
func readTargetChoice(v *config.Node) (string, []error) {
	if v.Kind == config.List {
		names, err := v.Strings()
		switch {
		case err != nil:
			return "", []error{err}
		case len(names) == 0:
			return "", []error{v.Errorf("targets is empty").With("name the target of the suite's cases")}
		case len(names) > 1:
			return "", []error{v.Errorf("running a suite against several targets at once is not supported").
				With("name one target here, or run once per --target NAME")}
		}
		return names[0], nil
	}
	name, err := v.Name()
	if err != nil {
		return "", []error{err}
	}
	if name == "" {
		return "", []error{v.Errorf("target name is empty")}
	}
	return name, nil
}

// resolveTarget sets s.Target to the target the suite runs (rule 1), and
// returns why it cannot.
func resolveTarget(s *Suite, choice targetChoice, opts Options) []error {
	name, node := choice.name, choice.node
	if opts.Target != "" {
		name, node = opts.Target, nil
	}
	if name == "" {
		return nil
	}
	// Every definition in reach, in lookup order, for the suggestion.
	var names []string
	for _, d := range choice.own {
		if d.name == name {
			return s.setTarget(d, filepath.Dir(s.File), opts)
		}
		names = append(names, d.name)
	}
	var errs []error
	for _, f := range targetFiles(s.File) {
		defs, es := loadTargetsFile(f)
		errs = append(errs, es...)
		for _, d := range defs {
			if d.name == name {
				return append(errs, s.setTarget(d, filepath.Dir(s.File), opts)...)
			}
			names = append(names, d.name)
		}
	}
	var e *trajeval.SpecError
	if node != nil {
		e = node.Errorf("unknown target %q", name)
	} else {
		e = &trajeval.SpecError{File: s.File, Msg: fmt.Sprintf("--target %s: the suite has no target %q", name, name)}
	}
	switch sug := suggest.Closest(name, names); {
	case sug != "":
		e.Hint = fmt.Sprintf("did you mean %q?", sug)
	case len(names) > 0:
		e.Hint = "targets: " + strings.Join(names, ", ")
	default:
		e.Hint = "define it under targets: in the suite, or in a targets.yaml beside it"
	}
	if !slices.ContainsFunc(s.Cases, func(c *Case) bool { return c.Trace() == "" && opts.Traces == "" && s.Traces == "" }) {
		// Rule 5: every case is scored from a recorded trace.
		w := trajeval.Warning{File: e.File, Line: e.Line, Col: e.Col, Msg: e.Msg + "; not needed: every case has a recorded trace"}
		s.warn(w)
		return errs
	}
	return append(errs, e)
}

// The sources of a case's trace (rule 2).
const (
	FromFile   = "file"   // the case's trace: file
	FromTraces = "traces" // the run's --traces file
	FromTarget = "target" // the suite's target
	FromSuite  = "suite"  // the suite's traces file
	FromNone   = ""       // nowhere: the case is an error
)

// Source returns where case c of s takes its trace from (rule 2), given
// the run's --traces file.
func (s *Suite) Source(c *Case, traces string) string {
	switch {
	case c.Trace() != "":
		return FromFile
	case traces != "":
		return FromTraces
	case s.Target != nil:
		return FromTarget
	case s.Traces != "":
		return FromSuite
	}
	return FromNone
}

// targetFiles returns the targets files a suite may use, in lookup order
// (rule 2).
func targetFiles(suitePath string) []string {
	dir := filepath.Dir(suitePath)
	var files []string
	for _, name := range []string{"targets.yaml", "targets.yml"} {
		files = appendFile(files, filepath.Join(dir, name))
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return files
	}
	for {
		files = appendFile(files, filepath.Join(abs, ".agentv", "targets.yaml"))
		up := filepath.Dir(abs)
		if up == abs {
			return files
		}
		abs = up
	}
}

func appendFile(files []string, p string) []string {
	if st, err := os.Stat(p); err == nil && !st.IsDir() {
		return append(files, p)
	}
	return files
}

// loadTargetsFile reads a targets file: a map with targets: [...], as
// AgentV writes it.
func loadTargetsFile(path string) ([]targetDef, []error) {
	data, err := config.ReadFile(path)
	if err != nil {
		return nil, []error{&trajeval.SpecError{File: path, Msg: "cannot read: " + pathErr(err)}}
	}
	root, err := config.Parse(path, data)
	if err != nil {
		return nil, []error{err}
	}
	if root.Kind != config.Map {
		return nil, []error{root.Errorf("a targets file is a map with targets: [...], got a %s", root.Kind)}
	}
	if err := root.Check("targets", "$schema"); err != nil {
		return nil, []error{err}
	}
	list := root.Get("targets")
	if list == nil {
		return nil, []error{root.Errorf("the file has no targets").With("add targets: [{name: ..., provider: cli, command: ...}]")}
	}
	return readTargetDefs(list)
}

// setTarget translates the chosen definition d (rule 3), with the run's
// --max-output over its max_output.
func (s *Suite) setTarget(d targetDef, suiteDir string, opts Options) []error {
	n := d.node
	kc := &KeyChecker{Table: &AgentVKeys, Warn: s.warn}
	if err := kc.Check(n, "target", targetKeys...); err != nil {
		return []error{err}
	}
	for _, e := range n.Entries {
		if k, ok := AgentVKeys.Lookup("target", e.Key); ok && k.Use == Refused {
			return []error{e.Value.Errorf("%s is not supported in a target", e.Key).With("%s", k.Note)}
		}
	}
	t := &target.Target{Name: d.name, File: n.File, Dir: suiteDir}
	var errs []error
	pn := n.Get("provider")
	if pn == nil {
		return []error{n.Errorf("target %q has no provider", d.name).With("add provider: cli, codex or claude-code")}
	}
	p, err := pn.Str()
	if err != nil {
		return []error{err}
	}
	if t.Provider = providerAliases[strings.ToLower(p)]; t.Provider == replay {
		return s.setReplay(d)
	} else if t.Provider == "" {
		e := pn.Errorf("provider %q is not supported", p)
		if sug := suggest.Closest(p, target.Providers); sug != "" {
			e.Hint = fmt.Sprintf("did you mean %q?", sug)
		} else {
			e.Hint = "trajeval runs agents through the cli, codex and claude-code providers; run a model behind a cli command"
		}
		return []error{e}
	}
	cmd := n.Get("command")
	switch {
	case t.Provider == target.CLI && cmd == nil:
		errs = append(errs, n.Errorf("cli target %q has no command", d.name).With("add command: my-agent {PROMPT} > {OUTPUT_FILE}"))
	case t.Provider != target.CLI && cmd != nil:
		errs = append(errs, cmd.Errorf("a %s target runs %s itself and takes no command", t.Provider, t.Provider).
			With("set binary:, model: and args: instead, or use provider: cli"))
	case cmd != nil:
		errs = append(errs, readCommand(cmd, t)...)
	}
	if v, k := n.First("binary", "executable"); v != nil {
		if t.Provider == target.CLI {
			errs = append(errs, v.Errorf("a cli target takes its program in command, not %s", k))
		} else if t.Binary, err = v.Str(); err != nil {
			errs = append(errs, err)
		} else if strings.ContainsRune(t.Binary, os.PathSeparator) && !filepath.IsAbs(t.Binary) {
			t.Binary = filepath.Join(filepath.Dir(n.File), t.Binary)
		}
	}
	for _, k := range []string{"model", "args", "arguments"} {
		if v := n.Get(k); v != nil && t.Provider == target.CLI {
			errs = append(errs, v.Errorf("a cli target takes no %s: put it in command", k))
		}
	}
	if v := n.Get("model"); v != nil && t.Provider != target.CLI {
		if t.Model, err = v.Name(); err != nil {
			errs = append(errs, err)
		}
	}
	if v, _ := n.First("args", "arguments"); v != nil && t.Provider != target.CLI {
		if t.Args, err = v.Strings(); err != nil {
			errs = append(errs, err)
		}
	}
	if v := n.Get("cwd"); v != nil {
		errs = append(errs, readDir(v, t)...)
	}
	if v := n.Get("timeout_seconds"); v != nil {
		if f, err := v.Float(); err != nil {
			errs = append(errs, err)
		} else if f <= 0 {
			errs = append(errs, v.Errorf("timeout_seconds must be more than 0, got %s", v.Text))
		} else {
			t.Timeout = time.Duration(f * float64(time.Second))
		}
	}
	if v := n.Get("max_output"); v != nil {
		if b, err := v.Int(); err != nil {
			errs = append(errs, v.Errorf("max_output is a whole number of bytes, got %s", v.Text).With("e.g. 67108864 for 64 MiB"))
		} else if b <= 0 {
			errs = append(errs, v.Errorf("max_output must be more than 0 bytes, got %s", v.Text).With("the default is %d (%s)", target.DefaultMaxOutput, target.FormatSize(target.DefaultMaxOutput)))
		} else {
			t.MaxOutput = b
		}
	}
	if v := n.Get("env"); v != nil {
		errs = append(errs, readEnv(v, t)...)
	}
	if v := n.Get("format"); v != nil {
		if f, err := v.Str(); err != nil {
			errs = append(errs, err)
		} else if _, err := trace.Lookup(f); err != nil {
			e := v.Errorf("unknown trace format %q", f)
			if sug := suggest.Closest(f, trace.Names()); sug != "" {
				e.Hint = fmt.Sprintf("did you mean %q?", sug)
			} else {
				e.Hint = "formats: " + strings.Join(trace.Names(), ", ")
			}
			errs = append(errs, e)
		} else {
			t.Format = f
		}
	}
	if opts.MaxOutput > 0 {
		t.MaxOutput = opts.MaxOutput
	}
	if len(errs) == 0 {
		s.Target, s.TargetNode = t, n
	}
	return errs
}

// setReplay translates a replay target: its fixtures file is the suite's
// traces file, matched to cases by test id.
func (s *Suite) setReplay(d targetDef) []error {
	n := d.node
	for _, k := range []string{"command", "binary", "executable", "model", "args", "arguments", "cwd", "timeout_seconds", "env", "format"} {
		if v := n.Get(k); v != nil {
			return []error{v.Errorf("a replay target runs nothing and takes no %s", k).With("give it only fixtures: the recorded outputs")}
		}
	}
	fx := n.Get("fixtures")
	if fx == nil {
		return []error{n.Errorf("replay target %q has no fixtures", d.name).With("add fixtures: PATH, the JSON Lines file of its recorded outputs")}
	}
	p, err := fx.Str()
	if err != nil {
		return []error{err}
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(filepath.Dir(n.File), p)
	}
	if st, err := os.Stat(p); err != nil || st.IsDir() {
		return []error{fx.Errorf("fixtures file %s cannot be read", p).With("it is relative to the file that defines the target")}
	}
	s.Traces, s.TracesNode = p, fx
	return nil
}

// CheckTargets returns an error for each target some case runs (given the
// run's --traces file) whose program cannot be found: the first word of a
// cli command given as a list, or the binary of codex and claude-code. A
// command line run by the shell is not checked: the shell finds its
// program. Loading does not check them, since a run scores a case whose
// agent cannot start as an error and goes on; validate checks them up
// front.
func CheckTargets(suites []*Suite, traces string) []error {
	var errs []error
	for _, s := range suites {
		t := s.Target
		if t == nil || !slices.ContainsFunc(s.Cases, func(c *Case) bool { return s.Source(c, traces) == FromTarget }) {
			continue
		}
		prog := t.Binary
		switch {
		case t.Provider == target.CLI && t.Argv != nil:
			prog = t.Argv[0]
		case t.Provider == target.CLI:
			continue
		case prog == "" && t.Provider == target.Codex:
			prog = "codex"
		case prog == "":
			prog = "claude"
		}
		path := prog
		if strings.ContainsRune(prog, '/') && !filepath.IsAbs(prog) {
			path = filepath.Join(t.Dir, prog)
		}
		if _, err := exec.LookPath(path); err != nil {
			var ee *exec.Error
			if errors.As(err, &ee) {
				err = ee.Err
			}
			e := s.TargetNode.Errorf("target %s: %s cannot be run: %s", t.Name, prog, pathErr(err))
			errs = append(errs, e.With("install it, or set the target's binary (or command) to its path"))
		}
	}
	return errs
}

// readCommand reads a cli command: a command line or a list of arguments.
func readCommand(v *config.Node, t *target.Target) []error {
	var words []string
	if v.Kind == config.List {
		argv, err := v.Strings()
		if err != nil {
			return []error{err}
		}
		if len(argv) == 0 || argv[0] == "" {
			return []error{v.Errorf("command is empty")}
		}
		t.Argv, words = argv, argv
	} else {
		line, err := v.Str()
		if err != nil {
			return []error{err}
		}
		if strings.TrimSpace(line) == "" {
			return []error{v.Errorf("command is empty")}
		}
		t.Shell, words = line, []string{line}
	}
	for _, w := range words {
		for _, p := range target.UnknownPlaceholders(w) {
			if p == "{FILES}" {
				return []error{v.Errorf("placeholder {FILES} is not supported: cases have no input files in trajeval").
					With("give the agent what it needs with {PROMPT} or {PROMPT_FILE}")}
			}
			e := v.Errorf("unknown placeholder %s", p)
			if sug := suggest.Closest(p, target.Placeholders); sug != "" {
				e.Hint = fmt.Sprintf("did you mean %s?", sug)
			} else {
				e.Hint = "placeholders: " + strings.Join(target.Placeholders, ", ")
			}
			return []error{e}
		}
	}
	return nil
}

// readDir reads cwd, relative to the file that defines the target.
func readDir(v *config.Node, t *target.Target) []error {
	dir, err := v.Str()
	if err != nil {
		return []error{err}
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(filepath.Dir(v.File), dir)
	}
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return []error{v.Errorf("cwd %s does not exist", dir).With("it is relative to the file that defines the target")}
	case err != nil:
		return []error{v.Errorf("cwd %s: %s", dir, pathErr(err))}
	case !st.IsDir():
		return []error{v.Errorf("cwd %s is not a folder", dir)}
	}
	t.Dir = dir
	return nil
}

// readEnv reads env: a map of names to values.
func readEnv(v *config.Node, t *target.Target) []error {
	entries, err := v.MapEntries()
	if err != nil {
		return []error{err}
	}
	var errs []error
	for _, e := range entries {
		val, err := e.Value.Name()
		if err != nil {
			errs = append(errs, err)
			continue
		}
		t.Env = append(t.Env, e.Key+"="+val)
	}
	sort.Strings(t.Env)
	return errs
}
