package claudecode_test

import (
	"testing"

	"github.com/trajeval/trajeval/internal/format/claudecode"
	"github.com/trajeval/trajeval/internal/format/formattest"
)

func TestRead_damage(t *testing.T) { formattest.Breaks(t, formats...) }

func TestRead_damageTable(t *testing.T) {
	const (
		init = `{"type":"system","subtype":"init","session_id":"s1","tools":[]}`
		call = `{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}]},"parent_tool_use_id":null,"session_id":"s1"}`
		next = `{"type":"assistant","message":{"id":"m2","role":"assistant","content":[{"type":"tool_use","id":"t2","name":"Read","input":{}}]},"parent_tool_use_id":null,"session_id":"s1"}`
	)
	formattest.Damaged(t, claudecode.Format, []formattest.Damage{
		{Name: "truncated", In: init + "\n" + call + "\n" + next[:90] + formattest.Mark, Steps: 1, Reason: "the last line is cut off"},
		{Name: "syntax error mid-file", In: init + "\n" + `{"type":"user",‸oops}` + "\n" + call + "\n" + next + "\n", Steps: 2, Reason: "the broken line is skipped, the lines after it read on"},
	})
}
