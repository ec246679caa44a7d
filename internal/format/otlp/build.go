package otlp

import (
	"cmp"
	"context"
	"math"
	"slices"
	"strings"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/jsonv"
)

// A step is a trajectory step while it is being built.
type step struct {
	trajeval.Step
	turn, pos, sub int
	at, end        uint64 // issue time and end, for ordering
	span           *span  // the tool span, nil for a call seen only in a chat message
	trace          int
	hasArgs        bool
	mentioned      bool // named in a chat message, so its batch is known
	batch          *[]*step
}

// emit builds the trajectories from the spans read and yields them one at
// a time, dropping each trace's spans once its trajectory is built.
func (r *reader) emit(ctx context.Context, yield func(*trajeval.Trajectory) error) error {
	if r.nspans == 0 {
		return &trajeval.TraceError{File: r.in.Name, Msg: "no spans in the file", Err: trajeval.ErrEmptyTrace}
	}
	r.seen = nil
	type group struct {
		id     string
		traces []*traceBuf
	}
	var groups []*group
	byConv := map[string]*group{}
	for _, tb := range r.traces {
		slices.SortFunc(tb.spans, func(a, b *span) int {
			return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(a.end, b.end), cmp.Compare(a.pos, b.pos))
		})
		if tb.conv == "" {
			groups = append(groups, &group{id: traceIDString(tb.id), traces: []*traceBuf{tb}})
			continue
		}
		g := byConv[tb.conv]
		if g == nil {
			g = &group{id: tb.conv}
			byConv[tb.conv] = g
			groups = append(groups, g)
		}
		g.traces = append(g.traces, tb)
	}
	order := func(a, b *traceBuf) int {
		return cmp.Or(cmp.Compare(a.start(), b.start()), cmp.Compare(a.pos, b.pos))
	}
	for _, g := range groups {
		slices.SortFunc(g.traces, order)
	}
	slices.SortFunc(groups, func(a, b *group) int { return order(a.traces[0], b.traces[0]) })
	for _, g := range groups {
		if err := ctx.Err(); err != nil {
			return err
		}
		t := r.build(g.id, g.traces)
		for _, tb := range g.traces {
			delete(r.traces, tb.id)
		}
		if err := yield(t); err != nil {
			return err
		}
	}
	return nil
}

func traceIDString(id pcommon.TraceID) string {
	if id.IsEmpty() {
		return ""
	}
	return id.String()
}

// start is the trace's first known start time (the first span's, as spans
// are sorted).
func (tb *traceBuf) start() uint64 {
	for _, s := range tb.spans {
		if s.start != 0 {
			return s.start
		}
	}
	return 0
}

// A builder holds what building one trajectory of traces needs: the steps
// made so far, found by call id, and the calls each message issued
// together.
type builder struct {
	r       *reader
	traces  []*traceBuf
	results map[string]lazy // tool results by call id, the first of each
	steps   []*step
	byID    map[string]*step
	batches []*[]*step
	agents  []func(*span) (string, bool) // per trace: the agent a span runs in
	byIDs   []map[pcommon.SpanID]*span   // per trace: its spans by id
	turnOf  map[*span]int                // a chat span's turn, or nil: one turn per trace
}

// build makes one trajectory of traces, one turn per trace (or, for traces
// of chat spans alone, one turn per user message). It:
//  1. makes a step of every tool span;
//  2. adds the calls the chat spans' messages issued (and, with chat spans
//     alone, those their histories replay), matching them to tool spans by
//     call id or, without one, by name;
//  3. gives each step its result from a tool result of the same call id;
//  4. orders the steps and numbers the calls issued together;
//  5. sets the turns, the agents and the run's metrics.
func (r *reader) build(id string, traces []*traceBuf) *trajeval.Trajectory {
	t := &trajeval.Trajectory{ID: id}
	b := &builder{r: r, traces: traces, results: firstResults(traces), byID: map[string]*step{}}
	b.agents = make([]func(*span) (string, bool), len(traces))
	b.byIDs = make([]map[pcommon.SpanID]*span, len(traces))
	for ti, tb := range traces {
		b.byIDs[ti] = spanIndex(tb)
		b.agents[ti] = agentFinder(tb, b.byIDs[ti])
	}
	chatTurns, turnOf := userTurns(traces)
	b.turnOf = turnOf

	// Tool spans first, so that a chat message's call finds its span
	// wherever the two sit in the file.
	b.toolSteps()
	b.chatBatches()
	b.attachResults(t.ID)
	b.batches = append(b.batches, overlapping(b.steps)...)
	t.Steps = b.ordered()
	t.Turns = chatTurns
	b.finish(t)
	b.unrecorded(t)
	t.Finish()
	return t
}

// unrecorded marks t partial, with a warning, when a trace of it has a
// chat span that ended to call tools and no step: the calls the model
// asked for are not in the file. Instrumentations that record messages
// as log events, not span attributes (the OpenTelemetry instrumentation
// of the OpenAI client), or not at all (content capture off), write such
// traces; read as they are, they would be runs that called no tool.
func (b *builder) unrecorded(t *trajeval.Trajectory) {
	with := map[int]bool{}
	for _, st := range b.steps {
		with[st.trace] = true
	}
	for ti, tb := range b.traces {
		if with[ti] {
			continue
		}
		for _, s := range tb.spans {
			if s.role == roleChat && s.asked != "" {
				b.r.warnf(s.line, placeOf(s.id), "a chat span ended to call tools (finish reason %q), but the trace records no call: the instrumentation keeps messages out of spans (as log events) or did not capture them; the trajectory is partial", s.asked)
				t.Partial = true
				break
			}
		}
	}
}

// firstResults returns the tool results of traces by call id, the first
// trace's where two hold one.
func firstResults(traces []*traceBuf) map[string]lazy {
	results := map[string]lazy{}
	for _, tb := range traces {
		for k, v := range tb.results {
			if _, ok := results[k]; !ok {
				results[k] = v
			}
		}
	}
	return results
}

// turn returns the turn of span s of trace ti.
func (b *builder) turn(ti int, s *span) int {
	if b.turnOf != nil {
		return b.turnOf[s]
	}
	return ti + 1
}

// toolSteps makes a step of every tool span, keeping the first of two
// spans with one call id.
func (b *builder) toolSteps() {
	r := b.r
	for ti, tb := range b.traces {
		for _, s := range tb.spans {
			if s.role != roleTool {
				continue
			}
			c := s.tool
			if c.id != "" && b.byID[c.id] != nil {
				r.warnf(s.line, placeOf(s.id), "call id %q is used by another tool span too; kept the first", c.id)
				continue
			}
			st := &step{turn: b.turn(ti, s), pos: s.pos, at: s.start, end: s.end, span: s, trace: ti, hasArgs: c.hasArgs}
			st.Step = trajeval.Step{
				Turn: st.turn, ID: c.id, Name: c.name, Args: r.args(c, s),
				StartTime: timeOf(s.start), EndTime: timeOf(s.end),
			}
			st.Agent, _ = b.agents[ti](s)
			var failed bool
			if c.hasResult {
				st.Result, failed = c.resultValue()
			}
			switch {
			case s.failed || failed:
				st.Error = ptr(true)
				st.ErrorMessage, st.Result = failure(s.errMsg, st.Result)
			case s.end != 0:
				st.Error = ptr(false)
			}
			if c.name == "" {
				r.warnf(s.line, placeOf(s.id), "tool span has no tool name")
			}
			if c.id != "" {
				b.byID[c.id] = st
			}
			b.steps = append(b.steps, st)
		}
	}
}

// chatBatches adds the calls of every chat span's messages, in the order
// the spans issued them, and, with chat spans alone, the calls their
// histories replay: a call that no output holds (its chat span lost, or not
// recorded) is still known from the histories, issued before the first
// chat span that holds it.
func (b *builder) chatBatches() {
	for ti, tb := range b.traces {
		chats := slices.DeleteFunc(slices.Clone(tb.spans), func(s *span) bool { return s.role != roleChat || len(s.batches) == 0 })
		slices.SortStableFunc(chats, func(a, b *span) int { return cmp.Compare(issued(a), issued(b)) })
		for _, s := range chats {
			for _, calls := range s.batches {
				b.addBatch(ti, s, calls, issued(s))
			}
		}
	}
	if b.turnOf == nil {
		return
	}
	for ti, tb := range b.traces {
		if tb.history == nil {
			continue
		}
		for _, hb := range tb.history.batches {
			b.addBatch(ti, hb.chat, hb.calls, hb.chat.start)
		}
	}
}

// addBatch adds the calls of one message of chat span s of trace ti,
// issued at at: a call with a tool span (by id, or by name without one)
// joins its step; any other becomes a step of its own. Two or more calls
// new to a batch are issued together.
func (b *builder) addBatch(ti int, s *span, calls []call, at uint64) {
	r := b.r
	var members []*step
	for _, c := range calls {
		st := b.byID[c.id]
		if st == nil {
			st = unnamedSpan(b.steps, ti, s, &c)
			if st != nil && c.id != "" {
				st.ID = c.id
				b.byID[c.id] = st
			}
		}
		if st != nil {
			if !st.hasArgs && c.hasArgs {
				st.Args, st.hasArgs = r.args(&c, s), true
			}
			st.mentioned = true
			if st.batch == nil {
				members = append(members, st)
			}
			continue
		}
		st = &step{turn: b.turn(ti, s), pos: s.pos, sub: c.sub, at: at, end: at, trace: ti, hasArgs: c.hasArgs, mentioned: true}
		st.Step = trajeval.Step{Turn: st.turn, ID: c.id, Name: c.name, Args: r.args(&c, s)}
		st.Agent, _ = b.agents[ti](s)
		if c.name == "" {
			r.warnf(s.line, placeOf(s.id), "a tool call in the messages has no name")
		}
		if c.id != "" {
			b.byID[c.id] = st
		}
		b.steps = append(b.steps, st)
		members = append(members, st)
	}
	if len(calls) >= 2 && len(members) >= 2 {
		batch := members
		b.batches = append(b.batches, &batch)
		for _, st := range members {
			st.batch = &batch
		}
	}
}

// attachResults gives each step without a result or failure the tool
// result of its call id, and warns of results whose call is not in the
// trajectory called id.
func (b *builder) attachResults(id string) {
	for cid, st := range b.byID {
		if st.Result == nil && !st.Failed() {
			if res, ok := b.results[cid]; ok {
				st.Result = result(res.value())
			}
		}
	}
	for _, cid := range sortedStrings(b.results) {
		if b.byID[cid] == nil {
			b.r.warnf(0, "trajectory "+id, "a tool result for call id %q has no call", cid)
		}
	}
}

// ordered returns the steps in issue order: by turn, issue time, end and
// place in the file, except that the calls of one message keep the
// message's order within the slots they were sorted into. Calls issued
// together share a ParallelGroup, numbered from 1 in that order.
func (b *builder) ordered() []trajeval.Step {
	steps := b.steps
	slices.SortStableFunc(steps, func(a, b *step) int {
		return cmp.Or(cmp.Compare(a.turn, b.turn), cmp.Compare(a.at, b.at), cmp.Compare(a.end, b.end),
			cmp.Compare(a.pos, b.pos), cmp.Compare(a.sub, b.sub))
	})
	slot := make(map[*step]int, len(steps))
	for i, st := range steps {
		slot[st] = i
	}
	for _, batch := range b.batches {
		idx := make([]int, len(*batch))
		for i, st := range *batch {
			idx[i] = slot[st]
		}
		slices.Sort(idx)
		for i, st := range *batch {
			steps[idx[i]] = st
		}
	}
	var out []trajeval.Step
	group := map[*[]*step]int{}
	for _, st := range steps {
		if st.batch != nil {
			if group[st.batch] == 0 {
				group[st.batch] = len(group) + 1
			}
			st.ParallelGroup = group[st.batch]
		}
		out = append(out, st.Step)
	}
	return out
}

// finish sets t's turns (one per trace, unless the chat spans gave them),
// its agents (an agent span inside another agent's span was invoked by it)
// and its metrics: the traces' summed duration and token usage.
func (b *builder) finish(t *trajeval.Trajectory) {
	var dur float64
	var hasDur bool
	var use usageSum
	for ti, tb := range b.traces {
		if b.turnOf == nil {
			turn := trajeval.Turn{User: tb.chatUser, FinalResponse: tb.chatFinal}
			if top := topAgent(tb, b.agents[ti]); top != nil {
				turn.User = cmp.Or(top.user, turn.User)
				turn.FinalResponse = cmp.Or(top.final, turn.FinalResponse)
			}
			t.Turns = append(t.Turns, turn)
		}
		if d, ok := tb.duration(); ok {
			dur, hasDur = dur+d, true
		}
		use.addTrace(tb, b.byIDs[ti])
		for _, s := range tb.spans {
			if s.role == roleAgent && s.agent != "" {
				parent, _ := b.agents[ti](s)
				t.Agents = append(t.Agents, trajeval.Agent{Name: s.agent, Parent: parent})
			}
		}
	}
	if hasDur {
		t.Metrics.DurationMS = &dur
	}
	use.set(&t.Metrics)
}

// userTurns returns the turns of a conversation read from chat spans
// alone, and the turn of each chat span; nil when the traces have a tool or
// agent span (each trace is then a turn) or no chat span's input has a
// user message. A chat span's input replays the conversation so far, so a
// turn is a user message, not a span: chat spans are taken in start order,
// and one whose last user message (its text, and how many user messages
// precede it) was not seen before starts a turn. One whose input has no
// user message stays in the current turn.
func userTurns(traces []*traceBuf) ([]trajeval.Turn, map[*span]int) {
	var chats []*span
	hasUser := false
	for _, tb := range traces {
		for _, s := range tb.spans {
			switch s.role {
			case roleTool, roleAgent:
				return nil, nil
			case roleChat:
				chats = append(chats, s)
				hasUser = hasUser || s.user != nil
			}
		}
	}
	if !hasUser {
		return nil, nil
	}
	slices.SortStableFunc(chats, func(a, b *span) int {
		return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(a.end, b.end), cmp.Compare(a.pos, b.pos))
	})
	type key struct {
		n    int
		text string
	}
	var turns []trajeval.Turn
	seen := map[key]int{}
	turnOf := make(map[*span]int, len(chats))
	cur := 0
	for _, s := range chats {
		switch {
		case s.user != nil:
			k := key{s.nUser, *s.user}
			if seen[k] == 0 {
				turns = append(turns, trajeval.Turn{User: s.user})
				seen[k] = len(turns)
			}
			cur = seen[k]
		case cur == 0:
			turns = append(turns, trajeval.Turn{})
			cur = len(turns)
		}
		turnOf[s] = cur
		if s.final != nil {
			turns[cur-1].FinalResponse = s.final
		}
	}
	return turns, turnOf
}

// failure gives a failed tool span's error message and result: the
// message is the span's own (status, exception, error.type), else the text
// the tool returned; a result that only repeats the message is no result.
func failure(msg string, res any) (string, any) {
	text, isText := res.(string)
	switch {
	case !isText:
		return msg, res
	case msg == "":
		return text, nil
	case strings.TrimSpace(text) == strings.TrimSpace(msg):
		return msg, nil
	}
	return msg, res
}

// unnamedSpan finds the tool span a chat call without a matching id was
// made as: the earliest step of trace ti from a tool span with no call id
// and the call's name, that starts after the chat span started and is not
// named in a message yet. Instrumentations that do not record
// gen_ai.tool.call.id would otherwise show each call twice.
func unnamedSpan(steps []*step, ti int, chat *span, c *call) *step {
	var best *step
	var bestSame bool
	var want any
	if c.hasArgs {
		want = args(c.args.value(), c.name, func(string, ...any) {})
	}
	for _, st := range steps {
		if st.span == nil || st.trace != ti || st.span.tool.id != "" || st.mentioned || st.Name != c.name || st.at < chat.start {
			continue
		}
		// A span with the same arguments is preferred, then the earliest.
		same := c.hasArgs && jsonv.Equal(want, st.Args)
		if best == nil || (same && !bestSame) || (same == bestSame && (st.at < best.at || (st.at == best.at && st.pos < best.pos))) {
			best, bestSame = st, same
		}
	}
	return best
}

// args decodes a call's arguments, s being the span it was read from.
func (r *reader) args(c *call, s *span) any {
	if !c.hasArgs {
		return map[string]any{}
	}
	return args(c.args.value(), c.name, func(format string, a ...any) {
		r.warnf(s.line, placeOf(s.id), format, a...)
	})
}

// overlapping groups the tool spans that no chat message accounts for:
// siblings under one parent that overlap in time were issued together.
func overlapping(steps []*step) []*[]*step {
	type family struct {
		trace  int
		parent pcommon.SpanID
	}
	fams := map[family][]*step{}
	var keys []family
	for _, st := range steps {
		if st.span == nil || st.mentioned || st.batch != nil || st.span.end == 0 {
			continue
		}
		f := family{st.trace, st.span.parent}
		if fams[f] == nil {
			keys = append(keys, f)
		}
		fams[f] = append(fams[f], st)
	}
	var out []*[]*step
	for _, f := range keys {
		sibs := fams[f]
		slices.SortStableFunc(sibs, func(a, b *step) int {
			return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(a.end, b.end), cmp.Compare(a.pos, b.pos))
		})
		var cur []*step
		var maxEnd uint64
		flush := func() {
			if len(cur) >= 2 {
				b := cur
				out = append(out, &b)
				for _, st := range b {
					st.batch = &b
				}
			}
			cur = nil
		}
		for _, st := range sibs {
			if len(cur) > 0 && st.at >= maxEnd {
				flush()
			}
			if len(cur) == 0 {
				maxEnd = 0
			}
			cur = append(cur, st)
			maxEnd = max(maxEnd, st.end)
		}
		flush()
	}
	return out
}

// spanIndex maps the span ids of tb to its spans (the first, for an id
// used twice).
func spanIndex(tb *traceBuf) map[pcommon.SpanID]*span {
	byID := make(map[pcommon.SpanID]*span, len(tb.spans))
	for _, s := range tb.spans {
		if _, dup := byID[s.id]; !dup {
			byID[s.id] = s
		}
	}
	return byID
}

// agentFinder returns a function giving the name of the nearest agent span
// enclosing a span of tb (the span itself excluded).
func agentFinder(tb *traceBuf, byID map[pcommon.SpanID]*span) func(*span) (string, bool) {
	return func(s *span) (string, bool) {
		// The walk is bounded: parent links may form a cycle in bad input.
		for range len(tb.spans) {
			if s.parent.IsEmpty() {
				return "", false
			}
			p := byID[s.parent]
			if p == nil {
				return "", false
			}
			if p.role == roleAgent {
				return p.agent, true
			}
			s = p
		}
		return "", false
	}
}

// topAgent returns the earliest agent span with no agent above it.
func topAgent(tb *traceBuf, agentOf func(*span) (string, bool)) *span {
	for _, s := range tb.spans {
		if s.role != roleAgent {
			continue
		}
		if _, nested := agentOf(s); !nested {
			return s
		}
	}
	return nil
}

// duration is the trace's first start to its last end, in milliseconds.
func (tb *traceBuf) duration() (float64, bool) {
	var first, last uint64
	for _, s := range tb.spans {
		if s.start != 0 && (first == 0 || s.start < first) {
			first = s.start
		}
		last = max(last, s.end)
	}
	if first == 0 || last < first {
		return 0, false
	}
	return float64(last-first) / 1e6, true
}

// issued is when a chat span's calls were issued: when its response came.
func issued(s *span) uint64 {
	if s.end != 0 {
		return s.end
	}
	return s.start
}

func timeOf(ns uint64) time.Time {
	if ns == 0 || ns > math.MaxInt64 {
		return time.Time{}
	}
	return time.Unix(0, int64(ns)).UTC()
}

func ptr[T any](v T) *T { return &v }

func sortedStrings[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
