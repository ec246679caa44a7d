// Package adkgo converts the session events of the Agent Development Kit
// for Go (google.golang.org/adk/v2) into a trajeval [trajeval.Trajectory].
//
// A test that runs an agent with ADK's runner gets its session from the
// session service; [Session] turns it into a trajectory to score, and
// [Events] does the same for any sequence of events.
//
// The rules are those of trajeval's adk-session trace reader, so a session
// gives the same trajectory whether it is converted here or saved as JSON
// and read from the file:
//  1. The trajectory's id is the session's id.
//  2. Invocations are turns, in the order of their first event; an event
//     without an invocation id belongs to the turn before it. The user
//     message of a turn is the text of its first event authored by "user"
//     that holds text and neither function calls nor responses; its final
//     response is the text of its last such event by another author.
//     Text is the content's text parts joined by newlines, thoughts left
//     out.
//  3. Partial (streamed) events are skipped: the final event that follows
//     repeats their content.
//  4. Each function call part is a step, in event and part order; its
//     args are the call's Args, numbers exact. Two or more function calls
//     in one event were issued in one model response and share a parallel
//     group. The event's author is the step's agent.
//  5. A function response part is the result of the call with its id,
//     never the call at its position; the step's result is the response's
//     Response map. ADK has no error flag (tools return {"error": ...} by
//     convention), so error is null.
//  6. Event timestamps are when events were built, not when tools ran:
//     steps get no times and no duration.
//  7. Token counts sum the events' usage metadata (prompt, candidates and
//     total token counts); a count of 0 is not reported, as genai leaves
//     it out of the JSON. There is no llm_calls figure.
//  8. Where the reader warns and goes on, a conversion fails, since a Go
//     value has no file to point into: a nil event, a response for a call
//     that never appears or that has no id (ADK gives every call an id), a
//     second response for a call, a call id used twice, a call without a
//     name, and events of an invocation that resume after a later one
//     began. The error names the event (1-based).
package adkgo

import (
	"fmt"
	"iter"
	"strings"

	"github.com/trajeval/trajeval"
	"google.golang.org/adk/v2/session"
	"google.golang.org/genai"
)

// Session converts a session's events into a trajectory whose id is the
// session's id. A nil session is an empty trajectory.
func Session(s session.Session) (*trajeval.Trajectory, error) {
	if s == nil {
		return trajeval.NewBuilder("").Build()
	}
	return Events(s.ID(), s.Events().All())
}

// Events converts a sequence of session events into a trajectory with the
// given id.
func Events(id string, events iter.Seq[*session.Event]) (*trajeval.Trajectory, error) {
	var evs []*session.Event
	for e := range events {
		evs = append(evs, e)
	}
	// Turns are started with their user's text, which may come after the
	// invocation's first event: find each turn's events first.
	turnOf := make([]int, len(evs)) // event → 0-based turn; -1 skipped
	user := []*string{}
	byInv := map[string]int{}
	turn := -1
	for i, e := range evs {
		switch {
		case e == nil:
			return nil, fmt.Errorf("event %d is nil", i+1)
		case e.Partial:
			turnOf[i] = -1
			continue
		case e.InvocationID != "":
			k, seen := byInv[e.InvocationID]
			if !seen {
				k = len(user)
				byInv[e.InvocationID] = k
				user = append(user, nil)
			}
			if k < turn {
				return nil, fmt.Errorf("event %d: invocation %q resumes after a later invocation began (turns must not interleave)", i+1, e.InvocationID)
			}
			turn = k
		case turn < 0:
			turn = 0
			user = append(user, nil)
		}
		turnOf[i] = turn
		if s, ok := text(e.Content); ok && e.Author == "user" && user[turn] == nil && !hasCalls(e.Content) {
			user[turn] = &s
		}
	}

	b := trajeval.NewBuilder(id)
	current := -1
	var tokens [3]*int64
	for i, e := range evs {
		k := turnOf[i]
		if k < 0 {
			continue
		}
		if k != current {
			if user[k] != nil {
				b.User(*user[k])
			} else {
				b.Turn()
			}
			current = k
		}
		if err := event(b, e); err != nil {
			return nil, fmt.Errorf("event %d: %w", i+1, err)
		}
		if s, ok := text(e.Content); ok && e.Author != "user" && !hasCalls(e.Content) {
			b.Final(s)
		}
		if u := e.UsageMetadata; u != nil {
			for j, n := range []int32{u.PromptTokenCount, u.CandidatesTokenCount, u.TotalTokenCount} {
				if n != 0 {
					tokens[j] = new(int64(n) + deref(tokens[j]))
				}
			}
		}
	}
	b.Metrics(trajeval.Metrics{Tokens: trajeval.Tokens{Input: tokens[0], Output: tokens[1], Total: tokens[2]}})
	return b.Build()
}

func deref(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}

// event gives b the function calls and responses of one event.
func event(b *trajeval.Builder, e *session.Event) error {
	if e.Content == nil {
		return nil
	}
	var calls []trajeval.ToolCall
	for _, p := range e.Content.Parts {
		if p != nil && p.FunctionCall != nil {
			fc := p.FunctionCall
			var args any
			if fc.Args != nil {
				args = fc.Args
			}
			calls = append(calls, trajeval.ToolCall{ID: fc.ID, Name: fc.Name, Args: args, Agent: e.Author})
		}
	}
	b.Call(calls...)
	for _, p := range e.Content.Parts {
		if p == nil || p.FunctionResponse == nil {
			continue
		}
		fr := p.FunctionResponse
		if fr.ID == "" {
			return fmt.Errorf("the response of %s has no call id (ADK gives every function call an id; responses pair with calls by it)", fr.Name)
		}
		var res any
		if fr.Response != nil {
			res = fr.Response
		}
		b.Result(trajeval.ToolResult{ID: fr.ID, Value: res})
	}
	return b.Err()
}

// text returns a content's text parts, thoughts left out, joined by
// newlines; false when it has none. An empty text part is no text part:
// genai leaves it out of the JSON.
func text(c *genai.Content) (string, bool) {
	if c == nil {
		return "", false
	}
	var parts []string
	for _, p := range c.Parts {
		if p != nil && p.Text != "" && !p.Thought {
			parts = append(parts, p.Text)
		}
	}
	return strings.Join(parts, "\n"), parts != nil
}

func hasCalls(c *genai.Content) bool {
	if c == nil {
		return false
	}
	for _, p := range c.Parts {
		if p != nil && (p.FunctionCall != nil || p.FunctionResponse != nil) {
			return true
		}
	}
	return false
}
