package agentv_test

import (
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/format/agentv"
)

// TestReadStraight checks which records the fast path reads straight
// into their steps (see agentv's stepRead) and which it reads again into
// its records of calls, as build has always read them: each one read as
// encoding/json reads it (FastAgrees compares the two ways, text kept
// and not, with the trajectory read without), alone and after a record
// of the bench's shape.
func TestReadStraight(t *testing.T) {
	other := strings.Replace(benchCall, `"call_1"`, `"call_2"`, 1)
	tests := []struct {
		name, in string
		want     bool
		reason   string
	}{
		{"bench", shapedRecord(benchCall, other), true, "AgentV's own shape"},
		{"no calls", `{"id":"a","output":[{"role":"user","content":"hi"},{"role":"assistant","content":"done"}]}`, true, "no steps to make"},
		{"assistant first", `{"id":"a","output":[{"role":"assistant","tool_calls":[` + benchCall + `]},{"role":"user","content":"hi"},{"role":"assistant","tool_calls":[` + other + `]}]}`, true, "a call before the first user's turn opens turn 1, the next user's turn 2"},
		{"system with calls", `{"id":"a","output":[{"role":"system","tool_calls":[` + benchCall + `]},{"role":"assistant","content":"x"}]}`, true, "another role's calls are steps of turn 1"},
		{"assistant text first", `{"id":"a","output":[{"role":"assistant","content":"x"},{"role":"user","content":"hi"},{"role":"assistant","tool_calls":[` + benchCall + `]}]}`, true, "an assistant's text opens turn 1: the call is of turn 2"},
		{"no calls first", `{"id":"a","output":[{"role":"assistant","tool_calls":[]},{"role":"user","content":"hi"},{"role":"assistant","tool_calls":[` + benchCall + `]}]}`, true, "an assistant's empty list of calls opens turn 1: the call is of turn 2"},
		{"system first", `{"id":"a","output":[{"role":"system","tool_calls":[]},{"role":"system","content":"be brief"},{"role":"user","content":"hi"},{"role":"assistant","tool_calls":[` + benchCall + `]}]}`, true, "a system prompt opens no turn: the call is of turn 1"},
		{"user alone", `{"id":"a","output":[{"role":"user"},{"role":"assistant","tool_calls":[` + benchCall + `]}]}`, true, "a user's message with no content opens a turn too"},
		{"parallel", shapedRecord(benchCall, other, strings.Replace(benchCall, `"call_1"`, `"call_3"`, 1)), true, "three calls of one message, grouped by their times once read"},
		{"many calls", shapedRecord(manyCalls(70)...), true, "more steps than the first guess: grown"},
		{"another minute", shapedRecord(benchCall, strings.Replace(strings.Replace(other, `00:00:00.066`, `00:01:00.066`, 1), `00:00:00.090`, `00:01:00.090`, 1)), true, "the second call's times of a minute the clock has not read, read one at a time"},
		{"end of another minute", shapedRecord(benchCall, strings.Replace(other, `00:00:00.090`, `00:01:00.090`, 1)), true, "the start of the clock's minute, the end of the next"},
		{"no input", shapedRecord(strings.Replace(benchCall, `{"id":"doc-1"}`, `null`, 1), other), true, "no text kept where the record before kept some: no arguments"},
		{"a number result", shapedRecord(strings.Replace(benchCall, `{"ok":true}`, `7`, 1), other), true, "no text kept where the record before kept some: the number"},
		{"null calls", `{"id":"a","output":[{"role":"assistant","tool_calls":null},{"role":"user","content":"hi"},{"role":"assistant","tool_calls":[` + benchCall + `]}]}`, true, "no list after the calls' key: an assistant's message of no calls opens turn 1"},
		{"spaced calls", `{"id":"a","output":[{"role":"assistant","tool_calls": [` + benchCall + `]}]}`, true, "white space before the list's bracket, found where the key is not followed by it"},
		{"spaced id", shapedRecord(strings.Replace(benchCall, `"id":"call_1"`, `"id": "call_1"`, 1), other), true, "white space before a string id: read by Value, the same id"},
		{"spaced input", shapedRecord(strings.Replace(benchCall, `"input":{`, `"input": {`, 1), other), true, "white space before the arguments: read by value, the same text kept"},
		{"a user's calls", `{"id":"a","output":[{"role":"user","tool_calls":[` + benchCall + `]}]}`, false, "a user's calls make no step"},
		{"number id", shapedRecord(strings.Replace(benchCall, `"call_1"`, `7`, 1), other), true, "a number id, written as JSON as build writes it"},
		{"number and string id", shapedRecord(strings.Replace(benchCall, `"call_1"`, `7`, 1), strings.Replace(benchCall, `"call_1"`, `"7"`, 1)), false, "one id given twice, as a number and as a string: build warns of it"},
		{"no tool", shapedRecord(strings.Replace(benchCall, `"grep"`, `""`, 1)), false, "build warns of a call with no tool name"},
		{"same id", shapedRecord(benchCall, benchCall), false, "build warns of an id given twice and drops the call"},
		{"two lists", `{"id":"a","output":[{"role":"assistant","tool_calls":[` + benchCall + `]}],"output_messages":[{"role":"assistant","tool_calls":[` + other + `]}]}`, false, "build reads one list of two"},
		{"text time", shapedRecord(strings.Replace(benchCall, `00.066Z`, `00.066+00:00`, 1)), false, "build reads a time of another shape"},
		{"string input", shapedRecord(strings.Replace(benchCall, `{"id":"doc-1"}`, `"{\"id\":1}"`, 1)), false, "build parses arguments given as a string"},
		{"named message", `{"id":"a","output":[{"role":"assistant","tool_calls":[` + benchCall + `,` + other + `],"name":"sub"}]}`, true, "a message's name, after its calls as AgentV writes it, is its steps' agent"},
		{"named text", `{"id":"a","output":[{"role":"assistant","content":"x","name":"sub"},{"role":"assistant","tool_calls":[` + benchCall + `]}]}`, true, "a name after a message's content: no steps"},
		{"name first", `{"id":"a","output":[{"role":"assistant","name":"sub","tool_calls":[` + benchCall + `]}]}`, false, "a message's name before its calls"},
		{"another order", shapedRecord(`{"id":"call_1","tool":"grep"}`), false, "a call in another order"},
		{"no duration", shapedRecord(strings.Replace(benchCall, `,"duration_ms":24`, ``, 1)), false, "times of the clock's minute with no duration after them: read the other way"},
		{"no duration, an error", shapedRecord(strings.Replace(benchCall, `,"duration_ms":24`, `,"error":"boom"`, 1)), false, "times of the clock's minute, then an error where the duration stands"},
		{"a null duration", shapedRecord(strings.Replace(benchCall, `24}`, `null}`, 1), other), true, "the duration's key read with the times, its value null"},
		{"another minute, no duration", shapedRecord(strings.Replace(strings.Replace(benchCall, `00:00:00.066`, `00:01:00.066`, 1), `,"duration_ms":24`, ``, 1)), false, "times read one at a time, then no duration"},
		{"a spaced duration", shapedRecord(strings.Replace(benchCall, `"duration_ms":24`, `"duration_ms": 24`, 1), other), true, "white space after the duration's key, read with the times"},
		{"a bad tail", shapedRecord(benchCall, strings.Replace(other, `00.090Z`, `00.0a0Z`, 1)), false, "not a time: build reads it as text, and warns"},
		{"an error", shapedRecord(strings.Replace(benchCall, `24}`, `24,"error":"boom"}`, 1), other), true, "a call's error, last as AgentV writes it"},
		{"an error object", shapedRecord(strings.Replace(strings.Replace(benchCall, `24}`, `24,"error":{"code":5}}`, 1), `"ok"`, `"unknown"`, 1)), true, "an error that is no string, written as JSON; no status: Error true"},
		{"a null error", shapedRecord(strings.Replace(benchCall, `24}`, `24,"error":null}`, 1)), true, "no error"},
		{"an error first", shapedRecord(strings.Replace(benchCall, `"tool":"grep",`, `"error":"boom","tool":"grep",`, 1)), false, "a call's error before its other keys"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, before := range [][][]byte{nil, {[]byte(shapedRecord(benchCall, other))}} {
				if got := agentv.ReadStraight([]byte(tt.in), before...); got != tt.want {
					t.Errorf("read straight %v after %d, want %v: %s", got, len(before), tt.want, tt.reason)
				}
			}
			read, diff := agentv.FastAgrees([]byte(tt.in))
			if !read || diff != "" {
				t.Errorf("fast path read %v: %s (%s)", read, diff, tt.reason)
			}
			if _, diff := agentv.DecodeBoth([][]byte{[]byte(shapedRecord(benchCall)), []byte(tt.in), []byte(tt.in)}, true, false); diff != "" {
				t.Error(diff)
			}
		})
	}
}

// manyCalls is n calls of the bench's shape, each of its own id.
func manyCalls(n int) []string {
	calls := make([]string, n)
	for i := range calls {
		calls[i] = strings.Replace(benchCall, `"call_1"`, `"c`+strings.Repeat("x", i)+`"`, 1)
	}
	return calls
}

// TestReadStraight_broken checks records broken where the fast path
// compares bytes where they must stand: neither way reads them (the
// error is encoding/json's, at its line and column).
func TestReadStraight_broken(t *testing.T) {
	other := strings.Replace(benchCall, `"call_1"`, `"call_2"`, 1)
	tests := []struct {
		name, in, reason string
	}{
		{"end quote", shapedRecord(benchCall, strings.Replace(other, `00.090Z"`, `00.090Zx`, 1)), "the end time's closing quote a letter: the string runs on"},
		{"start quote", shapedRecord(benchCall, strings.Replace(other, `00.066Z"`, `00.066Zx`, 1)), "the start time's closing quote a letter"},
		{"cut in a time", shapedRecord(benchCall, other)[:len(shapedRecord(benchCall))+40], "cut off in the second call"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if agentv.ReadStraight([]byte(tt.in), []byte(shapedRecord(benchCall, other))) {
				t.Errorf("read straight: %s", tt.reason)
			}
			if read, diff := agentv.FastAgrees([]byte(tt.in)); read || diff != "" {
				t.Errorf("fast path read %v: %s (%s)", read, diff, tt.reason)
			}
			if _, diff := agentv.DecodeBoth([][]byte{[]byte(shapedRecord(benchCall, other)), []byte(tt.in)}, true, false); diff != "" {
				t.Error(diff)
			}
		})
	}
}

// TestStepsRoom checks the room a record read straight has for its
// steps (rule 3 of agentv's stepRead): as many as the record before had,
// at most MaxGuess, twice as many when more come.
func TestStepsRoom(t *testing.T) {
	calls := func(n int) []byte { return []byte(shapedRecord(manyCalls(n)...)) }
	tests := []struct {
		name            string
		before          [][]byte
		calls, min, max int
		reason          string
	}{
		{"first", nil, 3, 3, 4, "no record before: room for 4, the least made"},
		{"as before", [][]byte{calls(20)}, 20, 20, 20, "the record before's 20, no more"},
		{"more than before", [][]byte{calls(5)}, 12, 12, 20, "5 made, then twice as many as read so far, as the pool rounds them"},
		{"after a large record", [][]byte{calls(300)}, 1, 1, agentv.MaxGuess, "a record of one call after one of 300: at most MaxGuess"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := agentv.StepsRoom(calls(tt.calls), tt.before...); got < tt.min || got > tt.max {
				t.Errorf("room %d for %d calls, want %d to %d: %s", got, tt.calls, tt.min, tt.max, tt.reason)
			}
		})
	}
}
