package agentv_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/agentv"
)

// TestRead_recycled: a record read with a StepPool whose steps come back
// from a trajectory given back takes over that trajectory's flags and
// kept text (see recycler), and reads as it reads with no pool; a
// trajectory not given back keeps its own, whatever is read after it.
func TestRead_recycled(t *testing.T) {
	tests := []struct {
		name   string
		record func(i int) string
		reason string
	}{
		{"alike", func(i int) string { return callsRecord(i, 20, 8) },
			"records of one size take over the memory of those before them"},
		{"more text", func(i int) string { return callsRecord(i, 20, 8+i) },
			"each record keeps more text than the one whose memory comes back"},
		{"more calls", func(i int) string { return callsRecord(i, 1+i%40, 8) },
			"steps grow past the slice the pool made: flags made after the first"},
		{"less text", func(i int) string { return callsRecord(i, 20, 300-i) },
			"spare memory larger than the record needs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := jsonLines(200, tt.record)
			want := readSteps(t, data, nil, func(*trajeval.Trajectory) bool { return false })
			pool := new(trajeval.StepPool)
			var kept []*trajeval.Trajectory
			var got []string
			readSteps(t, data, pool, func(tr *trajeval.Trajectory) bool {
				got = append(got, stepsText(tr))
				if len(got)%7 == 0 {
					kept = append(kept, tr)
					return false
				}
				pool.Put(tr.Steps)
				tr.Steps = nil
				return true
			})
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("record %d (%s):\n got %s\nwant %s", i, tt.reason, got[i], want[i])
				}
			}
			for k, tr := range kept {
				if s, i := stepsText(tr), 7*(k+1)-1; s != want[i] {
					t.Fatalf("record %d, not given back, once all were read (%s):\n got %s\nwant %s", i, tt.reason, s, want[i])
				}
			}
		})
	}
}

// TestRead_recycledAllocs: a record whose steps come back from the pool
// makes no flags and no kept text of its own (three allocations fewer a
// record than with every trajectory kept, the steps' slice one more).
func TestRead_recycledAllocs(t *testing.T) {
	// Enough records that the first batches in flight, made before any
	// trajectory was given back, count little.
	const records = 2000
	data := jsonLines(records, func(i int) string { return callsRecord(i, 20, 8) })
	mallocs := func(giveBack bool) uint64 {
		var kept []*trajeval.Trajectory
		defer func() { runtime.KeepAlive(kept) }()
		return readMallocs(t, data, func(pool *trajeval.StepPool, tr *trajeval.Trajectory) {
			if giveBack {
				pool.Put(tr.Steps)
				tr.Steps = nil
			} else {
				kept = append(kept, tr)
			}
		})
	}
	kept, given := mallocs(false), mallocs(true)
	if per := float64(kept-min(given, kept)) / records; per < 3 {
		t.Errorf("%d allocations with every trajectory kept, %d with each given back: %.2f fewer a record, want 3 or more (the steps, their flags, the kept text and its slab, but for the first records in flight)", kept, given, per)
	}
}

// jsonLines is n lines, line(i) the i-th (from 0).
func jsonLines(n int, line func(i int) string) []byte {
	var b bytes.Buffer
	for i := range n {
		b.WriteString(line(i) + "\n")
	}
	return b.Bytes()
}

// callsRecord is an AgentV record of calls calls whose arguments hold n
// bytes of text, some failed, each with its duration.
func callsRecord(i, calls, n int) string {
	var c []string
	for k := range calls {
		status := "ok"
		if (i+k)%5 == 0 {
			status = "error"
		}
		out := `{"ok":true}`
		if k%4 == 3 {
			out = fmt.Sprintf(`{"n":%d}`, i*100+k)
		}
		c = append(c, fmt.Sprintf(`{"tool":"t%d","id":"c%d","input":{"q":%q},"output":%s,"status":%q,`+
			`"start_time":"2026-01-01T00:00:%02d.000Z","end_time":"2026-01-01T00:00:%02d.500Z","duration_ms":%d.5}`,
			k%3, k, strings.Repeat(string(rune('a'+(i+k)%26)), max(n, 0)), out, status, k%60, k%60, i+k))
	}
	return fmt.Sprintf(`{"id":"r%d","output":[{"role":"user","content":"u"},{"role":"assistant","tool_calls":[%s]}]}`, i, strings.Join(c, ","))
}

// readSteps reads data with pool, handing each trajectory to keep, and returns
// each one's steps as written by stepsText when keep said it gave them back,
// else once all are read.
func readSteps(t *testing.T, data []byte, pool *trajeval.StepPool, yield func(*trajeval.Trajectory) bool) []string {
	t.Helper()
	var out []string
	var later []*trajeval.Trajectory
	in := trajeval.Input{Name: "r.jsonl", R: bytes.NewReader(data), KeepText: true, Steps: pool, Warn: func(w trajeval.Warning) { t.Errorf("warning: %v", w) }}
	if err := agentv.Format.Read(context.Background(), in, func(tr *trajeval.Trajectory) error {
		s := stepsText(tr)
		if yield(tr) {
			out = append(out, s)
		} else {
			out = append(out, "")
			later = append(later, tr)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for i, k := 0, 0; i < len(out); i++ {
		if out[i] == "" {
			out[i] = stepsText(later[k])
			k++
		}
	}
	return out
}

// stepsText writes a trajectory's steps: names, ids, texts, failures and
// durations.
func stepsText(tr *trajeval.Trajectory) string {
	var b strings.Builder
	b.WriteString(tr.ID + ":")
	for _, s := range tr.Steps {
		args, _ := trajeval.KeptText(s.Args)
		res, _ := trajeval.KeptText(s.Result)
		e, d := "-", "-"
		if s.Error != nil {
			e = fmt.Sprint(*s.Error)
		}
		if s.DurationMS != nil {
			d = fmt.Sprint(*s.DurationMS)
		}
		fmt.Fprintf(&b, " %s(%s)%s=%s err %s %s;", s.Name, s.ID, json.RawMessage(args), json.RawMessage(res), e, d)
	}
	return b.String()
}

// TestRead_recycledNotGivenBack: a run that gives no trajectory back
// keeps few of them alive for the recycler (see recycler, rule 2): once
// the caller drops them, what the reader holds is what it has in flight.
func TestRead_recycledNotGivenBack(t *testing.T) {
	const records = 3000
	data := jsonLines(records, func(i int) string { return callsRecord(i, 20, 8) })
	pool := new(trajeval.StepPool)
	in := trajeval.Input{Name: "r.jsonl", R: bytes.NewReader(data), KeepText: true, Steps: pool, Warn: func(trajeval.Warning) {}}
	var base, held runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&base)
	n := 0
	if err := agentv.Format.Read(context.Background(), in, func(tr *trajeval.Trajectory) error {
		// Halfway: at the end the decoders, done, hold nothing.
		if n++; n == records/2 {
			runtime.GC()
			runtime.ReadMemStats(&held)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	// Some 5 KB a record: the batches in flight hold some hundreds (3.1 MB
	// in all); the recycler, held to maxRecycled alone, a thousand more
	// (8.5 MB).
	if grown := int64(held.HeapAlloc) - int64(base.HeapAlloc); grown > 5<<20 {
		t.Errorf("the heap grew by %d KB while reading %d records, none given back: want at most 5 MB", grown>>10, records)
	}
}

// TestRead_recycledGivenBackLate: trajectories given back late and in
// groups, as the run history gives back the failing cases it keeps (once
// their group of 64 results is encoded, some hundreds of records after
// they were read), still hand their memory on: the recycler's bound has
// room for what a run holds in flight (see recycler, rule 2).
func TestRead_recycledGivenBackLate(t *testing.T) {
	const records = 3000
	data := jsonLines(records, func(i int) string { return callsRecord(i, 20, 8) })
	tests := []struct {
		name         string
		group, delay int
		reason       string
	}{
		{"at once", 1, 0, "each given back as it is read, as eval without a history"},
		{"a group late", 64, 64, "64 at a time, a group after they were read, as the history's encoders"},
		{"two groups late", 64, 192, "64 at a time, three groups after they were read: a slow encoder"},
	}
	var all []*trajeval.Trajectory
	kept := readMallocs(t, data, func(_ *trajeval.StepPool, tr *trajeval.Trajectory) { all = append(all, tr) })
	runtime.KeepAlive(all)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var held []*trajeval.Trajectory
			given := readMallocs(t, data, func(pool *trajeval.StepPool, tr *trajeval.Trajectory) {
				held = append(held, tr)
				for len(held) >= tt.group+tt.delay {
					for _, g := range held[:tt.group] {
						pool.Put(g.Steps)
						g.Steps = nil
					}
					held = held[tt.group:]
				}
			})
			per := float64(kept-min(given, kept)) / records
			t.Logf("%s: %.2f fewer a record", tt.name, per)
			if per < 2.5 {
				t.Errorf("%s: %d allocations with every trajectory kept, %d given back: %.2f fewer a record, want 2.5 or more", tt.reason, kept, given, per)
			}
		})
	}
}

// readMallocs reads data with a StepPool of its own, handing each
// trajectory to use, and returns the allocations made meanwhile.
func readMallocs(t *testing.T, data []byte, use func(pool *trajeval.StepPool, tr *trajeval.Trajectory)) uint64 {
	t.Helper()
	pool := new(trajeval.StepPool)
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	in := trajeval.Input{Name: "r.jsonl", R: bytes.NewReader(data), KeepText: true, Steps: pool, Warn: func(trajeval.Warning) {}}
	if err := agentv.Format.Read(context.Background(), in, func(tr *trajeval.Trajectory) error {
		use(pool, tr)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&m1)
	return m1.Mallocs - m0.Mallocs
}
