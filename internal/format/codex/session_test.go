package codex_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/format/codex"
	"github.com/trajeval/trajeval/internal/format/formattest"
)

// olderShape is a session file as Codex wrote it before the {timestamp,
// type, payload} envelope: the session on the first line, state lines,
// and bare Responses API items.
const olderShape = `{"id":"5973b6c0-94b8-487b-a530-2aeb6098ae0e","timestamp":"2025-08-01T10:00:00.000Z","instructions":null,"git":{"branch":"main"}}
{"record_type":"state"}
{"type":"message","id":null,"role":"user","content":[{"type":"input_text","text":"<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>"}]}
{"type":"message","id":null,"role":"user","content":[{"type":"input_text","text":"list the files"}]}
{"record_type":"state"}
{"type":"reasoning","id":"rs_1","summary":[],"encrypted_content":"x"}
{"type":"local_shell_call","id":"lsh_1","call_id":"call_1","status":"completed","action":{"type":"exec","command":["ls"]}}
{"type":"function_call","id":"fc_2","name":"shell","arguments":"{\"command\":[\"cat\",\"missing\"]}","call_id":"call_2"}
{"type":"function_call_output","call_id":"call_2","output":"{\"output\":\"cat: missing: No such file or directory\\n\",\"metadata\":{\"exit_code\":1,\"duration_seconds\":0.0}}"}
{"type":"function_call_output","call_id":"call_1","output":"{\"output\":\"a.go\\n\",\"metadata\":{\"exit_code\":0,\"duration_seconds\":0.0}}"}
{"type":"message","id":"msg_1","role":"assistant","content":[{"type":"output_text","text":"There is one file, a.go."}]}
{"type":"message","id":null,"role":"user","content":[{"type":"input_text","text":"thanks"}]}
{"type":"message","id":"msg_2","role":"assistant","content":[{"type":"output_text","text":"  \n"}]}
`

// noCalls is a session in which the model answered without a tool.
const noCalls = `{"timestamp":"2026-05-12T10:00:00.000Z","type":"session_meta","payload":{"id":"s-none","cli_version":"0.129.0"}}
{"timestamp":"2026-05-12T10:00:00.001Z","type":"turn_context","payload":{"model":"o4-mini"}}
{"timestamp":"2026-05-12T10:00:01.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}}
{"timestamp":"2026-05-12T10:00:01.001Z","type":"event_msg","payload":{"type":"user_message","message":"hi"}}
{"timestamp":"2026-05-12T10:00:03.100Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Hello."}]}}
`

// unifiedExec is a session in the shape of codex-cli 0.171.0: world_state
// and token_usage_record lines, and exec_command outputs whose exit code
// is a line of a header that ends in "Output:".
const unifiedExec = `{"timestamp":"2026-11-26T21:09:14.000Z","ordinal":0,"type":"session_meta","payload":{"id":"s-unified","cli_version":"0.171.0"}}
{"timestamp":"2026-11-26T21:09:15.000Z","ordinal":4,"type":"world_state","payload":{"full":true,"state":{"environments":{"environments":{"local":{"cwd":"/home/user/project"}}}}}}
{"timestamp":"2026-11-26T21:09:15.010Z","ordinal":5,"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"Run three commands."}]}}
{"timestamp":"2026-11-26T21:09:15.200Z","ordinal":9,"type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"echo hi\"}","call_id":"call_1"}}
{"timestamp":"2026-11-26T21:09:15.203Z","ordinal":10,"type":"token_usage_record","payload":{"response_id":"resp_1","usage":{"input_tokens":100,"output_tokens":10,"total_tokens":110}}}
{"timestamp":"2026-11-26T21:09:15.318Z","ordinal":12,"type":"response_item","payload":{"type":"function_call_output","call_id":"call_1","output":"Chunk ID: 12ccd2\nWall time: 0.0000 seconds\nProcess exited with code 0\nOriginal token count: 1\nOutput:\nhi\n"}}
{"timestamp":"2026-11-26T21:09:15.400Z","ordinal":14,"type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"cat missing.txt\"}","call_id":"call_2"}}
{"timestamp":"2026-11-26T21:09:15.500Z","ordinal":16,"type":"response_item","payload":{"type":"function_call_output","call_id":"call_2","output":"Chunk ID: e5ab1e\nWall time: 0.0000 seconds\nProcess exited with code 1\nOriginal token count: 11\nOutput:\ncat: missing.txt: No such file or directory\n"}}
{"timestamp":"2026-11-26T21:09:15.600Z","ordinal":18,"type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"cat log.txt\"}","call_id":"call_3"}}
{"timestamp":"2026-11-26T21:09:15.700Z","ordinal":20,"type":"response_item","payload":{"type":"function_call_output","call_id":"call_3","output":"Chunk ID: 0a0a0a\nWall time: 0.0000 seconds\nProcess exited with code 0\nOriginal token count: 9\nOutput:\nProcess exited with code 2\n"}}
{"timestamp":"2026-11-26T21:09:15.800Z","ordinal":22,"type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Done."}]}}
`

func TestSession_Read(t *testing.T) {
	tests := []struct {
		name, data string
		want       string // the trajectory, in part: turns and steps as "turn:name:error:group"
		reason     string
	}{
		{"older shape", olderShape,
			`5973b6c0-94b8-487b-a530-2aeb6098ae0e|list the files>There is one file, a.go.|thanks>null|1:local_shell:false:1 1:shell:true:1`,
			"bare items are read as the envelope's are; context Codex injects starts no turn; a white-space final is none; an exit code fails a call"},
		{"no calls", noCalls, `s-none|hi>Hello.|`,
			"a session without a call is a trajectory with its turn, not an error"},
		{"unified exec of 0.171.0", unifiedExec, `s-unified|Run three commands.>Done.|1:exec_command:false:null 1:exec_command:true:null 1:exec_command:false:null`,
			"the exit code in the output's header decides error, not a line the command printed; world_state and token_usage_record lines are known"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, warns, err := formattest.Read(codex.Session, "s.jsonl", []byte(tt.data))
			if err != nil {
				t.Fatalf("Read: %v (%s)", err, tt.reason)
			}
			if len(warns) > 0 {
				t.Errorf("warnings:\n%s", warns)
			}
			if got := summary(t, out); got != tt.want {
				t.Errorf("got  %s\nwant %s (%s)", got, tt.want, tt.reason)
			}
		})
	}
}

// summary writes a trajectory as "id|user>final|...|turn:name:error:group ...".
func summary(t *testing.T, out []byte) string {
	var tr struct {
		ID    string
		Turns []struct {
			User  *string
			Final *string `json:"final_response"`
		}
		Steps []struct {
			Turn  int
			Name  string
			Error *bool
			Group *int `json:"parallel_group"`
		}
	}
	if err := json.Unmarshal(out, &tr); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	str := func(s *string) string {
		if s == nil {
			return "null"
		}
		return *s
	}
	parts := []string{tr.ID}
	for _, u := range tr.Turns {
		parts = append(parts, str(u.User)+">"+str(u.Final))
	}
	var steps []string
	for _, s := range tr.Steps {
		e, g := "null", "null"
		if s.Error != nil {
			e = map[bool]string{true: "true", false: "false"}[*s.Error]
		}
		if s.Group != nil {
			g = strings.TrimSpace(string(rune('0' + *s.Group)))
		}
		steps = append(steps, strings.Join([]string{string(rune('0' + s.Turn)), s.Name, e, g}, ":"))
	}
	return strings.Join(append(parts, strings.Join(steps, " ")), "|")
}
