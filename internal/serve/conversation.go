package serve

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/format/otlp"
)

// Conversations is a policy's conversations: setting. With it, the traces
// of one conversation are joined into one trajectory, a turn per trace, as
// trajeval eval joins them in a file:
//  1. A done trace whose spans carry a conversation key
//     (gen_ai.conversation.id, else session.id, on a span or its
//     resource, read as package otlp reads it) is a turn of that
//     conversation, and is held. A trace without a key is scored alone.
//  2. A conversation is done Idle after its last turn was done, when it
//     holds MaxTurns turns, or at shutdown. Its turns then become one
//     trajectory by the rules that read an OTLP file (package otlp), as
//     a file holding their spans would give it.
//  3. Its row's id is the conversation key; the row lists the trace ids
//     of its turns in start-time order, the last one's trace and root
//     span are its log events'. A conversation with a turn whose root
//     span never came is incomplete, as a trace is: status error, never
//     a pass.
//  4. A turn done after its conversation was scored starts the
//     conversation anew: a new row, with the same id, whose warnings say
//     so. It is counted as a late turn while the server remembers the
//     scored conversation: for Idle after it was scored, or Config.Idle
//     if that is longer (as it remembers a scored trace's id).
//  5. A span of a turn's trace that comes while the turn is held joins
//     it, as it would have joined the trace before it was done: a span
//     whose id the turn holds is dropped as a duplicate, the span is
//     counted against Config.MaxSpans and Config.MaxBytes, and a root
//     span makes an incomplete turn complete. It does not delay the
//     conversation, and with ScoreTurns the turn's own row, scored when
//     it was done, goes without it. Once the conversation is scored,
//     its turns' spans are late, and dropped, for as long as the server
//     remembers the scored conversation (rule 4).
//  6. Held turns keep their spans counted against Config.MaxSpans and
//     Config.MaxBytes. When the spans or their bytes held pass nine
//     tenths of either, the conversations waiting longest are scored at
//     once, with a warning, so that held conversations cannot make the
//     server refuse new traces for long.
//  7. With ScoreTurns, each turn is also scored alone, as without
//     conversations: a row per trace, and one per conversation.
type Conversations struct {
	// Idle is how long a conversation waits for its next turn (default 5m).
	Idle time.Duration
	// MaxTurns scores a conversation once it holds this many turns
	// (default 100).
	MaxTurns int
	// ScoreTurns also scores each turn alone (default false).
	ScoreTurns bool
}

// Defaults of [Conversations].
const (
	defaultConvIdle     = 5 * time.Minute
	defaultConvMaxTurns = 100
)

// takeConversations reads and removes the conversations: key of the
// policy's root map, which the AgentV loader does not know. It takes a
// map of settings, or true for the defaults; false, or no key, leaves
// conversations off (nil).
func takeConversations(root *config.Node) (*Conversations, error) {
	i := slices.IndexFunc(root.Entries, func(e config.Entry) bool { return config.Canon(e.Key) == "conversations" })
	if i < 0 {
		return nil, nil
	}
	v := root.Entries[i].Value
	root.Entries = slices.Delete(slices.Clone(root.Entries), i, i+1)
	c := &Conversations{Idle: defaultConvIdle, MaxTurns: defaultConvMaxTurns}
	if v.Kind == config.Bool {
		on, err := v.BoolValue()
		if err != nil || !on {
			return nil, err
		}
		return c, nil
	}
	if v.Kind != config.Map {
		return nil, v.Errorf("conversations is a map of settings, or true, got %s", v.Kind).
			With("e.g. conversations: {idle: 5m, max_turns: 100}")
	}
	var raw struct {
		Idle       *time.Duration
		MaxTurns   *int
		ScoreTurns bool
	}
	if err := config.Decode(v, &raw); err != nil {
		return nil, err
	}
	if raw.Idle != nil {
		if *raw.Idle <= 0 {
			return nil, v.Get("idle").Errorf("conversations.idle must be longer than 0, got %s", *raw.Idle).With("e.g. 5m")
		}
		c.Idle = *raw.Idle
	}
	if raw.MaxTurns != nil {
		if *raw.MaxTurns < 1 {
			return nil, v.Get("max_turns").Errorf("conversations.max_turns must be at least 1, got %d", *raw.MaxTurns)
		}
		c.MaxTurns = *raw.MaxTurns
	}
	c.ScoreTurns = raw.ScoreTurns
	return c, nil
}

// A conversation is the done turns of one conversation key, held until
// the conversation is done.
type conversation struct {
	key   string
	turns []*pending // in the order they were done
	last  time.Time  // when its last turn was done
	// resumed is set when the key's conversation was scored before: this
	// is its next instance.
	resumed bool
	// early is set when it was scored before its idle ended, to free spans.
	early bool
}

// convState is the server's conversations, guarded by Server.mu.
type convState struct {
	cfg  Conversations
	open map[string]*conversation
	// turns holds the turns of the open conversations, by trace id, for
	// the spans that come after their trace was done (rule 5).
	turns map[pcommon.TraceID]*pending
	// done remembers the trace ids of the turns of scored conversations,
	// as long as scored remembers the conversation, and when it was
	// scored.
	done map[pcommon.TraceID]time.Time
	// scored remembers the keys of scored conversations, for cfg.Idle, to
	// tell a late turn (rule 4); scoredQ holds them oldest first.
	scored  map[string]time.Time
	scoredQ []scoredKey
}

type scoredKey struct {
	key   string
	at    time.Time
	turns []pcommon.TraceID
}

func newConvState(cfg *Conversations) *convState {
	if cfg == nil {
		return nil
	}
	return &convState{cfg: *cfg, open: map[string]*conversation{}, turns: map[pcommon.TraceID]*pending{},
		done: map[pcommon.TraceID]time.Time{}, scored: map[string]time.Time{}}
}

// hand queues the done trace p to be scored or, when it is a turn of a
// conversation, holds it there (rule 1 of [Conversations]). s.mu is held.
func (s *Server) hand(p *pending, now time.Time) {
	cs := s.convs
	key := ""
	if cs != nil {
		key = otlp.ConversationKey(p.td)
	}
	if key == "" {
		s.ready = append(s.ready, p)
		return
	}
	if cs.cfg.ScoreTurns {
		alone := *p
		alone.spans, alone.bytes = 0, 0 // held, and freed, by the conversation
		s.ready = append(s.ready, &alone)
	}
	c := cs.open[key]
	if c == nil {
		c = &conversation{key: key}
		if _, ok := cs.scored[key]; ok {
			c.resumed = true
			s.metrics.add(&s.metrics.convTurnsLate, 1)
		}
		cs.open[key] = c
	}
	s.metrics.add(&s.metrics.convTurns, 1)
	// Spans that come from now on go to p.later (rule 5): p.td may be
	// being scored as the turn's own row.
	p.later = ptrace.NewTraces()
	cs.turns[p.id] = p
	c.turns = append(c.turns, p)
	c.last = now
	if len(c.turns) >= cs.cfg.MaxTurns {
		s.queueConversation(c, now)
	}
}

// turnOf returns the turn of trace id held in an open conversation, if
// any, and whether trace id was a turn of a conversation scored (rule 5
// of [Conversations]). s.mu is held.
func (s *Server) turnOf(id pcommon.TraceID) (held *pending, late bool) {
	if s.convs == nil {
		return nil, false
	}
	if p := s.convs.turns[id]; p != nil {
		return p, false
	}
	_, late = s.convs.done[id]
	return nil, late
}

// joined counts a span that Ingest added to the held turn p (rule 5 of
// [Conversations]); the server's counts and p's are Ingest's. s.mu is
// held.
func (s *Server) joined(p *pending) {
	p.incomplete = p.rootAt.IsZero()
	s.metrics.add(&s.metrics.convSpansJoined, 1)
}

// flushConversations queues the conversations done at now (rules 2 and
// 6 of [Conversations]), or all of them, and forgets the keys scored
// longer than Idle ago, with their turns. Like moveDone, it leaves them
// waiting while the queue is full, unless all. s.mu is held.
func (s *Server) flushConversations(now time.Time, all bool) {
	cs := s.convs
	if cs == nil {
		return
	}
	n := 0
	for n < len(cs.scoredQ) && now.Sub(cs.scoredQ[n].at) > max(cs.cfg.Idle, s.cfg.Idle) {
		sk := cs.scoredQ[n]
		if cs.scored[sk.key] == sk.at {
			delete(cs.scored, sk.key)
		}
		for _, id := range sk.turns {
			if cs.done[id] == sk.at {
				delete(cs.done, id)
			}
		}
		n++
	}
	cs.scoredQ = cs.scoredQ[n:]
	moved := false
	for _, c := range cs.open {
		if !all && len(s.ready) >= s.cfg.Queue {
			break
		}
		if all || now.Sub(c.last) >= cs.cfg.Idle {
			s.queueConversation(c, now)
			moved = true
		}
	}
	// Rule 6: free the spans of the conversations waiting longest. The
	// spans of what is queued are freed soon, and count as freed.
	byBytes := s.cfg.MaxBytes > 0 && s.bytes*10 > s.cfg.MaxBytes*9
	if !all && (s.held*10 > s.cfg.MaxSpans*9 || byBytes) && len(cs.open) > 0 {
		free := s.held - s.cfg.MaxSpans*9/10
		freeBytes := s.bytes - s.cfg.MaxBytes*9/10
		for _, p := range s.ready {
			free -= p.spans
			freeBytes -= p.bytes
		}
		waiting := make([]*conversation, 0, len(cs.open))
		for _, c := range cs.open {
			waiting = append(waiting, c)
		}
		slices.SortFunc(waiting, func(a, b *conversation) int { return a.last.Compare(b.last) })
		for _, c := range waiting {
			if free <= 0 && (!byBytes || freeBytes <= 0) || len(s.ready) >= s.cfg.Queue {
				break
			}
			c.early = true
			s.queueConversation(c, now)
			spans, bytes := c.held()
			free -= spans
			freeBytes -= bytes
			moved = true
		}
	}
	if moved {
		s.cond.Broadcast()
	}
}

// queueConversation closes c and queues it to be scored as one pending
// item whose spans are its turns'. s.mu is held.
func (s *Server) queueConversation(c *conversation, now time.Time) {
	cs := s.convs
	delete(cs.open, c.key)
	cs.scored[c.key] = now
	// From now on the turns' spans are late (rule 5).
	ids := make([]pcommon.TraceID, len(c.turns))
	for i, t := range c.turns {
		delete(cs.turns, t.id)
		cs.done[t.id] = now
		ids[i] = t.id
	}
	cs.scoredQ = append(cs.scoredQ, scoredKey{c.key, now, ids})
	// Turns in the order a file's would be read: by start time.
	starts := make(map[*pending]uint64, len(c.turns))
	for _, t := range c.turns {
		starts[t] = startOf(t.td, t.later)
	}
	slices.SortStableFunc(c.turns, func(a, b *pending) int { return cmp.Compare(starts[a], starts[b]) })
	last := c.turns[len(c.turns)-1]
	spans, bytes := c.held()
	p := &pending{id: last.id, rootSpan: last.rootSpan, spans: spans, bytes: bytes, conv: c}
	for _, t := range c.turns {
		p.incomplete = p.incomplete || t.incomplete
	}
	s.ready = append(s.ready, p)
	s.cond.Broadcast()
}

// held returns the spans c's turns hold, and their bytes: Ingest counts
// those that join a held turn in the turn (rule 5 of [Conversations]).
func (c *conversation) held() (spans int, bytes int64) {
	for _, t := range c.turns {
		spans += t.spans
		bytes += t.bytes
	}
	return spans, bytes
}

// startOf is the earliest start time of a span of tds that has one, as
// package otlp orders the turns of a conversation; 0 when none has one.
func startOf(tds ...ptrace.Traces) uint64 {
	var first uint64
	for _, td := range tds {
		for sp := range allSpans(td) {
			if st := uint64(sp.StartTimestamp()); st != 0 && (first == 0 || st < first) {
				first = st
			}
		}
	}
	return first
}

// openConversations is the number of conversations held, for the
// metrics.
func (s *Server) openConversations() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.convs == nil {
		return 0
	}
	return len(s.convs.open)
}

// conversationWarnings says what a conversation's row must say about how
// it was gathered.
func conversationWarnings(c *conversation) []string {
	var w []string
	if c.resumed {
		w = append(w, fmt.Sprintf("conversation %s went on after it was scored: this row holds its turns from then on; an earlier row holds the turns before", c.key))
	}
	if c.early {
		w = append(w, fmt.Sprintf("conversation %s was scored before it was idle, to free memory (the spans held neared their bound in spans or bytes: --max-spans or --max-bytes, in a Collector max_spans or max_bytes); its later turns start a new row", c.key))
	}
	for _, t := range c.turns {
		if t.incomplete {
			w = append(w, fmt.Sprintf("turn trace %s: its root span never arrived, so the turn may be incomplete", t.id))
		}
	}
	return w
}

// matchList is [Selector.Match] for the spans of several traces taken
// together: each key must match some span of one of them.
func (s Selector) matchList(tds []ptrace.Traces) bool {
	for _, m := range s {
		if !slices.ContainsFunc(tds, m.matches) {
			return false
		}
	}
	return true
}

// scoreDone scores p, a done trace or conversation.
func (s *Server) scoreDone(ctx context.Context, p *pending) (trajeval.CaseResult, bool) {
	c := p.conv
	if c == nil {
		return s.Score(ctx, p.td, p.incomplete)
	}
	tds := make([]ptrace.Traces, 0, len(c.turns))
	ids := make([]string, len(c.turns))
	for i, t := range c.turns {
		tds, ids[i] = append(tds, t.td), t.id.String()
		if t.later.ResourceSpans().Len() > 0 {
			tds = append(tds, t.later)
		}
	}
	r, ok := s.score(ctx, tds, c.key, "conversation "+c.key, p.incomplete)
	if !ok {
		return r, false
	}
	r.TraceIDs = ids
	r.Warnings = append(conversationWarnings(c), r.Warnings...)
	return r, true
}
