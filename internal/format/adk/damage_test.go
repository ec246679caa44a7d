package adk_test

import (
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/format/adk"
	"github.com/trajeval/trajeval/internal/format/formattest"
)

func TestRead_damage(t *testing.T) { formattest.Breaks(t, adk.EvalSetFormat, adk.SessionFormat) }

func TestEvalSet_damage(t *testing.T) {
	evalCase := func(id string) string {
		return `{"eval_id": "` + id + `", "conversation": [{"user_content": {"parts": [{"text": "hi"}]}, "intermediate_data": {"tool_uses": [{"id": "a", "name": "greet", "args": {"n": 1}}, {"id": "b", "name": "wave", "args": {}}]}}]}`
	}
	formattest.Damaged(t, adk.EvalSetFormat, []formattest.Damage{
		{Name: "truncated", In: "{\"eval_set_id\": \"s\", \"eval_cases\": [\n  " + evalCase("one") + ",\n  " + evalCase("two")[:150] + formattest.Mark,
			Steps: 3, Reason: "the whole case and the first call of the cut one"},
		{Name: "syntax error mid-file", In: "{\"eval_set_id\": \"s\", \"eval_cases\": [\n  " + evalCase("one") + ",\n  {\"eval_id\": \"two\", \"conversation\": [‸}]},\n  " + evalCase("three") + "\n]}\n",
			Steps: 2, Reason: "nothing after the break is read"},
		{Name: "legacy truncated", In: "[\n  {\"query\": \"hi\", \"expected_tool_use\": [{\"tool_name\": \"greet\", \"tool_input\": {}}], \"reference\": \"hello\"},\n  {\"query\": \"bye\", \"expected_tool_use\": [{\"tool_na‸",
			Steps: 1, Reason: "the legacy list keeps the turns before the cut"},
	})
}

func TestSession_damage(t *testing.T) {
	const (
		user = `{"id": "ev1", "author": "user", "invocation_id": "e-1", "content": {"role": "user", "parts": [{"text": "go"}]}}`
		call = `{"id": "ev2", "author": "agent", "invocation_id": "e-1", "content": {"role": "model", "parts": [{"function_call": {"id": "c1", "name": "search", "args": {}}}]}}`
		two  = `{"id": "ev3", "author": "agent", "invocation_id": "e-1", "content": {"role": "model", "parts": [{"function_call": {"id": "c2", "name": "read", "args": {}}}]}}`
	)
	formattest.Damaged(t, adk.SessionFormat, []formattest.Damage{
		{Name: "truncated", In: "{\"id\": \"s1\", \"app_name\": \"a\", \"user_id\": \"u\", \"events\": [\n  " + user + ",\n  " + call + ",\n  " + two[:100] + formattest.Mark,
			Steps: 1, Reason: "the events before the cut are kept"},
		{Name: "syntax error mid-file", In: "[\n {\"id\": \"s1\", \"app_name\": \"a\", \"events\": [" + user + ", " + call + "]},\n {\"id\": \"s2\", \"app_name\": \"a\", \"events\": [" + call + ", ‸]},\n {\"id\": \"s3\", \"app_name\": \"a\", \"events\": [" + two + "]}\n]\n",
			Steps: 2, Reason: "the second session is kept up to the break; nothing after it is read"},
	})
}

// An eval set loaded as a suite is never read leniently: its damage must
// not suggest --lenient.
func TestDecodeEvalSet_damage(t *testing.T) {
	_, err := adk.DecodeEvalSet([]byte(`{"eval_set_id": "s", "eval_cases": [{"eval_id": "a"`), "s.evalset.json")
	if err == nil || !strings.Contains(err.Error(), "s.evalset.json:1:") || strings.Contains(err.Error(), "--lenient") {
		t.Errorf("DecodeEvalSet = %v, want an error at its place without the --lenient hint", err)
	}
}
