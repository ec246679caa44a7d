package history_test

import (
	"encoding/json"
	"errors"
	"math"
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

// FuzzReadTrajectory: stored bytes, however damaged, read back or are
// refused with an error, never a panic; a trajectory read back is encoded
// again and reads back the same.
func FuzzReadTrajectory(f *testing.F) {
	for _, c := range results() {
		if c.Trajectory != nil {
			data, _ := history.AppendTrajectory(nil, c.Trajectory)
			f.Add(data)
		}
	}
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
