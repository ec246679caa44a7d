package trace_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/trace"
)

// TestRead_realMCP reads the MCP traffic of testdata/real/mcp, written by
// the real TypeScript SDK's client and server, and checks each call in
// full: its JSON-RPC id, result, error and parallel group, as read from
// the file itself.
func TestRead_realMCP(t *testing.T) {
	type call struct {
		id       string
		result   string // the result as JSON with sorted keys; "null" when none
		err      bool
		errMsg   string
		parallel int
	}
	tests := []struct {
		path   string
		want   [][]call // the calls of each trajectory
		reason string
	}{
		{"mcp/typescript-sdk-1.32-stdio.jsonl", [][]call{{
			{"2", `{"city":"Paris","conditions":"cloudy","temp_c":14}`, false, "", 0},
			{"3", `{"city":"Tokyo","conditions":"sunny","temp_c":21}`, false, "", 1},
			{"4", `"10:00 in Asia/Tokyo"`, false, "", 1},
			{"5", "null", true, "cancelled: McpError: MCP error -32001: Request timed out", 0},
			{"6", `"no seats left from Paris to Tokyo"`, true, "no seats left from Paris to Tokyo", 0},
			{"7", `"MCP error -32602: Tool get_news not found"`, true, "MCP error -32602: Tool get_news not found", 0},
		}}, "SDK 1.32.2: structuredContent is the result; an unknown tool is a tool error (isError), not a JSON-RPC error"},
		{"mcp/typescript-sdk-1.9-stdio.jsonl", [][]call{{
			{"2", `"Paris: 14 C, cloudy"`, false, "", 0},
			{"3", `"Tokyo: 21 C, sunny"`, false, "", 1},
			{"4", `"10:00 in Asia/Tokyo"`, false, "", 1},
			{"5", "null", true, "cancelled: McpError: MCP error -32001: Request timed out", 0},
			{"6", `"no seats left from Paris to Tokyo"`, true, "no seats left from Paris to Tokyo", 0},
			{"7", "null", true, "MCP error -32602: Tool get_news not found (code -32602)", 0},
		}}, "SDK 1.9.0: text content only; an unknown tool is a JSON-RPC error"},
		{"mcp/typescript-sdk-1.32-two-sessions.jsonl", [][]call{
			{{"1", `{"city":"Paris","conditions":"cloudy","temp_c":14}`, false, "", 0}},
			{{"1", `"10:00 in Europe/Paris"`, false, "", 0}},
		}, "two sessions with the same request ids: each response pairs with the request of its own session"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			var got []*trajeval.Trajectory
			var warnings []trajeval.Warning
			err := trace.Read(context.Background(), filepath.Join("../../testdata/real", tt.path),
				trace.Options{Warn: func(w trajeval.Warning) { warnings = append(warnings, w) }},
				func(tr *trajeval.Trajectory) error { got = append(got, tr); return nil })
			if err != nil {
				t.Fatalf("Read: %v", err)
			}
			for _, w := range warnings {
				t.Errorf("warning: %v (%s)", w, tt.reason)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("%d trajectories, want %d (%s)", len(got), len(tt.want), tt.reason)
			}
			for j, want := range tt.want {
				steps := got[j].Steps
				if len(steps) != len(want) {
					t.Errorf("trajectory %d: %d calls, want %d (%s)", j, len(steps), len(want), tt.reason)
					continue
				}
				for i, w := range want {
					s := steps[i]
					if s.ID != w.id {
						t.Errorf("trajectory %d, call %d: id %q, want %q", j, i+1, s.ID, w.id)
					}
					if r := argsJSON(t, s.Result); r != w.result {
						t.Errorf("trajectory %d, call %d (%s): result %s, want %s (%s)", j, i+1, s.Name, r, w.result, tt.reason)
					}
					if s.Error == nil || *s.Error != w.err || s.ErrorMessage != w.errMsg {
						t.Errorf("trajectory %d, call %d (%s): error %v %q, want %v %q (%s)", j, i+1, s.Name, s.Error, s.ErrorMessage, w.err, w.errMsg, tt.reason)
					}
					if s.ParallelGroup != w.parallel {
						t.Errorf("trajectory %d, call %d (%s): parallel group %d, want %d", j, i+1, s.Name, s.ParallelGroup, w.parallel)
					}
				}
			}
		})
	}
}
