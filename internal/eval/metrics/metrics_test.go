package metrics_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval/builtin"
	_ "github.com/trajeval/trajeval/internal/eval/metrics"
	"github.com/trajeval/trajeval/internal/eval/spec"
)

func ptr[T any](v T) *T { return &v }

func TestExecutionMetrics(t *testing.T) {
	full := &trajeval.Trajectory{
		Steps: []trajeval.Step{{Name: "Read"}, {Name: "Edit"}, {Name: "Grep"}, {Name: "Write"}},
		Metrics: trajeval.Metrics{DurationMS: ptr(1500.0), CostUSD: ptr(0.02), LLMCalls: ptr(int64(3)),
			Tokens: trajeval.Tokens{Input: ptr(int64(900)), Output: ptr(int64(200))}},
	}
	bare := &trajeval.Trajectory{Steps: full.Steps}
	corrupt := &trajeval.Trajectory{Metrics: trajeval.Metrics{DurationMS: ptr(-20.0), CostUSD: ptr(-1.0)}}
	tests := []struct {
		name   string
		yaml   string
		t      *trajeval.Trajectory
		score  float64
		reason string
	}{
		{"all within", "max_tool_calls: 4\nmax_llm_calls: 3\nmax_tokens: 1100\nmax_cost_usd: 0.02\nmax_duration_ms: 1500", full, 1, "limits are inclusive"},
		{"over", "max_tool_calls: 3\nmax_tokens: 1000", full, 0, "4 calls > 3, 1100 tokens > 1000"},
		{"not reported", "max_tool_calls: 10\nmax_cost_usd: 1\nmax_duration_ms: 5000", bare, 1.0 / 3, "a budget the trace cannot show is not met"},
		{"negative figures", "max_cost_usd: 1\nmax_duration_ms: 5000", corrupt, 0, "a negative cost or duration is corrupt data, never under budget"},
		{"exploration", "target_exploration_ratio: 0.5\nexploration_tolerance: 0.1", full, 1, "Read and Grep of 4 calls"},
		{"exploration off", "target_exploration_ratio: 0.9", full, 0, "0.5 is outside 0.9 ± 0.2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n, err := config.Parse("m.yaml", []byte("type: execution_metrics\n"+tc.yaml))
			if err != nil {
				t.Fatal(err)
			}
			c, err := spec.Build(n, &spec.Env{Types: builtin.Types()})
			if err != nil {
				t.Fatal(err)
			}
			r := c.Run(context.Background(), tc.t)
			if math.Abs(r.Score-tc.score) > 1e-9 {
				t.Errorf("score %v, want %v: %s (%+v)", r.Score, tc.score, tc.reason, r.Details.Checks)
			}
			if tc.name == "not reported" && !strings.Contains(r.Details.Checks[1].Message, "not reported") {
				t.Errorf("check %+v, want it to say the trace does not report cost", r.Details.Checks[1])
			}
		})
	}
	n, _ := config.Parse("m.yaml", []byte("type: execution_metrics\n"))
	if _, err := spec.Build(n, &spec.Env{Types: builtin.Types()}); err == nil || !strings.Contains(err.Error(), "sets no limit") {
		t.Errorf("error %v, want a configuration error for no limits", err)
	}
}
