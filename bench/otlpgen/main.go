// Command otlpgen writes a large OTLP/JSON Lines trace file, as the
// Collector's file exporter would, for measuring the otlp reader:
//
//	go run ./bench/otlpgen -size 1GB -o /tmp/big.jsonl
//
// Each trace is one agent turn: an invoke_agent span, chat spans with their
// message histories, and execute_tool spans (some in parallel pairs).
// Every three traces share a gen_ai.conversation.id. Spans are written in
// batches in end order, so a trace's spans are spread over several lines and
// children come before their parents, as a batch exporter writes them.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"sort"
	"strconv"
	"strings"
)

type span struct {
	end  uint64
	json string
}

func main() {
	size := flag.String("size", "1GB", "approximate file size (KB, MB, GB)")
	out := flag.String("o", "/tmp/otlp-big.jsonl", "output file")
	flag.Parse()
	limit, err := parseSize(*size)
	if err != nil {
		log.Fatal(err)
	}
	f, err := os.Create(*out)
	if err != nil {
		log.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	g := &gen{rng: rand.New(rand.NewPCG(1, 2)), t: 1_700_000_000_000_000_000}
	var written int64
	var pending []span
	traces := 0
	flush := func(all bool) {
		sort.SliceStable(pending, func(i, j int) bool { return pending[i].end < pending[j].end })
		for len(pending) >= 40 || (all && len(pending) > 0) {
			n := min(40, len(pending))
			var b strings.Builder
			b.WriteString(`{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"bench-agent"}}]},"scopeSpans":[{"scope":{"name":"bench"},"spans":[`)
			for i, s := range pending[:n] {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString(s.json)
			}
			b.WriteString("]}]}]}\n")
			k, err := w.WriteString(b.String())
			if err != nil {
				log.Fatal(err)
			}
			written += int64(k)
			pending = pending[n:]
		}
	}
	for written < limit {
		pending = append(pending, g.trace(traces)...)
		traces++
		if len(pending) > 120 {
			flush(false)
		}
	}
	flush(true)
	if err := w.Flush(); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
	fmt.Fprintf(os.Stderr, "%s: %d bytes, %d traces, %d spans\n", *out, written, traces, g.spans)
}

func parseSize(s string) (int64, error) {
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		m      int64
	}{{"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10}} {
		if strings.HasSuffix(strings.ToUpper(s), u.suffix) {
			mult, s = u.m, s[:len(s)-len(u.suffix)]
			break
		}
	}
	n, err := strconv.ParseFloat(s, 64)
	return int64(n * float64(mult)), err
}

type gen struct {
	rng   *rand.Rand
	t     uint64 // nanoseconds
	spans int
}

func (g *gen) id(n int) string {
	const hex = "0123456789abcdef"
	b := make([]byte, n*2)
	for i := range b {
		b[i] = hex[g.rng.IntN(16)]
	}
	return string(b)
}

func q(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func attr(k, v string) string { return `{"key":` + q(k) + `,"value":{"stringValue":` + q(v) + `}}` }
func iattr(k string, v int) string {
	return `{"key":` + q(k) + `,"value":{"intValue":"` + strconv.Itoa(v) + `"}}`
}

func (g *gen) span(trace, id, parent, name string, start, end uint64, attrs []string, status string) span {
	g.spans++
	var b strings.Builder
	fmt.Fprintf(&b, `{"traceId":"%s","spanId":"%s",`, trace, id)
	if parent != "" {
		fmt.Fprintf(&b, `"parentSpanId":"%s",`, parent)
	}
	fmt.Fprintf(&b, `"name":%s,"kind":1,"startTimeUnixNano":"%d","endTimeUnixNano":"%d","attributes":[%s]`,
		q(name), start, end, strings.Join(attrs, ","))
	if status != "" {
		b.WriteString(`,"status":` + status)
	}
	b.WriteByte('}')
	return span{end, b.String()}
}

var tools = []string{"search_docs", "read_file", "run_query", "get_weather", "send_email"}

// trace makes one agent turn of 4 to 6 model calls.
func (g *gen) trace(n int) []span {
	trace, root := g.id(16), g.id(8)
	conv := fmt.Sprintf("conv-%d", n/3)
	user := fmt.Sprintf("Question %d: find the report for customer %d and summarise the open issues.", n, g.rng.IntN(100000))
	start := g.t
	t := start + 1_000_000
	var spans []span
	var history []any
	history = append(history, map[string]any{"role": "user", "parts": []any{map[string]any{"type": "text", "content": user}}})
	rounds := 3 + g.rng.IntN(3)
	for r := 0; r < rounds; r++ {
		nCalls := 1
		if g.rng.IntN(3) == 0 {
			nCalls = 2
		}
		if r == rounds-1 {
			nCalls = 0
		}
		type c struct{ id, name, args string }
		var calls []c
		var parts []any
		for i := 0; i < nCalls; i++ {
			cl := c{"call_" + g.id(6), tools[g.rng.IntN(len(tools))], fmt.Sprintf(`{"query":"customer %d issues","limit":%d,"filters":{"status":"open","tags":["billing","api"]}}`, g.rng.IntN(1e6), 1+g.rng.IntN(50))}
			calls = append(calls, cl)
			var a any
			_ = json.Unmarshal([]byte(cl.args), &a)
			parts = append(parts, map[string]any{"type": "tool_call", "id": cl.id, "name": cl.name, "arguments": a})
		}
		if nCalls == 0 {
			parts = append(parts, map[string]any{"type": "text", "content": "Here is the summary of the open issues: billing retries failing, API quota exceeded."})
		}
		out := []any{map[string]any{"role": "assistant", "parts": parts}}
		in, _ := json.Marshal(history)
		outJSON, _ := json.Marshal(out)
		chatEnd := t + uint64(200+g.rng.IntN(800))*1_000_000
		spans = append(spans, g.span(trace, g.id(8), root, "chat gpt-4o", t, chatEnd, []string{
			attr("gen_ai.operation.name", "chat"), attr("gen_ai.provider.name", "openai"), attr("gen_ai.request.model", "gpt-4o"),
			attr("gen_ai.conversation.id", conv),
			iattr("gen_ai.usage.input_tokens", 500+g.rng.IntN(2000)), iattr("gen_ai.usage.output_tokens", 20+g.rng.IntN(200)),
			attr("gen_ai.input.messages", string(in)), attr("gen_ai.output.messages", string(outJSON)),
		}, ""))
		history = append(history, out[0])
		t = chatEnd + 1_000_000
		var resp []any
		toolEnd := t
		for i, cl := range calls {
			ts := t + uint64(i)*100_000
			te := ts + uint64(10+g.rng.IntN(400))*1_000_000
			toolEnd = max(toolEnd, te)
			status := ""
			if g.rng.IntN(20) == 0 {
				status = `{"code":2,"message":"upstream timeout"}`
			}
			result := fmt.Sprintf(`{"rows":%d,"items":["issue-%d","issue-%d"]}`, g.rng.IntN(100), g.rng.IntN(1e5), g.rng.IntN(1e5))
			spans = append(spans, g.span(trace, g.id(8), root, "execute_tool "+cl.name, ts, te, []string{
				attr("gen_ai.operation.name", "execute_tool"), attr("gen_ai.tool.name", cl.name), attr("gen_ai.tool.call.id", cl.id),
				attr("gen_ai.tool.call.arguments", cl.args), attr("gen_ai.tool.call.result", result),
			}, status))
			resp = append(resp, map[string]any{"type": "tool_call_response", "id": cl.id, "response": result})
		}
		if resp != nil {
			history = append(history, map[string]any{"role": "tool", "parts": resp})
		}
		t = toolEnd + 1_000_000
	}
	spans = append(spans, g.span(trace, root, "", "invoke_agent support", start, t, []string{
		attr("gen_ai.operation.name", "invoke_agent"), attr("gen_ai.agent.name", "support"), attr("gen_ai.conversation.id", conv),
	}, ""))
	g.t = t + 5_000_000_000
	return spans
}
