package gemini_test

import (
	"testing"

	"github.com/trajeval/trajeval/internal/format/formattest"
	"github.com/trajeval/trajeval/internal/format/gemini"
)

func TestRead_damage(t *testing.T) { formattest.Breaks(t, formats...) }

func TestRead_damageTable(t *testing.T) {
	const (
		init = `{"type":"init","timestamp":"2026-03-02T09:00:00Z","session_id":"g1","model":"gemini-2.5-flash"}`
		user = `{"type":"message","timestamp":"2026-03-02T09:00:00Z","role":"user","content":"go"}`
		call = `{"type":"tool_use","timestamp":"2026-03-02T09:00:01Z","tool_name":"glob","tool_id":"glob-1","parameters":{"pattern":"*.go"}}`
		next = `{"type":"tool_use","timestamp":"2026-03-02T09:00:02Z","tool_name":"read","tool_id":"read-1","parameters":{"path":"a.go"}}`
	)
	formattest.Damaged(t, gemini.Format, []formattest.Damage{
		{Name: "truncated", In: init + "\n" + user + "\n" + call + "\n" + next[:80] + formattest.Mark, Steps: 1, Reason: "the last line is cut off"},
		{Name: "syntax error mid-file", In: init + "\n" + user + "\n" + `{"type" ‸"message"}` + "\n" + call + "\n" + next + "\n", Steps: 2, Reason: "the broken line is skipped, the lines after it read on"},
	})
}
