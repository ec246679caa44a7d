package langchain_test

import (
	"testing"

	"github.com/trajeval/trajeval/internal/format/formattest"
	"github.com/trajeval/trajeval/internal/format/langchain"
)

func TestRead_damage(t *testing.T) { formattest.Breaks(t, formats...) }

func TestMessages_damage(t *testing.T) {
	const call = `{"type": "ai", "data": {"content": "", "type": "ai", "tool_calls": [{"name": "ping", "args": {}, "id": "call_p", "type": "tool_call"}]}}`
	formattest.Damaged(t, langchain.Messages, []formattest.Damage{
		{Name: "truncated", In: "[\n  {\"type\": \"human\", \"data\": {\"content\": \"ping\", \"type\": \"human\"}},\n  " + call + ",\n  {\"type\": \"tool\", \"data\": {\"content\": \"po‸",
			Steps: 1, Reason: "the call before the cut is kept"},
		{Name: "syntax error mid-file", In: "[\n  " + call + ",\n  {\"type\": \"tool\" ‸\"data\": {}},\n  " + call + "\n]\n",
			Steps: 1, Reason: "a document is read up to the break only"},
	})
}

func TestRuns_damage(t *testing.T) {
	run := func(id, name string) string {
		return `{"id": "` + id + `", "name": "` + name + `", "run_type": "tool", "trace_id": "root", "parent_run_id": null, "start_time": "2025-01-01T00:00:00", "end_time": "2025-01-01T00:00:01", "inputs": {"input": "x"}, "outputs": {"output": "ok"}}`
	}
	formattest.Damaged(t, langchain.Runs, []formattest.Damage{
		{Name: "truncated", In: run("t0", "search") + "\n" + run("t1", "read")[:40] + formattest.Mark,
			Steps: 1, Reason: "a run cut off before its run_type is no tool call; the trace is partial"},
		{Name: "syntax error mid-file", In: run("t0", "search") + "\n" + `{"id": "t1", ‸: 1}` + "\n" + run("t2", "write") + "\n",
			Steps: 2, Reason: "the lines after the break are read on"},
	})
}
