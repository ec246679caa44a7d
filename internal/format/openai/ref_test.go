package openai

import (
	"cmp"
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/drift"
	"github.com/trajeval/trajeval/internal/format/msglog"
	"github.com/trajeval/trajeval/internal/jsonl"
)

// refAgents is the openai-agents reader as it was before it walked
// records with a jsonv.Parser: each record decoded into maps by
// msglog.EachValue. The tests read every input with both and require the
// same trajectories, warnings and errors (see RefAgents).
var refAgents trajeval.Format = refAgentsFormat{}

type refAgentsFormat struct{}

func (refAgentsFormat) Name() string { return "openai-agents" }

func (refAgentsFormat) Sniff([]byte) error { return nil }

type refSpan struct {
	id, traceID, parent string
	data                map[string]any
	start, end          time.Time
	err                 map[string]any
	line, order         int
}

type refTrace struct {
	id, group string
	order     int
	spans     []*refSpan
}

func (refAgentsFormat) Read(ctx context.Context, in trajeval.Input, yield func(*trajeval.Trajectory) error) error {
	// Spans arrive in the order they ended, and a trace's spans may be
	// spread over the file: the whole file is held, as spans.
	traces := map[string]*refTrace{}
	spans := map[string]*refSpan{}
	var order []*refTrace
	n := 0
	var unknown drift.Unknown
	defer unknown.Report(in, "openai-agents")
	traceOf := func(id string) *refTrace {
		t := traces[id]
		if t == nil {
			t = &refTrace{id: id, order: len(order)}
			traces[id] = t
			order = append(order, t)
		}
		return t
	}
	var junk error // the first record that is not a trace or span
	var take func(v any, line int)
	take = func(v any, line int) {
		if l := msglog.List(v); l != nil {
			for _, e := range l {
				take(e, line)
			}
			return
		}
		m := msglog.Obj(v)
		if m == nil {
			junk = cmp.Or(junk, jsonl.NotARecord(in, line, 0, "not a trace or span"))
			return
		}
		if d, ok := m["data"].([]any); ok && m["object"] == nil {
			take(d, line)
			return
		}
		switch {
		case msglog.Str(m["object"]) == "trace" || (m["span_data"] == nil && m["workflow_name"] != nil):
			t := traceOf(msglog.Str(m["id"]))
			if g := msglog.Str(m["group_id"]); g != "" {
				t.group = g
			}
		case m["span_data"] != nil || msglog.Str(m["object"]) == "trace.span":
			n++
			warn := func(msg string) {
				in.Warn(trajeval.Warning{File: in.Name, Line: line, Place: "span " + msglog.Str(m["id"]), Msg: msg})
			}
			s := &refSpan{id: msglog.Str(m["id"]), traceID: msglog.Str(m["trace_id"]), parent: msglog.Str(m["parent_id"]),
				data: msglog.Obj(m["span_data"]), err: msglog.Obj(m["error"]), line: line, order: n,
				start: msglog.ParseTime(m["started_at"], warn), end: msglog.ParseTime(m["ended_at"], warn)}
			if typ := refSpanType(s); !refSpanTypes[typ] {
				unknown.Saw("span type", typ, line)
			}
			if m["error"] != nil && s.err == nil {
				s.err = map[string]any{"message": fmt.Sprint(m["error"])}
			}
			if old := spans[s.id]; old != nil && s.id != "" {
				// The same span exported twice (at start and at end): keep
				// the fuller copy, in the first one's place.
				if old.end.IsZero() && !s.end.IsZero() {
					s.order = old.order
					*old = *s
				}
				return
			}
			if s.id != "" {
				spans[s.id] = s
			}
			t := traceOf(s.traceID)
			t.spans = append(t.spans, s)
		default:
			junk = cmp.Or(junk, jsonl.NotARecord(in, line, 0, "not a trace or span"))
		}
	}
	damaged := false // any trace may have lost spans to the damage
	err := msglog.EachValue(ctx, in, func(v any, line int, partial bool) error {
		damaged = damaged || partial
		if v != nil {
			take(v, line)
		}
		return junk
	})
	if err != nil {
		return err
	}
	if n == 0 {
		return &trajeval.TraceError{File: in.Name, Msg: "no spans", Err: trajeval.ErrEmptyTrace}
	}
	// Traces of one group_id are one conversation, a turn per trace.
	type conv struct {
		id     string
		traces []*refTrace
	}
	var convs []*conv
	byGroup := map[string]*conv{}
	for _, t := range order {
		if len(t.spans) == 0 {
			continue
		}
		key := t.group
		if key == "" {
			key = "\x00" + t.id
		}
		c := byGroup[key]
		if c == nil {
			c = &conv{id: t.group}
			if c.id == "" {
				c.id = t.id
			}
			byGroup[key] = c
			convs = append(convs, c)
		}
		c.traces = append(c.traces, t)
	}
	for _, c := range convs {
		sort.SliceStable(c.traces, func(i, j int) bool { return refTraceStart(c.traces[i]).Before(refTraceStart(c.traces[j])) })
		if err := yield(msglog.Mark(refTrajectory(in, c.id, c.traces, spans), 0, damaged)); err != nil {
			return err
		}
	}
	return nil
}

func refTraceStart(t *refTrace) time.Time {
	var first time.Time
	for _, s := range t.spans {
		if !s.start.IsZero() && (first.IsZero() || s.start.Before(first)) {
			first = s.start
		}
	}
	return first
}

func refSpanType(s *refSpan) string { return msglog.Str(s.data["type"]) }

// refSpanTypes are the span types the Agents SDK writes (JS 0.1 to 0.20,
// Python): agent, function, generation, response and handoff are read;
// the others carry nothing to score.
var refSpanTypes = map[string]bool{
	"agent": true, "function": true, "generation": true, "response": true, "handoff": true,
	"guardrail": true, "custom": true, "mcp_tools": true, "transcription": true, "speech": true, "speech_group": true,
}

// refByStart orders spans by start time, then by their place in the file.
func refByStart(ss []*refSpan) {
	sort.SliceStable(ss, func(i, j int) bool {
		a, b := ss[i], ss[j]
		if !a.start.Equal(b.start) && !a.start.IsZero() && !b.start.IsZero() {
			return a.start.Before(b.start)
		}
		return a.order < b.order
	})
}

func refTrajectory(in trajeval.Input, id string, traces []*refTrace, spans map[string]*refSpan) *trajeval.Trajectory {
	lines := map[string]int{} // place → line, for warnings
	b := msglog.NewBuilder(id, func(place, msg string) {
		in.Warn(trajeval.Warning{File: in.Name, Line: lines[place], Place: place, Msg: msg})
	})
	for _, t := range traces {
		refByStart(t.spans)
		children := map[string][]*refSpan{}
		var gens []*refSpan
		for _, s := range t.spans {
			children[s.parent] = append(children[s.parent], s)
			switch refSpanType(s) {
			case "generation", "response":
				gens = append(gens, s)
				b.LLMCalls++
				if u := msglog.Obj(s.data["usage"]); u != nil {
					ti, to := msglog.Count(u["input_tokens"]), msglog.Count(u["output_tokens"])
					if ti == nil {
						ti, to = msglog.Count(u["prompt_tokens"]), msglog.Count(u["completion_tokens"])
					}
					msglog.AddCount(&b.Tokens.Input, ti)
					msglog.AddCount(&b.Tokens.Output, to)
				}
			}
		}
		b.User(refUser(gens))
		// Steps in start order; a model response's calls are the function
		// spans between two model spans under one parent, or, when the
		// model spans were not exported, the ones that overlap in time.
		batchOf := map[*refSpan]int{}
		batches := 0
		for _, sib := range children {
			hasModel := false
			for _, s := range sib {
				if t := refSpanType(s); t == "generation" || t == "response" {
					hasModel = true
				}
			}
			var end time.Time
			open := false
			for _, s := range sib {
				if refSpanType(s) != "function" {
					open = false
					continue
				}
				if !open || (!hasModel && (s.start.IsZero() || end.IsZero() || !s.start.Before(end))) {
					batches++
					open, end = true, time.Time{}
				}
				batchOf[s] = batches
				if s.end.After(end) {
					end = s.end
				}
			}
		}
		memo := map[*refSpan]string{}
		for _, s := range t.spans {
			switch refSpanType(s) {
			case "agent":
				// An agent span inside another agent's span was called by
				// it (as a tool); a top-level one is listed with no caller.
				if n := msglog.Str(s.data["name"]); n != "" {
					b.Trajectory.Agents = append(b.Trajectory.Agents, trajeval.Agent{Name: n, Parent: refAgentName(s, spans, memo)})
				}
			case "handoff":
				from, to := msglog.Str(s.data["from_agent"]), msglog.Str(s.data["to_agent"])
				if from != "" && to != "" {
					b.Trajectory.Agents = append(b.Trajectory.Agents, trajeval.Agent{Name: to, Parent: from})
				}
			}
		}
		members := map[int][]int{}
		var batchOrder []int
		for _, s := range t.spans {
			if refSpanType(s) != "function" {
				continue
			}
			place := "span " + s.id
			lines[place] = s.line
			warn := func(msg string) { b.Warn(place, msg) }
			st := trajeval.Step{Name: msglog.Str(s.data["name"]), Args: msglog.Args(s.data["input"], warn),
				Result: s.data["output"], StartTime: s.start, EndTime: s.end, Agent: refAgentName(s, spans, memo)}
			if s.end.IsZero() {
				warn("the span has no end")
			} else {
				st.Error = msglog.Ptr(s.err != nil)
			}
			if s.err != nil {
				st.Error = msglog.Ptr(true)
				st.ErrorMessage = msglog.Str(s.err["message"])
				if e := msglog.Str(msglog.Obj(s.err["data"])["error"]); e != "" {
					if st.ErrorMessage != "" {
						st.ErrorMessage += ": "
					}
					st.ErrorMessage += e
				}
			}
			i := b.Call(st, place)
			k := batchOf[s]
			if members[k] == nil {
				batchOrder = append(batchOrder, k)
			}
			members[k] = append(members[k], i)
		}
		for _, k := range batchOrder {
			b.Group(members[k])
		}
		if len(gens) > 0 {
			b.Final(refFinal(gens[len(gens)-1]))
		}
	}
	if b.LLMCalls > 0 {
		b.Trajectory.Metrics.LLMCalls = &b.LLMCalls
		b.Trajectory.Metrics.Tokens = b.Tokens
	}
	return b.Finish()
}

// refAgentName is the name of the nearest agent span above s; memo keeps the
// answers, so that a deep tree costs linear time.
func refAgentName(s *refSpan, spans map[string]*refSpan, memo map[*refSpan]string) string {
	var path []*refSpan
	name := ""
	seen := map[*refSpan]bool{}
	for p := spans[s.parent]; p != nil && !seen[p]; p = spans[p.parent] {
		if n, ok := memo[p]; ok {
			name = n
			break
		}
		if refSpanType(p) == "agent" {
			name = msglog.Str(p.data["name"])
			break
		}
		seen[p] = true
		path = append(path, p)
	}
	// every span on the path answers the same for its children
	for _, p := range path {
		memo[p] = name
	}
	return name
}

// refUser is the last user message given to the first model call of a
// turn, when generation spans recorded their input.
func refUser(gens []*refSpan) *string {
	if len(gens) == 0 {
		return nil
	}
	var user *string
	for _, m := range msglog.List(gens[0].data["input"]) {
		if mm := msglog.Obj(m); msglog.Str(mm["role"]) == "user" {
			user = msglog.Text(mm["content"])
		}
	}
	return user
}

// refFinal is the text of the last model call's answer, when it made no
// tool call.
func refFinal(g *refSpan) *string {
	var final *string
	for _, m := range msglog.List(g.data["output"]) {
		mm := msglog.Obj(m)
		if msglog.Str(mm["role"]) == "assistant" && len(msglog.List(mm["tool_calls"])) == 0 {
			final = msglog.Text(mm["content"])
		}
	}
	return final
}
