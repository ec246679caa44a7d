package agentv

import (
	"encoding/json"

	"github.com/trajeval/trajeval"
)

// stepRead is what the fast path needs to read a record's calls straight
// into its trajectory's steps (see decoder.callStep), with no toolCall
// zeroed, filled and copied again by build.
//
// The rules:
//  1. A record is read so (direct set) unless one of the
//     skipAfterRetry records before it was read twice (see fastRead): a
//     producer that writes one record otherwise mostly writes the next
//     so too.
//  2. Only what build would make of a call with no warning is read so:
//     a call of AgentV's keys in AgentV's order (see callStep), its
//     error last if any, with a tool name, input that is no string, and
//     start and end times of the clock's shape; in a message whose role
//     comes first, then its calls or content, then its name if any, not
//     a user's; in a record of one list of messages whose call ids are
//     given once each. Anything else sets retry, and the record is read
//     once more into toolCalls, as build has always read them.
//  3. The steps come from the run's StepPool, as many as the record
//     before had but at most maxGuess, twice as many when more come; on
//     a retry, or an error, they are cleared and kept for the next
//     record. So a record's steps have room for at most twice its calls,
//     or maxGuess.
//  4. A step's turn is build's, counted as the messages are read (see
//     countTurn, and callStep for a message with calls); its agent and parallel group are build's, set
//     from the messages once the record is read.
//  5. What the steps point at, their flags and kept text, is noted with
//     the decoders' recycler when the record takes them (see handOver),
//     and taken over by the record whose steps the pool makes from the
//     same slice again, once its trajectory was given back (see
//     recycler).
type stepRead struct {
	direct, retry bool
	skip          int // records still read the other way (rule 1)
	pool          *trajeval.StepPool
	steps         []trajeval.Step
	// flags are what steps[flagBase:] point at; spans where the steps'
	// input and output stand in the record, for texts.
	flags    []stepFlags
	flagBase int
	spans    []callSpans
	room     int // the steps there is room for in all three
	guess    int // the steps of the record before
	// turns counts the record's turns so far, as build's; turn is the
	// current one, 0 before the first.
	turns, turn int
	// rec hands on the flags and kept text of records whose steps the
	// pool made again (see recycler); spare is what it handed this
	// decoder and the records since have not taken.
	rec   *recycler
	spare spare
}

// countTurn counts the turn a message of role opens, as build counts
// them: a user's opens the next, an assistant's the first if none is
// open. The first call of another role opens the first too (see
// callStep).
func (d *decoder) countTurn(role string) {
	switch role {
	case "user":
		d.turns++
		d.turn = d.turns
	case "assistant":
		if d.turn == 0 {
			d.turns, d.turn = 1, 1
		}
	}
}

// callSpans is where a call's input and output stand in its record.
type callSpans struct{ in, out span }

// skipAfterRetry is how many records are read the other way after one
// that was read twice (rule 1 of stepRead); maxGuess the most steps made
// for a record before its calls are read (rule 3).
const (
	skipAfterRetry = 16
	maxGuess       = 64
)

// fastRead is fastDecode reading the record's calls straight into steps
// made from pool when it can (see stepRead), else into toolCalls.
func fastRead(d *decoder, data []byte, pool *trajeval.StepPool) (record, bool) {
	d.pool = pool
	d.direct = d.skip == 0
	if !d.direct {
		d.skip--
		return fastDecode(d, data)
	}
	r, ok := fastDecode(d, data)
	if ok {
		return r, true
	}
	d.dropSteps()
	if !d.retry {
		return r, false
	}
	d.direct, d.skip = false, skipAfterRetry
	return fastDecode(d, data)
}

// again ends a record read into steps (rule 2 of stepRead): false, with
// retry set.
func (d *decoder) again() bool {
	d.retry = true
	return false
}

// dropSteps clears the steps of a record not read into them, kept for
// the next.
func (d *decoder) dropSteps() {
	clear(d.steps)
	d.steps, d.flags, d.flagBase, d.room = d.steps[:0], nil, 0, 0
}

// nextStep returns the record's next step, what it points at and where
// its texts stand (for callStep to set, not zeroed here), made as the
// record's steps grow (see grow).
func (d *decoder) nextStep() (*trajeval.Step, *stepFlags, *callSpans) {
	k := len(d.steps)
	if k >= d.room {
		d.grow()
	}
	d.steps = d.steps[:k+1]
	return &d.steps[k], &d.flags[k-d.flagBase], &d.spans[k]
}

// grow makes room for one step more: steps, their flags and spans.
func (d *decoder) grow() {
	k := len(d.steps)
	if k == cap(d.steps) {
		// As many as the record before, else twice as many as so far:
		// the pool rounds them up to a class (see trajeval.StepPool).
		s := d.pool.Make(max(min(d.guess, maxGuess), 2*k, 4))[:k]
		if sp, ok := d.rec.take(s); ok {
			d.spare = sp
		}
		copy(s, d.steps)
		d.pool.Put(d.steps)
		d.steps = s
	}
	if k-d.flagBase >= len(d.flags) {
		d.flags, d.flagBase = d.newFlags(cap(d.steps)-k), k
	}
	if k >= len(d.spans) {
		d.spans = append(d.spans[:k], make([]callSpans, cap(d.steps)-k)...)
	}
	d.room = min(cap(d.steps), d.flagBase+len(d.flags), len(d.spans))
}

// handOver ends a record read into steps: r takes them, their texts
// kept (see texts), unless a call id was given twice.
func (d *decoder) handOver(r *record) bool {
	if !d.p.End() {
		return false
	}
	if d.ids.clash && !d.distinct() {
		return d.again() // build warns of it
	}
	r.direct, r.idsDistinct = true, true
	if len(d.steps) == 0 {
		return true
	}
	var held spare
	if d.flagBase == 0 {
		held.flags = d.flags
	}
	if k := &d.kept[d.list&1]; d.keepText && k.n > 0 {
		w := d.textSlab(k)
		held.buf, held.slab = w.buf, w.slab
		for i := range d.steps {
			s, sp := &d.steps[i], &d.spans[i]
			if sp.out.same && sp.in.end > 0 {
				// The usual call (see toolCalls): no call of set.
				s.Args, s.Result = w.keep(d.data[sp.in.start:sp.in.end]), w.out
				continue
			}
			w.set(d.data, &sp.in, &sp.out, &s.Args, &s.Result)
		}
	}
	d.rec.hold(d.steps, held)
	r.steps, d.guess = d.steps, len(d.steps)
	d.steps, d.flags, d.flagBase, d.room = nil, nil, 0, 0
	return true
}

// newFlags returns n zero flags, the spare's when they are enough.
func (d *decoder) newFlags(n int) []stepFlags {
	if f := d.spare.flags; cap(f) >= n {
		d.spare.flags = nil
		f = f[:n]
		clear(f)
		return f
	}
	return make([]stepFlags, n)
}

// textSlab returns a textSlab for the text k counted, in the spare's
// memory when it is enough; made anew, it has a quarter more room, so
// that a record of somewhat more text can take it over.
func (d *decoder) textSlab(k *keptText) textSlab {
	var w textSlab
	if b := d.spare.buf; cap(b) >= k.n {
		w.buf, d.spare.buf = b[:k.n], nil
	} else {
		w.buf = make([]byte, k.n, k.n+k.n/4)
	}
	if s := d.spare.slab; cap(s) >= k.texts {
		w.slab, d.spare.slab = s[:k.texts], nil
	} else {
		w.slab = make([]json.RawMessage, k.texts, k.texts+k.texts/4)
	}
	return w
}

// distinct reports whether no two steps have one id.
func (d *decoder) distinct() bool {
	var seen seenIDs
	for i := range d.steps {
		if id := d.steps[i].ID; id != "" && seen.add(id) {
			return false
		}
	}
	return true
}

// callStep reads a call straight into the record's next step (see
// stepRead) and returns where its texts stand (toolCalls counts them),
// as AgentV writes it, compact, its keys in the order of callKeys, from
// tool to duration_ms, and no other: the bytes before each value are
// compared where they must stand with a constant (see
// jsonv.Parser.Rest), which Go compiles to a word or two compared, and
// each value is read by its key's reader with no look up of the key and
// no dispatch on it. A call written otherwise, or one build would warn
// of, ends the record's read into steps (see decoder.again).
//
// Each comparison is written out, not in a function: a constant handed
// to one is a variable there, compared by a call of runtime.memequal.
func (d *decoder) callStep() (*callSpans, bool) {
	s, f, sp := d.nextStep()
	if d.turn == 0 {
		d.turns, d.turn = 1, 1 // a call of no user's turn opens one
	}
	s.Turn = d.turn
	p := &d.p
	const (
		tool   = `{"tool":`
		id     = `,"id":`
		input  = `,"input":`
		output = `,"output":`
		status = `,"status":`
		took   = `,"duration_ms":`
	)
	if r := p.Rest(); len(r) < len(tool) || string(r[:len(tool)]) != tool || !p.TakeOpen(len(tool)) {
		return sp, d.again()
	}
	if !fastName(p, &s.Name) {
		return sp, false
	}
	if s.Name == "" {
		return sp, d.again() // build warns of it
	}
	r := p.Rest()
	if len(r) < len(id) || string(r[:len(id)]) != id {
		return sp, d.again()
	}
	p.Take(len(id))
	var v any
	var ok bool
	// The value's first byte looked at in the rest in hand: white space
	// before it is no string's quote, and Value reads it.
	if len(r) > len(id) && r[len(id)] == '"' {
		// A string, as nearly every id is: no box (see StrValue).
		if s.ID, ok = p.StrValue(); !ok {
			return sp, false
		}
		d.ids.noteString(s.ID)
	} else if v, ok = p.Value(); !ok {
		return sp, false
	} else if v != nil {
		// A number, or another value: written as JSON, as build
		// writes it, its text compared with the others' (see
		// distinct).
		d.ids.note(v)
		s.ID = idString(v)
	}
	if r = p.Rest(); len(r) < len(input) || string(r[:len(input)]) != input {
		return sp, d.again()
	}
	p.Take(len(input))
	// Arguments kept as text, as an evaluation keeps them, cost no call
	// of value (an object after white space goes to value).
	if d.keepText && len(r) > len(input) && r[len(input)] == '{' {
		var start, end int
		start, end, ok = p.Span()
		sp.in = span{start: int32(start), end: int32(end)}
	} else {
		sp.in = span{} // none, unless value keeps it
		v, ok = d.value(&sp.in, nil)
		switch v.(type) {
		case nil:
			if sp.in.end == 0 {
				s.Args = args(nil, nil, "")
			}
		case string:
			return sp, d.again() // read, and maybe warned of, by build
		default:
			s.Args = v
		}
	}
	if !ok {
		return sp, false
	}
	if r := p.Rest(); len(r) < len(output) || string(r[:len(output)]) != output {
		return sp, d.again()
	}
	p.Take(len(output))
	// The result found again, as most are, costs no call (see value);
	// with no text kept, the RecentSpan holds none.
	if start, end, again := p.SpanAgain(&d.recent.output); again {
		sp.out = span{start: int32(start), end: int32(end), again: true}
	} else {
		sp.out = span{} // none, unless value keeps it
		if s.Result, ok = d.value(&sp.out, &d.recent.output); !ok {
			return sp, false
		}
	}
	if r := p.Rest(); len(r) < len(status) || string(r[:len(status)]) != status {
		return sp, d.again()
	}
	p.Take(len(status))
	var st string
	if x, again := p.NameAgain(&d.recent.status); again {
		st = x
	} else if !recentName(p, &d.recent.status, &st) {
		return sp, false
	}
	s.Error = f.status(st)
	if x, y, ok := d.times(); ok {
		// Both of the clock's minute, as nearly all are, and the
		// duration's key read with them.
		s.StartTime, s.EndTime = startEnd(d.clock.at(x), d.clock.at(y))
	} else if !d.stampsStep(s) {
		return sp, false
	} else if r := p.Rest(); len(r) < len(took) || string(r[:len(took)]) != took {
		return sp, d.again()
	} else {
		p.Take(len(took))
	}
	x, null, ok := p.FloatOrNull()
	if !null {
		f.duration = x
		s.DurationMS = &f.duration
	}
	if !ok {
		return sp, false
	}
	if r := p.Rest(); len(r) > 0 && r[0] == '}' {
		p.TakeClose(1)
		return sp, true
	}
	return sp, d.callError(s, f)
}

// times reads a call's start and end where they stand in AgentV's
// order, and the duration's key after them,
// `,"start_time":"…","end_time":"…","duration_ms":`, when both are of
// the clock's minute and of the shape millis reads (see clock.same,
// which checks every byte of each): x and y are their tails, for
// clock.at. Anything else reads nothing (ok false), for stampsStep.
func (d *decoder) times() (x, y uint64, ok bool) {
	const (
		start = `,"start_time":"`
		end   = `","end_time":"`
		took  = `","duration_ms":`
		e     = len(start) + millisTime
		t     = e + len(end) + millisTime
		n     = t + len(took)
	)
	r := d.p.Rest()
	if len(r) < n || string(r[:len(start)]) != start || string(r[e:e+len(end)]) != end || string(r[t:n]) != took {
		return 0, 0, false
	}
	x, ok1 := d.clock.same((*[millisTime]byte)(r[len(start):e]))
	y, ok2 := d.clock.same((*[millisTime]byte)(r[e+len(end) : t]))
	if !ok1 || !ok2 {
		return 0, 0, false
	}
	d.p.Take(n)
	return x, y, true
}

// stampsStep reads a call's start and end into s where times does not:
// another minute, another shape, or not where AgentV writes them.
func (d *decoder) stampsStep(s *trajeval.Step) bool {
	const (
		start = `,"start_time":`
		end   = `,"end_time":`
	)
	p := &d.p
	if r := p.Rest(); len(r) < len(start) || string(r[:len(start)]) != start {
		return d.again()
	}
	p.Take(len(start))
	var at [2]instant
	var parsed uint8
	var text string
	if !d.stamp(&parsed, &at[0], 1, &text) {
		return false
	}
	if r := p.Rest(); len(r) < len(end) || string(r[:len(end)]) != end {
		return d.again()
	}
	p.Take(len(end))
	if !d.stamp(&parsed, &at[1], 2, &text) {
		return false
	}
	if parsed != 3 {
		return d.again() // text, or none: read, and warned of, by build
	}
	s.StartTime, s.EndTime = startEnd(at[0], at[1])
	return true
}

// callError reads the rest of a call read by callStep, its error, last
// as AgentV writes it (see stepFlags.failed), into s, whose flags are f.
func (d *decoder) callError(s *trajeval.Step, f *stepFlags) bool {
	const fail = `,"error":`
	p := &d.p
	if r := p.Rest(); len(r) < len(fail) || string(r[:len(fail)]) != fail {
		return d.again()
	}
	p.Take(len(fail))
	v, ok := p.Value()
	if !ok {
		return false
	}
	if v != nil {
		f.failed(s, v)
	}
	if r := p.Rest(); len(r) == 0 || r[0] != '}' {
		return d.again()
	}
	p.TakeClose(1)
	return true
}
