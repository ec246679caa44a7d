package adk_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/adk"
	"github.com/trajeval/trajeval/internal/format/formattest"
)

// checkDecodeEvalSet checks DecodeEvalSet on any bytes:
//  1. it is deterministic;
//  2. an error is a *trajeval.TraceError naming the file, placed inside
//     the input;
//  3. an eval set it decodes, written out again as an eval set (with
//     invocation_events, so parallel groups and authors are kept), decodes
//     to the same eval set.
func checkDecodeEvalSet(t *testing.T, data []byte) {
	set, err := adk.DecodeEvalSet(data, "fuzz.json")
	again, err2 := adk.DecodeEvalSet(data, "fuzz.json")
	if fmt.Sprint(err) != fmt.Sprint(err2) || !reflect.DeepEqual(set, again) {
		t.Fatalf("DecodeEvalSet twice: %+v, %v then %+v, %v", set, err, again, err2)
	}
	if err != nil {
		var te *trajeval.TraceError
		if !errors.As(err, &te) {
			t.Fatalf("DecodeEvalSet: error %v (%T) is not a TraceError", err, err)
		}
		if te.File != "fuzz.json" {
			t.Errorf("DecodeEvalSet: error %q names file %q", err, te.File)
		}
		if msg := formattest.Misplaced(data, te.Line, te.Col); msg != "" {
			t.Errorf("DecodeEvalSet: error %q: %s", err, msg)
		}
		return
	}
	enc, err := json.Marshal(encodeEvalSet(set))
	if err != nil {
		t.Fatalf("the decoded eval set cannot be written out: %v\n%+v", err, set)
	}
	back, err := adk.DecodeEvalSet(enc, "fuzz.json")
	if err != nil {
		t.Fatalf("the eval set written out does not decode: %v\n%s", err, enc)
	}
	if got, want := comparable(t, back), comparable(t, set); got != want {
		t.Fatalf("the eval set changes when written out and decoded again:\n got %s\nwant %s\nwritten: %s", got, want, enc)
	}
}

// encodeEvalSet writes set out in ADK's eval set shape.
func encodeEvalSet(set *adk.EvalSet) map[string]any {
	cases := []any{}
	for _, c := range set.Cases {
		conv := []any{}
		for _, inv := range c.Invocations {
			conv = append(conv, encodeInvocation(inv))
		}
		cases = append(cases, map[string]any{"eval_id": c.ID, "conversation": conv})
	}
	return map[string]any{"eval_set_id": set.ID, "name": set.Name, "description": set.Description, "eval_cases": cases}
}

func encodeInvocation(inv adk.Invocation) map[string]any {
	m := map[string]any{"invocation_id": inv.ID}
	if inv.User != nil {
		m["user_content"] = map[string]any{"role": "user", "parts": []any{map[string]any{"text": *inv.User}}}
	}
	if inv.FinalResponse != nil {
		m["final_response"] = map[string]any{"role": "model", "parts": []any{map[string]any{"text": *inv.FinalResponse}}}
	}
	if inv.DurationMS != nil {
		m["duration"] = *inv.DurationMS / 1000
	}
	if inv.LLMCalls != nil {
		m["inference_call_count"] = *inv.LLMCalls
	}
	// One event per model response: the calls of a parallel group
	// together, every other call alone; then every call's response, in
	// call order, so that responses without an id pair as before.
	var events []any
	for i := 0; i < len(inv.Calls); {
		j := i + 1
		for g := inv.Calls[i].ParallelGroup; g != 0 && j < len(inv.Calls) && inv.Calls[j].ParallelGroup == g; j++ {
		}
		var parts []any
		for _, c := range inv.Calls[i:j] {
			fc := map[string]any{"name": c.Name, "args": encodeArgs(c.Args)}
			if c.ID != "" {
				fc["id"] = c.ID
			}
			parts = append(parts, map[string]any{"function_call": fc})
		}
		events = append(events, map[string]any{"author": inv.Calls[i].Agent, "content": map[string]any{"parts": parts}})
		i = j
	}
	var responses []any
	for _, c := range inv.Calls {
		fr := map[string]any{"name": c.Name, "response": c.Result}
		if c.ID != "" {
			fr["id"] = c.ID
		}
		responses = append(responses, map[string]any{"function_response": fr})
	}
	if responses != nil {
		events = append(events, map[string]any{"author": "tools", "content": map[string]any{"parts": responses}})
	}
	m["intermediate_data"] = map[string]any{"invocation_events": append([]any{}, events...)}
	return m
}

// encodeArgs writes arguments that are a string as the JSON text of that
// string: arguments given as a string are read as JSON when they are.
func encodeArgs(args any) any {
	if s, ok := args.(string); ok {
		b, _ := json.Marshal(s)
		return string(b)
	}
	return args
}

// comparable renders what an eval set says, without what writing it out
// cannot keep: the shape it was read from (legacy or not), the cases'
// lines, the warnings, the numbering of parallel groups (only which calls
// share one), and durations beyond float64 rounding of seconds to ms.
func comparable(t *testing.T, set *adk.EvalSet) string {
	t.Helper()
	type call struct {
		ID, Name, Agent string
		Args, Result    any
		Group           int
	}
	type invocation struct {
		ID          string
		User, Final *string
		Calls       []call
		DurationMS  string // 12 significant digits
		LLMCalls    *int64
	}
	type evalCase struct {
		ID          string
		Invocations []invocation
	}
	var cases []evalCase
	for _, c := range set.Cases {
		ec := evalCase{ID: c.ID}
		renumber, size := map[int]int{}, map[int]int{}
		for _, inv := range c.Invocations {
			for _, k := range inv.Calls {
				size[k.ParallelGroup]++
			}
		}
		for _, inv := range c.Invocations {
			out := invocation{ID: inv.ID, User: inv.User, Final: inv.FinalResponse, LLMCalls: inv.LLMCalls}
			if inv.DurationMS != nil {
				// Seconds back to ms may differ in the last bits.
				out.DurationMS = strconv.FormatFloat(*inv.DurationMS, 'g', 12, 64)
			}
			for _, k := range inv.Calls {
				g := k.ParallelGroup
				if size[g] < 2 {
					g = 0 // a group left with one call is no group
				}
				if g != 0 {
					if _, ok := renumber[g]; !ok {
						renumber[g] = len(renumber) + 1
					}
					g = renumber[g]
				}
				out.Calls = append(out.Calls, call{k.ID, k.Name, k.Agent, k.Args, k.Result, g})
			}
			ec.Invocations = append(ec.Invocations, out)
		}
		cases = append(cases, ec)
	}
	b, err := json.Marshal(struct {
		ID, Name, Description string
		Cases                 []evalCase
	}{set.ID, set.Name, set.Description, cases})
	if err != nil {
		t.Fatalf("the eval set cannot be encoded: %v", err)
	}
	return string(b)
}
