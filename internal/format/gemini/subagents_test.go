package gemini_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/gemini"
	"github.com/trajeval/trajeval/internal/jsonv"
)

// A session of Gemini CLI 0.61 whose invoke_agent call started the
// generalist sub-agent a1, in the shape the CLI writes (see
// testdata/real/gemini-chat for a whole one).
const (
	sid         = "s1-0000"
	sessionFile = `{"sessionId":"s1-0000","projectHash":"p","startTime":"2026-11-27T18:04:00.000Z","lastUpdated":"2026-11-27T18:04:00.000Z"}
{"id":"u1","timestamp":"2026-11-27T18:04:00.000Z","type":"user","content":[{"text":"Ask a sub-agent"}]}
{"id":"g1","timestamp":"2026-11-27T18:04:01.000Z","type":"gemini","content":"","toolCalls":[{"id":"c1","name":"invoke_agent","args":{"agent_name":"generalist","prompt":"read"},"status":"success","timestamp":"2026-11-27T18:04:03.000Z","agentId":"%s"}]}
{"id":"g2","timestamp":"2026-11-27T18:04:04.000Z","type":"gemini","content":"","toolCalls":[{"id":"c2","name":"write_file","args":{"file_path":"b"},"status":"success","timestamp":"2026-11-27T18:04:04.000Z"}]}
{"id":"g3","timestamp":"2026-11-27T18:04:05.000Z","type":"gemini","content":"Done"}`
	subFile = `{"sessionId":"a1","projectHash":"p","startTime":"2026-11-27T18:04:01.000Z","lastUpdated":"2026-11-27T18:04:01.000Z","kind":"subagent","directories":["/w"]}
{"id":"su1","timestamp":"2026-11-27T18:04:01.000Z","type":"user","content":[{"text":"read"}]}
{"id":"sg1","timestamp":"2026-11-27T18:04:02.000Z","type":"gemini","content":"","toolCalls":[{"id":"a1#0-0","name":"read_file","args":{"file_path":"a"},"status":"success","timestamp":"2026-11-27T18:04:02.000Z"},{"id":"a1#0-1","name":"read_file","args":{"file_path":"x"},"status":"success","timestamp":"2026-11-27T18:04:02.000Z"}]}
{"id":"sg2","timestamp":"2026-11-27T18:04:02.500Z","type":"gemini","content":"","toolCalls":[{"id":"a1#1-0","name":"complete_task","args":{"result":{"response":"x"}},"status":"success","timestamp":"2026-11-27T18:04:02.500Z"}]}`
	// the steps of the session with its sub-agent's, name:agent:group
	all      = "invoke_agent:: read_file:generalist:1 read_file:generalist:1 complete_task:generalist: write_file::"
	ownSteps = "invoke_agent:: write_file::" // the session's own calls alone
)

// readChat reads the session at path (as standard input when path is
// ""), giving its steps, its warnings and whether it is partial.
func readChat(t testing.TB, path, data string, lenient bool) (steps string, warns string, partial bool, err error) {
	var w []string
	var got *trajeval.Trajectory
	err = gemini.Chat.Read(context.Background(), trajeval.Input{Name: path, R: strings.NewReader(data), Lenient: lenient,
		Warn: func(x trajeval.Warning) { w = append(w, x.String()) }},
		func(tr *trajeval.Trajectory) error { got = tr; return nil })
	if err != nil {
		return "", strings.Join(w, "\n"), false, err
	}
	var s []string
	for _, st := range got.Steps {
		g := ""
		if st.ParallelGroup > 0 {
			g = fmt.Sprint(st.ParallelGroup)
		}
		s = append(s, st.Name+":"+st.Agent+":"+g)
		if st.Turn != 1 {
			t.Errorf("step %s in turn %d, want 1: a sub-agent's calls are in the turn of the call that started it", st.Name, st.Turn)
		}
	}
	return strings.Join(s, " "), strings.Join(w, "\n"), got.Partial, nil
}

func writeFile(t testing.TB, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestChat_Read_subagents reads sessions whose calls started sub-agents:
// their calls are read from the sub-agent's own file, and a file that
// cannot be found is reported, never a silent loss of calls.
func TestChat_Read_subagents(t *testing.T) {
	tests := []struct {
		name    string
		agentID string
		files   map[string]string // path under the session's folder: content
		stdin   bool
		want    string
		warn    string // a warning holding this, "" for none
		partial bool
		reason  string
	}{
		{"the sub-agent's file", "a1", map[string]string{sid + "/a1.jsonl": subFile}, false, all, "", false,
			"its calls follow the invoke_agent call, as steps of generalist, with their own parallel group"},
		{"no file", "a1", nil, false, ownSteps, "no sub-agent file", true,
			"a sub-agent whose file is missing loses calls: reported, and the trajectory is partial"},
		{"standard input", "a1", map[string]string{sid + "/a1.jsonl": subFile}, true, ownSteps, "not read from its file", true,
			"without the session's folder the sub-agent's file cannot be found"},
		{"agentId a path", "../../etc/passwd", map[string]string{sid + "/a1.jsonl": subFile}, false, ownSteps, "no sub-agent file", true,
			"an id is written as a file name the way the CLI writes it, never followed as a path"},
		{"agentId too long", strings.Repeat("a", 129), nil, false, ownSteps, "name no sub-agent file", true,
			"no file is named by 129 bytes"},
		{"a sub-agent's sub-agent", "a1", map[string]string{
			sid + "/a1.jsonl": strings.Replace(subFile, `"name":"complete_task"`, `"name":"codebase_investigator","agentId":"a2"`, 1),
			sid + "/a2.jsonl": strings.Replace(strings.ReplaceAll(subFile, `"a1`, `"a2`), `"file_path":"a"`, `"file_path":"deep"`, 1),
		}, false, "invoke_agent:: read_file:generalist:1 read_file:generalist:1 codebase_investigator:generalist: read_file:codebase_investigator:2 read_file:codebase_investigator:2 complete_task:codebase_investigator: write_file::", "", false,
			"a nested sub-agent's file is beside its parent's, under the main session's id; its agent is its own"},
		{"a sub-agent naming itself", "a1", map[string]string{
			sid + "/a1.jsonl": strings.Replace(subFile, `"name":"complete_task"`, `"name":"invoke_agent","agentId":"a1"`, 1),
		}, false, "invoke_agent:: read_file:generalist:1 read_file:generalist:1 invoke_agent:generalist: write_file::", "", false,
			"a file is read once: a cycle of sub-agents is not followed round"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "session-2026-11-27T18-04-s1.jsonl")
			data := fmt.Sprintf(sessionFile, tt.agentID)
			writeFile(t, path, data)
			for p, d := range tt.files {
				writeFile(t, filepath.Join(dir, p), d+"\n")
			}
			name := path
			if tt.stdin {
				name = "<stdin>"
			}
			got, warns, partial, err := readChat(t, name, data, false)
			if err != nil {
				t.Fatalf("Read: %v (%s)", err, tt.reason)
			}
			if got != tt.want {
				t.Errorf("steps %q\nwant  %q (%s)", got, tt.want, tt.reason)
			}
			if tt.warn == "" && warns != "" || !strings.Contains(warns, tt.warn) {
				t.Errorf("warnings:\n%s\nwant %q (%s)", warns, tt.warn, tt.reason)
			}
			if partial != tt.partial {
				t.Errorf("partial %v, want %v (%s)", partial, tt.partial, tt.reason)
			}
		})
	}
}

// TestRead_subagentFileHostile reads sessions whose sub-agent file is
// hostile or damaged: the session names that file, not the user, so it is
// opened as Claude Code's are (package sidefile) and read with the bounds
// of a trace the user names; what cannot be read is reported, never a
// hang, an unbounded read or a silent change.
func TestRead_subagentFileHostile(t *testing.T) {
	subLines := strings.Split(subFile, "\n")
	badLine := strings.Replace(subLines[2], `"file_path":"x"`, "\"file_path\":\"\xff\"", 1)
	tests := []struct {
		name    string
		lenient bool
		make    func(t *testing.T, sub, outside string) // sub: the file's path; outside: a folder beside the session's
		want    string
		warn    string // a warning holding this, "" for none
		reason  string
	}{
		{"byte order mark", false, func(t *testing.T, sub, _ string) {
			writeFile(t, sub, "\uFEFF"+subFile+"\n")
		}, all, "", "a mark at the start is dropped, as in the session's own file"},
		{"invalid UTF-8", false, func(t *testing.T, sub, _ string) {
			writeFile(t, sub, strings.Join(subLines[:2], "\n")+"\n"+badLine+"\n"+subLines[3]+"\n")
		}, ownSteps, "a1.jsonl:3:267: invalid UTF-8", "an invalid byte is damage at its place, not a silent U+FFFD"},
		{"invalid UTF-8, lenient", true, func(t *testing.T, sub, _ string) {
			writeFile(t, sub, strings.Join(subLines[:2], "\n")+"\n"+badLine+"\n"+subLines[3]+"\n")
		}, all, "a1.jsonl:3:267: invalid UTF-8: a trace is UTF-8 text; read leniently as U+FFFD", "read leniently, with a warning"},
		{"gzip", false, func(t *testing.T, sub, _ string) {
			writeFile(t, sub, "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff")
		}, ownSteps, "invalid UTF-8", "compressed data is not decompressed: no bomb can go off"},
		{"a link inside the folder", false, func(t *testing.T, sub, _ string) {
			writeFile(t, filepath.Join(filepath.Dir(sub), "kept.jsonl"), subFile+"\n")
			symlink(t, "kept.jsonl", sub)
		}, all, "", "a link that stays in the session's folder is followed"},
		{"a link outside the folder", false, func(t *testing.T, sub, outside string) {
			writeFile(t, filepath.Join(outside, "other.jsonl"), subFile+"\n")
			symlink(t, filepath.Join(outside, "other.jsonl"), sub)
		}, ownSteps, "outside the session's folder", "a session cannot make trajeval read a file elsewhere"},
		{"a folder linked outside", false, func(t *testing.T, sub, outside string) {
			writeFile(t, filepath.Join(outside, "a1.jsonl"), subFile+"\n")
			if err := os.RemoveAll(filepath.Dir(sub)); err != nil {
				t.Fatal(err)
			}
			symlink(t, outside, filepath.Dir(sub))
		}, ownSteps, "outside the session's folder", "nor through a linked folder"},
		{"a link to the zero device", false, func(t *testing.T, sub, _ string) {
			symlink(t, "/dev/zero", sub)
		}, ownSteps, "cannot read the sub-agent file", "endless data is never read"},
		{"a named pipe", false, func(t *testing.T, sub, _ string) {
			if err := mkfifo(sub); err != nil {
				t.Skip("no named pipes here:", err)
			}
		}, ownSteps, "not a regular file", "opening a pipe would wait for a writer forever"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "session", "session-s1.jsonl")
			data := fmt.Sprintf(sessionFile, "a1")
			writeFile(t, path, data)
			sub := filepath.Join(dir, "session", sid, "a1.jsonl")
			if err := os.MkdirAll(filepath.Dir(sub), 0o755); err != nil {
				t.Fatal(err)
			}
			outside := filepath.Join(dir, "outside")
			if err := os.MkdirAll(outside, 0o755); err != nil {
				t.Fatal(err)
			}
			tt.make(t, sub, outside)
			got, warns, partial, err := readChat(t, path, data, tt.lenient)
			if err != nil {
				t.Fatalf("Read: %v (%s)", err, tt.reason)
			}
			if got != tt.want {
				t.Errorf("steps %q\nwant  %q (%s)", got, tt.want, tt.reason)
			}
			if tt.warn == "" && warns != "" || !strings.Contains(warns, tt.warn) {
				t.Errorf("warnings:\n%s\nwant %q (%s)", warns, tt.warn, tt.reason)
			}
			if tt.want == ownSteps && !partial {
				t.Errorf("a sub-agent file not read leaves the trajectory whole (%s)", tt.reason)
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
// leniently, as in Claude Code's: it is hostile, not damaged.
func TestRead_subagentFileTooDeep(t *testing.T) {
	for _, lenient := range []bool{false, true} {
		t.Run(fmt.Sprint("lenient=", lenient), func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "session-s1.jsonl")
			data := fmt.Sprintf(sessionFile, "a1")
			writeFile(t, path, data)
			sub := filepath.Join(dir, sid, "a1.jsonl")
			writeFile(t, sub, strings.SplitN(subFile, "\n", 2)[0]+"\n"+`{"x":`+strings.Repeat("[", 100000)+"\n")
			_, _, _, err := readChat(t, path, data, lenient)
			var te *trajeval.TraceError
			if !errors.As(err, &te) || !errors.Is(err, jsonv.ErrTooDeep) || te.File != sub || te.Line != 2 || te.Col != 133 {
				t.Fatalf("Read = %v, want a *TraceError at %s:2:133 (the bracket opening level 129) wrapping jsonv.ErrTooDeep", err, sub)
			}
		})
	}
}

// FuzzRead_subagentFile reads a session whose sub-agent file holds any
// bytes, strictly and leniently: no panic, the session's own calls always
// read in their order, and any error one of the sub-agent file's, placed
// in it.
func FuzzRead_subagentFile(f *testing.F) {
	f.Add([]byte(subFile+"\n"), false)
	f.Add([]byte("\uFEFF"+subFile), true)
	f.Add([]byte(`{"x":`+strings.Repeat("[", 200)), false)
	f.Add([]byte("{\"id\":\"g\",\"type\":\"gemini\",\"toolCalls\":[{\"name\":\"\xff\",\"agentId\":\"a1\"}]}"), true)
	f.Add([]byte("{\"sessionId\":\"a1\"}\n{\"id\":\"g\",\"type\":\"gemini\",\"toolCalls\":[{\"name\":\"x\",\"agentId\":\"a1\"},{\"name\":\"y\",\"agentId\":\"../a1\"}]}"), false)
	f.Add([]byte("\x1f\x8b\x08\x00"), false)
	// One folder for every input: a folder made and removed for each
	// would cost more than the reading.
	dir := f.TempDir()
	path := filepath.Join(dir, "session-s1.jsonl")
	data := fmt.Sprintf(sessionFile, "a1")
	writeFile(f, path, data)
	sub := filepath.Join(dir, sid, "a1.jsonl")
	f.Fuzz(func(t *testing.T, b []byte, lenient bool) {
		writeFile(t, sub, string(b))
		got, _, _, err := readChat(t, path, data, lenient)
		if err != nil {
			var te *trajeval.TraceError
			if !errors.As(err, &te) || te.File != sub || te.Line < 1 || te.Col < 1 {
				t.Fatalf("Read = %v: an error must be the sub-agent file's, at a line and column", err)
			}
			return
		}
		if !strings.HasPrefix(got, "invoke_agent:: ") || !strings.HasSuffix(got, " write_file::") {
			t.Fatalf("the session's own calls are lost or moved: %q", got)
		}
	})
}

// TestFormat_Read_subagentCalls checks that a stream-json run whose stats
// count more calls than it holds (its sub-agents' calls, which the stream
// does not write) is partial, with a warning that names the session file
// that holds them.
func TestFormat_Read_subagentCalls(t *testing.T) {
	const run = `{"type":"init","timestamp":"2026-11-27T18:04:27.172Z","session_id":"s1","model":"gemini-2.5-pro"}
{"type":"message","timestamp":"2026-11-27T18:04:27.184Z","role":"user","content":"Ask a sub-agent"}
{"type":"tool_use","timestamp":"2026-11-27T18:04:27.508Z","tool_name":"invoke_agent","tool_id":"i1","parameters":{"agent_name":"generalist","prompt":"read"}}
{"type":"tool_result","timestamp":"2026-11-27T18:04:28.100Z","tool_id":"i1","status":"success"}
{"type":"result","timestamp":"2026-11-27T18:04:28.177Z","status":"success","stats":{"duration_ms":1005,"tool_calls":%d}}
`
	tests := []struct {
		name    string
		counted int
		partial bool
		reason  string
	}{
		{"sub-agent calls", 3, true, "two calls counted are in no event: the sub-agent's, which only the saved session holds"},
		{"all written", 1, false, "a run whose calls are all in the stream is whole"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var warns []string
			var got *trajeval.Trajectory
			err := gemini.Format.Read(context.Background(), trajeval.Input{Name: "run.jsonl", R: strings.NewReader(fmt.Sprintf(run, tt.counted)),
				Warn: func(w trajeval.Warning) { warns = append(warns, w.String()) }},
				func(tr *trajeval.Trajectory) error { got = tr; return nil })
			if err != nil {
				t.Fatal(err)
			}
			if got.Partial != tt.partial {
				t.Errorf("partial %v, want %v (%s)", got.Partial, tt.partial, tt.reason)
			}
			joined := strings.Join(warns, "\n")
			if tt.partial != strings.Contains(joined, "gemini-chat") {
				t.Errorf("warnings:\n%s\nwant one pointing to the saved session: %v (%s)", joined, tt.partial, tt.reason)
			}
		})
	}
}
