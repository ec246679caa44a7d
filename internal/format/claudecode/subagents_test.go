package claudecode_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/claudecode"
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

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
