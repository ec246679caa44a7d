package agentv_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/agentv"
)

// TestRead_recordMem: what a trajectory points at besides its steps (its
// numbers, model calls, turns, user texts and final responses) is its
// own, each text its turn's, however many records one decoder reads
// after it; the first user text and final response may share the
// trajectory's allocation (see recordMem), the others may not.
func TestRead_recordMem(t *testing.T) {
	tests := []struct {
		name   string
		record string // with %[1]d for the record's number
		want   string // as summary writes it, %[1]d the same
		reason string
	}{
		{"one turn",
			`{"id":"c%[1]d","output":[{"role":"user","content":"u%[1]d"},{"role":"assistant","content":"f%[1]d","tool_calls":[{"tool":"t","id":"a"}]}],"token_usage":{"input":%[1]d,"output":2,"total":3},"cost_usd":%[1]d.5,"duration_ms":7}`,
			"c%[1]d: u%[1]d/f%[1]d; llm 1, cost %[1]d.5, duration 7, tokens %[1]d 2 3",
			"the user text and final response, strings, kept with the trajectory"},
		{"three turns",
			`{"id":"c%[1]d","output":[{"role":"user","content":"u%[1]d"},{"role":"assistant","content":"f%[1]d"},{"role":"user","content":[{"type":"text","text":"v%[1]d"}]},{"role":"assistant","content":"g%[1]d"},{"role":"user","content":"w%[1]d"},{"role":"assistant","content":"h%[1]d"}],"cost_usd":%[1]d}`,
			"c%[1]d: u%[1]d/f%[1]d v%[1]d/g%[1]d w%[1]d/h%[1]d; llm 3, cost %[1]d, duration -, tokens - - -",
			"more turns than the trajectory keeps, texts past the first their own"},
		{"blank first",
			`{"id":"c%[1]d","output":[{"role":"assistant","content":" "},{"role":"assistant","content":"f%[1]d"},{"role":"assistant","content":"g%[1]d"}]}`,
			"c%[1]d: -/g%[1]d; llm 3, cost -, duration -, tokens - - -",
			"a blank response takes the kept place, the last not blank is the answer"},
		{"encoding/json",
			`{"ID":"c%[1]d","output":[{"role":"user","content":"u%[1]d"},{"role":"assistant","content":"f%[1]d"}],"cost_usd":%[1]d}`,
			"c%[1]d: u%[1]d/f%[1]d; llm 1, cost %[1]d, duration -, tokens - - -",
			"a record the fast path leaves to encoding/json (a key in another case)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			const records = 50
			data := jsonLines(records, func(i int) string { return fmt.Sprintf(tt.record, i) })
			var got []*trajeval.Trajectory
			in := trajeval.Input{Name: "mem.jsonl", R: bytes.NewReader(data), KeepText: true, Warn: func(trajeval.Warning) {}}
			if err := agentv.Format.Read(context.Background(), in, func(t *trajeval.Trajectory) error {
				got = append(got, t)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if len(got) != records {
				t.Fatalf("%d trajectories, want %d", len(got), records)
			}
			for i, g := range got {
				if s, want := summary(g), fmt.Sprintf(tt.want, i); s != want {
					t.Fatalf("record %d (%s), once all were read: %s, want %s", i, tt.reason, s, want)
				}
			}
		})
	}
}

// summary writes what a trajectory points at besides its steps.
func summary(t *trajeval.Trajectory) string {
	text := func(s *string) string {
		if s == nil {
			return "-"
		}
		return *s
	}
	var turns []string
	for _, tn := range t.Turns {
		turns = append(turns, text(tn.User)+"/"+text(tn.FinalResponse))
	}
	num := func(v any) string {
		s := fmt.Sprint(v)
		if strings.HasPrefix(s, "<nil>") {
			return "-"
		}
		return s
	}
	m := t.Metrics
	deref := func(p any) any {
		switch x := p.(type) {
		case *float64:
			if x != nil {
				return *x
			}
		case *int64:
			if x != nil {
				return *x
			}
		}
		return nil
	}
	return fmt.Sprintf("%s: %s; llm %s, cost %s, duration %s, tokens %s %s %s", t.ID, strings.Join(turns, " "),
		num(deref(m.LLMCalls)), num(deref(m.CostUSD)), num(deref(m.DurationMS)),
		num(deref(m.Tokens.Input)), num(deref(m.Tokens.Output)), num(deref(m.Tokens.Total)))
}
