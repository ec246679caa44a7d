package claudecode_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/claudecode"
	"github.com/trajeval/trajeval/internal/format/formattest"
)

var formats = []trajeval.Format{claudecode.Format}

func TestGolden(t *testing.T) { formattest.Golden(t, formats...) }

func TestDetect(t *testing.T) { formattest.Detect(t, formats...) }

func FuzzRead(f *testing.F) { formattest.Fuzz(f, formats, nil) }

func TestReadErrors(t *testing.T) {
	formattest.FailsAtLine(t, claudecode.Format, 1, "not json\n", "[1]\n")
}

func TestSniffRejects(t *testing.T) {
	formattest.SniffRejects(t, []string{
		`{"type":"thread.started","thread_id":"x"}`,
		`{"type":"init","timestamp":"2025-01-01T00:00:00Z","session_id":"x","model":"m"}`,
		`{"type":"result","timestamp":"2025-01-01T00:00:00Z","status":"success","stats":{}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call"}`,
		`{"role":"assistant","content":[{"type":"tool_use","id":"x","name":"n","input":{}}]}`,
	}, claudecode.Format)
}

// read reads a session transcript made of lines and returns its one
// trajectory.
func read(t *testing.T, lines ...string) *trajeval.Trajectory {
	t.Helper()
	var got []*trajeval.Trajectory
	in := trajeval.Input{Name: "s.jsonl", R: strings.NewReader(strings.Join(lines, "\n")), Warn: func(w trajeval.Warning) { t.Log(w) }}
	err := claudecode.Format.Read(context.Background(), in, func(tr *trajeval.Trajectory) error {
		got = append(got, tr)
		return nil
	})
	if err != nil || len(got) != 1 {
		t.Fatalf("Read: %d trajectories, error %v; want one", len(got), err)
	}
	return got[0]
}

const first = `{"type":"user","sessionId":"s","isSidechain":false,"uuid":"u0","message":{"role":"user","content":"hi"}}`

func TestRead_sessionTurns(t *testing.T) {
	tests := []struct {
		name   string
		lines  []string // after a first user message "hi"
		users  []string
		reason string
	}{
		{"second message", []string{`{"type":"user","sessionId":"s","uuid":"u1","message":{"role":"user","content":[{"type":"text","text":"more"}]}}`},
			[]string{"hi", "more"}, "each real user message is a turn"},
		{"meta", []string{`{"type":"user","sessionId":"s","uuid":"u1","isMeta":true,"message":{"role":"user","content":"Caveat: ..."}}`},
			[]string{"hi"}, "what Claude Code adds for the model is not the user's message"},
		{"compaction summary", []string{`{"type":"user","sessionId":"s","uuid":"u1","isCompactSummary":true,"message":{"role":"user","content":"This session is being continued..."}}`},
			[]string{"hi"}, "a compaction's summary is not the user's message"},
		{"replayed line", []string{first},
			[]string{"hi"}, "a line written again (same uuid) is read once"},
		{"interruption", []string{`{"type":"user","sessionId":"s","uuid":"u1","message":{"role":"user","content":[{"type":"text","text":"[Request interrupted by user]"}]}}`},
			[]string{"hi"}, "Claude Code writes the interruption itself"},
		{"local command", []string{
			`{"type":"user","sessionId":"s","uuid":"u1","message":{"role":"user","content":"<command-name>/model</command-name>\n<command-message>model</command-message>\n<command-args></command-args>"}}`,
			`{"type":"user","sessionId":"s","uuid":"u2","message":{"role":"user","content":"<local-command-stdout>Set model to opus</local-command-stdout>"}}`,
			`{"type":"assistant","sessionId":"s","uuid":"u3","message":{"id":"m1","model":"claude","content":[{"type":"text","text":"ok"}]}}`,
		}, []string{"hi"}, "a command Claude Code answers itself never reaches the model"},
		{"command the model answers", []string{
			`{"type":"user","sessionId":"s","uuid":"u1","message":{"role":"user","content":"<command-message>review is running…</command-message>\n<command-name>/review</command-name>\n<command-args>cart</command-args>"}}`,
			`{"type":"user","sessionId":"s","uuid":"u2","isMeta":true,"message":{"role":"user","content":"Review cart."}}`,
			`{"type":"assistant","sessionId":"s","uuid":"u3","message":{"id":"m1","model":"claude","content":[{"type":"text","text":"ok"}]}}`,
		}, []string{"hi", "/review cart"}, "a slash command the model answers is a turn, as typed"},
		{"task notification", []string{
			`{"type":"user","sessionId":"s","uuid":"u1","message":{"role":"user","content":"<task-notification>\n<task-id>bd0afab</task-id>\n<status>completed</status>\n<summary>Background command \"Run tests\" completed (exit code 0)</summary>\n</task-notification>\nRead the output file to retrieve the result: /tmp/bd0afab.output"}}`,
			`{"type":"assistant","sessionId":"s","uuid":"u2","message":{"id":"m1","model":"claude","content":[{"type":"text","text":"The tests passed."}]}}`,
		}, []string{"hi"}, "Claude Code 2.1.39 tells the model a background command finished in a user message of its own"},
		{"task notification origin", []string{`{"type":"user","sessionId":"s","uuid":"u1","origin":{"kind":"task-notification"},"promptSource":"system","message":{"role":"user","content":"Agent finished"}}`},
			[]string{"hi"}, "later versions say who wrote the message: origin task-notification is Claude Code"},
		{"peer origin", []string{`{"type":"user","sessionId":"s","uuid":"u1","origin":{"kind":"peer","name":"reviewer"},"message":{"role":"user","content":"Another Claude session sent a message: <cross-session-message from-name=\"reviewer\">Please rebase</cross-session-message>"}}`},
			[]string{"hi"}, "a message another session sent is not the user's"},
		{"human origin", []string{`{"type":"user","sessionId":"s","uuid":"u1","origin":{"kind":"human"},"promptSource":"typed","message":{"role":"user","content":[{"type":"text","text":"more"}]}}`},
			[]string{"hi", "more"}, "origin human is the person at the keyboard"},
		{"side chain prompt", []string{`{"type":"user","sessionId":"s","uuid":"u1","isSidechain":true,"parentUuid":null,"message":{"role":"user","content":"Find tests"}}`},
			[]string{"hi"}, "a sub-agent's prompt is not the user's"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := read(t, append([]string{first}, tc.lines...)...)
			var users []string
			for _, tn := range tr.Turns {
				users = append(users, *tn.User)
			}
			if !slices.Equal(users, tc.users) {
				t.Errorf("turns %q, want %q: %s", users, tc.users, tc.reason)
			}
		})
	}
}

func TestRead_sessionUsage(t *testing.T) {
	tr := read(t, first,
		`{"type":"assistant","sessionId":"s","uuid":"a1","message":{"id":"m1","model":"claude","content":[{"type":"text","text":"a"}],"usage":{"input_tokens":3,"cache_read_input_tokens":100,"output_tokens":1}}}`,
		`{"type":"assistant","sessionId":"s","uuid":"a2","message":{"id":"m1","model":"claude","content":[{"type":"tool_use","id":"t1","name":"Read","input":{}}],"usage":{"input_tokens":3,"cache_read_input_tokens":100,"output_tokens":50}}}`,
		`{"type":"user","sessionId":"s","uuid":"a3","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"x"}]}}`,
		`{"type":"assistant","sessionId":"s","uuid":"a4","isSidechain":true,"message":{"id":"m2","model":"claude","content":[{"type":"text","text":"b"}],"usage":{"input_tokens":10,"output_tokens":7}}}`,
		`{"type":"assistant","sessionId":"s","uuid":"a5","message":{"id":"m3","model":"<synthetic>","content":[{"type":"text","text":"API Error"}],"usage":{"input_tokens":0,"output_tokens":0}}}`,
	)
	in, out, calls := *tr.Metrics.Tokens.Input, *tr.Metrics.Tokens.Output, *tr.Metrics.LLMCalls
	if in != 113 || out != 57 || calls != 2 {
		t.Errorf("tokens in %d out %d, llm_calls %d; want 113, 57, 2: a split message counts once (its last line), a side chain counts, a synthetic message does not", in, out, calls)
	}
	if got := *tr.Turns[0].FinalResponse; got != "a" {
		t.Errorf("final response %q, want %q: neither a sub-agent's text nor Claude Code's own is the answer", got, "a")
	}
}

func TestRead_streamModelUsage(t *testing.T) {
	const (
		init0 = `{"type":"system","subtype":"init","cwd":"/home/user/project","session_id":"s","tools":["Agent","Read"],"model":"claude-sonnet-4-5"}`
		call  = `{"type":"assistant","message":{"id":"m1","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"tool_use","id":"toolu_1","name":"Agent","input":{"prompt":"read it","subagent_type":"general-purpose"}}],"usage":{"input_tokens":100,"output_tokens":12}},"parent_tool_use_id":null,"session_id":"s"}`
		sub   = `{"type":"assistant","message":{"id":"m2","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"tool_use","id":"toolu_2","name":"Read","input":{"file_path":"a"}}],"usage":{"input_tokens":100,"output_tokens":12}},"parent_tool_use_id":"toolu_1","session_id":"s"}`
		subR  = `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_2","content":"a"}]},"parent_tool_use_id":"toolu_1","session_id":"s"}`
		callR = `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"done"}]},"parent_tool_use_id":null,"session_id":"s"}`
	)
	tests := []struct {
		name, result string
		in, out      int64
		reason       string
	}{
		{"modelUsage of 2.1.197",
			`{"type":"result","subtype":"success","duration_ms":2061,"num_turns":2,"result":"Done.","session_id":"s","total_cost_usd":0.00158,"usage":{"input_tokens":201,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":24},"modelUsage":{"claude-sonnet-4-5":{"inputTokens":300,"outputTokens":30,"cacheReadInputTokens":5,"cacheCreationInputTokens":1,"costUSD":0.00158},"claude-haiku-4-5":{"inputTokens":10,"outputTokens":2,"cacheReadInputTokens":0,"cacheCreationInputTokens":0,"costUSD":0.00002}}}`,
			316, 32, "usage counts the main agent only; modelUsage counts every model call the cost counts, a sub-agent's included"},
		{"usage alone",
			`{"type":"result","subtype":"success","duration_ms":2061,"num_turns":2,"result":"Done.","session_id":"s","usage":{"input_tokens":201,"cache_read_input_tokens":4,"output_tokens":24}}`,
			205, 24, "without modelUsage the result line's usage is all there is"},
		{"modelUsage without its fields",
			`{"type":"result","subtype":"success","duration_ms":2061,"num_turns":2,"result":"Done.","session_id":"s","usage":{"input_tokens":201,"output_tokens":24},"modelUsage":{"claude-sonnet-4-5":{"input_tokens":201,"output_tokens":24}}}`,
			201, 24, "a modelUsage without the camelCase counts Claude Code writes is not read"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []*trajeval.Trajectory
			lines := strings.Join([]string{init0, call, sub, subR, callR, tt.result}, "\n")
			in := trajeval.Input{Name: "stream.jsonl", R: strings.NewReader(lines), Warn: func(w trajeval.Warning) { t.Errorf("warning: %v", w) }}
			if err := claudecode.Format.Read(context.Background(), in, func(tr *trajeval.Trajectory) error {
				got = append(got, tr)
				return nil
			}); err != nil || len(got) != 1 {
				t.Fatalf("Read: %d trajectories, error %v; want one", len(got), err)
			}
			tok := got[0].Metrics.Tokens
			if tok.Input == nil || tok.Output == nil {
				t.Fatalf("tokens not read (%s)", tt.reason)
			}
			if *tok.Input != tt.in || *tok.Output != tt.out {
				t.Errorf("tokens in %d out %d, want in %d out %d (%s)", *tok.Input, *tok.Output, tt.in, tt.out, tt.reason)
			}
		})
	}
}

// TestRead_userOrigin checks that an origin kind the reader does not know
// is reported, and that the message is then judged by its text.
func TestRead_userOrigin(t *testing.T) {
	lines := strings.Join([]string{first,
		`{"type":"user","sessionId":"s","uuid":"u1","origin":{"kind":"scheduled"},"message":{"role":"user","content":"nightly run"}}`,
		`{"type":"user","sessionId":"s","uuid":"u2","origin":{"kind":"scheduled"},"message":{"role":"user","content":"<task-notification>done</task-notification>"}}`,
	}, "\n")
	var warns []string
	var got []*trajeval.Trajectory
	in := trajeval.Input{Name: "s.jsonl", R: strings.NewReader(lines), Warn: func(w trajeval.Warning) { warns = append(warns, w.String()) }}
	if err := claudecode.Format.Read(context.Background(), in, func(tr *trajeval.Trajectory) error {
		got = append(got, tr)
		return nil
	}); err != nil || len(got) != 1 {
		t.Fatalf("Read: %d trajectories, error %v; want one", len(got), err)
	}
	if n := len(got[0].Turns); n != 2 {
		t.Errorf("%d turns, want 2: a message of an unknown origin is judged by its text", n)
	}
	want := `s.jsonl:2: origin "scheduled" is not known to the claude-code reader (2 times, the first here)`
	if len(warns) != 1 || !strings.HasPrefix(warns[0], want) {
		t.Errorf("warnings %q, want one starting %q", warns, want)
	}
}

// TestRead_streamNotification checks that in print mode too a message
// Claude Code wrote itself (a task notification) is no turn.
func TestRead_streamNotification(t *testing.T) {
	lines := strings.Join([]string{
		`{"type":"system","subtype":"init","session_id":"s","tools":["Bash"],"model":"claude"}`,
		`{"type":"user","message":{"role":"user","content":"fix it"},"parent_tool_use_id":null,"session_id":"s"}`,
		`{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"Started."}]},"parent_tool_use_id":null,"session_id":"s"}`,
		`{"type":"user","message":{"role":"user","content":"<task-notification>\n<task-id>b1</task-id>\n<status>completed</status>\n</task-notification>"},"parent_tool_use_id":null,"session_id":"s","origin":{"kind":"task-notification"}}`,
		`{"type":"assistant","message":{"id":"m2","role":"assistant","content":[{"type":"text","text":"Done."}]},"parent_tool_use_id":null,"session_id":"s"}`,
		`{"type":"result","subtype":"success","duration_ms":10,"num_turns":2,"result":"Done.","session_id":"s"}`,
	}, "\n")
	var got []*trajeval.Trajectory
	in := trajeval.Input{Name: "stream.jsonl", R: strings.NewReader(lines), Warn: func(w trajeval.Warning) { t.Errorf("warning: %v", w) }}
	if err := claudecode.Format.Read(context.Background(), in, func(tr *trajeval.Trajectory) error {
		got = append(got, tr)
		return nil
	}); err != nil || len(got) != 1 {
		t.Fatalf("Read: %d trajectories, error %v; want one", len(got), err)
	}
	if n := len(got[0].Turns); n != 1 || *got[0].Turns[0].User != "fix it" {
		t.Errorf("%d turns, want 1 with user %q: the notification is Claude Code's, not the user's", n, "fix it")
	}
}

// TestRead_streamSelfRun checks the run Claude Code 2.1.332 starts itself
// when a sub-agent it ran in the background ends: a second init line, and
// a result line with origin task-notification whose modelUsage and
// total_cost_usd repeat those of the process so far.
func TestRead_streamSelfRun(t *testing.T) {
	const (
		init0  = `{"type":"system","subtype":"init","session_id":"s","tools":["Agent","Read"],"model":"claude"}`
		call   = `{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"Agent","input":{"prompt":"read it","subagent_type":"general-purpose","run_in_background":true}}]},"parent_tool_use_id":null,"session_id":"s"}`
		callR  = `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"Async agent launched successfully."}]},"parent_tool_use_id":null,"session_id":"s"}`
		first  = `{"type":"assistant","message":{"id":"m2","role":"assistant","content":[{"type":"text","text":"It runs in the background."}]},"parent_tool_use_id":null,"session_id":"s"}`
		sub    = `{"type":"assistant","message":{"id":"m3","role":"assistant","content":[{"type":"tool_use","id":"toolu_2","name":"Read","input":{"file_path":"a"}}]},"parent_tool_use_id":"toolu_1","session_id":"s"}`
		subR   = `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_2","content":"a"}]},"parent_tool_use_id":"toolu_1","session_id":"s"}`
		again  = `{"type":"assistant","message":{"id":"m4","role":"assistant","content":[{"type":"text","text":"The sub-agent read a."}]},"parent_tool_use_id":null,"session_id":"s"}`
		usage  = `"modelUsage":{"claude":{"inputTokens":300,"outputTokens":30,"costUSD":0.01}},"total_cost_usd":0.01`
		result = `{"type":"result","subtype":"success","duration_ms":100,"result":"It runs in the background.","session_id":"s",` + usage + `,"result_index":0,"model_usage_since_last_result":{"claude":{"inputTokens":300,"outputTokens":30,"costUSD":0.01}}}`
		notif  = `{"type":"result","subtype":"success","duration_ms":20,"result":"The sub-agent read a.","session_id":"s",` + usage + `,"origin":{"kind":"task-notification"},"result_index":1,"model_usage_since_last_result":{}}`
	)
	tests := []struct {
		name   string
		lines  []string
		reason string
	}{
		{"result after the second init", []string{init0, call, callR, first, sub, subR, init0, again, result, notif},
			"as Claude Code 2.1.332 writes it: the first run's result line comes after the run it started"},
		{"result before the second init", []string{init0, call, callR, first, sub, subR, result, init0, again, notif},
			"the run Claude Code started is known by its result line's origin"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []*trajeval.Trajectory
			in := trajeval.Input{Name: "stream.jsonl", R: strings.NewReader(strings.Join(tt.lines, "\n")), Warn: func(w trajeval.Warning) { t.Errorf("warning: %v", w) }}
			if err := claudecode.Format.Read(context.Background(), in, func(tr *trajeval.Trajectory) error {
				got = append(got, tr)
				return nil
			}); err != nil || len(got) != 1 {
				t.Fatalf("Read: %d trajectories, error %v; want one", len(got), err)
			}
			tr := got[0]
			if len(tr.Turns) != 1 || tr.Turns[0].FinalResponse == nil || *tr.Turns[0].FinalResponse != "The sub-agent read a." {
				t.Fatalf("turns %+v, want one ending %q (%s)", tr.Turns, "The sub-agent read a.", tt.reason)
			}
			for _, s := range tr.Steps {
				if s.Turn != 1 {
					t.Errorf("step %s in turn %d, want 1 (%s)", s.Name, s.Turn, tt.reason)
				}
			}
			m := tr.Metrics
			if *m.Tokens.Input != 300 || *m.Tokens.Output != 30 || *m.CostUSD != 0.01 {
				t.Errorf("tokens in %d out %d, cost %v; want 300, 30, 0.01: the second result line's totals repeat the first's, model_usage_since_last_result holds the run's own", *m.Tokens.Input, *m.Tokens.Output, *m.CostUSD)
			}
		})
	}
}
