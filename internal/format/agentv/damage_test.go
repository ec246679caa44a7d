package agentv_test

import (
	"testing"

	"github.com/trajeval/trajeval/internal/format/agentv"
	"github.com/trajeval/trajeval/internal/format/formattest"
)

func TestRead_damage(t *testing.T) { formattest.Breaks(t, formats...) }

func TestRead_damageTable(t *testing.T) {
	rec := func(id string) string {
		return `{"id": "` + id + `", "output": [{"role": "assistant", "tool_calls": [{"tool": "search", "input": {"q": 1}}, {"tool": "read", "input": {}}]}]}`
	}
	formattest.Damaged(t, agentv.Format, []formattest.Damage{
		{Name: "truncated", In: "{\n  \"id\": \"x\",\n  \"output\": [{\"role\": \"assistant\", \"tool_calls\": [{\"tool\": \"search\"}, {\"tool\": \"re‸",
			Steps: 1, Reason: "a pretty-printed record cut in a tool name keeps the calls before"},
		{Name: "truncated line", In: rec("a") + "\n" + rec("b")[:97] + formattest.Mark,
			Steps: 3, Reason: "the last line cut off after its first call"},
		{Name: "syntax error mid-file", In: rec("a") + "\n" + `{"id": "b", "output": [{"role": "assistant", "tool_calls": [{"tool": "x"}]} ‸{}]}` + "\n" + rec("c") + "\n",
			Steps: 5, Reason: "line 2 is kept up to the break, line 3 is read on"},
	})
}
