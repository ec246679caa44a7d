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
	"github.com/trajeval/trajeval/internal/sniff"
)

// Runs reads LangSmith run trees ("langsmith").
var Runs trajeval.Format = runsFormat{}

type runsFormat struct{}

func (runsFormat) Name() string { return "langsmith" }

func (x runsFormat) Sniff(head []byte) error { return x.SniffHead(msglog.NewHead(head)) }

// SniffHead is Sniff reading the facts of a head that other formats
// read too (see msglog.HeadSniffer).
func (runsFormat) SniffHead(h *msglog.Head) error {
	c := sniff.First(h.Bytes())
	if c != '{' && c != '[' {
		return &trajeval.SniffError{Why: "not JSON"}
	}
	f := h // its facts, read as few as the questions need
	if f.Has(runTypeFacts...) {
		return nil
	}
	if f.Has("*run_type") {
		return &trajeval.SniffError{Closeness: 60, Why: "run_type values are not LangSmith's"}
	}
	return &trajeval.SniffError{Closeness: 10, Why: `no LangSmith runs ("run_type")`}
}

// Disclaims reports that the head holds no "run_type" key, which every
// claim needs (see msglog.Disclaimer).
func (runsFormat) Disclaims(h *msglog.Head) bool { return !h.MayHold("run_type") }

// runTypeFacts are the facts (see msglog.Facts) of a LangSmith run type
// where runs are found: at the top of a record, in a list of runs, among
// a run's children, in a post.
var runTypeFacts = func() []string {
	var facts []string
	for _, t := range []string{"tool", "llm", "chain", "retriever", "prompt", "parser", "embedding"} {
		facts = append(facts, "^run_type="+t, "runs>run_type="+t, "child_runs>run_type="+t, "post>run_type="+t)
	}
	return facts
}()

type run struct {
	runFields
	id, parent string
	start, end time.Time
	line, ord  int
	kids       []*run
}

func (r *run) typ() string { return r.runType.s }

// runTypes are LangSmith's run types: tool and llm runs are read, the
// others hold them.
var runTypes = map[string]bool{
	"tool": true, "llm": true, "chain": true, "retriever": true, "prompt": true, "parser": true, "embedding": true,
}

func (runsFormat) Read(ctx context.Context, in trajeval.Input, yield func(*trajeval.Trajectory) error) error {
	// A trace's runs may be spread over the file (post, then patch): the
	// whole file is held, as runs.
	byID := map[string]*run{}
	var runs []*run
	var junk error // the first record that is not a run
	take := func(r *runRecord, line int) {
		if r.none {
			return
		}
		if r.junk {
			junk = cmp.Or(junk, jsonl.NotARecord(in, line, 0, "not a run"))
			return
		}
		if old := byID[r.id]; old != nil && r.id != "" {
			// The same run again (a patch after a post): later fields win.
			old.merge(&r.fields)
			return
		}
		n := &run{runFields: r.fields, id: r.id, parent: r.parent, line: line, ord: len(runs)}
		runs = append(runs, n)
		if r.id != "" {
			byID[r.id] = n
		}
	}
	damaged := false // any trace may have lost runs to the damage
	w := &runsWalker{}
	err := msglog.EachText(ctx, in, w.walk, func(recs []runRecord, line int, partial bool) error {
		damaged = damaged || partial
		for i := range recs {
			take(&recs[i], line)
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
	var roots []*run
	for _, r := range runs {
		if !runTypes[r.typ()] {
			unknown.Saw("run type", r.typ(), r.line)
		}
		warn := func(msg string) {
			in.Warn(trajeval.Warning{File: in.Name, Line: r.line, Place: "run " + r.id, Msg: msg})
		}
		r.start, r.end = r.startTime.time("start_time", warn), r.endTime.time("end_time", warn)
		p := byID[r.parent]
		if p == nil && r.parent != "" {
			// Runs whose parent is not in the file hang under a stand-in.
			warn(fmt.Sprintf("parent run %s is not in the file", r.parent))
			p = &run{runFields: runFields{traceID: r.traceID}, id: r.parent, line: r.line, ord: r.ord, start: r.start}
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
		roots []*run
	}
	var convs []*conv
	byKey := map[string]*conv{}
	for _, r := range roots {
		key := cmp.Or(r.metadata.thread, r.metadata.session, r.metadata.conversation)
		id := key
		if key == "" {
			id = r.traceID.s
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
		sortRuns(c.roots)
		if err := yield(msglog.Mark(runsTrajectory(in, c.id, c.roots), 0, damaged)); err != nil {
			return err
		}
	}
	return nil
}

// sortRuns orders sibling runs by dotted_order (a total order of start
// times), else start time, else their place in the file.
func sortRuns(rs []*run) {
	sort.SliceStable(rs, func(i, j int) bool {
		a, b := rs[i], rs[j]
		if da, db := a.dotted.s, b.dotted.s; da != "" && db != "" {
			return da < db
		}
		if !a.start.IsZero() && !b.start.IsZero() && !a.start.Equal(b.start) {
			return a.start.Before(b.start)
		}
		return a.ord < b.ord
	})
}

func runsTrajectory(in trajeval.Input, id string, roots []*run) *trajeval.Trajectory {
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
			b.User(rootUser(root.inputs))
		}
		if root.start.IsZero() || root.end.IsZero() {
			durKnown = false
		} else {
			dur += float64(root.end.Sub(root.start)) / float64(time.Millisecond)
		}
		// llm counts a model run: its tokens and cost.
		llm := func(k *run) {
			b.LLMCalls++
			tk := msglog.Obj(msglog.Obj(msglog.Obj(k.outputs)["llm_output"])["token_usage"])
			pt, ct, tt := msglog.Count(k.promptTokens), msglog.Count(k.completionTokens), msglog.Count(k.totalTokens)
			if pt == nil && ct == nil && tt == nil {
				pt, ct, tt = msglog.Count(tk["prompt_tokens"]), msglog.Count(tk["completion_tokens"]), msglog.Count(tk["total_tokens"])
			}
			if pt == nil && ct == nil && tt == nil {
				// LangChain.js: outputs.llmOutput.tokenUsage, camelCase
				tk = msglog.Obj(msglog.Obj(msglog.Obj(k.outputs)["llmOutput"])["tokenUsage"])
				pt, ct, tt = msglog.Count(tk["promptTokens"]), msglog.Count(tk["completionTokens"]), msglog.Count(tk["totalTokens"])
			}
			if pt == nil && ct == nil && tt == nil {
				// a traced function returning the provider's body:
				// LangSmith's usage_metadata, else OpenAI's usage
				out := msglog.Obj(k.outputs)
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
			if c, ok := jsonv.Number(k.totalCost); ok {
				if cost == nil {
					cost = msglog.Ptr(0.0)
				}
				*cost += c
			}
		}
		var walk func(r *run, depth int)
		walk = func(r *run, depth int) {
			if depth > 10000 {
				return
			}
			sortRuns(r.kids)
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
					st := toolStep(k, func(msg string) { b.Warn(place, msg) })
					st.Agent = graphAgent(k, b.Trajectory)
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
			st := toolStep(root, func(msg string) { b.Warn(place, msg) })
			st.Agent = graphAgent(root, b.Trajectory)
			b.Call(st, place)
		}
		walk(root, 0)
		if root.typ() != "tool" {
			b.Final(rootFinal(root.outputs))
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

// graphAgent is the LangGraph sub-agent that ran a tool run: the subgraph
// node enclosing the node that ran it, read from the run's checkpoint
// namespace ("billing_agent:<task>|tools:<task>"); "" for a tool of the
// top graph, which has no name, or a run with no namespace. Each subgraph
// node on the way is noted in t.Agents as called by the one above it.
func graphAgent(r *run, t *trajeval.Trajectory) string {
	ns := cmp.Or(r.metadata.langgraphNS, r.metadata.checkpointNS)
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

// toolStep reads a tool run: its input (JSON, else a Python repr, else raw
// text), its output (a ToolMessage gives the content, the call id and the
// status), its error and times.
func toolStep(r *run, warn func(string)) trajeval.Step {
	s := trajeval.Step{Name: r.name.s, StartTime: r.start, EndTime: r.end}
	inputs := msglog.Obj(r.inputs)
	raw, hasInput := inputs["input"]
	switch {
	case r.inputs == nil:
		s.Args = map[string]any{}
	case !hasInput || len(inputs) > 1:
		s.Args = r.inputs
	default:
		s.Args = raw
		if t, ok := raw.(string); ok {
			s.Args = reprArgs(t, warn)
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
	outputs := r.outputs
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
	switch e := r.errorText.s; {
	case e != "":
		s.Error = msglog.Ptr(true)
		// repr(exception), then the traceback.
		s.ErrorMessage, _, _ = strings.Cut(e, "\n")
	case r.status.s == "error":
		s.Error = msglog.Ptr(true)
	case s.Error != nil:
	case r.status.s == "success" || !r.end.IsZero():
		s.Error = msglog.Ptr(false)
	}
	if r.end.IsZero() {
		warn("the run has no end")
	}
	return s
}

// reprArgs parses a tool input that LangChain stored as str(input).
func reprArgs(t string, warn func(string)) any {
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

// rootUser is the user's text in a root run's inputs: the last human
// message, else an "input" or "question" string.
func rootUser(inputs any) *string {
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

// rootFinal is the answer in a root run's outputs: the last AI message
// without tool calls, else the message of an OpenAI chat completion's
// first choice, else an "output" or "answer" string.
func rootFinal(outputs any) *string {
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

// maxMillis is 9999-12-31T23:59:59Z in milliseconds since the epoch: a
// later time cannot be written as RFC 3339.
const maxMillis = 253402300799000

// runTime reads a run's start_time or end_time: an ISO 8601 string, as the
// Python SDK writes, or a number of milliseconds since the epoch, as the
// JS SDK writes (Date.now()).
func runTime(field string, v any, warn func(string)) time.Time {
	n, ok := v.(json.Number)
	if !ok {
		return msglog.ParseTimeOf(field, v, warn)
	}
	ms, err := n.Float64()
	if err != nil || ms <= 0 || ms > maxMillis {
		warn(fmt.Sprintf("%s %s is not a time in milliseconds since 1970; ignored", field, n))
		return time.Time{}
	}
	return time.UnixMicro(int64(ms * 1000)).UTC()
}

// runFields are what the reader uses of a run's fields, each as a map of
// the decoded run would hold it: a string field's text ("" for a value
// that is not a string) and whether it was given (not null); any other
// field its value (nil when absent or null).
type runFields struct {
	runType, name, errorText, status, dotted, traceID text
	inputs, outputs                                   any
	promptTokens, completionTokens, totalTokens       any
	totalCost                                         any
	startTime, endTime                                stamp
	extra                                             bool // given, not null
	metadata                                          metadata
}

// text is a string field: s "" for a value that is not a string; set
// when the field is given and not null.
type text struct {
	s   string
	set bool
}

// metadata is what the reader uses of a run's extra.metadata.
type metadata struct {
	thread, session, conversation, langgraphNS, checkpointNS string
}

// stamp is a run's start_time or end_time: read at once when it is a
// string ParseTimeOf reads (at nil), else its value, for runTime to read
// and warn of when the runs are put together.
type stamp struct {
	t   time.Time
	at  any
	set bool
}

// time is the time s holds (see runTime).
func (s stamp) time(field string, warn func(string)) time.Time {
	if s.at == nil {
		return s.t
	}
	return runTime(field, s.at, warn)
}

// merge sets the fields of r that f gives (not null) to f's: a run's
// later record (a patch after its post) wins.
func (r *runFields) merge(f *runFields) {
	for _, x := range [...]struct{ dst, src *text }{
		{&r.runType, &f.runType}, {&r.name, &f.name}, {&r.errorText, &f.errorText},
		{&r.status, &f.status}, {&r.dotted, &f.dotted}, {&r.traceID, &f.traceID},
	} {
		if x.src.set {
			*x.dst = *x.src
		}
	}
	for _, x := range [...]struct{ dst, src *any }{
		{&r.inputs, &f.inputs}, {&r.outputs, &f.outputs}, {&r.promptTokens, &f.promptTokens},
		{&r.completionTokens, &f.completionTokens}, {&r.totalTokens, &f.totalTokens}, {&r.totalCost, &f.totalCost},
	} {
		if *x.src != nil {
			*x.dst = *x.src
		}
	}
	if f.startTime.set {
		r.startTime = f.startTime
	}
	if f.endTime.set {
		r.endTime = f.endTime
	}
	if f.extra {
		r.extra, r.metadata = true, f.metadata
	}
}

// A runRecord is what the walk found in a file: a run, or a value that
// is not one (junk). inherit says that the run gave no parent_run_id:
// its parent is the run whose child_runs hold it, if any. none is the
// place an object kept for its run, when it turned out to be a wrapper:
// no record.
type runRecord struct {
	junk, inherit, none bool
	id, parent          string
	fields              runFields
}

// runsWalker reads the runs of a file's values with a jsonv.Parser (see
// msglog.EachText), in the order the reader takes them:
//  1. a list: the runs of each of its values;
//  2. an object with a run_type (not null): a run, then the runs of its
//     child_runs list, whose parent it is unless they name their own;
//  3. an object without: the runs of its "runs", "post" and "patch"
//     lists, in that order; when it has none of them, an element of a
//     patch list is the update of a run (a client sends a run's end in
//     the body of PATCH /runs/{id}, with no id and no run_type), named by
//     its id or by the run id its dotted_order ends with; anything else
//     is junk;
//  4. any other value: junk.
//
// Every key is read as a map of the decoded value would hold it: a key
// given twice is the last one.
type runsWalker struct {
	p     jsonv.Parser
	recs  []runRecord
	moved []runRecord // scratch of end
	// patch says that the value read is an element of a "patch" list
	// (see runsWalker's rule 3).
	patch  bool
	shapes struct{ run, extra, metadata *jsonv.Shape }
}

// The keys read, in the order LangSmith's clients mostly write them; the
// constants are their places. Keys past runSkip are skipped, listed so
// that a Shape remembers them.
var (
	runNames = jsonv.NewKeys("id", "name", "run_type", "trace_id", "dotted_order", "parent_run_id", "start_time", "end_time",
		"extra", "inputs", "outputs", "error", "status", "child_runs", "runs", "post", "patch",
		"prompt_tokens", "completion_tokens", "total_tokens", "total_cost",
		"tags", "serialized", "events", "session_name", "session_id", "reference_example_id")
	extraNames    = jsonv.NewKeys("metadata", "runtime")
	metadataNames = jsonv.NewKeys("thread_id", "session_id", "conversation_id", "langgraph_checkpoint_ns", "checkpoint_ns")
)

const (
	runID = iota
	runName
	runType
	runTraceID
	runDotted
	runParent
	runStart
	runEnd
	runExtra
	runInputs
	runOutputs
	runError
	runStatus
	runChildren
	runRuns
	runPost
	runPatch
	runPromptTokens
	runCompletionTokens
	runTotalTokens
	runTotalCost
	runSkip
)

// walk reads the runs of text, one JSON value; ok false when the Parser
// refuses it (see msglog.EachText). The records are w's scratch, valid
// until the next call.
func (w *runsWalker) walk(text []byte) ([]runRecord, bool) {
	if w.shapes.run == nil {
		w.shapes.run, w.shapes.extra = jsonv.NewShape(runNames), jsonv.NewShape(extraNames)
		w.shapes.metadata = jsonv.NewShape(metadataNames)
	}
	clear(w.recs) // keep no value alive
	w.recs = w.recs[:0]
	w.p.Reset(text)
	ok := w.value() && w.p.End()
	w.p.Reset(nil) // keep no input alive
	return w.recs, ok
}

// value reads a value where runs stand.
func (w *runsWalker) value() bool {
	switch w.p.Peek() {
	case '[':
		return w.p.Array(w.value)
	case '{':
		return w.object()
	}
	w.recs = append(w.recs, runRecord{junk: true})
	return w.p.Skip()
}

// A place is where the records of one of an object's lists stand in
// w.recs; list says the key's last value is a list.
type place struct {
	from, to int
	list     bool
}

// object reads an object where runs stand: a run or a wrapper of runs.
func (w *runsWalker) object() bool {
	p := &w.p
	// The object's run, if it is one, comes before its children: its
	// place is kept before they are read.
	mark := len(w.recs)
	w.recs = append(w.recs, runRecord{none: true})
	var (
		r     runRecord
		lists [4]place // child_runs, runs, post, patch
	)
	patch := w.patch
	w.patch = false // for the values inside
	defer func() { w.patch = patch }()
	m := w.shapes.run.Members()
	for {
		ok := true
		i, _ := p.Member(&m)
		switch i {
		case runID:
			r.id, ok = msglog.WalkStr(p)
		case runName:
			ok = internedText(p, &r.fields.name)
		case runType:
			ok = internedText(p, &r.fields.runType)
		case runTraceID:
			ok = internedText(p, &r.fields.traceID)
		case runDotted:
			ok = stringText(p, &r.fields.dotted)
		case runParent:
			r.parent, ok = msglog.WalkName(p)
		case runStart:
			ok = readStamp(p, "start_time", &r.fields.startTime)
		case runEnd:
			ok = readStamp(p, "end_time", &r.fields.endTime)
		case runExtra:
			ok = w.extra(&r.fields)
		case runInputs:
			r.fields.inputs, ok = p.Value()
		case runOutputs:
			r.fields.outputs, ok = p.Value()
		case runError:
			ok = stringText(p, &r.fields.errorText)
		case runStatus:
			ok = internedText(p, &r.fields.status)
		case runPromptTokens:
			r.fields.promptTokens, ok = p.Value()
		case runCompletionTokens:
			r.fields.completionTokens, ok = p.Value()
		case runTotalTokens:
			r.fields.totalTokens, ok = p.Value()
		case runTotalCost:
			r.fields.totalCost, ok = p.Value()
		case runChildren, runRuns, runPost, runPatch:
			l := &lists[i-runChildren]
			*l = place{from: len(w.recs)}
			if l.list = p.Peek() == '['; l.list {
				w.patch = i == runPatch
				ok = p.Array(w.value)
				w.patch = false
			} else {
				ok = p.Skip()
			}
			l.to = len(w.recs)
		case jsonv.End:
			w.end(mark, &r, &lists, patch)
			return true
		case jsonv.Bad:
			return false
		default: // Other, and the keys past runSkip
			ok = p.Skip()
		}
		if !ok {
			return false
		}
	}
}

// end puts the records of an object read from mark (its run's place) in
// the reader's order (see runsWalker): a run and its children, or a
// wrapper's runs; the records of every other list are dropped. Records
// are moved only when they do not stand in that order already, as they
// do in the files clients write: a run and its child_runs, or one list.
func (w *runsWalker) end(mark int, r *runRecord, lists *[4]place, patch bool) {
	isRun := r.fields.runType.set
	if !isRun && patch && !lists[1].list && !lists[2].list && !lists[3].list {
		if r.id == "" {
			r.id = dottedID(r.fields.dotted.s)
		}
		isRun = r.id != ""
	}
	if isRun {
		r.inherit = r.parent == ""
		w.recs[mark] = *r
		c := lists[0]
		if !c.list {
			w.drop(mark + 1)
			return
		}
		for i := range w.recs[c.from:c.to] {
			if k := &w.recs[c.from+i]; k.inherit {
				k.inherit, k.parent = false, r.id
			}
		}
		if c.from != mark+1 {
			copy(w.recs[mark+1:], w.recs[c.from:c.to])
		}
		w.drop(mark + 1 + c.to - c.from)
		return
	}
	var all [3]place
	keep := all[:0]
	for _, l := range lists[1:] {
		if l.list {
			keep = append(keep, l)
		}
	}
	switch {
	case len(keep) == 0:
		w.drop(mark)
		w.recs = append(w.recs, runRecord{junk: true})
		return
	case len(keep) == 1 && keep[0].from == mark+1 && keep[0].to == len(w.recs):
		return // its place stays none
	}
	w.moved = w.moved[:0]
	for _, l := range keep {
		w.moved = append(w.moved, w.recs[l.from:l.to]...)
	}
	w.drop(mark)
	w.recs = append(w.recs, w.moved...)
	clear(w.moved)
}

// dottedID is the id of the run whose dotted_order is d: the text after
// the time of its last part ("20241013T070537170001Z<run id>"), "" when
// d is not of that shape.
func dottedID(d string) string {
	if i := strings.LastIndexByte(d, '.'); i >= 0 {
		d = d[i+1:]
	}
	if len(d) <= 22 || d[21] != 'Z' {
		return ""
	}
	return d[22:]
}

// drop drops the records from mark on.
func (w *runsWalker) drop(mark int) {
	clear(w.recs[mark:])
	w.recs = w.recs[:mark]
}

// extra reads a run's extra: its metadata's keys.
func (w *runsWalker) extra(f *runFields) bool {
	p := &w.p
	f.extra, f.metadata = !p.Null(), metadata{}
	if !f.extra {
		return true
	}
	if p.Peek() != '{' {
		return p.Skip()
	}
	m := w.shapes.extra.Members()
	for {
		ok := true
		switch i, _ := p.Member(&m); i {
		case 0:
			f.metadata = metadata{}
			ok = w.metadata(&f.metadata)
		case jsonv.End:
			return true
		case jsonv.Bad:
			return false
		default:
			ok = p.Skip()
		}
		if !ok {
			return false
		}
	}
}

// metadata reads the keys of a run's extra.metadata the reader uses.
func (w *runsWalker) metadata(md *metadata) bool {
	p := &w.p
	if p.Peek() != '{' {
		return p.Skip()
	}
	m := w.shapes.metadata.Members()
	for {
		ok := true
		switch i, _ := p.Member(&m); i {
		case 0:
			md.thread, ok = msglog.WalkName(p)
		case 1:
			md.session, ok = msglog.WalkName(p)
		case 2:
			md.conversation, ok = msglog.WalkName(p)
		case 3:
			md.langgraphNS, ok = msglog.WalkStr(p)
		case 4:
			md.checkpointNS, ok = msglog.WalkStr(p)
		case jsonv.End:
			return true
		case jsonv.Bad:
			return false
		default:
			ok = p.Skip()
		}
		if !ok {
			return false
		}
	}
}

// stringText reads a string field into t.
func stringText(p *jsonv.Parser, t *text) (ok bool) {
	t.set = !p.Null()
	t.s = ""
	if t.set {
		t.s, ok = msglog.WalkStr(p)
		return ok
	}
	return true
}

// internedText is stringText, interned.
func internedText(p *jsonv.Parser, t *text) (ok bool) {
	t.set = !p.Null()
	t.s = ""
	if t.set {
		t.s, ok = msglog.WalkName(p)
		return ok
	}
	return true
}

// readStamp reads a run's time into s (see stamp).
func readStamp(p *jsonv.Parser, field string, s *stamp) bool {
	*s = stamp{set: !p.Null()}
	if !s.set {
		return true
	}
	if p.Peek() != '"' {
		var ok bool
		s.at, ok = p.Value()
		return ok
	}
	b, ok := msglog.WalkTimeText(p)
	if !ok {
		return false
	}
	if t, ok := msglog.ISOTime(b); ok {
		s.t = t
		return true
	}
	str := string(b)
	failed := false
	s.t = msglog.ParseTimeOf(field, str, func(string) { failed = true })
	if failed {
		s.at = str
	}
	return true
}
