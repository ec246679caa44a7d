package scaffold_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/scaffold"
	"github.com/trajeval/trajeval/internal/trace"
)

func read(t *testing.T, path string) ([]*trajeval.Trajectory, error) {
	t.Helper()
	var out []*trajeval.Trajectory
	err := trace.Read(context.Background(), path, trace.Options{}, func(x *trajeval.Trajectory) error {
		out = append(out, x)
		return nil
	})
	return out, err
}

// TestFromTrace_everyReader turns every sample trace of every reader into
// a suite and scores it on that trace: it must pass. The samples hold the
// values that do not survive a careless round trip through YAML: integers
// past 2^53, unicode, nested and empty arguments, keys that start with $,
// strings such as "yes" and "null".
func TestFromTrace_everyReader(t *testing.T) {
	files, err := filepath.Glob("../format/*/testdata/*/*")
	if err != nil {
		t.Fatal(err)
	}
	passed := 0
	for _, f := range files {
		if strings.Contains(f, ".want.") || strings.Contains(f, "/fuzz/") {
			continue
		}
		t.Run(f, func(t *testing.T) {
			trajs, err := read(t, f)
			if err != nil || len(trajs) == 0 {
				t.Skipf("not a readable trace: %v", err)
			}
			dir := t.TempDir()
			out, suitePath, _, err := scaffold.FromTrace(f, trajs, dir)
			if err != nil {
				t.Fatal(err)
			}
			if err := scaffold.Write(dir, out); err != nil {
				t.Fatal(err)
			}
			if err := scaffold.Verify(context.Background(), filepath.Join(dir, suitePath), trajs); err != nil {
				data, _ := os.ReadFile(filepath.Join(dir, suitePath))
				t.Fatalf("%v\n%s", err, data)
			}
			passed++
		})
	}
	if passed < 20 {
		t.Errorf("only %d sample traces became passing suites", passed)
	}
}

// TestFromTrace_values checks the values that YAML would change if written
// carelessly, one at a time, and that the suite fails when a value
// differs: the expectations are exact, not vacuous.
func TestFromTrace_values(t *testing.T) {
	tests := []struct {
		name, args, other string
		reason            string
	}{
		{"big integer", `{"id": 9007199254740993}`, `{"id": 9007199254740992}`, "2^53+1 is not a float64"},
		{"huge integer", `{"n": 123456789012345678901234567890}`, `{"n": 123456789012345678901234567891}`, "past uint64"},
		{"float digits", `{"x": 0.1, "y": 1e-7}`, `{"x": 0.1, "y": 1e-8}`, "numbers by exact decimal value"},
		{"yaml words", `{"a": "yes", "b": "null", "c": "1e3", "d": "", "e": "~", "f": "0x10"}`, `{"a": true, "b": "null", "c": "1e3", "d": "", "e": "~", "f": "0x10"}`, "strings stay strings"},
		{"unicode", `{"q": "Zürich – 東京 🚀", "z": "a\u2028b\u0085c\ufeff\u007f"}`, `{"q": "Zurich – 東京 🚀", "z": "a\u2028b\u0085c\ufeff\u007f"}`, "every character kept"},
		{"nested", `{"filter": {"and": [{"k": [1, [2, {"x": null}]]}, {}]}, "empty": []}`, `{"filter": {"and": [{"k": [1, [2, {"x": 0}]]}, {}]}, "empty": []}`, "nested values compared at every depth"},
		{"dollar keys", `{"$regex": "not an operator", "q": {"$gt": 1}}`, `{"$regex": "not an operator", "q": {"$gt": 2}}`, "keys that start with $ are literal"},
		{"quotes and newlines", `{"s": "line 1\n\"two\"\t\\ # not a comment: colon"}`, `{"s": "line 1\n\"two\"\t\\ # not a comment"}`, "escapes"},
		{"no arguments", `{}`, `{"x": 1}`, "no arguments expects none"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			tracePath := filepath.Join(t.TempDir(), "run.jsonl")
			line := `{"id": "run-1", "steps": [{"index": 1, "name": "tool", "args": ` + tc.args + `}]}` + "\n"
			if err := os.WriteFile(tracePath, []byte(line), 0o644); err != nil {
				t.Fatal(err)
			}
			trajs, err := read(t, tracePath)
			if err != nil {
				t.Fatal(err)
			}
			files, suitePath, _, err := scaffold.FromTrace(tracePath, trajs, dir)
			if err != nil {
				t.Fatal(err)
			}
			if err := scaffold.Write(dir, files); err != nil {
				t.Fatal(err)
			}
			if err := scaffold.Verify(context.Background(), filepath.Join(dir, suitePath), trajs); err != nil {
				data, _ := os.ReadFile(filepath.Join(dir, suitePath))
				t.Fatalf("%s: %v\n%s", tc.reason, err, data)
			}
			otherPath := filepath.Join(t.TempDir(), "other.jsonl")
			other := `{"id": "run-1", "steps": [{"index": 1, "name": "tool", "args": ` + tc.other + `}]}` + "\n"
			if err := os.WriteFile(otherPath, []byte(other), 0o644); err != nil {
				t.Fatal(err)
			}
			others, err := read(t, otherPath)
			if err != nil {
				t.Fatal(err)
			}
			if err := scaffold.Verify(context.Background(), filepath.Join(dir, suitePath), others); err == nil {
				t.Errorf("the suite passes on different arguments %s: %s", tc.other, tc.reason)
			}
		})
	}
}

func TestFromTrace_ids(t *testing.T) {
	const step = `{"index": 1, "name": "x", "args": {}}`
	tests := []struct {
		name, jsonl, want string
		reason            string
	}{
		{"one per trajectory", `{"id": "a", "steps": [` + step + `]}` + "\n" + `{"id": "b", "steps": []}`, `- id: "b"`, "cases by id"},
		{"only one, no id", `{"id": "", "steps": [` + step + `]}`, `- id: "runs"`, "the file's name"},
		{"several without ids", `{"id": "", "steps": [` + step + `]}` + "\n" + `{"id": "runs-1", "steps": []}` + "\n" + `{"id": "", "steps": []}`, `- id: "runs-2"`, "ids given, past the ones taken"},
		{"same id twice", `{"id": "a", "steps": [` + step + `]}` + "\n" + `{"id": "a", "steps": []}`, `trace: "traces/runs.trajeval.jsonl"`, "scored on a copy with the ids given"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "runs.jsonl")
			if err := os.WriteFile(p, []byte(tc.jsonl+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			trajs, err := read(t, p)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			files, suitePath, _, err := scaffold.FromTrace(p, trajs, dir)
			got := ""
			if err != nil {
				got = err.Error()
			} else {
				got = string(files[0].Data)
				if err := scaffold.Write(dir, files); err != nil {
					t.Fatal(err)
				}
				if err := scaffold.Verify(context.Background(), filepath.Join(dir, suitePath), trajs); err != nil {
					t.Errorf("the suite does not pass on its trace: %v", err)
				}
			}
			if !strings.Contains(got, tc.want) {
				t.Errorf("got %q, want it to contain %q (%s)", got, tc.want, tc.reason)
			}
		})
	}
}

func TestWrite_refuses(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "suite.yaml"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := scaffold.Write(dir, scaffold.Starter())
	if !errors.Is(err, scaffold.ErrExists) || !strings.Contains(err.Error(), "suite.yaml") {
		t.Fatalf("Write over an existing file = %v, want ErrExists naming suite.yaml", err)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "suite.yaml")); string(data) != "mine" {
		t.Errorf("the existing file was overwritten")
	}
	if _, err := os.Stat(filepath.Join(dir, "TRAJEVAL.md")); err == nil {
		t.Errorf("Write wrote some files although one existed")
	}
}

// copyFiles copies files (paths under dir, folders kept) into a new
// temporary folder, and returns it.
func copyFiles(t *testing.T, dir string, files ...string) string {
	t.Helper()
	dst := t.TempDir()
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dst, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// TestFromTrace_companionFolder turns a Claude Code session whose
// sub-agent's calls are in the folder beside it into a suite: the trace
// the suite scores must hold those calls, as the session read in place
// does, not a copy of the session file alone.
func TestFromTrace_companionFolder(t *testing.T) {
	const real = "../../testdata/real/claude-code/"
	src := copyFiles(t, real, "claude-code-2.1.332-session.jsonl", "claude-code-2.1.332-session/subagents/agent-a1ae60d425c7ab601.jsonl")
	session := filepath.Join(src, "claude-code-2.1.332-session.jsonl")
	trajs, err := read(t, session)
	if err != nil || len(trajs) != 1 || len(trajs[0].Steps) != 5 {
		t.Fatalf("read: %v; want one trajectory of 5 calls, the sub-agent's included", err)
	}
	dir := t.TempDir()
	files, _, notes, err := scaffold.FromTrace(session, trajs, dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := scaffold.Write(dir, files); err != nil {
		t.Fatal(err)
	}
	scored, err := read(t, filepath.Join(dir, "traces", "claude-code-2.1.332-session.trajeval.jsonl"))
	if err != nil || len(scored) != 1 || len(scored[0].Steps) != 5 {
		t.Fatalf("the suite's trace: %v, %d trajectories; want the 5 calls read in place (notes %q)", err, len(scored), notes)
	}
}

// TestFromTrace_sessionIDFolder turns a Gemini CLI session with a
// sub-agent into a suite: its sub-agent's file is in a folder named by
// the session's id, not by the file, and the suite's trace must keep the
// sub-agent's calls, or the suite fails on the run it was made from.
func TestFromTrace_sessionIDFolder(t *testing.T) {
	const (
		real    = "../../testdata/real/gemini-chat/"
		session = "gemini-cli-0.61.0-subagent-session-2026-11-27T18-04-256d48f1.jsonl"
		sub     = "256d48f1-820e-4cfc-9100-cce3a39853c4/cf964a72-0f8c-4325-b17f-29261cfa23c4.jsonl"
	)
	src := copyFiles(t, real, session, sub)
	trajs, err := read(t, filepath.Join(src, session))
	if err != nil || len(trajs) != 1 || len(trajs[0].Steps) != 3 {
		t.Fatalf("read: %v; want one trajectory of 3 calls, the sub-agent's included", err)
	}
	dir := t.TempDir()
	files, suitePath, notes, err := scaffold.FromTrace(filepath.Join(src, session), trajs, dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := scaffold.Write(dir, files); err != nil {
		t.Fatal(err)
	}
	scored, err := read(t, filepath.Join(dir, "traces", strings.TrimSuffix(session, ".jsonl")+".trajeval.jsonl"))
	if err != nil || len(scored) != 1 || len(scored[0].Steps) != 3 || scored[0].Steps[1].Agent != "generalist" {
		t.Fatalf("the suite's trace: %v, %d trajectories; want the 3 calls, the sub-agent's as generalist's (notes %q)", err, len(scored), notes)
	}
	data, err := os.ReadFile(filepath.Join(dir, suitePath))
	if err != nil || !strings.Contains(string(data), `tool: "complete_task"`) {
		t.Errorf("the suite does not expect the sub-agent's calls: %v\n%s", err, data)
	}
}
