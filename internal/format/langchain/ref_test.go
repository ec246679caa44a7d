package langchain

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/drift"
	"github.com/trajeval/trajeval/internal/format/msglog"
	"github.com/trajeval/trajeval/internal/jsonl"
	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/pyrepr"
)

// refRuns is the langsmith reader as it was before it walked records
// with a jsonv.Parser: each record decoded into maps by
// msglog.EachValue. The tests read every input with both and require the
// same trajectories, warnings and errors (see RefRuns).
var refRuns trajeval.Format = refRunsFormat{}

type refRunsFormat struct{}

func (refRunsFormat) Name() string { return "langsmith" }

func (refRunsFormat) Sniff([]byte) error { return nil }

type refRun struct {
	f          map[string]any
	id, parent string
	start, end time.Time
	line, ord  int
	kids       []*refRun
}

func (r *refRun) typ() string { return msglog.Str(r.f["run_type"]) }

// refRunTypes are LangSmith's run types: tool and llm runs are read, the
// others hold them.
var refRunTypes = map[string]bool{
	"tool": true, "llm": true, "chain": true, "retriever": true, "prompt": true, "parser": true, "embedding": true,
}

func (refRunsFormat) Read(ctx context.Context, in trajeval.Input, yield func(*trajeval.Trajectory) error) error {
	// A trace's runs may be spread over the file (post, then patch): the
	// whole file is held, as runs.
	byID := map[string]*refRun{}
	var runs []*refRun
	var junk error // the first record that is not a refRun
	var take func(v any, parent string, line int, patch bool)
	take = func(v any, parent string, line int, patch bool) {
		if l := msglog.List(v); l != nil {
			for _, e := range l {
				take(e, parent, line, patch)
			}
			return
		}
		m := msglog.Obj(v)
		switch {
		case m == nil:
			junk = cmp.Or(junk, jsonl.NotARecord(in, line, 0, "not a run"))
			return
		case m["run_type"] == nil:
			found := false
			for _, k := range []string{"runs", "post", "patch"} {
				if l := msglog.List(m[k]); l != nil {
					found = true
					take(l, parent, line, k == "patch")
				}
			}
			if !found && patch {
				// The body of a patch: the run its id, else its
				// dotted_order, names (added with the walk's rule 3).
				if msglog.Str(m["id"]) == "" {
					m["id"] = refDottedID(msglog.Str(m["dotted_order"]))
				}
				if msglog.Str(m["id"]) != "" {
					break
				}
			}
			if !found {
				junk = cmp.Or(junk, jsonl.NotARecord(in, line, 0, "not a run"))
			}
			return
		}
		id := msglog.Str(m["id"])
		kids := msglog.List(m["child_runs"])
		delete(m, "child_runs")
		if p := msglog.Str(m["parent_run_id"]); p != "" {
			parent = p
		}
		if old := byID[id]; old != nil && id != "" {
			// The same run again (a patch after a post): later fields win.
			for k, x := range m {
				if x != nil {
					old.f[k] = x
				}
			}
		} else {
			r := &refRun{f: m, id: id, parent: parent, line: line, ord: len(runs)}
			runs = append(runs, r)
			if id != "" {
				byID[id] = r
			}
		}
		for _, k := range kids {
			take(k, id, line, false)
		}
	}
	damaged := false // any trace may have lost runs to the damage
	err := msglog.EachValue(ctx, in, func(v any, line int, partial bool) error {
		damaged = damaged || partial
		if v != nil {
			take(v, "", line, false)
		}
		return junk
	})
	if err != nil {
		return err
	}
	if len(runs) == 0 {
		return &trajeval.TraceError{File: in.Name, Msg: "no runs", Err: trajeval.ErrEmptyTrace}
	}
	var unknown drift.Unknown
	defer unknown.Report(in, "langsmith")
	var roots []*refRun
	for _, r := range runs {
		if !refRunTypes[r.typ()] {
			unknown.Saw("run type", r.typ(), r.line)
		}
		warn := func(msg string) {
			in.Warn(trajeval.Warning{File: in.Name, Line: r.line, Place: "run " + r.id, Msg: msg})
		}
		r.start, r.end = refRunTime("start_time", r.f["start_time"], warn), refRunTime("end_time", r.f["end_time"], warn)
		p := byID[r.parent]
		if p == nil && r.parent != "" {
			// Runs whose parent is not in the file hang under a stand-in.
			warn(fmt.Sprintf("parent run %s is not in the file", r.parent))
			p = &refRun{f: map[string]any{"trace_id": r.f["trace_id"]}, id: r.parent, line: r.line, ord: r.ord, start: r.start}
			byID[r.parent] = p
			roots = append(roots, p)
		}
		if p != nil && p != r {
			p.kids = append(p.kids, r)
		} else {
			roots = append(roots, r)
		}
	}
	// Roots of one thread are one conversation, a turn per root.
	type conv struct {
		id    string
		roots []*refRun
	}
	var convs []*conv
	byKey := map[string]*conv{}
	for _, r := range roots {
		md := msglog.Obj(msglog.Obj(r.f["extra"])["metadata"])
		key := ""
		for _, k := range []string{"thread_id", "session_id", "conversation_id"} {
			if key = msglog.Str(md[k]); key != "" {
				break
			}
		}
		id := key
		if key == "" {
			id = msglog.Str(r.f["trace_id"])
			if id == "" {
				id = r.id
			}
			key = "\x00" + fmt.Sprint(r.ord)
		}
		c := byKey[key]
		if c == nil {
			c = &conv{id: id}
			byKey[key] = c
			convs = append(convs, c)
		}
		c.roots = append(c.roots, r)
	}
	for _, c := range convs {
		refSortRuns(c.roots)
		if err := yield(msglog.Mark(refTrajectory(in, c.id, c.roots), 0, damaged)); err != nil {
			return err
		}
	}
	return nil
}

// refSortRuns orders sibling runs by dotted_order (a total order of start
// times), else start time, else their place in the file.
func refSortRuns(rs []*refRun) {
	sort.SliceStable(rs, func(i, j int) bool {
		a, b := rs[i], rs[j]
		if da, db := msglog.Str(a.f["dotted_order"]), msglog.Str(b.f["dotted_order"]); da != "" && db != "" {
			return da < db
		}
		if !a.start.IsZero() && !b.start.IsZero() && !a.start.Equal(b.start) {
			return a.start.Before(b.start)
		}
		return a.ord < b.ord
	})
}

func refTrajectory(in trajeval.Input, id string, roots []*refRun) *trajeval.Trajectory {
	lines := map[string]int{}
	b := msglog.NewBuilder(id, func(place, msg string) {
		in.Warn(trajeval.Warning{File: in.Name, Line: lines[place], Place: place, Msg: msg})
	})
	var cost *float64
	var dur float64
	durKnown := true
	for _, root := range roots {
		if root.typ() == "tool" {
			b.User(nil)
		} else {
			b.User(refRootUser(root.f["inputs"]))
		}
		if root.start.IsZero() || root.end.IsZero() {
			durKnown = false
		} else {
			dur += float64(root.end.Sub(root.start)) / float64(time.Millisecond)
		}
		// llm counts a model run: its tokens and cost.
		llm := func(k *refRun) {
			b.LLMCalls++
			tk := msglog.Obj(msglog.Obj(msglog.Obj(k.f["outputs"])["llm_output"])["token_usage"])
			pt, ct, tt := msglog.Count(k.f["prompt_tokens"]), msglog.Count(k.f["completion_tokens"]), msglog.Count(k.f["total_tokens"])
			if pt == nil && ct == nil && tt == nil {
				pt, ct, tt = msglog.Count(tk["prompt_tokens"]), msglog.Count(tk["completion_tokens"]), msglog.Count(tk["total_tokens"])
			}
			if pt == nil && ct == nil && tt == nil {
				// LangChain.js: outputs.llmOutput.tokenUsage, camelCase
				tk = msglog.Obj(msglog.Obj(msglog.Obj(k.f["outputs"])["llmOutput"])["tokenUsage"])
				pt, ct, tt = msglog.Count(tk["promptTokens"]), msglog.Count(tk["completionTokens"]), msglog.Count(tk["totalTokens"])
			}
			if pt == nil && ct == nil && tt == nil {
				// a traced function returning the provider's body:
				// LangSmith's usage_metadata, else OpenAI's usage
				out := msglog.Obj(k.f["outputs"])
				if um := msglog.Obj(out["usage_metadata"]); um != nil {
					pt, ct, tt = msglog.Count(um["input_tokens"]), msglog.Count(um["output_tokens"]), msglog.Count(um["total_tokens"])
				} else {
					u := msglog.Obj(out["usage"])
					pt, ct, tt = msglog.Count(u["prompt_tokens"]), msglog.Count(u["completion_tokens"]), msglog.Count(u["total_tokens"])
				}
			}
			msglog.AddCount(&b.Tokens.Input, pt)
			msglog.AddCount(&b.Tokens.Output, ct)
			msglog.AddCount(&b.Tokens.Total, tt)
			if c, ok := jsonv.Number(k.f["total_cost"]); ok {
				if cost == nil {
					cost = msglog.Ptr(0.0)
				}
				*cost += c
			}
		}
		var walk func(r *refRun, depth int)
		walk = func(r *refRun, depth int) {
			if depth > 10000 {
				return
			}
			refSortRuns(r.kids)
			var batch []int
			var end time.Time
			for _, k := range r.kids {
				timed := !k.start.IsZero() && !end.IsZero()
				if k.typ() != "tool" || (timed && !k.start.Before(end)) {
					b.Group(batch)
					batch, end = nil, time.Time{}
				}
				switch k.typ() {
				case "tool":
					place := "run " + k.id
					lines[place] = k.line
					st := refToolStep(k, func(msg string) { b.Warn(place, msg) })
					st.Agent = refGraphAgent(k, b.Trajectory)
					if i := b.Call(st, place); i >= 0 {
						batch = append(batch, i)
						if k.end.After(end) {
							end = k.end
						}
					}
				case "llm":
					llm(k)
				}
				walk(k, depth+1)
			}
			b.Group(batch)
		}
		if root.typ() == "llm" {
			// a model run traced on its own, as a client's wrapper of
			// a provider's SDK traces each call
			llm(root)
		}
		if root.typ() == "tool" {
			// a tool run traced on its own
			place := "run " + root.id
			lines[place] = root.line
			st := refToolStep(root, func(msg string) { b.Warn(place, msg) })
			st.Agent = refGraphAgent(root, b.Trajectory)
			b.Call(st, place)
		}
		walk(root, 0)
		if root.typ() != "tool" {
			b.Final(refRootFinal(root.f["outputs"]))
		}
	}
	if b.LLMCalls > 0 {
		b.Trajectory.Metrics.LLMCalls = &b.LLMCalls
	}
	b.Trajectory.Metrics.Tokens = b.Tokens
	b.Trajectory.Metrics.CostUSD = cost
	if durKnown && len(roots) > 0 {
		b.Trajectory.Metrics.DurationMS = &dur
	}
	handoffs(b.Trajectory)
	return b.Finish()
}

// refGraphAgent is the LangGraph sub-agent that ran a tool run: the subgraph
// node enclosing the node that ran it, read from the run's checkpoint
// namespace ("billing_agent:<task>|tools:<task>"); "" for a tool of the
// top graph, which has no name, or a run with no namespace. Each subgraph
// node on the way is noted in t.Agents as called by the one above it.
func refGraphAgent(r *refRun, t *trajeval.Trajectory) string {
	md := msglog.Obj(msglog.Obj(r.f["extra"])["metadata"])
	ns := cmp.Or(msglog.Str(md["langgraph_checkpoint_ns"]), msglog.Str(md["checkpoint_ns"]))
	if ns == "" {
		return ""
	}
	var nodes []string
	for seg := range strings.SplitSeq(ns, "|") {
		name, _, _ := strings.Cut(seg, ":")
		nodes = append(nodes, name)
	}
	if len(nodes) < 2 {
		return ""
	}
	nodes = nodes[:len(nodes)-1] // the last is the node that ran the tool, e.g. "tools"
	for i, n := range nodes {
		parent := ""
		if i > 0 {
			parent = nodes[i-1]
		}
		t.Agents = append(t.Agents, trajeval.Agent{Name: n, Parent: parent})
	}
	return nodes[len(nodes)-1]
}

// refToolStep reads a tool run: its input (JSON, else a Python repr, else raw
// text), its output (a ToolMessage gives the content, the call id and the
// status), its error and times.
func refToolStep(r *refRun, warn func(string)) trajeval.Step {
	s := trajeval.Step{Name: msglog.Str(r.f["name"]), StartTime: r.start, EndTime: r.end}
	inputs := msglog.Obj(r.f["inputs"])
	raw, hasInput := inputs["input"]
	switch {
	case r.f["inputs"] == nil:
		s.Args = map[string]any{}
	case !hasInput || len(inputs) > 1:
		s.Args = r.f["inputs"]
	default:
		s.Args = raw
		if t, ok := raw.(string); ok {
			s.Args = refReprArgs(t, warn)
		}
	}
	// ToolNode passes the whole ToolCall as the tool's input.
	if tc := msglog.Obj(s.Args); tc != nil && msglog.Str(tc["type"]) == "tool_call" && tc["args"] != nil {
		s.ID = msglog.Str(tc["id"])
		s.Args = tc["args"]
	}
	if s.Args == nil {
		s.Args = map[string]any{}
	}
	outputs := r.f["outputs"]
	if o := msglog.Obj(outputs); o != nil {
		// LangChain stores a tool's result as {"output": ...}; the JS
		// client's traceable, a value that is not an object as {"outputs": ...}.
		for _, k := range []string{"output", "outputs"} {
			if x, ok := o[k]; ok && len(o) == 1 {
				outputs = x
			}
		}
	}
	s.Result = outputs
	if t, ok := outputs.(string); ok {
		s.Result = t
	}
	if m, ok := asMessage(outputs); ok && m.kind == "tool" {
		s.Result = msglog.ResultValue(m.f["content"])
		if s.ID == "" {
			s.ID = msglog.Str(m.f["tool_call_id"])
		}
		if msglog.Str(m.f["status"]) == "error" {
			s.Error = msglog.Ptr(true)
			if t, ok := s.Result.(string); ok {
				s.ErrorMessage = t
			}
		}
	}
	switch e := msglog.Str(r.f["error"]); {
	case e != "":
		s.Error = msglog.Ptr(true)
		// repr(exception), then the traceback.
		s.ErrorMessage, _, _ = strings.Cut(e, "\n")
	case msglog.Str(r.f["status"]) == "error":
		s.Error = msglog.Ptr(true)
	case s.Error != nil:
	case msglog.Str(r.f["status"]) == "success" || !r.end.IsZero():
		s.Error = msglog.Ptr(false)
	}
	if r.end.IsZero() {
		warn("the run has no end")
	}
	return s
}

// refReprArgs parses a tool input that LangChain stored as str(input).
func refReprArgs(t string, warn func(string)) any {
	if v, err := jsonv.Decode([]byte(t)); err == nil {
		return v
	}
	if v, err := pyrepr.Parse(t); err == nil {
		return v
	}
	if strings.TrimSpace(t) == "" {
		return map[string]any{}
	}
	warn("input is neither JSON nor a Python literal; kept as text")
	return t
}

// refRootUser is the user's text in a root run's inputs: the last human
// message, else an "input" or "question" string.
func refRootUser(inputs any) *string {
	m := msglog.Obj(inputs)
	if msgs := msglog.List(m["messages"]); len(msgs) > 0 {
		if inner := msglog.List(msgs[0]); inner != nil && len(msgs) == 1 {
			if _, ok := asMessage(inner); !ok {
				msgs = inner // chat model inputs: a list of message lists
			}
		}
		var user *string
		for _, v := range msgs {
			if msg, ok := asMessage(v); ok && msg.kind == "human" {
				user = msglog.Text(msg.f["content"])
			}
		}
		return user
	}
	for _, k := range []string{"input", "question", "query"} {
		if s, ok := m[k].(string); ok {
			return &s
		}
	}
	return nil
}

// refRootFinal is the answer in a root run's outputs: the last AI message
// without tool calls, else an "output" or "answer" string.
func refRootFinal(outputs any) *string {
	m := msglog.Obj(outputs)
	if msgs := msglog.List(m["messages"]); msgs != nil {
		var final *string
		for _, v := range msgs {
			if msg, ok := asMessage(v); ok && msg.kind == "ai" {
				if len(aiCalls(msg.f, func(string, string) {})) == 0 {
					final = msglog.Text(msg.f["content"])
				}
			}
		}
		return final
	}
	if choices := msglog.List(m["choices"]); len(choices) > 0 {
		// An OpenAI chat completion, as a wrapped client's run returns
		// it: its first choice's message.
		if msg, ok := asMessage(msglog.Obj(choices[0])["message"]); ok && msg.kind == "ai" &&
			len(aiCalls(msg.f, func(string, string) {})) == 0 {
			return msglog.Text(msg.f["content"])
		}
	}
	for _, k := range []string{"output", "answer"} {
		if s, ok := m[k].(string); ok {
			return &s
		}
	}
	return nil
}

// refMaxMillis is 9999-12-31T23:59:59Z in milliseconds since the epoch: a
// later time cannot be written as RFC 3339.
const refMaxMillis = 253402300799000

// refRunTime reads a run's start_time or end_time: an ISO 8601 string, as the
// Python SDK writes, or a number of milliseconds since the epoch, as the
// JS SDK writes (Date.now()).
func refRunTime(field string, v any, warn func(string)) time.Time {
	n, ok := v.(json.Number)
	if !ok {
		return msglog.ParseTimeOf(field, v, warn)
	}
	ms, err := n.Float64()
	if err != nil || ms <= 0 || ms > refMaxMillis {
		warn(fmt.Sprintf("%s %s is not a time in milliseconds since 1970; ignored", field, n))
		return time.Time{}
	}
	return time.UnixMicro(int64(ms * 1000)).UTC()
}

// refDottedID is the run id a dotted_order ends with (see dottedID).
func refDottedID(d string) string {
	parts := strings.Split(d, ".")
	last := parts[len(parts)-1]
	if len(last) <= 22 || last[21] != 'Z' {
		return ""
	}
	return last[22:]
}
