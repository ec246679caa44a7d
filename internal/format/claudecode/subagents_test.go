package claudecode_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/claudecode"
	"github.com/trajeval/trajeval/internal/jsonv"
)

// Lines in the shape Claude Code 2.1 writes: a Task call, the sub-agent's
// messages as agent_progress lines, the Task's result naming the agentId,
// and the sub-agent's own file.
const (
	user     = `{"parentUuid":null,"isSidechain":false,"sessionId":"s1","version":"2.1.38","type":"user","message":{"role":"user","content":"plan it"},"uuid":"u1","timestamp":"2026-02-01T10:00:00.000Z"}`
	task     = `{"parentUuid":"u1","isSidechain":false,"sessionId":"s1","type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"toolu_task","name":"Task","input":{"subagent_type":"Plan","prompt":"look"}}]},"uuid":"a1","timestamp":"2026-02-01T10:00:01.000Z"}`
	progress = `{"parentUuid":"a1","isSidechain":false,"sessionId":"s1","type":"progress","parentToolUseID":"toolu_task","toolUseID":"agent_msg_1","data":{"type":"agent_progress","agentId":"%s","prompt":"look","message":{"type":"assistant","uuid":"sa1","timestamp":"2026-02-01T10:00:02.000Z","message":{"id":"m2","role":"assistant","content":[{"type":"tool_use","id":"toolu_read","name":"Read","input":{"file_path":"a.go"}}]}}},"uuid":"p1","timestamp":"2026-02-01T10:00:02.000Z"}
{"parentUuid":"p1","isSidechain":false,"sessionId":"s1","type":"progress","parentToolUseID":"toolu_task","toolUseID":"agent_msg_1","data":{"type":"agent_progress","agentId":"%[1]s","message":{"type":"user","uuid":"su1","timestamp":"2026-02-01T10:00:03.000Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_read","content":"package a"}]}}},"uuid":"p2","timestamp":"2026-02-01T10:00:03.000Z"}`
	result = `{"parentUuid":"a1","isSidechain":false,"sessionId":"s1","type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_task","content":[{"type":"text","text":"the plan"}]}]},"toolUseResult":{"status":"completed","agentId":"%s","totalDurationMs":4000},"uuid":"u2","timestamp":"2026-02-01T10:00:05.000Z"}`
	final  = `{"parentUuid":"u2","isSidechain":false,"sessionId":"s1","type":"assistant","message":{"id":"m3","role":"assistant","content":[{"type":"text","text":"Here is the plan."}]},"uuid":"a2","timestamp":"2026-02-01T10:00:06.000Z"}
{"parentUuid":"a2","isSidechain":false,"sessionId":"s1","type":"assistant","message":{"id":"m4","role":"assistant","content":[{"type":"text","text":"\n\n"}]},"uuid":"a3","timestamp":"2026-02-01T10:00:07.000Z"}`
	// the sub-agent's file: the same two messages, and one more call
	subFile = `{"parentUuid":null,"isSidechain":true,"sessionId":"s1","agentId":"ab12","type":"user","message":{"role":"user","content":"look"},"uuid":"su0","timestamp":"2026-02-01T10:00:01.500Z"}
{"parentUuid":"su0","isSidechain":true,"sessionId":"s1","agentId":"ab12","type":"assistant","message":{"id":"m2","role":"assistant","content":[{"type":"tool_use","id":"toolu_read","name":"Read","input":{"file_path":"a.go"}}]},"uuid":"sa1","timestamp":"2026-02-01T10:00:02.000Z"}
{"parentUuid":"sa1","isSidechain":true,"sessionId":"s1","agentId":"ab12","type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_read","content":"package a"}]},"uuid":"su1","timestamp":"2026-02-01T10:00:03.000Z"}
{"parentUuid":"su1","isSidechain":true,"sessionId":"s1","agentId":"ab12","type":"assistant","message":{"id":"m5","role":"assistant","content":[{"type":"tool_use","id":"toolu_grep","name":"Grep","input":{"pattern":"x"}}]},"uuid":"sa2","timestamp":"2026-02-01T10:00:04.000Z"}
{"parentUuid":"sa2","isSidechain":true,"sessionId":"s1","agentId":"ab12","type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_grep","content":"none"}]},"uuid":"su2","timestamp":"2026-02-01T10:00:04.500Z"}`
)

func TestRead_subagents(t *testing.T) {
	tests := []struct {
		name     string
		agentID  string
		progress bool // the session holds agent_progress lines
		file     bool // the sub-agent's file is in <session>/subagents/
		want     string
		warn     string
		reason   string
	}{
		{"progress lines", "ab12", true, false, "Task: Read:Plan", "",
			"2.1 writes a sub-agent's messages into the session as agent_progress lines: its calls are kept, with its agent"},
		{"subagents folder", "ab12", false, true, "Task: Read:Plan Grep:Plan", "",
			"the sub-agent's own file is read where the Task's result names it"},
		{"both", "ab12", true, true, "Task: Read:Plan Grep:Plan", "",
			"a call in both the progress lines and the file is one step"},
		{"agentId naming no file", "../../etc", true, false, "Task: Read:Plan", `agentId "../../etc" names no sub-agent file`,
			"an agentId is never a path"},
		{"agentId with a dot", "ab.12", true, false, "Task: Read:Plan", `agentId "ab.12" names no sub-agent file`,
			"letters, digits, _ and - only"},
		{"agentId of 129 bytes", strings.Repeat("a", 129), true, false, "Task: Read:Plan", "names no sub-agent file",
			"at most 128 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			lines := []string{user, task}
			if tt.progress {
				lines = append(lines, fmt.Sprintf(progress, tt.agentID))
			}
			lines = append(lines, fmt.Sprintf(result, tt.agentID), final)
			path := filepath.Join(dir, "s1.jsonl")
			write(t, path, strings.Join(lines, "\n")+"\n")
			if tt.file {
				write(t, filepath.Join(dir, "s1", "subagents", "agent-ab12.jsonl"), subFile+"\n")
			}
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			var warns []string
			var got *trajeval.Trajectory
			err = claudecode.Format.Read(context.Background(), trajeval.Input{Name: path, R: f,
				Warn: func(w trajeval.Warning) { warns = append(warns, w.String()) }},
				func(tr *trajeval.Trajectory) error { got = tr; return nil })
			if err != nil {
				t.Fatal(err)
			}
			var steps []string
			for _, s := range got.Steps {
				steps = append(steps, s.Name+":"+s.Agent)
			}
			if g := strings.Join(steps, " "); g != tt.want {
				t.Errorf("steps %q, want %q (%s)", g, tt.want, tt.reason)
			}
			joined := strings.Join(warns, "\n")
			if tt.warn == "" && joined != "" || !strings.Contains(joined, tt.warn) {
				t.Errorf("warnings:\n%s\nwant %q (%s)", joined, tt.warn, tt.reason)
			}
			if n := len(got.Turns); n != 1 || got.Turns[0].FinalResponse == nil || *got.Turns[0].FinalResponse != "Here is the plan." {
				t.Errorf("turns %+v: want one, whose final response is the last text that is not white space", got.Turns)
			}
		})
	}
}

func write(t testing.TB, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRead_subagentFileHostile reads sessions whose sub-agent file is
// hostile or damaged: the session names that file, not the user, so it is
// read with the bounds of a trace the user names, and what it cannot read
// is reported, never a hang, an unbounded read or a silent change.
func TestRead_subagentFileHostile(t *testing.T) {
	const (
		all   = "Task: Read:Plan Grep:Plan" // the progress lines and the file
		lines = "Task: Read:Plan"           // the progress lines alone
	)
	subLines := strings.Split(subFile, "\n")
	tests := []struct {
		name    string
		lenient bool
		make    func(t *testing.T, sub, outside string) // sub: the file's path; outside: a folder beside the session's
		want    string
		warn    string // a warning holding this, "" for none
		reason  string
	}{
		{"byte order mark", false, func(t *testing.T, sub, _ string) {
			write(t, sub, "\uFEFF"+subFile+"\n")
		}, all, "", "a mark at the start is dropped, as in the session's own file"},
		{"two byte order marks", false, func(t *testing.T, sub, _ string) {
			write(t, sub, "\uFEFF\uFEFF"+subFile+"\n")
		}, lines, "agent-ab12.jsonl:1:1: invalid JSON", "one mark is dropped, once"},
		{"invalid UTF-8", false, func(t *testing.T, sub, _ string) {
			write(t, sub, strings.Join(subLines[:3], "\n")+"\n"+strings.Replace(subLines[3], `"x"`, "\"\xff\"", 1)+"\n"+subLines[4]+"\n")
		}, lines, "agent-ab12.jsonl:4:215: invalid UTF-8", "an invalid byte is damage at its place, not a silent U+FFFD"},
		{"invalid UTF-8, lenient", true, func(t *testing.T, sub, _ string) {
			write(t, sub, strings.Join(subLines[:3], "\n")+"\n"+strings.Replace(subLines[3], `"x"`, "\"\xff\"", 1)+"\n"+subLines[4]+"\n")
		}, all, "agent-ab12.jsonl:4:215: invalid UTF-8: a trace is UTF-8 text; read leniently as U+FFFD", "read leniently, with a warning"},
		{"gzip", false, func(t *testing.T, sub, _ string) {
			write(t, sub, "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff")
		}, lines, "invalid UTF-8", "compressed data is not decompressed: no bomb can go off"},
		{"a link inside the folder", false, func(t *testing.T, sub, _ string) {
			write(t, filepath.Join(filepath.Dir(sub), "kept.jsonl"), subFile+"\n")
			symlink(t, "kept.jsonl", sub)
		}, all, "", "a link that stays in the session's folder is followed"},
		{"a link outside the folder", false, func(t *testing.T, sub, outside string) {
			write(t, filepath.Join(outside, "other.jsonl"), subFile+"\n")
			symlink(t, filepath.Join(outside, "other.jsonl"), sub)
		}, lines, "outside the session's folder", "a session cannot make trajeval read a file elsewhere"},
		{"a folder linked outside", false, func(t *testing.T, sub, outside string) {
			write(t, filepath.Join(outside, "agent-ab12.jsonl"), subFile+"\n")
			if err := os.RemoveAll(filepath.Dir(sub)); err != nil {
				t.Fatal(err)
			}
			symlink(t, outside, filepath.Dir(sub))
		}, lines, "outside the session's folder", "nor through a linked folder"},
		{"a link to the zero device", false, func(t *testing.T, sub, _ string) {
			symlink(t, "/dev/zero", sub)
		}, lines, "cannot read the sub-agent file", "endless data is never read"},
		{"a named pipe", false, func(t *testing.T, sub, _ string) {
			if err := mkfifo(sub); err != nil {
				t.Skip("no named pipes here:", err)
			}
		}, lines, "not a regular file", "opening a pipe would wait for a writer forever"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "session", "s1.jsonl")
			write(t, path, strings.Join([]string{user, task, fmt.Sprintf(progress, "ab12"), fmt.Sprintf(result, "ab12"), final}, "\n")+"\n")
			sub := filepath.Join(dir, "session", "s1", "subagents", "agent-ab12.jsonl")
			if err := os.MkdirAll(filepath.Dir(sub), 0o755); err != nil {
				t.Fatal(err)
			}
			outside := filepath.Join(dir, "outside")
			if err := os.MkdirAll(outside, 0o755); err != nil {
				t.Fatal(err)
			}
			tt.make(t, sub, outside)
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			var warns []string
			var got *trajeval.Trajectory
			err = claudecode.Format.Read(context.Background(), trajeval.Input{Name: path, R: f, Lenient: tt.lenient,
				Warn: func(w trajeval.Warning) { warns = append(warns, w.String()) }},
				func(tr *trajeval.Trajectory) error { got = tr; return nil })
			if err != nil {
				t.Fatalf("Read: %v (%s)", err, tt.reason)
			}
			var steps []string
			for _, s := range got.Steps {
				steps = append(steps, s.Name+":"+s.Agent)
			}
			if g := strings.Join(steps, " "); g != tt.want {
				t.Errorf("steps %q, want %q (%s)", g, tt.want, tt.reason)
			}
			joined := strings.Join(warns, "\n")
			if tt.warn == "" && joined != "" || !strings.Contains(joined, tt.warn) {
				t.Errorf("warnings:\n%s\nwant %q (%s)", joined, tt.warn, tt.reason)
			}
			if tt.warn != "" && tt.want == lines && !got.Partial && !strings.Contains(joined, "cannot read") {
				t.Errorf("a sub-agent file read in part leaves the trajectory whole (%s)", tt.reason)
			}
		})
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
}

// TestRead_subagentFileTooDeep checks that a sub-agent file nested too
// deep is the read's error at its file, line and column, strictly and
// leniently, as in the session's own file: it is hostile, not damaged.
func TestRead_subagentFileTooDeep(t *testing.T) {
	for _, lenient := range []bool{false, true} {
		t.Run(fmt.Sprint("lenient=", lenient), func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "s1.jsonl")
			write(t, path, strings.Join([]string{user, task, fmt.Sprintf(result, "ab12"), final}, "\n")+"\n")
			sub := filepath.Join(dir, "s1", "subagents", "agent-ab12.jsonl")
			write(t, sub, strings.SplitN(subFile, "\n", 2)[0]+"\n"+`{"x":`+strings.Repeat("[", 100000)+"\n")
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			err = claudecode.Format.Read(context.Background(), trajeval.Input{Name: path, R: f, Lenient: lenient,
				Warn: func(trajeval.Warning) {}}, func(*trajeval.Trajectory) error { return nil })
			var te *trajeval.TraceError
			if !errors.As(err, &te) || !errors.Is(err, jsonv.ErrTooDeep) || te.File != sub || te.Line != 2 || te.Col != 133 {
				t.Fatalf("Read = %v, want a *TraceError at %s:2:133 (the bracket opening level 129) wrapping jsonv.ErrTooDeep", err, sub)
			}
		})
	}
}

// FuzzRead_subagentFile reads a session whose sub-agent file holds any
// bytes, strictly and leniently: no panic, the session's own calls always
// read, and any error one of the sub-agent file's, placed in it.
func FuzzRead_subagentFile(f *testing.F) {
	f.Add([]byte(subFile+"\n"), false)
	f.Add([]byte("\uFEFF"+subFile), true)
	f.Add([]byte(`{"x":`+strings.Repeat("[", 200)), false)
	f.Add([]byte("{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":\"tool_use\",\"name\":\"\xff\"}]}}"), true)
	f.Add([]byte("\x1f\x8b\x08\x00"), false)
	// One folder for every input: a folder made and removed for each
	// would cost more than the reading.
	dir := f.TempDir()
	path := filepath.Join(dir, "s1.jsonl")
	session := strings.Join([]string{user, task, fmt.Sprintf(result, "ab12"), final}, "\n") + "\n"
	write(f, path, session)
	sub := filepath.Join(dir, "s1", "subagents", "agent-ab12.jsonl")
	f.Fuzz(func(t *testing.T, data []byte, lenient bool) {
		write(t, sub, string(data))
		var got *trajeval.Trajectory
		err := claudecode.Format.Read(context.Background(), trajeval.Input{Name: path, R: strings.NewReader(session), Lenient: lenient,
			Warn: func(trajeval.Warning) {}}, func(tr *trajeval.Trajectory) error { got = tr; return nil })
		if err != nil {
			var te *trajeval.TraceError
			if !errors.As(err, &te) || te.File != sub || te.Line < 1 || te.Col < 1 {
				t.Fatalf("Read = %v: an error must be the sub-agent file's, at a line and column", err)
			}
			return
		}
		if got == nil || len(got.Steps) == 0 || got.Steps[0].Name != "Task" {
			t.Fatalf("the session's own Task call is lost: %+v", got)
		}
	})
}
