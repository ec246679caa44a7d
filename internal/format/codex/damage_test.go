package codex_test

import (
	"testing"

	"github.com/trajeval/trajeval/internal/format/codex"
	"github.com/trajeval/trajeval/internal/format/formattest"
)

func TestRead_damage(t *testing.T) { formattest.Breaks(t, formats...) }

func TestRead_damageTable(t *testing.T) {
	const (
		start = `{"type":"thread.started","thread_id":"t1"}` + "\n" + `{"type":"turn.started"}`
		done  = `{"type":"item.completed","item":{"id":"item_0","type":"command_execution","command":"ls","aggregated_output":"a","exit_code":0,"status":"completed"}}`
		more  = `{"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"pwd","aggregated_output":"/","exit_code":0,"status":"completed"}}`
	)
	formattest.Damaged(t, codex.Format, []formattest.Damage{
		{Name: "truncated", In: start + "\n" + done + "\n" + more[:70] + formattest.Mark, Steps: 1, Reason: "the last line is cut off"},
		{Name: "syntax error mid-file", In: start + "\n" + done + "\n" + `{"type":‸,}` + "\n" + more + "\n", Steps: 2, Reason: "the broken line is skipped, the lines after it read on"},
	})
}
