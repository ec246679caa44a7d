package trajeval

import (
	"math"
	"strings"
	"time"
	"unicode/utf8"
)

// A Trajectory is what one agent run did: its turns, the tool calls it made
// (flattened over all turns, in the order the model issued them) and the
// run-level metrics its trace reported.
//
// Every trace format is read into this one model, so every evaluator works on
// every source.
type Trajectory struct {
	ID      string
	Turns   []Turn
	Steps   []Step
	Metrics Metrics
	// Agents are the agents of a multi-agent trace, each with the agent
	// that called it (see [Agent]); nil when the trace names no agent.
	// Finish lists every step's agent here too, and lists an agent with
	// no caller only when no entry names its caller.
	Agents []Agent
	// Partial is set when the trace was damaged and read leniently (see
	// Input.Damage): the trajectory may lack what the damage cut off.
	Partial bool
	// Line is the line of its file where the trajectory's record starts,
	// 0 when unknown or when it is built from many places; it places
	// warnings about the whole trajectory. It is not part of the JSON form.
	Line int
	// Trial is which run of its case this is (1-based) when the trace holds
	// several runs of one case, as a τ²-bench results file with trials
	// does; 0 otherwise. A run scores each trial as an attempt of the case
	// (CaseResult.Attempt). It is not part of the JSON form.
	Trial int
}

// A Turn is one user message and the agent's final answer to it.
type Turn struct {
	Turn          int     // 1-based
	User          *string // nil when the trace does not say
	FinalResponse *string // nil when the trace does not say
}

// A Step is one tool call.
//
// Zero values stand for "the format does not say": Turn 0, ID "", Agent "",
// ParallelGroup 0, a zero StartTime or EndTime, and nil Error or DurationMS.
// They are written as JSON null.
type Step struct {
	Index         int    // 1-based position in issue order
	Turn          int    // 1-based turn, 0 when unknown
	ID            string // the format's own call id
	Name          string
	Args          any   // JSON value: nil, bool, string, json.Number, []any, map[string]any; or JSON text, a *json.RawMessage (as readers keep it) or a json.RawMessage (see Decoded)
	Result        any   // JSON value or string; nil (or a nil *json.RawMessage) when absent; or JSON text, as Args
	Error         *bool // nil when the format cannot express failure
	ErrorMessage  string
	DurationMS    *float64
	StartTime     time.Time
	EndTime       time.Time
	ParallelGroup int    // steps issued together in one model response share it
	Agent         string // the sub-agent that made the call
}

// Metrics are the run-level figures a trace reports. Each is nil when the
// trace does not report it.
type Metrics struct {
	DurationMS *float64
	CostUSD    *float64
	Tokens     Tokens
	LLMCalls   *int64
}

// Tokens counts the tokens of a run. Total is Input+Output when the trace
// gives both but no total, unless that sum overflows (then it stays
// unknown).
type Tokens struct {
	Input, Output, Total *int64
}

// Reported reports whether any token count is known.
func (t Tokens) Reported() bool { return t.Input != nil || t.Output != nil || t.Total != nil }

// Sum returns the total token count, or false when the trace reports
// neither a total nor both of input and output (or their sum overflows).
func (t Tokens) Sum() (int64, bool) {
	switch {
	case t.Total != nil:
		return *t.Total, true
	case t.Input != nil && t.Output != nil:
		return add(*t.Input, *t.Output)
	}
	return 0, false
}

// add returns a+b, or false when the sum does not fit in an int64: a
// damaged trace's huge counts must not wrap round to a small total.
func add(a, b int64) (int64, bool) {
	s := a + b
	if (a >= 0) == (b >= 0) && (s >= 0) != (a >= 0) {
		return 0, false
	}
	return s, true
}

// Duration returns the step's duration in milliseconds: the explicit one,
// else EndTime − StartTime when both are known; false when neither is, or
// when the trace reports an impossible one (negative, not finite), which no
// latency limit may take for a fast call.
func (s *Step) Duration() (float64, bool) {
	d, ok := s.ReportedDuration()
	if !ok || d < 0 || math.IsNaN(d) || math.IsInf(d, 0) {
		return 0, false
	}
	return d, true
}

// ReportedDuration is the duration the trace gives, unchecked: the
// explicit one, else EndTime − StartTime; false when neither is known.
func (s *Step) ReportedDuration() (float64, bool) {
	if s.DurationMS != nil {
		return *s.DurationMS, true
	}
	if !s.StartTime.IsZero() && !s.EndTime.IsZero() {
		return float64(s.EndTime.Sub(s.StartTime)) / float64(time.Millisecond), true
	}
	return 0, false
}

// Failed reports whether the step is known to have failed.
func (s *Step) Failed() bool { return s.Error != nil && *s.Error }

// TurnSteps returns the steps of turn n (1-based), in order.
func (t *Trajectory) TurnSteps(n int) []Step {
	var out []Step
	for _, s := range t.Steps {
		if s.Turn == n {
			out = append(out, s)
		}
	}
	return out
}

// Names returns the tool names of the steps, in order.
func (t *Trajectory) Names() []string {
	names := make([]string, len(t.Steps))
	for i, s := range t.Steps {
		names[i] = s.Name
	}
	return names
}

// Finish fills what can be derived and nothing else: step indexes, each
// step's duration from its start and end times, turn numbers, and the token
// total. Readers call it once a trajectory is complete, or one of the two
// below when they know more about their text. What each checks for UTF-8,
// replacing each byte sequence that is not UTF-8 with U+FFFD (see
// validText):
//  1. Finish checks every string: ids, names, agents, error messages, the
//     turns' texts, and every string of every argument and result, keys
//     included.
//  2. FinishDecoded checks the same but for arguments and results.
//  3. FinishValid checks none.
//
// The derived fields are the same whichever is called.
func (t *Trajectory) Finish() { t.finish(checkAll) }

// FinishDecoded is Finish for a trajectory whose steps' arguments and
// results were decoded from JSON text, by encoding/json (which replaces
// what is not UTF-8) or by a parser that refuses it: their strings are
// valid already and are not walked again. Every other string is checked
// as Finish checks it.
func (t *Trajectory) FinishDecoded() { t.finish(checkText) }

// FinishValid is Finish for a trajectory every string of which (ids,
// names, agents, error messages, texts, arguments and results) is known
// to be UTF-8 already: each was read by a parser that refuses what is not
// UTF-8, or made from such strings. No string is checked; a reader that
// cannot say so of all of them calls FinishDecoded or Finish.
func (t *Trajectory) FinishValid() { t.finish(checkNone) }

// checks says which strings finish checks for UTF-8 (see Finish).
type checks int

const (
	checkAll  checks = iota // every string
	checkText               // all but arguments and results
	checkNone               // none
)

func (t *Trajectory) finish(c checks) {
	text := c <= checkText
	if text {
		fixText(&t.ID)
	}
	agents := len(t.Agents) > 0
	for i := range t.Steps {
		s := &t.Steps[i]
		s.Index = i + 1
		agents = agents || s.Agent != ""
		if text {
			fixText(&s.ID)
			fixText(&s.Name)
			fixText(&s.Agent)
			fixText(&s.ErrorMessage)
		}
		if c == checkAll {
			s.Args, s.Result = validValue(s.Args), validValue(s.Result)
		}
		if s.DurationMS == nil {
			if d, ok := s.Duration(); ok {
				s.DurationMS = &d
			}
		}
	}
	// Most trajectories name no agent: they need none of finishAgents'
	// maps, and have none to list.
	if agents {
		t.finishAgents(text)
	} else {
		t.Agents = nil
	}
	for i := range t.Turns {
		tn := &t.Turns[i]
		tn.Turn = i + 1
		if !text {
			continue
		}
		for _, p := range []**string{&tn.User, &tn.FinalResponse} {
			if *p != nil && !utf8.ValidString(**p) {
				v := validText(**p)
				*p = &v
			}
		}
	}
	if tk := &t.Metrics.Tokens; tk.Total == nil && tk.Input != nil && tk.Output != nil {
		if sum, ok := add(*tk.Input, *tk.Output); ok {
			tk.Total = &sum
		}
	}
}

// finishAgents lists each (name, parent) pair of Agents once, in order,
// and an agent with no parent only when no pair gives it one; then every
// agent a step names that Agents does not, with no parent. text says
// whether the agents' names are checked for UTF-8.
func (t *Trajectory) finishAgents(text bool) {
	seen := map[Agent]bool{}
	named, called := map[string]bool{}, map[string]bool{}
	for i := range t.Agents {
		a := &t.Agents[i]
		if text {
			a.Name, a.Parent = validText(a.Name), validText(a.Parent)
		}
		if a.Parent != "" {
			called[a.Name] = true
		}
	}
	out := t.Agents[:0]
	for _, a := range t.Agents {
		if a.Name == "" || seen[a] || (a.Parent == "" && called[a.Name]) {
			continue
		}
		seen[a], named[a.Name] = true, true
		out = append(out, a)
	}
	for _, s := range t.Steps {
		if s.Agent != "" && !named[s.Agent] {
			named[s.Agent] = true
			out = append(out, Agent{Name: s.Agent})
		}
	}
	t.Agents = out
	if len(out) == 0 {
		t.Agents = nil
	}
}

// validText replaces each byte sequence that is not UTF-8 with U+FFFD, as
// reading the canonical JSON back would: a trace that carries raw bytes
// (protobuf strings may) gives the same trajectory written and read again.
func validText(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

// fixText is validText in place: a valid string, as nearly all are, is
// not stored again.
func fixText(p *string) {
	if !utf8.ValidString(*p) {
		*p = strings.ToValidUTF8(*p, "\uFFFD")
	}
}

// validValue is validText for every string of a JSON value, keys
// included; v itself comes back when all are valid, as they are for
// values decoded from JSON. Only what changes is stored again: a value
// left as it is costs neither a map assignment nor a new interface.
func validValue(v any) any {
	switch x := v.(type) {
	case string:
		if !utf8.ValidString(x) {
			return validText(x)
		}
	case []any:
		for i, e := range x {
			if r, ok := revalid(e); ok {
				x[i] = r
			}
		}
	case map[string]any:
		for k, e := range x {
			if !utf8.ValidString(k) {
				delete(x, k)
				x[validText(k)] = validValue(e)
			} else if r, ok := revalid(e); ok {
				x[k] = r
			}
		}
	}
	return v
}

// revalid is validValue for a member of a list or an object: ok when
// the member is a string that must be replaced by r. Lists and objects
// are fixed in place.
func revalid(e any) (r any, ok bool) {
	if s, isText := e.(string); isText {
		if utf8.ValidString(s) {
			return nil, false
		}
		return validText(s), true
	}
	validValue(e)
	return nil, false
}

// The wire shapes below give the exact field names of the canonical JSON
// form (docs/scoring.md §1), with null for what is unknown.

type stepJSON struct {
	Index         int        `json:"index"`
	Turn          *int       `json:"turn"`
	ID            *string    `json:"id"`
	Name          string     `json:"name"`
	Args          any        `json:"args"`
	Result        any        `json:"result"`
	Error         *bool      `json:"error"`
	ErrorMessage  *string    `json:"error_message"`
	DurationMS    *float64   `json:"duration_ms"`
	StartTime     *time.Time `json:"start_time"`
	EndTime       *time.Time `json:"end_time"`
	ParallelGroup *int       `json:"parallel_group"`
	Agent         *string    `json:"agent"`
}

type turnJSON struct {
	Turn          int     `json:"turn"`
	User          *string `json:"user"`
	FinalResponse *string `json:"final_response"`
}

type tokensJSON struct {
	Input  *int64 `json:"input"`
	Output *int64 `json:"output"`
	Total  *int64 `json:"total"`
}

type metricsJSON struct {
	DurationMS *float64    `json:"duration_ms"`
	CostUSD    *float64    `json:"cost_usd"`
	Tokens     *tokensJSON `json:"tokens"`
	LLMCalls   *int64      `json:"llm_calls"`
}

type agentJSON struct {
	Name   string  `json:"name"`
	Parent *string `json:"parent"`
}

type trajectoryJSON struct {
	ID      string      `json:"id"`
	Turns   []turnJSON  `json:"turns"`
	Steps   []Step      `json:"steps"`
	Metrics metricsJSON `json:"metrics"`
	Agents  []agentJSON `json:"agents,omitempty"`
	Partial bool        `json:"partial,omitempty"`
}

func nonZero[T comparable](v T) *T {
	var zero T
	if v == zero {
		return nil
	}
	return &v
}

func nonZeroTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	u := t.UTC()
	return &u
}

func deref[T any](p *T) T {
	var v T
	if p != nil {
		v = *p
	}
	return v
}

// MarshalJSON writes the step in the canonical form, as AppendJSON
// writes each step.
func (s Step) MarshalJSON() ([]byte, error) {
	e := encoder{ok: true}
	e.step(&s)
	if !e.ok {
		return s.marshalStd()
	}
	return e.b, nil
}

// UnmarshalJSON reads the canonical form. Numbers in args and results stay
// exact (json.Number).
func (s *Step) UnmarshalJSON(b []byte) error {
	var w stepJSON
	if err := unmarshalExact(b, &w); err != nil {
		return err
	}
	*s = Step{
		Index: w.Index, Turn: deref(w.Turn), ID: deref(w.ID), Name: w.Name,
		Args: w.Args, Result: w.Result, Error: w.Error, ErrorMessage: deref(w.ErrorMessage),
		DurationMS: w.DurationMS, StartTime: deref(w.StartTime), EndTime: deref(w.EndTime),
		ParallelGroup: deref(w.ParallelGroup), Agent: deref(w.Agent),
	}
	return nil
}

// MarshalJSON writes the trajectory in the canonical form (docs/scoring.md
// §1); see AppendJSON.
func (t Trajectory) MarshalJSON() ([]byte, error) {
	return AppendJSON(nil, &t)
}

// UnmarshalJSON reads the canonical form written by MarshalJSON.
func (t *Trajectory) UnmarshalJSON(b []byte) error {
	var w trajectoryJSON
	if err := unmarshalExact(b, &w); err != nil {
		return err
	}
	*t = Trajectory{ID: w.ID, Steps: w.Steps, Partial: w.Partial}
	for _, tn := range w.Turns {
		t.Turns = append(t.Turns, Turn(tn))
	}
	for _, a := range w.Agents {
		t.Agents = append(t.Agents, Agent{Name: a.Name, Parent: deref(a.Parent)})
	}
	m := w.Metrics
	t.Metrics = Metrics{DurationMS: m.DurationMS, CostUSD: m.CostUSD, LLMCalls: m.LLMCalls}
	if m.Tokens != nil {
		t.Metrics.Tokens = Tokens{m.Tokens.Input, m.Tokens.Output, m.Tokens.Total}
	}
	return nil
}
