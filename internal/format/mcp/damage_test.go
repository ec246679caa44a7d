package mcp_test

import (
	"testing"

	"github.com/trajeval/trajeval/internal/format/formattest"
	"github.com/trajeval/trajeval/internal/format/mcp"
)

func TestRead_damage(t *testing.T) { formattest.Breaks(t, formats...) }

func TestRead_damageTable(t *testing.T) {
	const (
		init = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}` + "\n" + `{"jsonrpc":"2.0","id":1,"result":{}}`
		call = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"lookup","arguments":{"q":1}}}`
		next = `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"fetch","arguments":{"url":"x"}}}`
	)
	formattest.Damaged(t, mcp.Format, []formattest.Damage{
		{Name: "truncated", In: init + "\n" + call + "\n" + next[:60] + formattest.Mark, Steps: 1, Reason: "the last line is cut off"},
		{Name: "syntax error mid-file", In: init + "\n" + call + "\n" + `{"jsonrpc":"2.0",‸]` + "\n" + next + "\n", Steps: 2, Reason: "the broken line is skipped, the lines after it read on"},
	})
}
