package openai_test

import (
	"testing"

	"github.com/trajeval/trajeval/internal/format/formattest"
	"github.com/trajeval/trajeval/internal/format/openai"
)

func TestRead_damage(t *testing.T) { formattest.Breaks(t, formats...) }

const (
	chatCall = `{"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "search", "arguments": "{}"}}]}`
	chatTwo  = `{"role": "assistant", "tool_calls": [{"id": "c2", "type": "function", "function": {"name": "read", "arguments": "{}"}}]}`
)

func TestChat_damage(t *testing.T) {
	formattest.Damaged(t, openai.Chat, []formattest.Damage{
		{Name: "truncated", In: `{"messages": [{"role": "user", "content": "go"}, ` + chatCall + `, {"role": "tool", "tool_call_id": "c1", "content": "o‸`,
			Steps: 1, Reason: "the call before the cut is kept"},
		{Name: "syntax error mid-file", In: `{"messages": [` + chatCall + `]}` + "\n" + `{"messages": [` + chatTwo + ` ‸{"role": "tool"}]}` + "\n" + `{"messages": [` + chatCall + `]}` + "\n",
			Steps: 3, Reason: "a missing comma on line 2: lines 1 and 3 are whole, line 2 is kept up to the break"},
		{Name: "missing comma in a document", In: "{\"messages\": [\n  {\"role\": \"user\", \"content\": \"hi\"}\n  ‸{\"role\": \"assistant\", \"content\": \"hello\"}]}\n",
			Steps: 0, Reason: "regression: the warning said 'invalid JSON:  (column 16)', with no reason"},
		{Name: "messages one per line", In: `{"role": "user", "content": "go"}` + "\n" + chatCall + "\n" + `{"role": "tool", "tool_call_id": "c1", "content" ‸"x"}` + "\n" + chatTwo + "\n",
			Steps: 2, Reason: "the conversation a broken message belongs to is partial"},
	})
}

const respCall = `{"type": "function_call", "call_id": "c1", "name": "search", "arguments": "{}"}`

func TestResponses_damage(t *testing.T) {
	formattest.Damaged(t, openai.Responses, []formattest.Damage{
		{Name: "truncated", In: `{"id": "resp_1", "object": "response", "output": [` + respCall + `, {"type": "function_call", "call_id": "c2", "name": "read", "argu‸`,
			Steps: 2, Reason: "a call cut off in its arguments keeps its name"},
		{Name: "syntax error mid-file", In: `{"id": "r1", "object": "response", "output": [` + respCall + `]}` + "\n" + `{"id": "r2", "object": "response", "output": [` + respCall + `], ‸]}` + "\n",
			Steps: 2, Reason: "line 2 is kept up to the break"},
	})
}

func TestAgents_damage(t *testing.T) {
	span := func(id, name string) string {
		return `{"object": "trace.span", "id": "` + id + `", "trace_id": "trace_a", "parent_id": null, "started_at": "2025-03-13T10:00:01+00:00", "ended_at": "2025-03-13T10:00:02+00:00", "span_data": {"type": "function", "name": "` + name + `", "input": "{}", "output": "ok"}}`
	}
	formattest.Damaged(t, openai.Agents, []formattest.Damage{
		{Name: "truncated", In: `{"object": "trace", "id": "trace_a", "workflow_name": "w"}` + "\n" + span("s1", "search") + "\n" + span("s2", "read")[:61] + formattest.Mark,
			Steps: 1, Reason: "the trace may have lost spans: its trajectory is partial"},
		{Name: "syntax error mid-file", In: `{"object": "trace", "id": "trace_a", "workflow_name": "w"}` + "\n" + span("s1", "search") + "\n" + `{"object": ‸: "trace.span"}` + "\n" + span("s3", "write") + "\n",
			Steps: 2, Reason: "the lines after the break are read on"},
	})
}
