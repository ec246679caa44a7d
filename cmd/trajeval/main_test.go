package main

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/trajeval/trajeval/internal/jsonl"
	"github.com/trajeval/trajeval/internal/judge/judgetest"
)

// TestMain makes the test binary trajeval too, for scripts that run it as
// a process of its own (exec trajeval ... &), to stop or kill it midway.
func TestMain(m *testing.M) {
	os.Exit(testscript.RunMain(m, map[string]func() int{
		"trajeval": func() int { return mainExit(os.Args[1:]) },
		// trajeval-small is trajeval with a document and a line of at
		// most a MiB, for scripts that feed it an input without end:
		// reading the real limits' GiB there would fill the machine.
		"trajeval-small": func() int {
			jsonl.SetMaxDocument(1 << 20)
			jsonl.SetMaxLine(1 << 20)
			return mainExit(os.Args[1:])
		},
	}))
}

type judgeKey struct{}

type judgeHolder struct{ srv *judgetest.Server }

// scriptTB lets the judge double report to the test and stop with the
// script.
type scriptTB struct {
	t  *testing.T
	ts *testscript.TestScript
}

func (s scriptTB) Errorf(format string, args ...any) { s.t.Errorf(format, args...) }
func (s scriptTB) Cleanup(f func())                  { s.ts.Defer(f) }

// TestScript runs the command-line scripts in testdata/script. Each uses
//
//	exits N trajeval ARGS...
//
// which runs trajeval in-process and requires exit code N; stdout and
// stderr are then checked with the usual stdout and stderr commands. $ROOT
// is the repository root, for the bundled examples.
func TestScript(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		UpdateScripts:       os.Getenv("UPDATE_SCRIPTS") != "",
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			env.Setenv("ROOT", root)
			// No run history unless a script asks for it: scripts run
			// eval on the repository's examples.
			env.Setenv("TRAJEVAL_DB", "off")
			env.Values[judgeKey{}] = &judgeHolder{}
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			// judge-double WANT starts an OpenAI-compatible judge that
			// scores 1 an answer holding WANT, and points the judge
			// variables at it; judge-double -quote starts one that scores
			// 1 and quotes the request's headers, key included.
			// judge-requests N checks how many requests it received.
			"judge-double": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 1 {
					ts.Fatalf("usage: judge-double WANT | -quote")
				}
				answer := judgetest.Fair(args[0])
				if args[0] == "-quote" {
					answer = judgetest.QuoteHeaders
				}
				srv := judgetest.New(scriptTB{t, ts}, answer)
				env := srv.Env()
				for _, k := range []string{"OPENAI_API_KEY", "OPENAI_BASE_URL", "TRAJEVAL_JUDGE_MODEL"} {
					ts.Setenv(k, env(k))
				}
				ts.Value(judgeKey{}).(*judgeHolder).srv = srv
			},
			"judge-requests": func(ts *testscript.TestScript, neg bool, args []string) {
				srv := ts.Value(judgeKey{}).(*judgeHolder).srv
				if srv == nil || len(args) != 1 {
					ts.Fatalf("usage: judge-requests N, after judge-double")
				}
				if got := strconv.Itoa(srv.Requests()); got != args[0] {
					ts.Fatalf("the judge received %s requests, want %s", got, args[0])
				}
			},
			// no-key FILE... checks that no file (stdout, stderr, or every
			// file under a folder) holds 8 bytes in a row of the judge
			// double's key.
			"no-key": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) == 0 {
					ts.Fatalf("usage: no-key FILE...")
				}
				for _, name := range args {
					if name == "stdout" || name == "stderr" {
						if judgetest.Leaks(ts.ReadFile(name)) {
							ts.Fatalf("%s holds the key", name)
						}
						continue
					}
					n := 0
					filepath.WalkDir(ts.MkAbs(name), func(path string, d fs.DirEntry, err error) error {
						if err != nil {
							ts.Fatalf("%s: %v", name, err)
						}
						if d.Type().IsRegular() {
							n++
							if data, err := os.ReadFile(path); err != nil || judgetest.Leaks(string(data)) {
								ts.Fatalf("%s holds the key (%v)", path, err)
							}
						}
						return nil
					})
					if n == 0 {
						ts.Fatalf("%s has no file to check", name)
					}
				}
			},
			// waitfile FILE waits until FILE exists: a background
			// process has reached a point the script must act at.
			"waitfile": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 1 {
					ts.Fatalf("usage: waitfile FILE")
				}
				for range 3000 {
					if _, err := os.Stat(ts.MkAbs(args[0])); err == nil {
						return
					}
					time.Sleep(10 * time.Millisecond)
				}
				ts.Fatalf("%s did not appear in 30s", args[0])
			},
			// cmp-untimed A B compares two results files (or stdout) as
			// cmp does, with each row's started_at and duration_ms
			// replaced by placeholders: those vary from run to run. It
			// fails when a value is not of its documented form (RFC 3339
			// with milliseconds in UTC; milliseconds, not negative).
			// lean-rows IN OUT writes the rows of results file IN as the
			// run history keeps them by default (see lean).
			"lean-rows": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 2 {
					ts.Fatalf("usage: lean-rows IN OUT")
				}
				if err := os.WriteFile(ts.MkAbs(args[1]), []byte(lean(t, ts.ReadFile(args[0]))), 0o644); err != nil {
					ts.Fatalf("%v", err)
				}
			},
			"cmp-untimed": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 2 {
					ts.Fatalf("usage: cmp-untimed FILE1 FILE2")
				}
				a, b := untimed(ts, args[0]), untimed(ts, args[1])
				if a != b {
					ts.Logf("%s\n---\n%s", a, b)
					ts.Fatalf("%s and %s differ, timing aside", args[0], args[1])
				}
			},
			"exits": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) < 2 || args[1] != "trajeval" {
					ts.Fatalf("usage: exits N trajeval ARGS...")
				}
				want, err := strconv.Atoi(args[0])
				if err != nil {
					ts.Fatalf("exit code %q: %v", args[0], err)
				}
				rest := args[2:]
				// Relative paths are the script's: make them absolute, since
				// trajeval runs in this process, not in $WORK.
				for i, a := range rest {
					if a == "-" || filepath.IsAbs(a) || a == "" || a[0] == '-' {
						continue
					}
					_, err := os.Stat(ts.MkAbs(a))
					if err == nil || (i > 0 && slices.Contains([]string{"--out", "-o", "--dump-traces", "--db"}, rest[i-1]) && !strings.Contains(a, "://")) {
						rest[i] = ts.MkAbs(a)
					}
				}
				stdin, _ := os.Open(os.DevNull)
				defer stdin.Close()
				ctx := context.WithValue(context.Background(), envKey{}, ts.Getenv)
				err = execute(ctx, rest, stdin, ts.Stdout(), ts.Stderr())
				if got := exitCode(err, ts.Stderr()); got != want {
					ts.Fatalf("exit code %d, want %d", got, want)
				}
			},
		},
	})
}

var (
	startedAt  = regexp.MustCompile(`"started_at":"([^"]*)"`)
	durationMS = regexp.MustCompile(`"duration_ms":([^,}]*)`)
	rfc3339ms  = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`)
)

// untimed returns the file name (or stdout, stderr) of the script with
// its timing values checked and replaced by placeholders.
func untimed(ts *testscript.TestScript, name string) string {
	text := ts.ReadFile(name)
	for _, m := range startedAt.FindAllStringSubmatch(text, -1) {
		if !rfc3339ms.MatchString(m[1]) {
			ts.Fatalf("%s: started_at %q is not RFC 3339 with milliseconds in UTC", name, m[1])
		}
	}
	for _, m := range durationMS.FindAllStringSubmatch(text, -1) {
		if d, err := strconv.ParseFloat(m[1], 64); err != nil || d < 0 {
			ts.Fatalf("%s: duration_ms %s is not a duration in milliseconds", name, m[1])
		}
	}
	text = startedAt.ReplaceAllString(text, `"started_at":"T"`)
	return durationMS.ReplaceAllString(text, `"duration_ms":D`)
}

func TestPrintsOnly(t *testing.T) {
	tests := []struct {
		args   []string
		want   bool
		reason string
	}{
		{nil, true, "no command prints the help"},
		{[]string{"version"}, true, "the version is built in"},
		{[]string{"--version"}, true, "the same as version"},
		{[]string{"evaluators", "tool_trajectory"}, true, "the evaluators' documentation is built in"},
		{[]string{"eval", "suite.yaml"}, false, "eval builds the heap the huge pages are for"},
		{[]string{"convert", "version"}, false, "only the first argument names the command"},
		{[]string{"--color", "never", "version"}, false, "a flag first keeps the huge heap: never fewer huge pages for a command that needs them"},
	}
	for _, tt := range tests {
		if got := printsOnly(tt.args); got != tt.want {
			t.Errorf("printsOnly(%q) = %v, want %v (%s)", tt.args, got, tt.want, tt.reason)
		}
	}
}

func TestHugeHeapFor(t *testing.T) {
	dir := t.TempDir()
	file := func(name string, n int) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, make([]byte, n), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	suiteFile, oneTrace := file("suite.yaml", 600), file("one.jsonl", 4<<10)
	bigSuite, bigTraces := file("big.yaml", smallInput), file("traces.jsonl", 1<<20)
	tests := []struct {
		name   string
		paths  []string
		traces string
		want   int
		reason string
	}{
		{"small files", []string{suiteFile}, oneTrace, 0, "a one-case suite on one trace: its heap stays small"},
		{"no traces named", []string{suiteFile}, "", hugeHeapBytes, "the suite names its traces, of a size only loading finds"},
		{"large traces", []string{suiteFile}, bigTraces, hugeHeapBytes, "the traces' size counts with the suite's"},
		{"suite at the bound", []string{bigSuite}, oneTrace, hugeHeapBytes, "smallInput bytes are not small"},
		{"small parts, large sum", []string{suiteFile, bigSuite}, oneTrace, hugeHeapBytes, "the files are counted together"},
		{"a folder", []string{dir}, oneTrace, hugeHeapBytes, "a folder may hold any number of suites"},
		{"standard input", []string{suiteFile}, "-", hugeHeapBytes, "standard input may hold any amount"},
		{"missing file", []string{filepath.Join(dir, "none.yaml")}, oneTrace, hugeHeapBytes, "what does not stat is not known to be small; load reports it"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			paths := slices.Clone(tt.paths)
			if got := hugeHeapFor(paths, tt.traces); got != tt.want {
				t.Errorf("hugeHeapFor(%q, %q) = %d, want %d (%s)", tt.paths, tt.traces, got, tt.want, tt.reason)
			}
			if !slices.Equal(paths, tt.paths) {
				t.Errorf("hugeHeapFor changed its paths to %q", paths)
			}
		})
	}
}

func TestEvalHugeHeap(t *testing.T) {
	dir := t.TempDir()
	suiteFile, oneTrace, bigTraces := filepath.Join(dir, "suite.yaml"), filepath.Join(dir, "one.jsonl"), filepath.Join(dir, "traces.jsonl")
	for p, n := range map[string]int{suiteFile: 600, oneTrace: 4 << 10, bigTraces: 1 << 20} {
		if err := os.WriteFile(p, make([]byte, n), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		args   []string
		want   int
		reason string
	}{
		{[]string{suiteFile, "--traces", oneTrace, "--format", "jsonl", "-q", "--no-db"}, 0, "flags' values are not paths: the suite and --traces are small"},
		{[]string{"--traces=" + bigTraces, suiteFile}, hugeHeapBytes, "--traces is read wherever it stands"},
		{[]string{suiteFile, "--traces", oneTrace, "--db", bigTraces}, 0, "--db's file is not an input"},
		{[]string{suiteFile}, hugeHeapBytes, "no --traces: the suite names its own"},
		{[]string{suiteFile, "--cpuprofile", "cpu.out"}, hugeHeapBytes, "a flag eval's own set lacks: the default"},
		{[]string{suiteFile, "--no-such-flag"}, hugeHeapBytes, "flags that do not parse: the default, and eval says why"},
	}
	for _, tt := range tests {
		if got := evalHugeHeap(tt.args); got != tt.want {
			t.Errorf("evalHugeHeap(%q) = %d, want %d (%s)", tt.args, got, tt.want, tt.reason)
		}
	}
}
