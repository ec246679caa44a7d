package judge

import (
	"fmt"

	"github.com/trajeval/trajeval"
)

// maxResult is the longest tool result, in bytes of text, shown to a
// judge; longer ones are cut, with a note, to bound the cost.
const maxResult = 4000

// FinalAnswer is the agent's last final response, "" when the trace has
// none.
func FinalAnswer(t *trajeval.Trajectory) string {
	for i := len(t.Turns) - 1; i >= 0; i-- {
		if r := t.Turns[i].FinalResponse; r != nil {
			return *r
		}
	}
	return ""
}

// UserInput is the users' messages of the trace, in order, one per turn.
func UserInput(t *trajeval.Trajectory) []string {
	var out []string
	for _, tn := range t.Turns {
		if tn.User != nil {
			out = append(out, *tn.User)
		}
	}
	return out
}

// A Call is one tool call as a judge sees it.
type Call struct {
	Index  int    `json:"index"`
	Turn   int    `json:"turn,omitempty"`
	Name   string `json:"name"`
	Args   any    `json:"args"`
	Result any    `json:"result,omitempty"`
	Error  string `json:"error,omitempty"`
}

// ToolCalls lists the steps of t as calls, long results cut.
func ToolCalls(t *trajeval.Trajectory) []Call {
	out := make([]Call, len(t.Steps))
	for i, s := range t.Steps {
		c := Call{Index: s.Index, Turn: s.Turn, Name: s.Name, Args: s.Args, Result: cut(s.Result)}
		if s.Error != nil && *s.Error {
			c.Error = s.ErrorMessage
			if c.Error == "" {
				c.Error = "failed"
			}
		}
		out[i] = c
	}
	return out
}

func cut(v any) any {
	s, ok := v.(string)
	if !ok || len(s) <= maxResult {
		return v
	}
	return fmt.Sprintf("%s…[%d more bytes cut]", s[:maxResult], len(s)-maxResult)
}

// Messages renders t as the agent's output messages: per turn, the
// assistant's tool calls, the tools' results and the final answer.
func Messages(t *trajeval.Trajectory) []map[string]any {
	var out []map[string]any
	calls := ToolCalls(t)
	turns := len(t.Turns)
	for _, s := range t.Steps {
		turns = max(turns, s.Turn)
	}
	if turns == 0 {
		turns = 1
	}
	for n := 1; n <= turns; n++ {
		for _, c := range calls {
			if c.Turn == n || (c.Turn == 0 && n == 1) {
				out = append(out, map[string]any{"role": "assistant", "tool_call": map[string]any{"name": c.Name, "args": c.Args}})
				res := map[string]any{"role": "tool", "name": c.Name, "content": c.Result}
				if c.Error != "" {
					res["error"] = c.Error
				}
				out = append(out, res)
			}
		}
		if n <= len(t.Turns) && t.Turns[n-1].FinalResponse != nil {
			out = append(out, map[string]any{"role": "assistant", "content": *t.Turns[n-1].FinalResponse})
		}
	}
	if out == nil {
		out = []map[string]any{}
	}
	return out
}
