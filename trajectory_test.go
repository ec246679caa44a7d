package trajeval_test

import (
	"math"
	"reflect"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/trajeval/trajeval"
)

func ptr[T any](v T) *T { return &v }

func TestTrajectory_Finish(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name     string
		in       trajeval.Trajectory
		total    *int64
		duration *float64 // of the first step
		indexes  []int
		turns    []int
		reason   string
	}{
		{"indexes and turns", trajeval.Trajectory{Steps: make([]trajeval.Step, 3), Turns: make([]trajeval.Turn, 2)},
			nil, nil, []int{1, 2, 3}, []int{1, 2}, "steps and turns are numbered from 1 in order"},
		{"duration from times", trajeval.Trajectory{Steps: []trajeval.Step{{StartTime: t0, EndTime: t0.Add(1500 * time.Millisecond)}}},
			nil, ptr(1500.0), []int{1}, nil, "end − start when no duration is given"},
		{"explicit duration wins", trajeval.Trajectory{Steps: []trajeval.Step{{DurationMS: ptr(7.0), StartTime: t0, EndTime: t0.Add(time.Second)}}},
			nil, ptr(7.0), []int{1}, nil, "the trace's own duration is kept"},
		{"token total", trajeval.Trajectory{Metrics: trajeval.Metrics{Tokens: trajeval.Tokens{Input: ptr[int64](10), Output: ptr[int64](20)}}},
			ptr[int64](30), nil, nil, nil, "input + output when no total is given"},
		{"given total kept", trajeval.Trajectory{Metrics: trajeval.Metrics{Tokens: trajeval.Tokens{Input: ptr[int64](10), Output: ptr[int64](20), Total: ptr[int64](35)}}},
			ptr[int64](35), nil, nil, nil, "the trace's own total wins"},
		{"one side only", trajeval.Trajectory{Metrics: trajeval.Metrics{Tokens: trajeval.Tokens{Input: ptr[int64](10)}}},
			nil, nil, nil, nil, "no total from input alone"},
		{"total overflows", trajeval.Trajectory{Metrics: trajeval.Metrics{Tokens: trajeval.Tokens{Input: ptr[int64](math.MaxInt64), Output: ptr[int64](math.MaxInt64)}}},
			nil, nil, nil, nil, "regression: a sum that does not fit must stay unknown, not wrap round to -2 and pass every max_tokens"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := tt.in
			tr.Finish()
			if got := tr.Metrics.Tokens.Total; (got == nil) != (tt.total == nil) || got != nil && *got != *tt.total {
				t.Errorf("token total %v, want %v: %s", deref(got), deref(tt.total), tt.reason)
			}
			if n, ok := tr.Metrics.Tokens.Sum(); ok != (tt.total != nil) || ok && n != *tt.total {
				t.Errorf("Sum() = %d, %v; want %v: %s", n, ok, deref(tt.total), tt.reason)
			}
			if tt.duration != nil && (tr.Steps[0].DurationMS == nil || *tr.Steps[0].DurationMS != *tt.duration) {
				t.Errorf("duration %v, want %v: %s", deref(tr.Steps[0].DurationMS), *tt.duration, tt.reason)
			}
			for i, s := range tr.Steps {
				if s.Index != tt.indexes[i] {
					t.Errorf("step %d has index %d: %s", i, s.Index, tt.reason)
				}
			}
			for i, turn := range tr.Turns {
				if turn.Turn != tt.turns[i] {
					t.Errorf("turn %d is numbered %d: %s", i, turn.Turn, tt.reason)
				}
			}
		})
	}
}

func TestTokens_Sum(t *testing.T) {
	tk := trajeval.Tokens{Input: ptr[int64](math.MaxInt64), Output: ptr[int64](1)}
	if n, ok := tk.Sum(); ok {
		t.Errorf("Sum() = %d, true; want false: the sum overflows", n)
	}
	tk = trajeval.Tokens{Input: ptr[int64](math.MinInt64), Output: ptr[int64](-1)}
	if n, ok := tk.Sum(); ok {
		t.Errorf("Sum() = %d, true; want false: the sum overflows", n)
	}
	tk = trajeval.Tokens{Input: ptr[int64](math.MaxInt64), Output: ptr[int64](-1)}
	if n, ok := tk.Sum(); !ok || n != math.MaxInt64-1 {
		t.Errorf("Sum() = %d, %v; want %d", n, ok, int64(math.MaxInt64-1))
	}
}

func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

func TestTrajectory_Finish_validText(t *testing.T) {
	tests := []struct {
		name       string
		args, want any
		reason     string
	}{
		{"string", "a\xffb", "a\uFFFDb", "a bad byte becomes U+FFFD"},
		{"in a list", []any{"ok", "x\xfe", []any{"\xff"}}, []any{"ok", "x\uFFFD", []any{"\uFFFD"}}, "lists are fixed in place, nested ones too"},
		{"in an object", map[string]any{"a": "\xff", "b": map[string]any{"c": "d\xff"}, "e": "ok"}, map[string]any{"a": "\uFFFD", "b": map[string]any{"c": "d\uFFFD"}, "e": "ok"}, "objects' values are fixed, nested ones too"},
		{"a key", map[string]any{"k\xff": []any{"v\xff"}}, map[string]any{"k\uFFFD": []any{"v\uFFFD"}}, "a key is fixed with its value"},
		{"all valid", map[string]any{"a": []any{"b", 1.5, nil}}, map[string]any{"a": []any{"b", 1.5, nil}}, "valid values come back as they are"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := trajeval.Trajectory{Steps: []trajeval.Step{{Args: tt.args, Result: tt.args}}}
			tr.Finish()
			if s := tr.Steps[0]; !reflect.DeepEqual(s.Args, tt.want) || !reflect.DeepEqual(s.Result, tt.want) {
				t.Errorf("args %#v, result %#v; want %#v: %s", s.Args, s.Result, tt.want, tt.reason)
			}
		})
	}
}

// TestTrajectory_FinishDecoded: arguments and results decoded from JSON
// are valid UTF-8 already and are not walked; every other string is
// still repaired, as Finish repairs it.
func TestTrajectory_FinishDecoded(t *testing.T) {
	tr := trajeval.Trajectory{
		ID:    "t\xff",
		Turns: []trajeval.Turn{{User: ptr("u\xff")}},
		Steps: []trajeval.Step{{ID: "c\xff", Name: "n\xff", Agent: "a\xff", ErrorMessage: "e\xff", Args: map[string]any{"k": "v\xff"}, Result: "r\xff"}},
	}
	tr.FinishDecoded()
	s := tr.Steps[0]
	for _, got := range []string{tr.ID, *tr.Turns[0].User, s.ID, s.Name, s.Agent, s.ErrorMessage} {
		if !utf8.ValidString(got) {
			t.Errorf("%q kept its bad byte: only arguments and results are taken as decoded", got)
		}
	}
	if s.Args.(map[string]any)["k"] != "v\xff" || s.Result != "r\xff" {
		t.Errorf("args %q, result %q: FinishDecoded must not walk what a JSON decoder gave", s.Args, s.Result)
	}
	if s.Index != 1 || tr.Turns[0].Turn != 1 {
		t.Errorf("index %d, turn %d: the rest of Finish's work must be done", s.Index, tr.Turns[0].Turn)
	}
}

// TestTrajectory_FinishValid: each of the three says which strings it
// checks for UTF-8 (see Trajectory.Finish), and all three derive the same
// fields.
func TestTrajectory_FinishValid(t *testing.T) {
	bad := func() trajeval.Trajectory {
		return trajeval.Trajectory{
			ID:     "t\xff",
			Agents: []trajeval.Agent{{Name: "p\xff"}},
			Turns:  []trajeval.Turn{{User: ptr("u\xff"), FinalResponse: ptr("f\xff")}},
			Steps:  []trajeval.Step{{ID: "c\xff", Name: "n\xff", Agent: "a\xff", ErrorMessage: "e\xff", Args: map[string]any{"k": "v\xff"}, Result: "r\xff"}},
		}
	}
	strs := func(tr trajeval.Trajectory) (text []string, values []string) {
		s := tr.Steps[0]
		text = []string{tr.ID, tr.Agents[0].Name, *tr.Turns[0].User, *tr.Turns[0].FinalResponse, s.ID, s.Name, s.Agent, s.ErrorMessage}
		return text, []string{s.Args.(map[string]any)["k"].(string), s.Result.(string)}
	}
	tests := []struct {
		name         string
		finish       func(*trajeval.Trajectory)
		text, values bool // whether each kind comes back valid
		reason       string
	}{
		{"Finish", (*trajeval.Trajectory).Finish, true, true, "a source that does not validate (protobuf strings) is repaired everywhere"},
		{"FinishDecoded", (*trajeval.Trajectory).FinishDecoded, true, false, "arguments and results from a JSON decoder are not walked; the rest is repaired"},
		{"FinishValid", (*trajeval.Trajectory).FinishValid, false, false, "a reader whose parser refused invalid UTF-8 has nothing to repair"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := bad()
			tt.finish(&tr)
			text, values := strs(tr)
			for _, s := range text {
				if utf8.ValidString(s) != tt.text {
					t.Errorf("%q: valid %v, want %v: %s", s, !tt.text, tt.text, tt.reason)
				}
			}
			for _, s := range values {
				if utf8.ValidString(s) != tt.values {
					t.Errorf("%q: valid %v, want %v: %s", s, !tt.values, tt.values, tt.reason)
				}
			}
			if s := tr.Steps[0]; s.Index != 1 || tr.Turns[0].Turn != 1 || len(tr.Agents) != 2 {
				t.Errorf("index %d, turn %d, agents %v: the derived fields are the same for all three", s.Index, tr.Turns[0].Turn, tr.Agents)
			}
		})
	}
}
