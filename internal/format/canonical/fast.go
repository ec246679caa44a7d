package canonical

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/jsonv"
)

// A fast reader reads canonical trajectories with a jsonv.Parser: no
// reflection, no token values boxed in interfaces, tool names interned.
// It is a fast path, not a reader of its own: on anything it does not read
// exactly as the parser (the strict reader, see parser) would accept it —
// broken JSON, an unknown field, a field given twice, a value of the
// wrong type, a number out of sequence or out of range, a time it cannot
// read, nesting deeper than it allows — it says no, and the caller reads
// the same bytes with the parser, whose trajectories, error or warning are
// then the answer. So for every input it accepts, its trajectories are
// those the parser gives.
//
// Asked to keep text (trajeval.Input.KeepText), it leaves each step's
// args and result that is an object or an array as its JSON text, checked
// as the parser checks it and copied out of data (see texts); the text
// decodes to the value it reads otherwise.
type fast struct {
	p        jsonv.Parser
	data     []byte // what p reads
	keepText bool
	// spans holds the places of the texts of the trajectory being read.
	spans []textSpan
}

// A textSpan is where the args (or with result, the result) of step
// (0-based) stand in the data.
type textSpan struct {
	step       int
	result     bool
	start, end int
}

// values reads every top-level value of data (trajectories, or lists of
// them) and yields each trajectory as it is read. It returns how many it
// yielded, and ok false when it stopped at something it does not read;
// an error is yield's.
func (f *fast) values(data []byte, yield func(*trajeval.Trajectory) error) (n int, ok bool, err error) {
	p := &f.p
	p.Reset(data)
	f.data = data
	defer func() { f.data = nil }() // keep no input alive
	for !p.End() {
		if p.Peek() == '[' {
			ok = p.Array(func() bool {
				if err != nil {
					return false
				}
				t, ok := f.trajectory()
				if ok {
					if err = yield(t); err == nil {
						n++
					}
				}
				return ok && err == nil
			})
		} else {
			var t *trajeval.Trajectory
			if t, ok = f.trajectory(); ok {
				if err = yield(t); err == nil {
					n++
				}
			}
		}
		if err != nil || !ok {
			return n, false, err
		}
	}
	return n, true, nil
}

// The fields of each object, as bits of a seen set.
const (
	tID = 1 << iota
	tTurns
	tSteps
	tMetrics
	tAgents
	tPartial
)

func (f *fast) trajectory() (*trajeval.Trajectory, bool) {
	p := &f.p
	if p.Peek() != '{' {
		return nil, false
	}
	t := &trajeval.Trajectory{}
	f.spans = f.spans[:0]
	var seen uint8
	ok := p.Object(func(key []byte) bool {
		var bit uint8
		ok := false
		switch string(key) {
		case "id":
			bit = tID
			if p.Peek() == '"' {
				t.ID, ok = p.Str()
			}
		case "turns":
			bit = tTurns
			ok = p.Null() || p.Array(func() bool {
				tn, ok := f.turn(len(t.Turns) + 1)
				t.Turns = append(t.Turns, tn)
				return ok
			})
		case "steps":
			bit = tSteps
			ok = p.Null() || p.Array(func() bool {
				t.Steps = append(t.Steps, trajeval.Step{})
				return f.step(&t.Steps[len(t.Steps)-1], len(t.Steps))
			})
		case "metrics":
			bit = tMetrics
			ok = f.metrics(&t.Metrics)
		case "agents":
			bit = tAgents
			ok = p.Null() || p.Array(func() bool {
				a, ok := f.agent()
				t.Agents = append(t.Agents, a)
				return ok
			})
		case "partial":
			bit = tPartial
			var b *bool
			b, ok = f.boolean()
			t.Partial = b != nil && *b
		}
		if seen&bit != 0 {
			return false
		}
		seen |= bit
		return ok
	})
	if !ok || seen&tID == 0 || seen&tSteps == 0 {
		return nil, false
	}
	if len(f.spans) > 0 {
		f.texts(t)
	}
	t.Finish()
	return t, true
}

func (f *fast) turn(want int) (trajeval.Turn, bool) {
	p := &f.p
	var tn trajeval.Turn
	if p.Peek() != '{' {
		return tn, false
	}
	var seen uint8
	ok := p.Object(func(key []byte) bool {
		var bit uint8
		ok := false
		switch string(key) {
		case "turn":
			bit = 1
			ok = f.number(want)
		case "user":
			bit = 2
			tn.User, ok = f.str()
		case "final_response":
			bit = 4
			tn.FinalResponse, ok = f.str()
		}
		if seen&bit != 0 {
			return false
		}
		seen |= bit
		return ok
	})
	return tn, ok && seen&1 != 0
}

func (f *fast) step(s *trajeval.Step, want int) bool {
	p := &f.p
	if p.Peek() != '{' {
		return false
	}
	const (
		sIndex = 1 << iota
		sTurn
		sID
		sName
		sArgs
		sResult
		sError
		sErrorMessage
		sDuration
		sStart
		sEnd
		sGroup
		sAgent
	)
	var seen uint16
	ok := p.Object(func(key []byte) bool {
		var bit uint16
		ok := false
		switch string(key) {
		case "index":
			bit = sIndex
			ok = f.number(want)
		case "turn":
			bit = sTurn
			s.Turn, ok = f.positive()
		case "id":
			bit = sID
			ok = f.name(&s.ID)
		case "name":
			bit = sName
			ok = f.name(&s.Name)
		case "args":
			bit = sArgs
			s.Args, ok = f.value(want, false)
		case "result":
			bit = sResult
			s.Result, ok = f.value(want, true)
		case "error":
			bit = sError
			s.Error, ok = f.boolean()
		case "error_message":
			bit = sErrorMessage
			var str *string
			str, ok = f.str()
			s.ErrorMessage = deref(str)
		case "duration_ms":
			bit = sDuration
			s.DurationMS, ok = f.float()
		case "start_time":
			bit = sStart
			s.StartTime, ok = f.time()
		case "end_time":
			bit = sEnd
			s.EndTime, ok = f.time()
		case "parallel_group":
			bit = sGroup
			s.ParallelGroup, ok = f.positive()
		case "agent":
			bit = sAgent
			ok = f.name(&s.Agent)
		}
		if seen&bit != 0 {
			return false
		}
		seen |= bit
		return ok
	})
	return ok && seen&sIndex != 0 && seen&sName != 0
}

func (f *fast) agent() (trajeval.Agent, bool) {
	p := &f.p
	var a trajeval.Agent
	if p.Peek() != '{' {
		return a, false
	}
	var seen uint8
	ok := p.Object(func(key []byte) bool {
		var bit uint8
		ok := false
		switch string(key) {
		case "name":
			bit = 1
			ok = f.name(&a.Name)
		case "parent":
			bit = 2
			ok = f.name(&a.Parent)
		}
		if seen&bit != 0 {
			return false
		}
		seen |= bit
		return ok
	})
	return a, ok && a.Name != ""
}

func (f *fast) metrics(m *trajeval.Metrics) bool {
	p := &f.p
	if p.Null() {
		return true
	}
	if p.Peek() != '{' {
		return false
	}
	var seen uint8
	return p.Object(func(key []byte) bool {
		var bit uint8
		ok := false
		switch string(key) {
		case "duration_ms":
			bit = 1
			m.DurationMS, ok = f.float()
		case "cost_usd":
			bit = 2
			m.CostUSD, ok = f.float()
		case "llm_calls":
			bit = 4
			m.LLMCalls, ok = f.integer()
		case "tokens":
			bit = 8
			ok = f.tokens(&m.Tokens)
		}
		if seen&bit != 0 {
			return false
		}
		seen |= bit
		return ok
	})
}

func (f *fast) tokens(tk *trajeval.Tokens) bool {
	p := &f.p
	if p.Null() {
		return true
	}
	if p.Peek() != '{' {
		return false
	}
	var seen uint8
	return p.Object(func(key []byte) bool {
		var bit uint8
		ok := false
		switch string(key) {
		case "input":
			bit = 1
			tk.Input, ok = f.integer()
		case "output":
			bit = 2
			tk.Output, ok = f.integer()
		case "total":
			bit = 4
			tk.Total, ok = f.integer()
		}
		if seen&bit != 0 {
			return false
		}
		seen |= bit
		return ok
	})
}

// str reads a string or null.
func (f *fast) str() (*string, bool) {
	p := &f.p
	if p.Null() {
		return nil, true
	}
	if p.Peek() != '"' {
		return nil, false
	}
	s, ok := p.Str()
	return &s, ok
}

// name reads a string or null (which leaves dst as it is) and interns it:
// tool and agent names repeat on every line.
func (f *fast) name(dst *string) bool {
	p := &f.p
	if p.Null() {
		return true
	}
	if p.Peek() != '"' {
		return false
	}
	s, ok := p.Name()
	*dst = s
	return ok
}

func (f *fast) boolean() (*bool, bool) {
	p := &f.p
	var b bool
	switch p.Peek() {
	case 'n':
		return nil, p.Null()
	case 't':
		b = true
	case 'f':
	default:
		return nil, false
	}
	if !p.Skip() { // reads exactly true or false
		return nil, false
	}
	return &b, true
}

// num reads a number's text; null is "" with ok true.
func (f *fast) num() (string, bool) {
	p := &f.p
	if p.Null() {
		return "", true
	}
	if c := p.Peek(); c != '-' && (c < '0' || c > '9') {
		return "", false
	}
	return p.Number()
}

func (f *fast) integer() (*int64, bool) {
	s, ok := f.num()
	if !ok || s == "" {
		return nil, ok
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return nil, false
	}
	return &n, true
}

func (f *fast) float() (*float64, bool) {
	s, ok := f.num()
	if !ok || s == "" {
		return nil, ok
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return nil, false
	}
	return &x, true
}

// number reads a whole number that must be want (not null).
func (f *fast) number(want int) bool {
	n, ok := f.integer()
	return ok && n != nil && *n == int64(want)
}

// positive reads null (0) or a whole number from 1 that fits an int.
func (f *fast) positive() (int, bool) {
	n, ok := f.integer()
	switch {
	case !ok:
		return 0, false
	case n == nil:
		return 0, true
	case *n < 1 || *n > 1<<31-1:
		return 0, false
	}
	return int(*n), true
}

// time reads null (the zero time) or a time the parser accepts: RFC 3339
// as Time.UnmarshalJSON reads it, within the years 0 to 9999 in UTC.
func (f *fast) time() (time.Time, bool) {
	var tm time.Time
	s, ok := f.str()
	if !ok || s == nil {
		return tm, ok
	}
	if tm.UnmarshalText([]byte(*s)) != nil {
		return time.Time{}, false
	}
	if y := tm.UTC().Year(); y < 0 || y > 9999 {
		return time.Time{}, false
	}
	return tm, true
}

// value reads the args (or with result, the result) of step want: as
// text when f keeps text and the value is an object or an array, its
// place noted for texts and the value left nil; as a value otherwise.
func (f *fast) value(want int, result bool) (any, bool) {
	p := &f.p
	if c := p.Peek(); !f.keepText || c != '{' && c != '[' {
		return p.Value()
	}
	start, end, ok := p.Span()
	f.spans = append(f.spans, textSpan{step: want - 1, result: result, start: start, end: end})
	return nil, ok
}

// texts sets the args and results of t read as text (see value) to a
// copy of their text, all of them copied into one allocation: the data is
// a line of a buffer that the next lines reuse, and a trajectory keeps
// its texts as long as it lives. Each is a *json.RawMessage into one slab
// a trajectory (see trajeval.KeptText): a pointer goes into an interface
// without an allocation of its own.
func (f *fast) texts(t *trajeval.Trajectory) {
	n := 0
	for _, at := range f.spans {
		n += at.end - at.start
	}
	buf := make([]byte, 0, n)
	slab := make([]json.RawMessage, len(f.spans))
	for i, at := range f.spans {
		k := len(buf)
		buf = append(buf, f.data[at.start:at.end]...)
		slab[i] = buf[k:len(buf):len(buf)] // full: no append runs into the next
		text := &slab[i]
		if s := &t.Steps[at.step]; at.result {
			s.Result = text
		} else {
			s.Args = text
		}
	}
}
