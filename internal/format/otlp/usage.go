package otlp

import (
	"math"
	"strconv"
	"strings"

	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/trajeval/trajeval"
)

// The figures a chat span may report, as bits of usage.has.
const (
	figIn = 1 << iota
	figOut
	figTotal
	figCost
)

// A usage is what one chat span reports of its tokens and cost.
type usage struct {
	in, out, total int64
	cost           float64
	has            uint8 // fig* bits
}

// Each figure is read from the first of its attributes that the span has:
// instrumentations that write both a current and a legacy name write the
// same count twice.
var (
	inKeys    = []string{"gen_ai.usage.input_tokens", "gen_ai.usage.prompt_tokens", "llm.token_count.prompt"}
	outKeys   = []string{"gen_ai.usage.output_tokens", "gen_ai.usage.completion_tokens", "llm.token_count.completion"}
	totalKeys = []string{"llm.token_count.total", "llm.usage.total_tokens", "gen_ai.usage.total_tokens"}
	costKeys  = []string{"gen_ai.usage.cost", "llm.cost.total"}
	// A cost given only in parts is their sum.
	costParts = [][2]string{
		{"llm.cost.prompt", "llm.cost.completion"},
		{"gen_ai.usage.input_cost", "gen_ai.usage.output_cost"},
	}
)

// readUsage reads a chat span's tokens and cost; nil when it reports none.
func readUsage(attrs pcommon.Map, w func(string, ...any)) *usage {
	var u usage
	tokens := func(keys []string, n *int64, bit uint8) {
		for _, k := range keys {
			v, ok := attrs.Get(k)
			if !ok {
				continue
			}
			if *n, ok = intOf(v); !ok {
				w("%s is %q, not an integer; ignored", k, v.AsString())
				continue
			}
			u.has |= bit
			return
		}
	}
	tokens(inKeys, &u.in, figIn)
	tokens(outKeys, &u.out, figOut)
	tokens(totalKeys, &u.total, figTotal)
	if u.has&(figIn|figOut|figTotal) == figIn|figOut {
		// So that the run's total also counts the spans that give no total.
		u.total, u.has = u.in+u.out, u.has|figTotal
	}
	cost := func(k string) (float64, bool) {
		v, ok := attrs.Get(k)
		if !ok {
			return 0, false
		}
		f, ok := floatOf(v)
		if !ok {
			w("%s is %q, not a number; ignored", k, v.AsString())
		}
		return f, ok
	}
	for _, k := range costKeys {
		if f, ok := cost(k); ok {
			u.cost, u.has = f, u.has|figCost
			break
		}
	}
	for _, p := range costParts {
		if u.has&figCost != 0 {
			break
		}
		a, okA := cost(p[0])
		b, okB := cost(p[1])
		if okA || okB {
			u.cost, u.has = a+b, u.has|figCost
		}
	}
	if u.has == 0 {
		return nil
	}
	return &u
}

func floatOf(v pcommon.Value) (float64, bool) {
	switch v.Type() {
	case pcommon.ValueTypeDouble:
		f := v.Double()
		return f, !math.IsNaN(f) && !math.IsInf(f, 0)
	case pcommon.ValueTypeInt:
		return float64(v.Int()), true
	case pcommon.ValueTypeStr:
		f, err := strconv.ParseFloat(strings.TrimSpace(v.Str()), 64)
		return f, err == nil && !math.IsNaN(f) && !math.IsInf(f, 0)
	}
	return 0, false
}

// A usageSum adds up the figures of a trajectory's chat spans.
type usageSum struct {
	in, out, total int64
	cost           float64
	has            uint8
	calls          int64 // model calls
}

// addTrace adds the chat spans of one trace. A chat span that wraps
// another (LangChain's LLM span around the client's, say) is not a model
// call of its own, and a figure it reports is not counted when a chat span
// below it reports the same figure: it repeats the inner count, or sums
// its children's.
func (u *usageSum) addTrace(tb *traceBuf, byID map[pcommon.SpanID]*span) {
	covered := map[*span]uint8{}
	wraps := map[*span]bool{}
	for _, s := range tb.spans {
		if s.role != roleChat {
			continue
		}
		var has uint8
		if s.usage != nil {
			has = s.usage.has
		}
		// The walk is bounded: parent links may form a cycle in bad input.
		p := s
		for range len(tb.spans) {
			if p = byID[p.parent]; p == nil {
				break
			}
			if p.role == roleChat {
				covered[p] |= has
				wraps[p] = true
			}
		}
	}
	for _, s := range tb.spans {
		if s.role != roleChat {
			continue
		}
		if !wraps[s] {
			u.calls++
		}
		if s.usage == nil {
			continue
		}
		has := s.usage.has &^ covered[s]
		if has&figIn != 0 {
			u.in += s.usage.in
		}
		if has&figOut != 0 {
			u.out += s.usage.out
		}
		if has&figTotal != 0 {
			u.total += s.usage.total
		}
		if has&figCost != 0 {
			u.cost += s.usage.cost
		}
		u.has |= has
	}
}

// set writes the sums into the trajectory's metrics.
func (u *usageSum) set(m *trajeval.Metrics) {
	in, out, total, cost := &m.Tokens.Input, &m.Tokens.Output, &m.Tokens.Total, &m.CostUSD
	if u.calls > 0 {
		m.LLMCalls = &u.calls
	}
	if u.has&figIn != 0 {
		*in = &u.in
	}
	if u.has&figOut != 0 {
		*out = &u.out
	}
	if u.has&figTotal != 0 {
		*total = &u.total
	}
	if u.has&figCost != 0 {
		// Sums of decimal prices gather binary noise (0.0021 + 0.0045 is
		// 0.006600000000000001); a budget of 0.0066 must still hold.
		c := math.Round(u.cost*1e10) / 1e10
		*cost = &c
	}
}
