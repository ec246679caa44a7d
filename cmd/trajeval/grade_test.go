package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

func TestGrade_AgentV(t *testing.T) {
	tests := []struct {
		name   string
		input  string
		score  float64
		code   int
		reason string
	}{
		{"optimal in order",
			`{"output_messages":[{"role":"assistant","tool_calls":[{"tool":"search","input":{"q":"x"}},{"tool":"fetch"},{"tool":"search","input":{"q":"y"}},{"tool":"fetch"}]}],
			  "config":{"expected":[{"tool":"search","args":{"q":"y"}},{"tool":"fetch"}]}}`,
			1, 0, "a greedy matcher takes the first search and fails on its args; the optimal one matches steps 3 and 4"},
		{"expected from expected_output",
			`{"output_messages":[{"tool_calls":[{"tool":"a"},{"tool":"b"}]}],"expected_output":[{"role":"assistant","tool_calls":[{"tool":"b"},{"tool":"a"}]}],"config":{"mode":"any_order"}}`,
			1, 0, "any_order takes its calls from expected_output when config.expected is absent"},
		{"out of order", `{"output_messages":[{"tool_calls":[{"tool":"b"},{"tool":"a"}]}],"config":{"expected":[{"tool":"a"},{"tool":"b"}]}}`,
			0.5, 0, "in_order is the default mode"},
		{"agentv 4.42 payload",
			`{"output":"Refunded.","messages":[{"role":"user","content":"Refund order 42"},{"role":"assistant","content":"Refunded.","tool_calls":[{"tool":"lookup","input":{"order":7}},{"tool":"lookup","input":{"order":42}},{"tool":"refund","input":{"order":42}}]}],
			  "config":{"mode":"in_order","expected":[{"tool":"lookup","args":{"order":42}},{"tool":"refund"}]}}`,
			1, 0, "AgentV 4.42 sends the final text as output and the calls in messages; its own greedy in_order scores this 0.5"},
		{"no output", `{"config":{"expected":[{"tool":"a"}]}}`, 0, 2, "a payload without the agent's messages is an error, never a score"},
		{"no expectation", `{"output_messages":[]}`, 0, 2, "nothing expected is an error, never a pass"},
		{"bad mode", `{"output_messages":[],"config":{"mode":"inorder","expected":[{"tool":"a"}]}}`, 0, 2, "an unknown mode is a configuration error"},
		{"not json", `{"output_messages":`, 0, 2, "a truncated payload is an error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var outb, errb bytes.Buffer
			err := execute(context.Background(), []string{"grade", "--agentv"}, strings.NewReader(tt.input), &outb, &errb)
			code := exitCode(err, &errb)
			stdout, stderr := outb.String(), errb.String()
			if code != tt.code {
				t.Fatalf("exit %d, want %d (%s)\nstderr: %s", code, tt.code, tt.reason, stderr)
			}
			if code != 0 {
				return
			}
			var out struct {
				Score     float64
				Hits      []string
				Misses    []string
				Reasoning string
			}
			if err := json.Unmarshal([]byte(stdout), &out); err != nil {
				t.Fatalf("answer is not JSON: %v\n%s", err, stdout)
			}
			if out.Score != tt.score {
				t.Errorf("score %v, want %v (%s)\n%s", out.Score, tt.score, tt.reason, stdout)
			}
			if out.Score < 1 && (len(out.Misses) == 0 || !strings.Contains(out.Reasoning, "tool_trajectory")) {
				t.Errorf("a failure must say why: %s", stdout)
			}
			// AgentV and promptfoo show the reasoning on one line, where the
			// terminal explanation's column padding is noise.
			if strings.Contains(out.Reasoning, "  ") {
				t.Errorf("reasoning has a run of spaces: %q", out.Reasoning)
			}
		})
	}
}
