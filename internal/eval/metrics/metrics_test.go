package metrics_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval"
	"github.com/trajeval/trajeval/internal/eval/builtin"
	_ "github.com/trajeval/trajeval/internal/eval/metrics"
	"github.com/trajeval/trajeval/internal/eval/spec"
)

func ptr[T any](v T) *T { return &v }

// build returns the execution_metrics evaluator that settings (YAML)
// configure.
func build(t *testing.T, settings string) *eval.Configured {
	t.Helper()
	n, err := config.Parse("m.yaml", []byte("type: execution_metrics\n"+settings))
	if err != nil {
		t.Fatal(err)
	}
	c, err := spec.Build(n, &spec.Env{Types: builtin.Types()})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

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
			c := build(t, tc.yaml)
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

// TestEvaluator_Evaluate pins each check's name and message, byte for
// byte: rows written before are compared with rows written now.
func TestEvaluator_Evaluate(t *testing.T) {
	full := &trajeval.Trajectory{
		Steps: []trajeval.Step{{Name: "Read"}, {Name: "Edit"}, {Name: "Grep"}},
		Metrics: trajeval.Metrics{DurationMS: ptr(1500.25), CostUSD: ptr(1e-7), LLMCalls: ptr(int64(3)),
			Tokens: trajeval.Tokens{Input: ptr(int64(900)), Output: ptr(int64(200))}},
	}
	huge := &trajeval.Trajectory{Metrics: trajeval.Metrics{DurationMS: ptr(1e22), CostUSD: ptr(-0.5)}}
	tests := []struct {
		name string
		yaml string
		t    *trajeval.Trajectory
		want []trajeval.Check
		why  string
	}{
		{"every limit", "max_tool_calls: 2\nmax_llm_calls: 3\nmax_tokens: 1e4\nmax_cost_usd: 0.05\nmax_duration_ms: 1500\ntarget_exploration_ratio: 0.5", full, []trajeval.Check{
			{Name: "tool calls ≤ 2", Status: "fail", Message: "got 3"},
			{Name: "llm calls ≤ 3", Status: "pass", Message: "got 3"},
			{Name: "tokens ≤ 10000", Status: "pass", Message: "got 1100"},
			{Name: "cost ≤ 0.05 USD", Status: "pass", Message: "got 0.0000001 USD"},
			{Name: "duration ≤ 1500ms", Status: "fail", Message: "got 1500.25ms"},
			{Name: "exploration ratio 0.5 ± 0.2", Status: "pass", Message: "got 0.6666666666666666"},
		}, "limits in the order the evaluator lists them, figures in full"},
		{"huge and corrupt", "max_duration_ms: 1e21\nmax_cost_usd: 1\nmax_llm_calls: 1\ntarget_exploration_ratio: 0.1\nexploration_tolerance: 0.05", huge, []trajeval.Check{
			{Name: "llm calls ≤ 1", Status: "fail", Message: "not reported by the trace"},
			{Name: "cost ≤ 1 USD", Status: "fail", Message: "the trace reports -0.5 USD, which cannot be right"},
			{Name: "duration ≤ 1000000000000000000000ms", Status: "fail", Message: "got 10000000000000000000000ms"},
			{Name: "exploration ratio 0.1 ± 0.05", Status: "fail", Message: "no tool calls to measure"},
		}, "numbers are never written in exponent form"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := build(t, tc.yaml)
			got := c.Run(context.Background(), tc.t).Details.Checks
			if !slices.Equal(got, tc.want) {
				t.Errorf("checks\n%+v\nwant\n%+v\n(%s)", got, tc.want, tc.why)
			}
		})
	}
}

// TestEvaluator_Evaluate_figures writes the figure of a duration check for
// whole and fractional figures, at the edges of the short way for whole
// ones: always strconv's shortest 'f' form.
func TestEvaluator_Evaluate_figures(t *testing.T) {
	c := build(t, "max_duration_ms: 1e300")
	figures := []float64{0, math.Copysign(0, -1), 1, 19, 1393, 1<<53 - 1, 1 << 53, 1<<53 + 2, 1e15, 1e21, 1e22, 0.5, 1500.25, 1e-7, 2.0 / 3, math.Nextafter(1, 2)}
	rng := rand.New(rand.NewPCG(11, 12))
	for range 2000 {
		f := float64(rng.Uint64N(1 << 60))
		switch rng.IntN(3) {
		case 0:
			f = float64(rng.Uint64N(1<<53) >> rng.IntN(53)) // whole, of any size below 2⁵³
		case 1:
			f /= float64(1 + rng.IntN(1000))
		}
		figures = append(figures, f)
	}
	for _, f := range figures {
		tr := &trajeval.Trajectory{Metrics: trajeval.Metrics{DurationMS: ptr(f)}}
		got := c.Run(context.Background(), tr).Details.Checks
		want := "got " + strconv.FormatFloat(f, 'f', -1, 64) + "ms"
		if len(got) != 1 || got[0].Message != want {
			t.Fatalf("figure %v: checks %+v, want the message %q", f, got, want)
		}
	}
}

// TestEvaluator_Evaluate_counts writes the figures of counts without a
// unit (model calls, tokens), which the run remembers below 4,096, from
// four goroutines at once, each count several times: every message is
// strconv's text of its own count, below the memory's end, at it and
// past it, and a count with a unit (the cost) keeps its unit.
func TestEvaluator_Evaluate_counts(t *testing.T) {
	c := build(t, "max_llm_calls: 5000\nmax_tokens: 1e12\nmax_cost_usd: 1e12")
	counts := []int64{0, 1, 9, 10, 19, 1393, 4094, 4095, 4096, 4097, 1 << 20}
	for k := range int64(300) {
		counts = append(counts, 3*k, 4096-k)
	}
	errs := make(chan string, 4)
	for g := range 4 {
		go func() {
			rng := rand.New(rand.NewPCG(13, uint64(g)))
			for range 3 * len(counts) {
				n := counts[rng.IntN(len(counts))]
				calls, tokens := n, n/2+int64(g)
				tr := &trajeval.Trajectory{Metrics: trajeval.Metrics{LLMCalls: &calls, Tokens: trajeval.Tokens{Total: &tokens}, CostUSD: ptr(float64(n))}}
				got := c.Run(context.Background(), tr).Details.Checks
				want := []string{"got " + strconv.FormatInt(calls, 10), "got " + strconv.FormatInt(tokens, 10), "got " + strconv.FormatInt(n, 10) + " USD"}
				if len(got) != 3 || got[0].Message != want[0] || got[1].Message != want[1] || got[2].Message != want[2] {
					errs <- fmt.Sprintf("count %d: checks %+v, want the messages %q", n, got, want)
					return
				}
			}
			errs <- ""
		}()
	}
	for range 4 {
		if e := <-errs; e != "" {
			t.Error(e)
		}
	}
}
