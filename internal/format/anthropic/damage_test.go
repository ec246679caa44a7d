package anthropic_test

import (
	"testing"

	"github.com/trajeval/trajeval/internal/format/anthropic"
	"github.com/trajeval/trajeval/internal/format/formattest"
)

func TestRead_damage(t *testing.T) { formattest.Breaks(t, formats...) }

func TestRead_damageTable(t *testing.T) {
	const call = `{"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "search", "input": {"q": 1}}]}`
	formattest.Damaged(t, anthropic.Format, []formattest.Damage{
		{Name: "truncated", In: `{"messages": [{"role": "user", "content": "go"}, ` + call + `, {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "do‸`,
			Steps: 1, Reason: "the call before the cut is kept"},
		{Name: "syntax error mid-file", In: `{"messages": [` + call + `]}` + "\n" + `{"messages": [` + call + `, {"role": ‸}]}` + "\n" + `{"messages": [` + call + `]}` + "\n",
			Steps: 3, Reason: "line 2 is kept up to the break, line 3 is read on"},
	})
}
