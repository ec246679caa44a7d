package agentv_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/agentv"
)

// benchData is records lines shaped as the bench's traces.
func benchData(records int) []byte {
	var data bytes.Buffer
	for i := range records {
		data.WriteString(benchRecord(i))
	}
	return data.Bytes()
}

// TestRead_keptTextAllocations bounds what reading a record of the
// bench's shape allocates when its calls' inputs and outputs are kept as
// JSON text: the 40 texts share one buffer of bytes and one slab of
// json.RawMessage, and each step holds a *json.RawMessage into the slab,
// which goes into an interface without an allocation of its own. With
// each text a json.RawMessage boxed into an interface, a record took 53
// allocations (40 of them the boxes), then 14; with the trajectory, its
// numbers, model calls, turns and texts in one allocation (see
// recordMem), 9; with the record's id not boxed, under 8.
func TestRead_keptTextAllocations(t *testing.T) {
	const records = 200
	data := benchData(records)
	ctx := context.Background()
	texts := 0
	read := func() {
		texts = 0
		in := trajeval.Input{Name: "bench.jsonl", R: bytes.NewReader(data), KeepText: true, Warn: func(trajeval.Warning) {}}
		err := agentv.Format.Read(ctx, in, func(t *trajeval.Trajectory) error {
			for _, s := range t.Steps {
				_, a := s.Args.(*json.RawMessage)
				_, r := s.Result.(*json.RawMessage)
				if a && r {
					texts++
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	n := testing.AllocsPerRun(3, read) / records
	if texts != 20*records {
		t.Errorf("%d steps of %d have their input and output kept as a *json.RawMessage", texts, 20*records)
	}
	if n > 8 {
		t.Errorf("%.1f allocations a record, want at most 8: 40 texts must not take an allocation each, nor the trajectory's numbers, turns and texts, nor its id a box", n)
	}
}

// BenchmarkRead_keptText is BenchmarkRead keeping text, as a run reads:
// go test ./internal/format/agentv -run XXX -bench Read_keptText -benchmem -cpu 1.
func BenchmarkRead_keptText(b *testing.B) {
	data := benchData(2000)
	ctx := context.Background()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		in := trajeval.Input{Name: "bench.jsonl", R: bytes.NewReader(data), KeepText: true, Warn: func(trajeval.Warning) {}}
		if err := agentv.Format.Read(ctx, in, func(*trajeval.Trajectory) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
}

// TestRead_keptTextShared: an output kept as text that is the text of the
// output before it shares that output's *json.RawMessage; any other
// output has its own, and each holds its own text, whatever came before
// (an output not kept as text, a longer one, one of another length),
// full, so that an append to it cannot run into the next text.
func TestRead_keptTextShared(t *testing.T) {
	call := func(id, output string) string {
		return `{"role":"assistant","tool_calls":[{"tool":"t","id":"` + id + `","input":{"id":"` + id + `"},"output":` + output + `}]}`
	}
	long := `{"ok":true,"rows":[1,2,3,4,5,6,7,8]}` // too long for a RecentSpan to remember
	outputs := []string{`{"ok":true}`, `{"ok":true}`, `{"ok":false}`, `{"ok":true}`, `"done"`, `{"ok":true}`, long, long, `[1]`, `{"ok":true}`,
		`{"ok":1}`, long, `{"ok":1}`, `{"ok":1}`, `"x"`, `{"ok":1}`}
	// shared[i]: output i is output i-1's text. Output 12 is found
	// again (the RecentSpan still holds output 10) right after a text it
	// is not; output 15 after one not kept as text, sharing output 13's.
	shared := []bool{false, true, false, false, false, false, false, true, false, false,
		false, false, false, true, false, false}
	line := `{"id":"c","output":[`
	for i, o := range outputs {
		if i > 0 {
			line += ","
		}
		line += call(fmt.Sprint("c", i), o)
	}
	line += "]}\n"
	in := trajeval.Input{Name: "x.jsonl", R: bytes.NewReader([]byte(line + line)), KeepText: true, Warn: func(trajeval.Warning) {}}
	err := agentv.Format.Read(context.Background(), in, func(tr *trajeval.Trajectory) error {
		if len(tr.Steps) != len(outputs) {
			t.Fatalf("%d steps, want %d", len(tr.Steps), len(outputs))
		}
		for i, s := range tr.Steps {
			text, kept := trajeval.KeptText(s.Result)
			if want := outputs[i]; kept != (want[0] != '"') || kept && string(text) != want {
				t.Errorf("step %d: result %v (kept %v), want %s", i, s.Result, kept, want)
			}
			for _, v := range []any{s.Args, s.Result} {
				// Full: an append to one text must not run into the next.
				if r, ok := v.(*json.RawMessage); ok && cap(*r) != len(*r) {
					t.Errorf("step %d: a kept text of %d bytes has room for %d", i, len(*r), cap(*r))
				}
			}
			if i == 0 {
				continue
			}
			prev, _ := tr.Steps[i-1].Result.(*json.RawMessage)
			cur, _ := s.Result.(*json.RawMessage)
			if same := cur != nil && cur == prev; same != shared[i] {
				t.Errorf("step %d: shares the step before's text: %v, want %v", i, same, shared[i])
			}
			if i == 15 && cur != tr.Steps[13].Result.(*json.RawMessage) {
				t.Errorf("step 15 does not share step 13's text, the last kept")
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestRead_keptTextManyCalls reads records of more calls than the reader's
// scratch first has room for (32): every step keeps its arguments and
// result, however the calls are spread over messages and lists, and
// whatever the records read before left in the scratch.
func TestRead_keptTextManyCalls(t *testing.T) {
	call := func(i int) string {
		return fmt.Sprintf(`{"tool":"t","id":"c%d","input":{"n":%d},"output":{"got":%d}}`, i, i, i)
	}
	record := func(id string, perMessage []int, list string) string {
		line, k := `{"id":"`+id+`","`+list+`":[`, 0
		for m, n := range perMessage {
			if m > 0 {
				line += ","
			}
			line += `{"role":"assistant","tool_calls":[`
			for j := 0; j < n; j++ {
				if j > 0 {
					line += ","
				}
				line += call(k)
				k++
			}
			line += "]}"
		}
		return line + "]}\n"
	}
	ones := func(n int) []int {
		s := make([]int, n)
		for i := range s {
			s[i] = 1
		}
		return s
	}
	tests := []struct {
		name       string
		perMessage []int
		list       string
		reason     string
	}{
		{"33 messages of a call", ones(33), "output",
			"the 33rd call moves the scratch: the 32 read before must keep their texts"},
		{"a message of 40 calls", []int{40}, "output", "the list itself outgrows the scratch while it is read"},
		{"many spread", []int{5, 30, 1, 20, 3}, "output", "a message's calls cross the scratch's end"},
		{"output_messages", ones(40), "output_messages", "the other list of messages"},
		{"few", []int{2, 1}, "output", "a small record after large ones: the scratch is reused"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Twice: the first record grows the scratch, the second is
			// read in what it left.
			line := record("r", tt.perMessage, tt.list)
			in := trajeval.Input{Name: "x.jsonl", R: bytes.NewReader([]byte(line + line)), KeepText: true, Warn: func(trajeval.Warning) {}}
			want := 0
			for _, n := range tt.perMessage {
				want += n
			}
			records := 0
			err := agentv.Format.Read(context.Background(), in, func(tr *trajeval.Trajectory) error {
				records++
				if len(tr.Steps) != want {
					t.Fatalf("%d steps, want %d", len(tr.Steps), want)
				}
				for i, s := range tr.Steps {
					args, _ := trajeval.KeptText(s.Args)
					result, _ := trajeval.KeptText(s.Result)
					if string(args) != fmt.Sprintf(`{"n":%d}`, i) || string(result) != fmt.Sprintf(`{"got":%d}`, i) {
						t.Errorf("record %d, step %d: args %v, result %v (%s)", records, i, s.Args, s.Result, tt.reason)
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if records != 2 {
				t.Fatalf("%d records, want 2", records)
			}
		})
	}
}

// TestRead_keptTextLeftOut: a call that makes no step (one of a user's
// message, or one whose id was given before) still has its kept text
// copied where it was counted, so that the calls after it that share its
// output, or come after it in the copies, hold their own texts.
func TestRead_keptTextLeftOut(t *testing.T) {
	call := func(id, output string) string {
		return `{"tool":"t","id":"` + id + `","input":{"id":"` + id + `"},"output":` + output + `}`
	}
	msg := func(role string, calls ...string) string {
		return `{"role":"` + role + `","tool_calls":[` + strings.Join(calls, ",") + `]}`
	}
	tests := []struct {
		name   string
		msgs   []string
		want   []string // each step's args' id and result
		reason string
	}{
		{"a user's call first", []string{msg("user", call("u", `{"ok":true}`)), msg("assistant", call("a", `{"ok":true}`)), msg("assistant", call("b", `{"ok":2}`))},
			[]string{`a {"ok":true}`, `b {"ok":2}`}, "the assistant's output shares the user's call's, which makes no step"},
		{"a user's call between", []string{msg("assistant", call("a", `{"ok":1}`)), msg("user", call("u", `{"ok":2}`)), msg("assistant", call("b", `{"ok":2}`))},
			[]string{`a {"ok":1}`, `b {"ok":2}`}, "the last output kept before b is the user's call's"},
		{"an id given twice", []string{msg("assistant", call("a", `{"ok":1}`), call("a", `{"ok":3}`)), msg("assistant", call("b", `{"ok":3}`), call("c", `{"ok":4}`))},
			[]string{`a {"ok":1}`, `b {"ok":3}`, `c {"ok":4}`}, "the call left out holds the output b shares"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			line := `{"id":"r","output":[` + strings.Join(tt.msgs, ",") + "]}\n"
			in := trajeval.Input{Name: "x.jsonl", R: bytes.NewReader([]byte(line + line)), KeepText: true, Warn: func(trajeval.Warning) {}}
			err := agentv.Format.Read(context.Background(), in, func(tr *trajeval.Trajectory) error {
				var got []string
				for _, s := range tr.Steps {
					args, _ := trajeval.KeptText(s.Args)
					result, _ := trajeval.KeptText(s.Result)
					var a struct{ ID string }
					if err := json.Unmarshal(args, &a); err != nil {
						t.Fatalf("args %s: %v", args, err)
					}
					got = append(got, a.ID+" "+string(result))
				}
				if !slices.Equal(got, tt.want) {
					t.Errorf("steps %q, want %q (%s)", got, tt.want, tt.reason)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}
