package agentv_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/agentv"
	"github.com/trajeval/trajeval/internal/format/formattest"
	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/trace"
)

var formats = []trajeval.Format{agentv.Format}

func TestGolden(t *testing.T) { formattest.Golden(t, formats...) }

func TestDetect(t *testing.T) { formattest.Detect(t, formats...) }

func FuzzRead(f *testing.F) { formattest.Fuzz(f, formats, nil) }

func TestRead_errors(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		line, col int
		msg       string
		reason    string
	}{
		{"truncated object", `{"id": "x", "output": [{"role": "assistant"`, 1, 44, "truncated", "the end of the data"},
		{"truncated pretty", "{\n  \"id\": \"x\",\n  \"output\": [\n", 3, 14, "truncated", "just after the last byte, not on the empty line after it"},
		{"bad jsonl line", "{\"id\":\"a\",\"output\":[]}\n{\"id\":\"b\",\"output\":[}\n", 2, 21, "invalid JSON", "the line of the bad record"},
		{"wrong type", `{"id": "x", "output": {"role": "assistant"}}`, 1, 23, `expected an array for "output", got an object`, "output must be a list; the column of the value, not after it"},
		{"wrong field type", `{"id": "x", "output": [{"role": "assistant", "tool_calls": [{"tool": 7}]}]}`, 1, 70, `expected a string for "tool", got a number`, "a number where a name belongs"},
		{"wrong string type", "{\"id\": \"x\", \"cost_usd\": \"a\\\"b\"}", 1, 25, `expected a number for "cost_usd", got a string`, "the opening quote of a string with an escaped quote"},
		{"deep", strings.Repeat("[", 10000) + strings.Repeat("]", 10000), 1, 0, "", "10,000 levels deep: an error, not a crash"},
		{"deep object", `{"id":"x","output":[{"role":"assistant","tool_calls":[{"tool":"t","input":` + strings.Repeat(`{"a":`, 10001) + "1" + strings.Repeat("}", 10001) + `}]}]}`, 1, 0, "", "arguments nested 10,001 deep"},
		{"deep third line", record("a", 1) + "\n" + record("b", 1) + "\n" + `{"id":"c","output":` + strings.Repeat("[", 200) + strings.Repeat("]", 200) + "}\n", 3, 19 + jsonv.MaxDepth, "nested deeper", "the line of the file, not of the lines after the first; the bracket past the limit"},
		{"deep after a blank line", record("a", 1) + "\n\n" + record("b", 1) + "\n" + `  {"id":"c","output":[{"role":"user","content":` + strings.Repeat(`{"a":`, 300) + "1" + strings.Repeat("}", 300) + "}]}\n", 4, 0, "nested deeper", "deep in a message's content, read by the fast path"},
		{"binary", "\x7fELF\x02\x01\x01\x00\x00\x00\xff\xfe", 1, 1, "invalid JSON", "a binary file"},
		{"empty", "", 1, 1, "", "an empty file"},
		{"blank", "\n\n  \n", 0, 0, "", "white space only"},
		{"not an object", "[1, 2]\n", 1, 1, "expected an object, got an array", "a JSON array is not a record"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, _, err := formattest.Read(agentv.Format, "trace.json", []byte(tt.in))
			var te *trajeval.TraceError
			if !errors.As(err, &te) {
				t.Fatalf("Read = %v (output %q), want a *trajeval.TraceError: %s", err, out, tt.reason)
			}
			if te.File != "trace.json" {
				t.Errorf("error %v does not name the file", err)
			}
			if tt.line != 0 && (te.Line != tt.line || (tt.col != 0 && te.Col != tt.col)) {
				t.Errorf("error at %d:%d, want %d:%d: %v", te.Line, te.Col, tt.line, tt.col, err)
			}
			if tt.msg != "" && !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("error %q does not mention %q", err, tt.msg)
			}
			if strings.Contains(err.Error(), "Go value") || strings.Contains(err.Error(), "Go struct") || strings.Contains(err.Error(), "json: ") {
				t.Errorf("error %q speaks of Go, not of the user's file", err)
			}
			if len(err.Error()) > 400 {
				t.Errorf("error is %d characters long; one clear line is wanted", len(err.Error()))
			}
		})
	}
}

// The empty file must say so, not that it is truncated.
func TestRead_emptyFile(t *testing.T) {
	_, _, err := formattest.Read(agentv.Format, "trace.json", nil)
	var te *trajeval.TraceError
	if !errors.As(err, &te) || !errors.Is(err, trajeval.ErrEmptyTrace) || te.Line != 1 || !strings.Contains(te.Msg, "empty") {
		t.Errorf("Read(empty) = %v; want ErrEmptyTrace saying the file is empty at line 1 (regression: it said truncated)", err)
	}
}

// record returns one JSON Lines record whose argument is n bytes long.
func record(id string, n int) string {
	return fmt.Sprintf(`{"id": %q, "output": [{"role": "assistant", "tool_calls": [{"tool": "write", "input": {"text": %q}}]}]}`, id, strings.Repeat("x", n))
}

func TestRead_longLines(t *testing.T) {
	tests := []struct {
		name   string
		sizes  []int
		reason string
	}{
		{"over 64 KiB", []int{70 << 10, 10}, "bufio.Scanner's default limit must not apply"},
		{"over 64 KiB second", []int{10, 200 << 10, 10}, "a long line in the middle"},
		{"over 1 MiB second", []int{10, 2 << 20}, "a long line after the first"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var in strings.Builder
			for i, n := range tt.sizes {
				in.WriteString(record(fmt.Sprint("r", i), n) + "\n")
			}
			out, _, err := formattest.Read(agentv.Format, "long.jsonl", []byte(in.String()))
			if err != nil {
				t.Fatalf("Read: %v: %s", err, tt.reason)
			}
			if got := bytes.Count(out, []byte("\n")); got != len(tt.sizes) {
				t.Errorf("%d trajectories, want %d: %s", got, len(tt.sizes), tt.reason)
			}
		})
	}
}

// A JSON Lines file whose first line is longer than the reader's 1 MiB
// look-ahead is taken for one pretty-printed object.
func TestRead_firstLineOver1MiB(t *testing.T) {
	in := record("big", 2<<20) + "\n" + record("small", 1) + "\n"
	out, _, err := formattest.Read(agentv.Format, "long.jsonl", []byte(in))
	if n := bytes.Count(out, []byte("\n")); err != nil || n != 2 {
		t.Errorf("%d trajectories, error %v; want 2: the first line is read whole, however long", n, err)
	}
}

func TestRead_numericRecordID(t *testing.T) {
	out, _, err := formattest.Read(agentv.Format, "ids.jsonl", []byte(`{"id": 42, "output": [{"role": "assistant", "tool_calls": [{"tool": "t"}]}]}`+"\n"))
	if err != nil {
		t.Fatalf("Read: %v (regression: a numeric record id was rejected)", err)
	}
	if !bytes.Contains(out, []byte(`"id":"42"`)) {
		t.Errorf("output %s, want id \"42\"", out)
	}
}

// TestRead_model checks, on the golden inputs, the parts of the canonical
// model that docs/scoring.md §1 fixes, so a careless -update cannot bless a
// regression.
func TestRead_model(t *testing.T) {
	type step struct {
		Index         int             `json:"index"`
		Turn          *int            `json:"turn"`
		ID            *string         `json:"id"`
		Name          string          `json:"name"`
		Args          json.RawMessage `json:"args"`
		Result        json.RawMessage `json:"result"`
		Error         *bool           `json:"error"`
		DurationMS    *float64        `json:"duration_ms"`
		ParallelGroup *int            `json:"parallel_group"`
		Agent         *string         `json:"agent"`
	}
	type traj struct {
		ID    string `json:"id"`
		Turns []struct {
			Turn          int     `json:"turn"`
			User          *string `json:"user"`
			FinalResponse *string `json:"final_response"`
		} `json:"turns"`
		Steps   []step `json:"steps"`
		Metrics struct {
			DurationMS *float64 `json:"duration_ms"`
			CostUSD    *float64 `json:"cost_usd"`
			Tokens     struct {
				Input, Output, Total *int64
			} `json:"tokens"`
			LLMCalls *int64 `json:"llm_calls"`
		} `json:"metrics"`
	}
	load := func(t *testing.T, file string) ([]traj, string) {
		t.Helper()
		data := mustRead(t, "testdata/agentv/"+file)
		out, warns, err := formattest.Read(agentv.Format, file, data)
		if err != nil {
			t.Fatal(err)
		}
		var ts []traj
		for _, line := range bytes.Split(bytes.TrimSpace(out), []byte("\n")) {
			var tr traj
			if err := json.Unmarshal(line, &tr); err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			ts = append(ts, tr)
		}
		return ts, string(warns)
	}
	deref := func(p *int) int {
		if p == nil {
			return 0
		}
		return *p
	}
	t.Run("batch ids", func(t *testing.T) {
		ts, _ := load(t, "batch.jsonl")
		if len(ts) != 3 || ts[0].ID != "a" || ts[1].ID != "b" || ts[2].ID != "c" {
			t.Fatalf("got %d trajectories %+v, want a, b, c: one per JSONL record, blank lines skipped", len(ts), ts)
		}
		if s := ts[1].Steps[0]; s.Error == nil || !*s.Error {
			t.Errorf("status error must give error true, got %+v", s)
		}
	})
	t.Run("parallel groups", func(t *testing.T) {
		ts, _ := load(t, "parallel.json")
		var groups []int
		for _, s := range ts[0].Steps {
			groups = append(groups, deref(s.ParallelGroup))
		}
		if fmt.Sprint(groups) != "[1 1 1 0 2 2]" {
			t.Errorf("groups %v, want [1 1 1 0 2 2]: calls of one message share a group; a lone call has none", groups)
		}
	})
	t.Run("errors", func(t *testing.T) {
		ts, _ := load(t, "errors.json")
		var got []string
		for _, s := range ts[0].Steps {
			if s.Error == nil {
				got = append(got, "null")
			} else {
				got = append(got, fmt.Sprint(*s.Error))
			}
		}
		if strings.Join(got, " ") != "true true true null true false" {
			t.Errorf("errors %v, want error/timeout/cancelled true, unknown null, an error object true, success false", got)
		}
	})
	t.Run("repeat", func(t *testing.T) {
		ts, warns := load(t, "repeat.json")
		if len(ts[0].Steps) != 3 {
			t.Errorf("%d steps, want 3: identical calls are separate steps, one id seen twice is one step", len(ts[0].Steps))
		}
		if !strings.Contains(warns, `call id "same" appears twice`) {
			t.Errorf("warnings %q, want one for the duplicated id", warns)
		}
	})
	t.Run("numbers", func(t *testing.T) {
		ts, _ := load(t, "numbers.json")
		s := ts[0].Steps[0]
		for _, want := range []string{`"big":9007199254740993`, `"one":1`, `"one_float":1.0`, `"exp":1e400`} {
			if !strings.Contains(string(s.Args), want) {
				t.Errorf("args %s lack %s: numbers keep their exact text", s.Args, want)
			}
		}
		if string(s.Result) != `{"id":9007199254740993}` {
			t.Errorf("result %s, want the exact integer", s.Result)
		}
		if s.ID == nil || *s.ID != "7" {
			t.Errorf("a numeric call id must become the text 7, got %v", s.ID)
		}
	})
	t.Run("unicode", func(t *testing.T) {
		ts, _ := load(t, "unicode.json")
		if s := ts[0].Steps[0]; s.Name != "météo" || !strings.Contains(string(s.Args), `"emoji":"😀"`) {
			t.Errorf("step %s %s, want non-ASCII names and a decoded surrogate pair", s.Name, s.Args)
		}
		if u := ts[0].Turns[0].User; u == nil || !strings.HasSuffix(*u, "🌤") {
			t.Errorf("user %v, want the surrogate pair decoded", u)
		}
	})
	t.Run("string args", func(t *testing.T) {
		ts, warns := load(t, "string-args.json")
		st := ts[0].Steps
		if string(st[0].Args) != `{"limit":9007199254740993,"query":"go generics"}` {
			t.Errorf("JSON-string args %s, want them parsed exactly", st[0].Args)
		}
		if string(st[1].Args) != `"{\"query\": \"unterminated"` || string(st[2].Args) != `"plain text"` {
			t.Errorf("invalid JSON args %s %s, want the text kept", st[1].Args, st[2].Args)
		}
		if strings.Count(warns, "not valid JSON") != 1 {
			t.Errorf("warnings %q, want one, for the broken object: plain text is an argument of its own, the empty string no arguments", warns)
		}
	})
	t.Run("dup id", func(t *testing.T) {
		ts, warns := load(t, "dup-id.json")
		if len(ts[0].Steps) != 2 || !strings.Contains(warns, `"call_9" appears twice`) || !strings.Contains(warns, "no tool name") {
			t.Errorf("%d steps, warnings %q; want 2 steps and warnings for the duplicate and the nameless call", len(ts[0].Steps), warns)
		}
	})
	t.Run("turns", func(t *testing.T) {
		ts, _ := load(t, "turns.json")
		tr := ts[0]
		if len(tr.Turns) != 3 {
			t.Fatalf("%d turns, want 3: steps before the first user message are turn 1, each user message starts one", len(tr.Turns))
		}
		var turns []int
		for _, s := range tr.Steps {
			turns = append(turns, deref(s.Turn))
		}
		if fmt.Sprint(turns) != "[1 2 3]" {
			t.Errorf("step turns %v, want [1 2 3]", turns)
		}
		if tr.Turns[0].User != nil || *tr.Turns[1].User != "Book a table" || *tr.Turns[2].User != "Friday at 8" {
			t.Errorf("users %v %v %v", tr.Turns[0].User, tr.Turns[1].User, tr.Turns[2].User)
		}
		if *tr.Turns[1].FinalResponse != "Friday works." || *tr.Turns[2].FinalResponse != "Booked." {
			t.Errorf("final responses %q %q, want the last assistant text of each turn", *tr.Turns[1].FinalResponse, *tr.Turns[2].FinalResponse)
		}
		if s := tr.Steps[2]; s.DurationMS == nil || *s.DurationMS != 1500 {
			t.Errorf("duration %v, want 1500 from start and end", s.DurationMS)
		}
		if a := tr.Steps[0].Agent; a == nil || *a != "planner" {
			t.Errorf("agent %v, want planner", a)
		}
		m := tr.Metrics
		if *m.Tokens.Total != 580 || *m.CostUSD != 0.01 || *m.DurationMS != 4200 || *m.LLMCalls != 5 {
			t.Errorf("metrics %+v, want total 580 (input+output), cost 0.01, duration 4200, 5 llm calls", m)
		}
	})
	t.Run("system first", func(t *testing.T) {
		ts, _ := load(t, "system-first.json")
		if n := len(ts[0].Turns); n != 2 || *ts[0].Turns[0].User != "Weather in Oslo?" {
			t.Errorf("%d turns, want 2 with turn 1 the first user message (regression: a leading system message opened an empty turn 1)", n)
		}
	})
	t.Run("empty string args", func(t *testing.T) {
		ts, _ := load(t, "string-args.json")
		if a := string(ts[0].Steps[3].Args); a != "{}" {
			t.Errorf("args %s, want {}: an empty arguments string is no arguments (regression: it stayed the string \"\")", a)
		}
	})
	t.Run("no metrics", func(t *testing.T) {
		ts, _ := load(t, "parallel.json")
		m := ts[0].Metrics
		if m.CostUSD != nil || m.DurationMS != nil || m.Tokens.Total != nil {
			t.Errorf("metrics %+v, want null for what the trace does not report", m)
		}
	})
}

func TestDetect_agentv(t *testing.T) {
	for _, in := range []string{
		`{"output": [{"role": "assistant", "content": "hi"}]}`,
		`{"output_messages": [{"role": "assistant", "tool_calls": []}]}`,
		"{\n  \"id\": \"x\",\n  \"output\": [\n    {\"role\": \"assistant\"}\n  ]\n}\n",
		record("a", 10) + "\n" + record("b", 10) + "\n",
	} {
		f, err := trace.Detect("t.json", []byte(in))
		if err != nil || f.Name() != "agentv" {
			t.Errorf("Detect(%.60q) = %v, %v; want agentv", in, f, err)
		}
	}
}

func ExampleFormat() {
	data := `{"id": "demo", "output": [{"role": "user", "content": "Weather in Paris?"},
	  {"role": "assistant", "tool_calls": [{"tool": "get_weather", "input": "{\"city\": \"Paris\"}", "id": "c1", "status": "ok"}]},
	  {"role": "assistant", "content": "Sunny."}]}`
	in := trajeval.Input{Name: "demo.json", R: strings.NewReader(data), Warn: func(w trajeval.Warning) { fmt.Println("warning:", w) }}
	agentv.Format.Read(nil, in, func(t *trajeval.Trajectory) error {
		for _, s := range t.Steps {
			fmt.Println(s.Index, s.Turn, s.Name, s.Args, *s.Error)
		}
		fmt.Println(*t.Turns[0].FinalResponse)
		return nil
	})
	// Output:
	// 1 1 get_weather map[city:Paris] false
	// Sunny.
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestRead_trailingData(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		line, col int
		reason    string
	}{
		{"two pretty objects", "{\n  \"id\": \"a\",\n  \"output\": []\n}\n{\n  \"id\": \"b\",\n  \"output\": []\n}\n", 5, 1, "regression: the second object was silently dropped"},
		{"garbage after a line", "{\"id\":\"a\",\"output\":[]}\n{\"id\":\"b\",\"output\":[]} trailing\n", 2, 24, "garbage after a JSON Lines record"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := formattest.Read(agentv.Format, "two.json", []byte(tt.in))
			var te *trajeval.TraceError
			if !errors.As(err, &te) || te.Line != tt.line || te.Col != tt.col || !strings.Contains(te.Msg, "unexpected data after") {
				t.Errorf("Read = %v, want an error at %d:%d: %s", err, tt.line, tt.col, tt.reason)
			}
		})
	}
}

// TestRead_invalidUTF8: bytes that are not UTF-8 in arguments, results
// and keys come out as U+FFFD, though the trajectory's values are not
// walked again once decoded (see trajeval.Trajectory.FinishDecoded).
func TestRead_invalidUTF8(t *testing.T) {
	in := "{\"id\":\"a\",\"output\":[{\"role\":\"assistant\",\"tool_calls\":[{\"tool\":\"t\",\"input\":{\"k\xff\":[\"v\xfe\"]},\"output\":{\"r\":\"x\xff\"}}]}]}\n" +
		"{\"id\":\"b\",\"output\":[{\"role\":\"assistant\",\"tool_calls\":[{\"tool\":\"t\",\"input\":\"{\\\"q\\\":\\\"s\xff\\\"}\"}]}]}\n"
	var steps []trajeval.Step
	err := agentv.Format.Read(context.Background(), trajeval.Input{Name: "t.jsonl", R: strings.NewReader(in), Warn: func(trajeval.Warning) {}},
		func(t *trajeval.Trajectory) error { steps = append(steps, t.Steps...); return nil })
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ args, result any }{
		{map[string]any{"k\uFFFD": []any{"v\uFFFD"}}, map[string]any{"r": "x\uFFFD"}},
		{map[string]any{"q": "s\uFFFD"}, nil},
	}
	if len(steps) != len(want) {
		t.Fatalf("%d steps, want %d", len(steps), len(want))
	}
	for i, w := range want {
		if !reflect.DeepEqual(steps[i].Args, w.args) || !reflect.DeepEqual(steps[i].Result, w.result) {
			t.Errorf("step %d: args %q, result %q; want %q, %q: JSON text decodes to valid UTF-8", i+1, steps[i].Args, steps[i].Result, w.args, w.result)
		}
	}
}

// TestRead_duplicateIDs: a call id seen before is dropped with a warning,
// whether the record has few calls or many (whose ids are kept in a map).
// TestRead_duplicateIDKinds: ids of every kind, as the fast path reads
// them and as encoding/json does (a key in another case), are one step
// when given twice: the fast path's look for ids that could repeat (see
// idBuckets) must not pass over one that does.
func TestRead_duplicateIDKinds(t *testing.T) {
	tests := []struct {
		name   string
		ids    []string // as JSON
		steps  int
		warns  int
		reason string
	}{
		{"strings", []string{`"c1"`, `"c2"`, `"c1"`}, 2, 1, "a string given twice"},
		{"escaped", []string{`"c1"`, `"c\u0031"`}, 1, 1, "the same id, one escaped"},
		{"numbers", []string{`1`, `2`, `1`}, 2, 1, "a number given twice"},
		{"number and string", []string{`1`, `"1"`}, 1, 1, "a number and the string of its digits are one id"},
		{"nulls", []string{`null`, `null`, `"a"`}, 3, 0, "null is no id"},
		{"empty", []string{`""`, `""`}, 2, 0, "an empty id is no id"},
		{"late", []string{`"a"`, `"b"`, `"c"`, `"d"`, `"e"`, `"f"`, `"g"`, `"h"`, `"a"`}, 8, 1, "the first again after others"},
	}
	for _, tt := range tests {
		for _, idKey := range []string{"id", "ID"} {
			t.Run(tt.name+"/"+idKey, func(t *testing.T) {
				var calls []string
				for _, id := range tt.ids {
					calls = append(calls, `{"tool":"t","`+idKey+`":`+id+`}`)
				}
				// Two records: the second is read with what the decoder
				// noted of the first.
				record := `{"id":"r","output":[{"role":"assistant","tool_calls":[` + strings.Join(calls, ",") + `]}]}`
				out, warns, err := formattest.Read(agentv.Format, "t.jsonl", []byte(record+"\n"+record+"\n"))
				if err != nil {
					t.Fatal(err)
				}
				for i, line := range bytes.Split(bytes.TrimSpace(out), []byte("\n")) {
					var tr trajeval.Trajectory
					if err := json.Unmarshal(line, &tr); err != nil {
						t.Fatal(err)
					}
					if len(tr.Steps) != tt.steps {
						t.Errorf("record %d: %d steps, want %d: %s", i+1, len(tr.Steps), tt.steps, tt.reason)
					}
				}
				if n := bytes.Count(warns, []byte("appears twice")); n != 2*tt.warns {
					t.Errorf("warnings %s; want %d: %s", warns, 2*tt.warns, tt.reason)
				}
			})
		}
	}
}

func TestRead_duplicateIDs(t *testing.T) {
	calls := func(ids ...string) string {
		var b strings.Builder
		for i, id := range ids {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"tool":"t","id":%q}`, id)
		}
		return `{"id":"r","output":[{"role":"assistant","tool_calls":[` + b.String() + `]}]}`
	}
	many := make([]string, 40)
	for i := range many {
		many[i] = fmt.Sprint("c", i)
	}
	tests := []struct {
		name   string
		ids    []string
		steps  int
		warns  int
		reason string
	}{
		{"few", []string{"a", "b", "a", "", ""}, 4, 1, "an empty id is no id: never a duplicate"},
		{"same ends", []string{"xa1", "ya1", "a", "xa1"}, 3, 1, "ids of one length and last bytes are told apart by the rest"},
		{"many", append(many, "c0", "c39", "c40", "c40"), 41, 3, "past the first ids, as before them"},
		{"many, first seen late", append(append([]string{}, many...), many[31:]...), 40, 9, "ids noted before the map is made are in it"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, warns, err := formattest.Read(agentv.Format, "t.json", []byte(calls(tt.ids...)))
			if err != nil {
				t.Fatal(err)
			}
			var tr trajeval.Trajectory
			if err := json.Unmarshal(out, &tr); err != nil {
				t.Fatal(err)
			}
			if len(tr.Steps) != tt.steps || bytes.Count(warns, []byte("appears twice")) != tt.warns {
				t.Errorf("%d steps, warnings %s; want %d steps, %d warnings: %s", len(tr.Steps), warns, tt.steps, tt.warns, tt.reason)
			}
		})
	}
}
