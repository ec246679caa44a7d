package history_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/history"
)

// sameRead checks that traj stored in the compact encoding (when encoded
// says it is) reads back as its canonical JSON reads back: the same
// trajectory, field for field, and the same JSON.
func sameRead(t *testing.T, traj *trajeval.Trajectory, encoded bool) {
	t.Helper()
	want, jerr := trajeval.AppendJSON(nil, traj)
	data, ok := history.AppendTrajectory(nil, traj)
	if ok != encoded {
		t.Fatalf("encoded %v, want %v", ok, encoded)
	}
	if !ok {
		if len(data) != 0 {
			t.Errorf("not encoded, yet %d bytes appended", len(data))
		}
		return
	}
	if jerr != nil {
		t.Fatalf("encoded, but its JSON is refused: %v", jerr)
	}
	got, err := history.DecodeTrajectory(data)
	if err != nil {
		t.Fatalf("%q does not read back: %v", data, err)
	}
	fromJSON, err := history.DecodeTrajectory(want)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, fromJSON) {
		t.Errorf("read back\n%#v\nwant (from its JSON)\n%#v", got, fromJSON)
	}
	again, err := trajeval.AppendJSON(nil, got)
	if w, _ := trajeval.AppendJSON(nil, fromJSON); err != nil || string(again) != string(w) {
		t.Errorf("its JSON\n%s (%v)\nwant\n%s", again, err, w)
	}
}

func TestAppendTrajectory(t *testing.T) {
	start := time.Date(2026, 1, 31, 12, 0, 0, 123456789, time.FixedZone("CET", 3600))
	deep := func(n int) any {
		var v any = "leaf"
		for range n {
			v = []any{v}
		}
		return v
	}
	tests := []struct {
		name    string
		traj    *trajeval.Trajectory
		encoded bool
		reason  string
	}{
		{"the test's", results()[0].Trajectory, true, "objects, arrays, numbers as text, HTML to escape, errors, a parallel group"},
		{"empty", &trajeval.Trajectory{}, true, "no steps is [] in the JSON, read back as no steps"},
		{"bare steps", &trajeval.Trajectory{Steps: make([]trajeval.Step, 3)}, true, "steps of no fields take 13 bytes each, and their count is not refused"},
		{"every field", &trajeval.Trajectory{ID: "t\u2028", Partial: true,
			Turns: []trajeval.Turn{{Turn: 1, User: ptr("hi"), FinalResponse: ptr("")}, {Turn: 2}},
			Steps: []trajeval.Step{{Index: 1, Turn: 2, ID: "c1", Name: "n", Agent: "sub", ParallelGroup: 3, ErrorMessage: "bad",
				Error: ptr(true), DurationMS: ptr(0.1), StartTime: start, EndTime: start.Add(time.Millisecond)}},
			Metrics: trajeval.Metrics{DurationMS: ptr(1e21), CostUSD: ptr(1e-7), LLMCalls: ptr(int64(-3)),
				Tokens: trajeval.Tokens{Input: ptr(int64(1)), Output: ptr(int64(2)), Total: ptr(int64(math.MaxInt64))}},
			Agents: []trajeval.Agent{{Name: "root"}, {Name: "sub", Parent: "root"}}}, true,
			"each field of the JSON form, times in a zone written in UTC, figures beyond %f"},
		{"values", &trajeval.Trajectory{Steps: []trajeval.Step{{Index: 1, Name: "v",
			Args: map[string]any{"z": nil, "a": []any{}, "m": map[string]any{}, "n": json.Number(""), "e": json.Number("-1.5e+3"),
				"f": 2.5, "t": true, "b": false, "s": "bad \xff utf-8", "nilm": map[string]any(nil), "nila": []any(nil),
				"o": map[string]any{"y": 1.0, "x": "2"}},
			Result: []any{map[string]any{"c": "1", "b": "2", "a": "3"}}}}}, true,
			"every type of value; a nil object or array is null, an empty one {} or []; invalid UTF-8 as the JSON replaces it"},
		{"keys again", &trajeval.Trajectory{Steps: []trajeval.Step{
			{Index: 1, Name: "a", Args: map[string]any{"q": "1"}, Result: map[string]any{"x": "1", "y": "2"}},
			{Index: 2, Name: "a", Args: map[string]any{"q": "2"}, Result: map[string]any{"y": "3", "x": "4"}},
			{Index: 3, Name: "a", Args: map[string]any{"r": "3"}, Result: map[string]any{"x": "5", "z": "6"}},
			{Index: 4, Name: "a", Args: map[string]any{"q": map[string]any{"q": "4"}}, Result: map[string]any{"z": "7", "w": "8"}},
		}}, true, "objects of one and two members found by the last keys of their size, and not when their keys differ"},
		{"heads", &trajeval.Trajectory{Steps: []trajeval.Step{
			{Index: 1, Turn: 1, Name: "a"}, {Index: 2, Turn: 1, Name: "b", Error: ptr(true), ErrorMessage: "x"},
			{Index: 5, Turn: 1, Name: "c", ParallelGroup: -2, Agent: "sub"}, {Index: 3, Turn: 2, Name: "d", Error: ptr(false)},
			{Index: 4, Turn: 2, Name: "e", ParallelGroup: 1}, {Index: -1, Turn: -1}, {Index: 0, Turn: -1, Agent: "x", ErrorMessage: "y"},
		}}, true, "each step's index and turn written only when not the previous one's plus one and the same; message, group and agent only when set"},
		{"deep", &trajeval.Trajectory{Steps: []trajeval.Step{{Index: 1, Name: "d", Args: deep(256)}}}, true, "nested up to the bound"},
		{"too deep", &trajeval.Trajectory{Steps: []trajeval.Step{{Index: 1, Name: "d", Args: deep(257)}}}, false, "past the bound: stored as JSON"},
		{"NaN", &trajeval.Trajectory{Steps: []trajeval.Step{{Index: 1, Name: "x", Args: math.NaN()}}}, false, "refused by the JSON, with its error"},
		{"infinite duration", &trajeval.Trajectory{Metrics: trajeval.Metrics{DurationMS: ptr(math.Inf(1))}}, false, "refused by the JSON"},
		{"not a number", &trajeval.Trajectory{Steps: []trajeval.Step{{Index: 1, Name: "x", Args: json.Number("01")}}}, false, "refused by the JSON"},
		{"year 10000", &trajeval.Trajectory{Steps: []trajeval.Step{{Index: 1, Name: "x",
			StartTime: time.Date(9999, 12, 31, 23, 0, 0, 0, time.FixedZone("", -7200))}}}, false, "in year 10000 in UTC: refused by the JSON"},
		{"another type", &trajeval.Trajectory{Steps: []trajeval.Step{{Index: 1, Name: "x", Args: 3}}}, false,
			"an int goes to encoding/json, which the encoding does not follow: stored as JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sameRead(t, tt.traj, tt.encoded)
		})
		t.Run(tt.name+"/version 9", func(t *testing.T) {
			history.SetTrajectoryCodeV9(t, true)
			sameRead(t, tt.traj, tt.encoded)
		})
	}
}

// TestAppendTrajectory_times: a step's times and durations, written by
// their differences, read back exactly, whatever their order, precision
// or year.
func TestAppendTrajectory_times(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	step := func(start, end time.Time, d *float64) trajeval.Step {
		return trajeval.Step{Index: 1, Name: "x", StartTime: start, EndTime: end, DurationMS: d}
	}
	tests := []struct {
		name   string
		steps  []trajeval.Step
		reason string
	}{
		{"the bench's", benchTrajectory(7).Steps, "whole milliseconds, each duration its end less its start"},
		{"nanoseconds", []trajeval.Step{step(at.Add(123456789), at.Add(2*time.Second+1), ptr(2000.0))},
			"nanoseconds past a millisecond kept, the duration not its times' difference to the nanosecond"},
		{"backwards", []trajeval.Step{step(at.Add(time.Hour), at, ptr(-3.6e6)), step(at.Add(-time.Hour), at.Add(-2*time.Hour), nil)},
			"an end before its start, a step before the previous one: negative differences"},
		{"before 1970", []trajeval.Step{step(time.Date(1969, 12, 31, 23, 59, 59, 999999999, time.UTC), time.Unix(-1, 1), ptr(0.5))},
			"negative milliseconds, nanoseconds past them counted up from the millisecond below"},
		{"years 0 and 9999", []trajeval.Step{step(time.Date(0, 1, 1, 0, 0, 0, 1, time.UTC), time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC), ptr(1e21))},
			"the widest difference the JSON writes, and a duration past 2^53"},
		{"durations", []trajeval.Step{step(at, at.Add(5*time.Millisecond), ptr(math.Copysign(0, -1))),
			step(at, at.Add(5*time.Millisecond), ptr(float64(1<<53))), step(at, at.Add(5*time.Millisecond), ptr(float64(1<<53+2))),
			step(at, time.Time{}, ptr(-7.0)), step(time.Time{}, at, ptr(12.25)), step(time.Time{}, time.Time{}, ptr(4.0))},
			"-0 and whole numbers past 2^53 as floats, 2^53 and others by difference, against 0 when a time is unknown"},
		{"in a zone", []trajeval.Step{step(at.In(time.FixedZone("CET", 3600)), at.Add(time.Millisecond).In(time.FixedZone("X", -1800)), ptr(1.0))},
			"written in UTC, as the JSON writes them"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sameRead(t, &trajeval.Trajectory{Steps: tt.steps, Metrics: trajeval.Metrics{DurationMS: tt.steps[0].DurationMS}}, true)
		})
	}
}

// TestAppendTrajectory_size: the bench's trajectory takes fewer bytes with
// its times and durations written by their differences than by their
// seconds, nanoseconds and float bits (version 9).
func TestAppendTrajectory_size(t *testing.T) {
	tr := benchTrajectory(7)
	now, ok := history.AppendTrajectory(nil, tr)
	history.SetTrajectoryCodeV9(t, true)
	v9, ok9 := history.AppendTrajectory(nil, tr)
	if !ok || !ok9 {
		t.Fatal("not encoded")
	}
	// 20 steps: two times of 11 bytes and a duration of 9 against about 4.
	t.Logf("%d bytes, version 9 %d", len(now), len(v9))
	if len(now) > len(v9)-20*25 {
		t.Errorf("%d bytes, version 9 %d: want at least 500 fewer", len(now), len(v9))
	}
}

// TestReadTrajectory_damaged: an encoding damaged anywhere is an error
// that names the damage, never a panic nor a trajectory.
func TestReadTrajectory_damaged(t *testing.T) {
	good, ok := history.AppendTrajectory(nil, results()[0].Trajectory)
	if !ok {
		t.Fatal("the test's trajectory is not encoded")
	}
	for n := range len(good) {
		if _, err := history.ReadTrajectory(good[:n]); !errors.Is(err, history.ErrTrajectory) {
			t.Fatalf("cut to %d bytes of %d: %v, want %v", n, len(good), err, history.ErrTrajectory)
		}
	}
	pad := strings.Repeat("\x00", 16) // what follows the damage, so that no count is refused first
	// uStep is a trajectory of one step ('U') up to its times: its head
	// (index 1, turn 0), no id, no name, null arguments and result.
	const uStep = "U\x00\x00\x01\x0c\x00\x00\x00\x00"
	tests := []struct {
		name, msg string // msg: what the error says
		data      string
		reason    string
	}{
		{"trailing", "after the trajectory", string(good) + "x", "bytes after the trajectory"},
		{"many steps", "items in", "T\x00\x00\xff\xff\xff\xff\x0f", "a count the bytes left cannot hold is refused before anything is made"},
		{"long string", "a string of", "T\xff\xff\xff\xff\x0f", "a string longer than the bytes left"},
		{"deep", "nested deeper", "T\x00\x00\x01\x02\x00\x00\x00" + strings.Repeat("\x06\x01", 300), "nesting past the bound"},
		{"unknown tag", "tag 9", "T\x00\x00\x01\x02\x00\x00\x00\x09" + pad, "a value of no known tag"},
		{"repeated key", "repeats a key", "T\x00\x00\x01\x02\x00\x00\x00\x07\x02\x01k\x00\x01k\x00" + pad, "an object naming a key twice"},
		{"error byte", "error is not", "T\x00\x00\x01\x02\x00\x00\x00\x00\x00\x03" + pad, "a step's error other than unknown, false, true"},
		{"NaN", "not finite", "T\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\xf8\x7f", "a duration that is not finite"},
		{"step head", "a step's head", "U\x00\x00\x01\x80" + pad, "a step's head with a bit of no meaning"},
		{"step error", "error is not", "U\x00\x00\x01\x03" + pad, "a step's error other than unknown, false, true"},
		{"year 10000, by difference", "time out of range", uStep + "\x00" + uvarint(zigzag(253402300800000)<<1+1) + pad,
			"a time past year 9999, the first of its trajectory"},
		{"before year 0, by difference", "time out of range", "U\x00\x00\x02" +
			"\x0c\x00\x00\x00\x00\x00" + uvarint(zigzag(-62167219200000)<<1+1) + "\x00" +
			"\x0c\x00\x00\x00\x00\x00" + uvarint(zigzag(-1)<<1+1) + pad,
			"a step's time before year 0 by the difference from the previous step's, in range"},
		{"huge difference", "time out of range", uStep + uvarint(math.MaxUint64) + pad, "a difference that would overflow the sum"},
		{"nanoseconds", "nanoseconds past", uStep + "\x00\x02" + uvarint(1e6) + pad, "a millisecond's nanoseconds past 999,999"},
		{"no nanoseconds", "nanoseconds past", uStep + "\x00\x02\x00" + pad, "nanoseconds said to follow and 0"},
		{"huge duration", "duration out of range", uStep + "\x00\x00" + uvarint(zigzag(1<<53+1)+2) + pad, "a whole duration past 2^53"},
		{"duration overflow", "duration out of range", uStep + "\x00\x00" + uvarint(math.MaxUint64) + pad, "a difference that would overflow the sum"},
		{"NaN duration", "not finite", uStep + "\x00\x00\x01\x00\x00\x00\x00\x00\x00\xf8\x7f" + pad, "a duration as a float that is not finite"},
		{"text beyond the data", "a text of", uStep[:7] + "\x08\x10{}\x00\x00\x00", "a kept text longer than the bytes left"},
		{"text not JSON", "not the JSON text", uStep[:7] + "\x08\x05{\"a\"}" + pad, "a kept text that is no JSON"},
		{"text cut", "not the JSON text", uStep[:7] + "\x08\x03[1,2]" + pad, "a kept text whose length cuts it short"},
		{"text a scalar", "not the JSON text", uStep[:7] + "\x08\x017" + pad, "a kept text that is not an object or array"},
		{"text two values", "not the JSON text", uStep[:7] + "\x08\x04{}{}" + pad, "a kept text of two values"},
		{"text too deep", "not the JSON text", uStep[:7] + "\x08" + uvarint(2*129) + strings.Repeat("[", 129) + strings.Repeat("]", 129) + pad,
			"a kept text nested deeper than the readers allow"},
		{"text long", "…", uStep[:7] + "\x08" + uvarint(1<<16) + "{" + strings.Repeat("x", 1<<16-2) + "}" + pad, "a long damaged text quoted to its first bytes"},
		{"year 10000", "time out of range", "T\x00\x00\x01\x02\x00\x00\x00\x00\x00\x00\x00\x00\x01\x80\x80\x80\x80\xc0\xbf\x9b\xe6\x07\x00" + pad, "a time past year 9999"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := history.ReadTrajectory([]byte(tt.data))
			if !errors.Is(err, history.ErrTrajectory) || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("%#v, %v; want %v saying %q", tr, err, history.ErrTrajectory, tt.msg)
			}
		})
	}
}

func uvarint(u uint64) string { return string(binary.AppendUvarint(nil, u)) }

func zigzag(n int64) uint64 { return uint64(n<<1) ^ uint64(n>>63) }

// FuzzReadTrajectory: stored bytes, however damaged, read back or are
// refused with an error, never a panic; a trajectory read back is encoded
// again and reads back the same. Seeds in both encodings ('U' and 'T'),
// and with kept JSON text (from schema version 12).
func FuzzReadTrajectory(f *testing.F) {
	for _, v9 := range []bool{false, true} {
		history.SetTrajectoryCodeV9(f, v9)
		for _, c := range append(timedResults(), keptTextResults()...) {
			if c.Trajectory != nil {
				data, _ := history.AppendTrajectory(nil, c.Trajectory)
				f.Add(data)
			}
		}
	}
	history.SetTrajectoryCodeV9(f, false)
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := history.ReadTrajectory(data)
		if err != nil {
			return
		}
		sameRead(t, tr, true)
	})
}

// FuzzAppendTrajectory: a trajectory read from any JSON, stored in the
// compact encoding, reads back as its canonical JSON reads back.
func FuzzAppendTrajectory(f *testing.F) {
	for _, c := range results() {
		if c.Trajectory != nil {
			data, err := trajeval.AppendJSON(nil, c.Trajectory)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var tr trajeval.Trajectory
		if json.Unmarshal(data, &tr) != nil {
			return
		}
		_, jerr := trajeval.AppendJSON(nil, &tr)
		if _, ok := history.AppendTrajectory(nil, &tr); !ok {
			if jerr == nil && depth(data) < 200 {
				t.Errorf("%s is not encoded", data)
			}
			return
		}
		sameRead(t, &tr, true)
	})
}

// depth is how deep data's arrays and objects nest, at most.
func depth(data []byte) int {
	d, most := 0, 0
	for _, c := range data {
		switch c {
		case '[', '{':
			d++
			most = max(most, d)
		case ']', '}':
			d--
		}
	}
	return most
}

// TestOpen_migrateVersion10: a SQLite file of schema version 10 (times
// in trajectories as seconds and nanoseconds, 'T') migrates to today's,
// and its run reads back as recorded beside one recorded after, whose
// trajectories write times by their differences ('U').
func TestOpen_migrateVersion10(t *testing.T) {
	dsn := filepath.Join(t.TempDir(), "runs.db")
	oldFile(t, dsn, 10).Close()
	// Version 11 changes no table: a file of version 10 is one whose
	// trajectories begin with 'T', and whose schema_version says 10.
	h := open(t, dsn)
	history.SetTrajectoryCodeV9(t, true)
	run := history.Run{Suites: []string{"shop"}, Start: time.UnixMilli(0), KeepPassing: true}
	old := record(t, h, run, timedResults())
	h.Close()
	raw := rawDB(t, dsn)
	if _, err := raw.Exec("DELETE FROM schema_version WHERE version > 10"); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	history.SetTrajectoryCodeV9(t, false)
	h = open(t, dsn)
	if v, err := h.SchemaVersion(t.Context()); err != nil || v != history.Version() {
		t.Fatalf("schema version %d, %v; want %d", v, err, history.Version())
	}
	id := record(t, h, run, timedResults())
	for _, r := range []int64{old, id} {
		got, err := h.Rows(t.Context(), r, true)
		if err != nil {
			t.Fatal(err)
		}
		if g, w := jsonl(t, got), jsonl(t, timedResults()); g != w {
			t.Errorf("run %d reads back otherwise than recorded\ngot:\n%s\nwant:\n%s", r, g, w)
		}
	}
	for run, mark := range map[int64]byte{old: 'T', id: 'U'} {
		if got := firstTrajectoryByte(t, dsn, run); got != mark {
			t.Errorf("run %d's trajectory begins with %q, want %q", run, got, mark)
		}
	}
}

// timedResults are results() with the bench's trajectory (its times and
// durations in whole milliseconds) and one whose times have nanoseconds
// and durations fractions.
func timedResults() []trajeval.CaseResult {
	rs := results()
	at := time.Date(2026, 1, 31, 12, 0, 0, 123456789, time.UTC)
	rs[0].Trajectory = benchTrajectory(3)
	rs[1].Trajectory = &trajeval.Trajectory{ID: "t2", Steps: []trajeval.Step{
		{Index: 1, Name: "a", StartTime: at, EndTime: at.Add(1500 * time.Microsecond), DurationMS: ptr(1.5)},
		{Index: 2, Name: "b", StartTime: at.Add(-time.Hour), DurationMS: ptr(7.0)},
	}}
	return rs
}

// keptTextResults are timedResults() with the bench's trajectory as a
// reader keeping text gives it (its arguments and results JSON text),
// and a trajectory of texts not written as the canonical JSON writes
// their values (white space, keys out of order, escapes, a repeated key).
func keptTextResults() []trajeval.CaseResult {
	rs := timedResults()
	rs[0].Trajectory = benchTrajectoryOf(3, true)
	rs[1].Trajectory = &trajeval.Trajectory{ID: "t2", Steps: []trajeval.Step{
		{Index: 1, Name: "a", Args: json.RawMessage(`{ "b" : [1.50, -0e+3], "a":"\u00e9<&>" }`), Result: json.RawMessage(`[{"k":1,"k":2}]`)},
		{Index: 2, Name: "b", Args: json.RawMessage(`{"s":"\ud83d\ude00","n":9007199254740993}`), Result: json.RawMessage(" [] ")},
	}}
	return rs
}

// TestAppendTrajectory_keptText: the JSON text a reader kept is stored as
// it stands (schema version 12), not as the values it holds (version 11),
// and reads back as those values do, whatever its form; the bench's
// trajectory takes at most a quarter more bytes (before compression).
func TestAppendTrajectory_keptText(t *testing.T) {
	for _, c := range keptTextResults() {
		tr := c.Trajectory
		if tr == nil {
			continue
		}
		decoded, err := tr.DecodeText()
		if err != nil {
			t.Fatal(err)
		}
		now, ok := history.AppendTrajectory(nil, tr)
		history.SetKeptTextV11(t, true)
		v11, ok11 := history.AppendTrajectory(nil, tr)
		history.SetKeptTextV11(t, false)
		if !ok || !ok11 {
			t.Fatalf("%s: not encoded", tr.ID)
		}
		for _, s := range tr.Steps {
			for _, v := range []any{s.Args, s.Result} {
				text := v.(json.RawMessage)
				if stands := text[0] != ' '; stands != bytes.Contains(now, text) {
					t.Errorf("%s: %s stored as it stands: %v, want %v", tr.ID, text, !stands, stands)
				}
				if bytes.Contains(v11, text) {
					t.Errorf("%s: %s stored as it stands in version 11", tr.ID, text)
				}
			}
		}
		want, err := history.DecodeTrajectory(v11)
		if err != nil {
			t.Fatal(err)
		}
		for name, data := range map[string][]byte{"version 12": now, "version 11": v11} {
			got, err := history.DecodeTrajectory(data)
			if err != nil {
				t.Fatalf("%s, %s: %v", tr.ID, name, err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s, %s: read back as\n%#v\nwant\n%#v", tr.ID, name, got, want)
			}
		}
		sameRead(t, decoded, true)
		t.Logf("%s: %d bytes, version 11 %d", tr.ID, len(now), len(v11))
		if tr.ID == "case-0000003" && len(now) > len(v11)*5/4 {
			t.Errorf("the bench's trajectory takes %d bytes, %d in version 11: want at most a quarter more", len(now), len(v11))
		}
	}
}

// TestOpen_migrateVersion11: a SQLite file of schema version 11 (kept
// text stored as the values it holds) migrates to today's, and its run
// reads back as recorded beside one recorded after, whose kept text is
// stored as it stands.
func TestOpen_migrateVersion11(t *testing.T) {
	dsn := filepath.Join(t.TempDir(), "runs.db")
	oldFile(t, dsn, 11).Close()
	// Version 12 changes no table: a file of version 11 is one whose
	// trajectories hold no text, and whose schema_version says 11.
	h := open(t, dsn)
	history.SetKeptTextV11(t, true)
	run := history.Run{Suites: []string{"shop"}, Start: time.UnixMilli(0), KeepPassing: true}
	old := record(t, h, run, keptTextResults())
	h.Close()
	raw := rawDB(t, dsn)
	if _, err := raw.Exec("DELETE FROM schema_version WHERE version > 11"); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	history.SetKeptTextV11(t, false)
	h = open(t, dsn)
	if v, err := h.SchemaVersion(t.Context()); err != nil || v != history.Version() {
		t.Fatalf("schema version %d, %v; want %d", v, err, history.Version())
	}
	id := record(t, h, run, keptTextResults())
	want := keptTextResults()
	for i := range want {
		if tr := want[i].Trajectory; tr != nil {
			d, err := tr.DecodeText()
			if err != nil {
				t.Fatal(err)
			}
			want[i].Trajectory = d
		}
	}
	for _, r := range []int64{old, id} {
		got, err := h.Rows(t.Context(), r, true)
		if err != nil {
			t.Fatal(err)
		}
		if g, w := jsonl(t, got), jsonl(t, want); g != w {
			t.Errorf("run %d reads back otherwise than recorded\ngot:\n%s\nwant:\n%s", r, g, w)
		}
	}
	text := []byte(`{"limit":10,"query":"python history"}`)
	for run, stands := range map[int64]bool{old: false, id: true} {
		found := false
		for _, data := range runChunks(t, dsn, run) {
			found = found || bytes.Contains(data, text)
		}
		if found != stands {
			t.Errorf("run %d holds the text %s as it stands: %v, want %v", run, text, found, stands)
		}
	}
}
