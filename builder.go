package trajeval

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/trajeval/trajeval/internal/jsonv"
)

// A Builder builds a [Trajectory] from Go values, the way an agent loop
// sees its run: a user message, the tool calls of each model response,
// their results, the final answer.
//
//	b := trajeval.NewBuilder("run-1")
//	b.User("What is the weather in Paris?")
//	b.Call(trajeval.ToolCall{ID: "call_1", Name: "get_weather", Args: map[string]any{"city": "Paris"}})
//	b.Result(trajeval.ToolResult{ID: "call_1", Value: "18°C, sunny"})
//	b.Final("It is 18°C and sunny in Paris.")
//	t, err := b.Build()
//
// Build applies these rules:
//  1. User starts a new turn with the user's message; Turn starts one whose
//     message is unknown. Calls and a final response that come before the
//     first turn belong to turn 1, whose user message is unknown (null).
//  2. Steps are the calls in the order they were given to Call, each in
//     the current turn. Index and Turn are 1-based.
//  3. The calls of one Call are those of one model response: two or more
//     share a parallel group (groups are numbered from 1 in order); a
//     single call has none.
//  4. A call needs a name. Its id, when given, is unique in the
//     trajectory; a call without an id can get no result.
//  5. Results pair with calls by id, never by position: a result for an id
//     no call has, or a second result for a call, is an error. A call that
//     gets no result keeps a null result.
//  6. Arguments and result values are what encoding/json encodes them to,
//     decoded with exact numbers: Go integers stay exact (an int64 of
//     2^53+1 stays 2^53+1), json.RawMessage is parsed as JSON text, a Go
//     string is kept as text (pass JSON text as json.RawMessage). No
//     arguments (nil, or JSON null) is the empty object {}. A value that
//     does not encode to JSON is an error.
//  7. A result's Error is nil when it is not known whether the call failed;
//     an ErrorMessage with a nil Error marks the call failed, and with
//     Error false is an error.
//  8. A step's duration is the result's Duration when given, else its End
//     minus the call's Start when both are known, else null. A negative
//     Duration, or an End before the Start, is an error.
//  9. Final sets the current turn's final response; a later Final replaces
//     it. Called notes which agent called which; every call's Agent is
//     listed in Agents too. Metrics adds to the run's metrics; Build fills the token total
//     from input and output when no total was given.
//
// The first misuse (an empty tool name, a result for an unknown call, ...)
// is kept: later additions are ignored and Build returns it. Build may be
// called again after more additions; each trajectory it returns is new.
//
// A Trajectory may also be written as a struct literal, for a test that
// wants an exact shape (see the example). Then:
//  1. Step.Name is required; every other field may stay zero, which means
//     "not known".
//  2. Args and Result hold JSON values only: nil, bool, string,
//     json.Number, []any and map[string]any. A number is a json.Number
//     (json.Number("3")), not a Go int; a call without arguments has
//     map[string]any{}.
//  3. Step.Turn is the 1-based number of the step's turn in Turns (0 when
//     unknown), and each result sits on its own step: nothing pairs them.
//  4. Finish, called last, numbers the steps and turns and fills durations
//     from start and end times and the token total.
//
// Nothing checks a literal: the Builder is the checked way.
type Builder struct {
	t      Trajectory
	err    error
	turn   int            // the current turn, 0 before any
	byID   map[string]int // call id → index in t.Steps
	done   map[string]bool
	start  []time.Time // the Start of each step's call
	groups int
}

// A ToolCall is one tool call given to [Builder.Call].
type ToolCall struct {
	// ID is the call's id, unique in the trajectory; results pair with
	// calls by it. Empty when the call gets no result.
	ID string
	// Name is the tool's name (required).
	Name string
	// Args are the arguments: a Go value (a map, a struct), json.RawMessage
	// holding JSON text, or a string for a tool that takes free text; nil
	// for none.
	Args any
	// Agent is the sub-agent that made the call; empty when none.
	Agent string
	// Start is when the call began; zero when unknown.
	Start time.Time
}

// A ToolResult is the outcome of one tool call, given to
// [Builder.Result].
type ToolResult struct {
	// ID is the id of the call it answers (required).
	ID string
	// Value is what the tool returned: a string, a Go value, or
	// json.RawMessage holding JSON text; nil when the call returned
	// nothing.
	Value any
	// Error says whether the call failed; nil when that is not known. Go
	// 1.26's new(expr) writes it: Error: new(err != nil).
	Error *bool
	// ErrorMessage is why the call failed.
	ErrorMessage string
	// End is when the call ended; zero when unknown.
	End time.Time
	// Duration is how long the call took; zero when unknown.
	Duration time.Duration
}

// NewBuilder returns a Builder for a trajectory with the given id.
func NewBuilder(id string) *Builder {
	return &Builder{t: Trajectory{ID: id}, byID: map[string]int{}, done: map[string]bool{}}
}

func (b *Builder) fail(format string, args ...any) {
	if b.err == nil {
		b.err = fmt.Errorf(format, args...)
	}
}

// User starts a new turn with the user's message.
func (b *Builder) User(text string) {
	if b.err == nil {
		b.newTurn(&text)
	}
}

// Turn starts a new turn whose user message is unknown: one the trace
// shows no message for.
func (b *Builder) Turn() {
	if b.err == nil {
		b.newTurn(nil)
	}
}

func (b *Builder) newTurn(user *string) {
	b.t.Turns = append(b.t.Turns, Turn{User: user})
	b.turn = len(b.t.Turns)
}

func (b *Builder) ensureTurn() {
	if b.turn == 0 {
		b.newTurn(nil)
	}
}

// Call adds the tool calls of one model response, in the order the model
// issued them. Two or more share a parallel group.
func (b *Builder) Call(calls ...ToolCall) {
	if b.err != nil || len(calls) == 0 {
		return
	}
	b.ensureTurn()
	group := 0
	if len(calls) > 1 {
		group = b.groups + 1
	}
	steps := make([]Step, 0, len(calls))
	ids := map[string]bool{}
	for _, c := range calls {
		n := len(b.t.Steps) + len(steps) + 1
		if c.Name == "" {
			b.fail("call %d (id %q) has no tool name", n, c.ID)
			return
		}
		if c.ID != "" {
			if _, dup := b.byID[c.ID]; dup || ids[c.ID] {
				b.fail("call %d (%s): call id %q is used twice (ids must be unique: results pair with calls by them)", n, c.Name, c.ID)
				return
			}
			ids[c.ID] = true
		}
		args, err := jsonValue(c.Args)
		if err != nil {
			b.fail("call %d (%s): arguments: %v", n, c.Name, err)
			return
		}
		if args == nil {
			args = map[string]any{}
		}
		steps = append(steps, Step{Turn: b.turn, ID: c.ID, Name: c.Name, Args: args, ParallelGroup: group, Agent: c.Agent, StartTime: c.Start})
	}
	if group != 0 {
		b.groups = group
	}
	for i, s := range steps {
		if s.ID != "" {
			b.byID[s.ID] = len(b.t.Steps)
		}
		b.t.Steps = append(b.t.Steps, s)
		b.start = append(b.start, calls[i].Start)
	}
}

// Result gives a call its outcome; r.ID names the call.
func (b *Builder) Result(r ToolResult) {
	if b.err != nil {
		return
	}
	i, ok := b.byID[r.ID]
	switch {
	case r.ID == "":
		b.fail("a result has no call id (results pair with calls by id)")
		return
	case !ok:
		b.fail("result for call %q, which was never added (add the call with Call first; results pair with calls by id)", r.ID)
		return
	case b.done[r.ID]:
		b.fail("a second result for call %q", r.ID)
		return
	}
	s := &b.t.Steps[i]
	v, err := jsonValue(r.Value)
	if err != nil {
		b.fail("result of call %q (%s): %v", r.ID, s.Name, err)
		return
	}
	failed := r.Error
	if r.ErrorMessage != "" {
		if failed != nil && !*failed {
			b.fail("result of call %q (%s) has an error message but is marked as not failed", r.ID, s.Name)
			return
		}
		failed = new(true)
	}
	switch {
	case r.Duration < 0:
		b.fail("result of call %q (%s): negative duration %v", r.ID, s.Name, r.Duration)
		return
	case !r.End.IsZero() && !b.start[i].IsZero() && r.End.Before(b.start[i]):
		b.fail("result of call %q (%s): it ends (%s) before it starts (%s)", r.ID, s.Name, r.End.Format(time.RFC3339Nano), b.start[i].Format(time.RFC3339Nano))
		return
	}
	b.done[r.ID] = true
	s.Result, s.Error, s.ErrorMessage, s.EndTime = v, failed, r.ErrorMessage, r.End
	if r.Duration > 0 {
		s.DurationMS = new(float64(r.Duration) / float64(time.Millisecond))
	}
}

// Final sets the agent's final response in the current turn.
func (b *Builder) Final(text string) {
	if b.err != nil {
		return
	}
	b.ensureTurn()
	b.t.Turns[b.turn-1].FinalResponse = &text
}

// Metrics adds m to the run's metrics: durations, costs and counts add up,
// and what m leaves nil adds nothing (a figure never given stays unknown).
func (b *Builder) Metrics(m Metrics) {
	if b.err != nil {
		return
	}
	t := &b.t.Metrics
	t.DurationMS = addFloat(t.DurationMS, m.DurationMS)
	t.CostUSD = addFloat(t.CostUSD, m.CostUSD)
	var ok [4]bool
	t.LLMCalls, ok[0] = addInt(t.LLMCalls, m.LLMCalls)
	t.Tokens.Input, ok[1] = addInt(t.Tokens.Input, m.Tokens.Input)
	t.Tokens.Output, ok[2] = addInt(t.Tokens.Output, m.Tokens.Output)
	t.Tokens.Total, ok[3] = addInt(t.Tokens.Total, m.Tokens.Total)
	if ok != [4]bool{true, true, true, true} {
		b.fail("metrics: a count overflows int64")
	}
}

func addFloat(sum, x *float64) *float64 {
	if x == nil {
		return sum
	}
	if sum == nil {
		return new(*x)
	}
	return new(*sum + *x)
}

func addInt(sum, x *int64) (*int64, bool) {
	switch {
	case x == nil:
		return sum, true
	case sum == nil:
		return new(*x), true
	}
	s := *sum + *x
	if (*sum >= 0) == (*x >= 0) && (s >= 0) != (*sum >= 0) {
		return sum, false
	}
	return &s, true
}

// Called notes that agent was called by the agent caller: as a tool, as a
// sub-agent, or by a handoff (Trajectory.Agents). It lets an evaluator
// limited to caller with include_subagents see agent's calls too. An
// empty agent or caller is a misuse.
func (b *Builder) Called(agent, caller string) {
	if b.err != nil {
		return
	}
	if agent == "" || caller == "" {
		b.fail("called: an agent and its caller need names, got %q and %q", agent, caller)
		return
	}
	b.t.Agents = append(b.t.Agents, Agent{Name: agent, Parent: caller})
}

// Err returns the Builder's first misuse so far, or nil: a loop adding
// many values can stop at the one that went wrong.
func (b *Builder) Err() error { return b.err }

// Build returns the trajectory, finished (see [Trajectory.Finish]), or the
// first misuse of the Builder.
func (b *Builder) Build() (*Trajectory, error) {
	if b.err != nil {
		return nil, b.err
	}
	t := b.t
	t.Turns = append([]Turn(nil), b.t.Turns...)
	t.Steps = append([]Step(nil), b.t.Steps...)
	t.Agents = append([]Agent(nil), b.t.Agents...)
	t.Metrics = Metrics{
		DurationMS: clone(b.t.Metrics.DurationMS), CostUSD: clone(b.t.Metrics.CostUSD), LLMCalls: clone(b.t.Metrics.LLMCalls),
		Tokens: Tokens{Input: clone(b.t.Metrics.Tokens.Input), Output: clone(b.t.Metrics.Tokens.Output), Total: clone(b.t.Metrics.Tokens.Total)},
	}
	t.Finish()
	return &t, nil
}

func clone[T any](p *T) *T {
	if p == nil {
		return nil
	}
	return new(*p)
}

// jsonValue converts a Go value into the JSON data model of Args and
// Result, with exact numbers.
func jsonValue(v any) (any, error) {
	if v == nil {
		return nil, nil
	}
	data, err := json.Marshal(v)
	if err != nil {
		var ue *json.UnsupportedTypeError
		var uv *json.UnsupportedValueError
		var se *json.SyntaxError
		switch {
		case errors.As(err, &ue):
			return nil, fmt.Errorf("a value of Go type %s cannot be written as JSON", ue.Type)
		case errors.As(err, &uv):
			return nil, fmt.Errorf("%s cannot be written as JSON", uv.Str)
		case errors.As(err, &se):
			return nil, fmt.Errorf("not valid JSON text: %v", se)
		}
		return nil, err
	}
	return jsonv.Decode(data)
}
