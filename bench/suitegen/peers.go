package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// peerOut writes the runs in the other tools' shapes, for bench/peers.sh.
type peerOut struct {
	dir                       string
	openai, spans, transcript *out
}

func newPeers(o options, check []expectedCall) (*peerOut, error) {
	p := &peerOut{dir: filepath.Join(o.dir, "agentv")}
	for _, d := range []string{"fixtures", "evals", ".agentv"} {
		if err := os.MkdirAll(filepath.Join(p.dir, d), 0o755); err != nil {
			return nil, err
		}
	}
	b, err := json.MarshalIndent(check, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(o.dir, "check.json"), append(b, '\n'), 0o644); err != nil {
		return nil, err
	}
	// The cli target copies a case's recorded run to the file AgentV reads.
	targets := `targets:
  - name: canned
    provider: cli
    command: cp fixtures/{EVAL_ID}.json {OUTPUT_FILE}
    cwd: ..
    timeout_seconds: 30
`
	if err := os.WriteFile(filepath.Join(p.dir, ".agentv", "targets.yaml"), []byte(targets), 0o644); err != nil {
		return nil, err
	}
	if err := writeAgentVSuite(filepath.Join(p.dir, "evals", "bench.eval.yaml"), o.n, check); err != nil {
		return nil, err
	}
	if p.openai, err = newOut(filepath.Join(o.dir, "openai.jsonl")); err != nil {
		return nil, err
	}
	if p.spans, err = newOut(filepath.Join(o.dir, "spans.jsonl")); err != nil {
		return nil, err
	}
	if p.transcript, err = newOut(filepath.Join(p.dir, "transcript.jsonl")); err != nil {
		return nil, err
	}
	return p, nil
}

func writeAgentVSuite(path string, n int, check []expectedCall) error {
	f, err := newOut(path)
	if err != nil {
		return err
	}
	fmt.Fprintf(f.w, "description: bench\nexecution:\n  target: canned\ntests:\n")
	for c := range n {
		fmt.Fprintf(f.w, "  - id: case-%07d\n    criteria: replayed run\n    input: Research the history of Python\n", c)
		fmt.Fprintf(f.w, "    assertions:\n      - {name: check, type: tool-trajectory, mode: in_order, args_match: superset, expected: %s}\n", flow(check))
	}
	return f.close()
}

type openAIMessage struct {
	Role      string           `json:"role"`
	Content   string           `json:"content"`
	ToolCalls []openAIToolCall `json:"tool_calls,omitempty"`
}

type openAIToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

type span struct {
	SpanID     string         `json:"spanId"`
	Name       string         `json:"name"`
	StartTime  int64          `json:"startTime"`
	EndTime    int64          `json:"endTime"`
	Attributes map[string]any `json:"attributes"`
}

func (p *peerOut) write(rec record) error {
	b, err := json.MarshalIndent(rec, "", " ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(p.dir, "fixtures", rec.ID+".json"), b, 0o644); err != nil {
		return err
	}
	var msgs []openAIMessage
	var spans []span
	for _, m := range rec.Output {
		om := openAIMessage{Role: m.Role, Content: m.Content}
		for _, c := range m.ToolCalls {
			args := flow(c.Input)
			tc := openAIToolCall{ID: c.ID, Type: "function"}
			tc.Function.Name, tc.Function.Arguments = c.Tool, args
			om.ToolCalls = append(om.ToolCalls, tc)
			start, err := time.Parse(time.RFC3339Nano, c.StartTime)
			if err != nil {
				return err
			}
			end, err := time.Parse(time.RFC3339Nano, c.EndTime)
			if err != nil {
				return err
			}
			spans = append(spans, span{SpanID: c.ID, Name: "execute_tool " + c.Tool,
				StartTime: start.UnixMilli(), EndTime: end.UnixMilli(),
				Attributes: map[string]any{"gen_ai.tool.name": c.Tool, "gen_ai.tool.call.arguments": args, "gen_ai.operation.name": "execute_tool"}})
		}
		msgs = append(msgs, om)
	}
	// AgentV's --transcript file: one row per message.
	for i, m := range rec.Output {
		row := transcriptRow{Schema: "agentv.transcript.v1", TestID: rec.ID, Target: "canned", Index: i,
			Role: m.Role, Content: m.Content, ToolCalls: m.ToolCalls, Usage: rec.TokenUsage,
			DurationMS: rec.DurationMS, CostUSD: rec.CostUSD}
		row.Source.Provider, row.Source.SessionID = "canned", rec.ID
		if err := p.transcript.enc.Encode(row); err != nil {
			return err
		}
	}
	if err := p.openai.enc.Encode(map[string]any{"id": rec.ID, "messages": msgs}); err != nil {
		return err
	}
	return p.spans.enc.Encode(map[string]any{"id": rec.ID, "spans": spans})
}

// transcriptRow is one message of AgentV's transcript file (agentv.transcript.v1).
type transcriptRow struct {
	Schema     string  `json:"schema_version"`
	TestID     string  `json:"test_id"`
	Target     string  `json:"target"`
	Index      int     `json:"message_index"`
	Role       string  `json:"role"`
	Content    string  `json:"content,omitempty"`
	ToolCalls  []call  `json:"tool_calls,omitempty"`
	Usage      usage   `json:"transcript_token_usage"`
	DurationMS int     `json:"transcript_duration_ms"`
	CostUSD    float64 `json:"transcript_cost_usd"`
	Source     struct {
		Provider  string `json:"provider"`
		SessionID string `json:"session_id"`
	} `json:"source"`
}

func (p *peerOut) close() error {
	for _, o := range []*out{p.openai, p.spans, p.transcript} {
		if err := o.close(); err != nil {
			return err
		}
	}
	return nil
}
