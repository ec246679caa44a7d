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
	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/sniff"
)

// Agents reads OpenAI Agents SDK trace exports ("openai-agents").
var Agents trajeval.Format = agentsFormat{}

type agentsFormat struct{}

func (agentsFormat) Name() string { return "openai-agents" }

func (x agentsFormat) Sniff(head []byte) error { return x.SniffHead(msglog.NewHead(head)) }

// SniffHead is Sniff reading the facts of a head that other formats
// read too (see msglog.HeadSniffer).
func (agentsFormat) SniffHead(h *msglog.Head) error {
	c := sniff.First(h.Bytes())
	if c != '{' && c != '[' {
		return &trajeval.SniffError{Why: "not JSON"}
	}
	f := h // its facts, read as few as the questions need
	if f.Has("*object=trace.span") || (f.Has("*span_data") && f.Has("*started_at")) {
		return nil
	}
	if f.Has("*object=trace") && f.Has("*workflow_name") {
		return nil
	}
	return &trajeval.SniffError{Closeness: 10, Why: `no Agents SDK spans ("object": "trace.span" with span_data)`}
}

// Disclaims reports that the head holds no "object" or "span_data" key,
// one of which every claim needs (see msglog.Disclaimer).
func (agentsFormat) Disclaims(h *msglog.Head) bool { return !h.MayHold("object", "span_data") }

type agentSpan struct {
	id, traceID, parent string
	data                spanData
	start, end          time.Time
	err                 *spanError
	line, order         int
	// startAt and endAt are started_at and ended_at when they are not
	// read at once (see readTime): for ParseTime to read, and warn of.
	startAt, endAt any
}

// spanData is what the reader uses of a span's span_data: each string
// field "" when it is not a string, each other field the value as
// decoded (nil when absent).
type spanData struct {
	typ, name, from, to  string
	input, output, usage any
}

// spanError is a span's error: its message and data.error, or, when the
// error is not an object, its value as text.
type spanError struct{ message, data string }

type agentTrace struct {
	id, group string
	order     int
	spans     []*agentSpan
}

func (agentsFormat) Read(ctx context.Context, in trajeval.Input, yield func(*trajeval.Trajectory) error) error {
	// Spans arrive in the order they ended, and a trace's spans may be
	// spread over the file: the whole file is held, as spans.
	traces := map[string]*agentTrace{}
	spans := map[string]*agentSpan{}
	var order []*agentTrace
	n := 0
	var unknown drift.Unknown
	defer unknown.Report(in, "openai-agents")
	traceOf := func(id string) *agentTrace {
		t := traces[id]
		if t == nil {
			t = &agentTrace{id: id, order: len(order)}
			traces[id] = t
			order = append(order, t)
		}
		return t
	}
	var junk error // the first record that is not a trace or span
	take := func(r *agentRecord, line int) {
		switch r.kind {
		case junkRecord:
			junk = cmp.Or(junk, jsonl.NotARecord(in, line, 0, "not a trace or span"))
		case traceRecord:
			t := traceOf(r.id)
			if r.group != "" {
				t.group = r.group
			}
		case spanRecord:
			n++
			s := r.span
			s.line, s.order = line, n
			warn := func(msg string) {
				in.Warn(trajeval.Warning{File: in.Name, Line: line, Place: "span " + s.id, Msg: msg})
			}
			if s.startAt != nil {
				s.start = msglog.ParseTime(s.startAt, warn)
			}
			if s.endAt != nil {
				s.end = msglog.ParseTime(s.endAt, warn)
			}
			s.startAt, s.endAt = nil, nil
			if typ := spanType(s); !spanTypes[typ] {
				unknown.Saw("span type", typ, line)
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
		}
	}
	damaged := false // any trace may have lost spans to the damage
	w := &agentsWalker{}
	err := msglog.EachText(ctx, in, w.walk, func(recs []agentRecord, line int, partial bool) error {
		damaged = damaged || partial
		for i := range recs {
			take(&recs[i], line)
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
		traces []*agentTrace
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
		sort.SliceStable(c.traces, func(i, j int) bool { return traceStart(c.traces[i]).Before(traceStart(c.traces[j])) })
		if err := yield(msglog.Mark(agentsTrajectory(in, c.id, c.traces, spans), 0, damaged)); err != nil {
			return err
		}
	}
	return nil
}

func traceStart(t *agentTrace) time.Time {
	var first time.Time
	for _, s := range t.spans {
		if !s.start.IsZero() && (first.IsZero() || s.start.Before(first)) {
			first = s.start
		}
	}
	return first
}

func spanType(s *agentSpan) string { return s.data.typ }

// spanTypes are the span types the Agents SDK writes (JS 0.1 to 0.20,
// Python): agent, function, generation, response and handoff are read;
// the others carry nothing to score.
var spanTypes = map[string]bool{
	"agent": true, "function": true, "generation": true, "response": true, "handoff": true,
	"guardrail": true, "custom": true, "mcp_tools": true, "transcription": true, "speech": true, "speech_group": true,
}

// byStart orders spans by start time, then by their place in the file.
func byStart(ss []*agentSpan) {
	sort.SliceStable(ss, func(i, j int) bool {
		a, b := ss[i], ss[j]
		if !a.start.Equal(b.start) && !a.start.IsZero() && !b.start.IsZero() {
			return a.start.Before(b.start)
		}
		return a.order < b.order
	})
}

func agentsTrajectory(in trajeval.Input, id string, traces []*agentTrace, spans map[string]*agentSpan) *trajeval.Trajectory {
	lines := map[string]int{} // place → line, for warnings
	b := msglog.NewBuilder(id, func(place, msg string) {
		in.Warn(trajeval.Warning{File: in.Name, Line: lines[place], Place: place, Msg: msg})
	})
	for _, t := range traces {
		byStart(t.spans)
		children := map[string][]*agentSpan{}
		var gens []*agentSpan
		for _, s := range t.spans {
			children[s.parent] = append(children[s.parent], s)
			switch spanType(s) {
			case "generation", "response":
				gens = append(gens, s)
				b.LLMCalls++
				if u := msglog.Obj(s.data.usage); u != nil {
					ti, to := msglog.Count(u["input_tokens"]), msglog.Count(u["output_tokens"])
					if ti == nil {
						ti, to = msglog.Count(u["prompt_tokens"]), msglog.Count(u["completion_tokens"])
					}
					msglog.AddCount(&b.Tokens.Input, ti)
					msglog.AddCount(&b.Tokens.Output, to)
				}
			}
		}
		b.User(agentsUser(gens))
		// Steps in start order; a model response's calls are the function
		// spans between two model spans under one parent, or, when the
		// model spans were not exported, the ones that overlap in time.
		batchOf := map[*agentSpan]int{}
		batches := 0
		for _, sib := range children {
			hasModel := false
			for _, s := range sib {
				if t := spanType(s); t == "generation" || t == "response" {
					hasModel = true
				}
			}
			var end time.Time
			open := false
			for _, s := range sib {
				if spanType(s) != "function" {
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
		memo := map[*agentSpan]string{}
		for _, s := range t.spans {
			switch spanType(s) {
			case "agent":
				// An agent span inside another agent's span was called by
				// it (as a tool); a top-level one is listed with no caller.
				if n := s.data.name; n != "" {
					b.Trajectory.Agents = append(b.Trajectory.Agents, trajeval.Agent{Name: n, Parent: agentName(s, spans, memo)})
				}
			case "handoff":
				from, to := s.data.from, s.data.to
				if from != "" && to != "" {
					b.Trajectory.Agents = append(b.Trajectory.Agents, trajeval.Agent{Name: to, Parent: from})
				}
			}
		}
		members := map[int][]int{}
		var batchOrder []int
		for _, s := range t.spans {
			if spanType(s) != "function" {
				continue
			}
			place := "span " + s.id
			lines[place] = s.line
			warn := func(msg string) { b.Warn(place, msg) }
			st := trajeval.Step{Name: s.data.name, Args: msglog.Args(s.data.input, warn),
				Result: s.data.output, StartTime: s.start, EndTime: s.end, Agent: agentName(s, spans, memo)}
			if s.end.IsZero() {
				warn("the span has no end")
			} else {
				st.Error = msglog.Ptr(s.err != nil)
			}
			if s.err != nil {
				st.Error = msglog.Ptr(true)
				st.ErrorMessage = s.err.message
				if e := s.err.data; e != "" {
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
			b.Final(agentsFinal(gens[len(gens)-1]))
		}
	}
	if b.LLMCalls > 0 {
		b.Trajectory.Metrics.LLMCalls = &b.LLMCalls
		b.Trajectory.Metrics.Tokens = b.Tokens
	}
	return b.Finish()
}

// agentName is the name of the nearest agent span above s; memo keeps the
// answers, so that a deep tree costs linear time.
func agentName(s *agentSpan, spans map[string]*agentSpan, memo map[*agentSpan]string) string {
	var path []*agentSpan
	name := ""
	seen := map[*agentSpan]bool{}
	for p := spans[s.parent]; p != nil && !seen[p]; p = spans[p.parent] {
		if n, ok := memo[p]; ok {
			name = n
			break
		}
		if spanType(p) == "agent" {
			name = p.data.name
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

// agentsUser is the last user message given to the first model call of a
// turn, when generation spans recorded their input.
func agentsUser(gens []*agentSpan) *string {
	if len(gens) == 0 {
		return nil
	}
	var user *string
	for _, m := range msglog.List(gens[0].data.input) {
		if mm := msglog.Obj(m); msglog.Str(mm["role"]) == "user" {
			user = msglog.Text(mm["content"])
		}
	}
	return user
}

// agentsFinal is the text of the last model call's answer, when it made no
// tool call.
func agentsFinal(g *agentSpan) *string {
	var final *string
	for _, m := range msglog.List(g.data.output) {
		mm := msglog.Obj(m)
		if msglog.Str(mm["role"]) == "assistant" && len(msglog.List(mm["tool_calls"])) == 0 {
			final = msglog.Text(mm["content"])
		}
	}
	return final
}

// An agentRecord is what the walk found in a file: a trace, a span, or
// a value that is neither (junk).
type agentRecord struct {
	kind      recordKind
	id, group string     // a trace's
	span      *agentSpan // a span's
}

type recordKind int

const (
	junkRecord recordKind = iota
	traceRecord
	spanRecord
)

// agentsWalker reads the records of a file's values with a jsonv.Parser
// (see msglog.EachText): a list of records, or a record. A record is
//  1. a payload, {"data": [...]} with no "object" (or a null one): the
//     records of its list;
//  2. a trace: "object": "trace", or a "workflow_name" and no
//     "span_data" (neither null);
//  3. a span: a "span_data" (not null), or "object": "trace.span";
//  4. anything else, and any value in a list that is not a list or an
//     object, is junk.
//
// Every key is read as a map of the decoded value would hold it: a key
// given twice is the last one, a string field holds "" for a value that
// is not a string.
type agentsWalker struct {
	p    jsonv.Parser
	recs []agentRecord
	// shapes remember how this file's objects are written (see
	// jsonv.Shape).
	shapes struct{ record, data *jsonv.Shape }
}

// The keys read, in the order the Agents SDK writes them (a span's, then
// a trace's); the constants are their places.
var (
	recordNames = jsonv.NewKeys("object", "id", "trace_id", "parent_id", "started_at", "ended_at", "span_data", "error",
		"workflow_name", "group_id", "data")
	dataNames  = jsonv.NewKeys("type", "name", "input", "output", "usage", "from_agent", "to_agent")
	errorNames = jsonv.NewKeys("message", "data")
	errorData  = jsonv.NewKeys("error")
)

const (
	recObject = iota
	recID
	recTraceID
	recParent
	recStarted
	recEnded
	recSpanData
	recError
	recWorkflow
	recGroup
	recData
)

const (
	dataType = iota
	dataName
	dataInput
	dataOutput
	dataUsage
	dataFrom
	dataTo
)

// walk reads the records of text, one JSON value; ok false when the
// Parser refuses it (see msglog.EachText). The records are w's scratch,
// valid until the next call.
func (w *agentsWalker) walk(text []byte) ([]agentRecord, bool) {
	if w.shapes.record == nil {
		w.shapes.record, w.shapes.data = jsonv.NewShape(recordNames), jsonv.NewShape(dataNames)
	}
	clear(w.recs) // keep no span alive
	w.recs = w.recs[:0]
	w.p.Reset(text)
	ok := w.value() && w.p.End()
	w.p.Reset(nil) // keep no input alive
	return w.recs, ok
}

// value reads a value where records stand: a list of them, a record, or
// junk.
func (w *agentsWalker) value() bool {
	switch w.p.Peek() {
	case '[':
		return w.p.Array(w.value)
	case '{':
		return w.record()
	}
	w.recs = append(w.recs, agentRecord{kind: junkRecord})
	return w.p.Skip()
}

// record reads an object where records stand.
func (w *agentsWalker) record() bool {
	p := &w.p
	mark := len(w.recs)
	var (
		object                          string
		objectNil                       = true // absent or null
		id, traceID, parent, group      string
		hasData, workflow, list, errSet bool
		data                            spanData
		spanErr                         spanError
		start, end                      time.Time
		startAt, endAt                  any
	)
	m := w.shapes.record.Members()
	for {
		ok := true
		i, _ := p.Member(&m)
		switch i {
		case recObject:
			objectNil = p.Null()
			object = ""
			if !objectNil {
				object, ok = msglog.WalkName(p)
			}
		case recID:
			id, ok = msglog.WalkStr(p)
		case recTraceID:
			traceID, ok = msglog.WalkName(p)
		case recParent:
			parent, ok = msglog.WalkName(p)
		case recGroup:
			group, ok = msglog.WalkName(p)
		case recStarted:
			start, startAt, ok = readTime(p)
		case recEnded:
			end, endAt, ok = readTime(p)
		case recWorkflow:
			workflow = !p.Null()
			if workflow {
				ok = p.Skip()
			}
		case recSpanData:
			hasData = !p.Null()
			data = spanData{}
			if hasData {
				ok = w.spanData(&data)
			}
		case recError:
			errSet = !p.Null()
			spanErr = spanError{}
			if errSet {
				ok = readError(p, &spanErr)
			}
		case recData:
			// The last "data" is the one a map holds: the records of
			// another before it are dropped.
			clear(w.recs[mark:])
			w.recs = w.recs[:mark]
			list = p.Peek() == '['
			if list {
				ok = p.Array(w.value)
			} else {
				ok = p.Skip()
			}
		case jsonv.Other:
			ok = p.Skip()
		case jsonv.End:
			if list && objectNil {
				return true // a payload: its list's records
			}
			clear(w.recs[mark:])
			w.recs = w.recs[:mark]
			switch {
			case object == "trace" || (!hasData && workflow):
				w.recs = append(w.recs, agentRecord{kind: traceRecord, id: id, group: group})
			case hasData || object == "trace.span":
				s := &agentSpan{id: id, traceID: traceID, parent: parent, data: data,
					start: start, end: end, startAt: startAt, endAt: endAt}
				if errSet {
					s.err = &spanErr
				}
				w.recs = append(w.recs, agentRecord{kind: spanRecord, span: s})
			default:
				w.recs = append(w.recs, agentRecord{kind: junkRecord})
			}
			return true
		default:
			return false
		}
		if !ok {
			return false
		}
	}
}

// spanData reads a span's span_data: no field of it when it is not an
// object.
func (w *agentsWalker) spanData(d *spanData) bool {
	p := &w.p
	if p.Peek() != '{' {
		return p.Skip()
	}
	m := w.shapes.data.Members()
	for {
		ok := true
		i, _ := p.Member(&m)
		switch i {
		case dataType:
			d.typ, ok = msglog.WalkName(p)
		case dataName:
			d.name, ok = msglog.WalkName(p)
		case dataInput:
			d.input, ok = p.Value()
		case dataOutput:
			d.output, ok = p.Value()
		case dataUsage:
			d.usage, ok = p.Value()
		case dataFrom:
			d.from, ok = msglog.WalkName(p)
		case dataTo:
			d.to, ok = msglog.WalkName(p)
		case jsonv.Other:
			ok = p.Skip()
		case jsonv.End:
			return true
		default:
			return false
		}
		if !ok {
			return false
		}
	}
}

// readTime reads a span's time as msglog.ParseTime reads it decoded: a
// string it reads is read now; any other value but null (which is no
// time) is handed back in at, for ParseTime to read and warn of when the
// span is taken.
func readTime(p *jsonv.Parser) (t time.Time, at any, ok bool) {
	if p.Null() {
		return t, nil, true
	}
	if p.Peek() != '"' {
		at, ok = p.Value()
		return t, at, ok
	}
	b, ok := msglog.WalkTimeText(p)
	if !ok {
		return t, nil, false
	}
	if len(b) == 0 {
		return t, nil, true
	}
	if t, ok := msglog.ISOTime(b); ok {
		return t, nil, true
	}
	s := string(b)
	failed := false
	t = msglog.ParseTime(s, func(string) { failed = true })
	if failed {
		return t, s, true
	}
	return t, nil, true
}

// readError reads a span's error: an object's message and data.error,
// as msglog.Str reads them; any other value as fmt.Sprint writes it
// decoded.
func readError(p *jsonv.Parser, e *spanError) bool {
	if p.Peek() != '{' {
		v, ok := p.Value()
		e.message = fmt.Sprint(v)
		return ok
	}
	m := errorNames.Members()
	for {
		ok := true
		switch i, _ := p.Member(&m); i {
		case 0:
			e.message, ok = msglog.WalkStr(p)
		case 1:
			e.data, ok = readErrorData(p)
		case jsonv.Other:
			ok = p.Skip()
		case jsonv.End:
			return true
		default:
			return false
		}
		if !ok {
			return false
		}
	}
}

// readErrorData reads an error's data: its error as msglog.Str reads it,
// "" when data is not an object.
func readErrorData(p *jsonv.Parser) (string, bool) {
	if p.Peek() != '{' {
		return "", p.Skip()
	}
	e := ""
	m := errorData.Members()
	for {
		ok := true
		switch i, _ := p.Member(&m); i {
		case 0:
			e, ok = msglog.WalkStr(p)
		case jsonv.Other:
			ok = p.Skip()
		case jsonv.End:
			return e, true
		default:
			return e, false
		}
		if !ok {
			return e, false
		}
	}
}
