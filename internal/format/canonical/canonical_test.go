package canonical_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/canonical"
	"github.com/trajeval/trajeval/internal/format/formattest"
	"github.com/trajeval/trajeval/internal/trace"
)

var formats = []trajeval.Format{canonical.Format}

func TestGolden(t *testing.T) { formattest.Golden(t, formats...) }

func TestDetect(t *testing.T) { formattest.Detect(t, formats...) }

// goldens returns the trajectories every reader's tests expect, which are
// canonical JSON Lines written by trajeval itself.
func goldens(t testing.TB) []string {
	t.Helper()
	paths, err := filepath.Glob("../*/testdata/*/*.want.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) < 20 {
		t.Fatalf("found %d golden files; the glob is wrong", len(paths))
	}
	return paths
}

// TestRead_roundTrip reads every reader's golden trajectories with the
// canonical reader and writes them again: the bytes must be identical, and
// detection must choose this format for them.
func TestRead_roundTrip(t *testing.T) {
	for _, path := range goldens(t) {
		t.Run(path, func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			out, warns, err := formattest.Read(canonical.Format, path, data)
			if err != nil {
				t.Fatalf("Read: %v", err)
			}
			if len(warns) > 0 {
				t.Errorf("warnings on a canonical file:\n%s", warns)
			}
			if !bytes.Equal(out, data) {
				t.Errorf("written again, the trajectories differ:\n got: %s\nwant: %s", out, data)
			}
			f, err := trace.Detect(path, data)
			if err != nil || f.Name() != canonical.Format.Name() {
				t.Errorf("detected as %v (%v), want %s", f, err, canonical.Format.Name())
			}
		})
	}
}

// FuzzRead checks, on any bytes, that Sniff returns, that Read gives
// trajectories or a *trajeval.TraceError, and that what Read gives reads
// back to itself: read(write(read(x))) = read(x).
func FuzzRead(f *testing.F) {
	for _, path := range append(formattest.Inputs(f, canonical.Format), goldens(f)...) {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		canonical.Format.Sniff(data)
		out, _, err := formattest.Read(canonical.Format, "fuzz.jsonl", data)
		if err != nil {
			var te *trajeval.TraceError
			if !errors.As(err, &te) {
				t.Fatalf("error %v is not a TraceError", err)
			}
			return
		}
		again, _, err := formattest.Read(canonical.Format, "again.jsonl", out)
		if err != nil {
			t.Fatalf("what Read gave does not read back: %v\n%s", err, out)
		}
		if !bytes.Equal(again, out) {
			t.Fatalf("read back, the trajectories differ:\n got: %s\nwant: %s", again, out)
		}
	})
}

func TestRead_errors(t *testing.T) {
	const step = `{"index":1,"name":"a","args":{}}`
	tests := []struct {
		name      string
		in        string
		line, col int
		msg, hint string
		reason    string
	}{
		{"unknown step field", `{"id":"x","steps":[{"index":1,"name":"a","arguments":{}}]}`, 1, 42,
			`steps[0]: unknown field "arguments"`, `the fields of a step are index, turn, id, name, args,`,
			"a misnamed field must not be dropped silently"},
		{"misspelt step field", `{"id":"x","steps":[{"index":1,"name":"a","duration":12}]}`, 1, 42,
			`steps[0]: unknown field "duration"`, `did you mean "duration_ms"?`, "a close name is suggested"},
		{"unknown trajectory field", "{\n  \"id\": \"x\",\n  \"model\": \"gpt\",\n  \"steps\": []\n}", 3, 3,
			`unknown field "model"`, "the fields of a trajectory are id, turns, steps, metrics",
			"placed on its own line in a pretty-printed file"},
		{"unknown metrics field", `{"id":"x","steps":[],"metrics":{"tokens":{"input":1,"cached":2}}}`, 1, 53,
			`metrics.tokens: unknown field "cached"`, "the fields of tokens are input, output, total", "nested objects are strict too"},
		{"unknown turn field", `{"id":"x","turns":[{"turn":1,"text":"hi"}],"steps":[]}`, 1, 30,
			`turns[0]: unknown field "text"`, "the fields of a turn are turn, user, final_response", "turns are strict"},
		{"unknown agent field", `{"id":"x","steps":[],"agents":[{"name":"a","caller":"b"}]}`, 1, 44,
			`agents[0]: unknown field "caller"`, "the fields of an agent are name, parent", "agents are strict"},
		{"agent without name", `{"id":"x","steps":[],"agents":[{"parent":"b"}]}`, 1, 32,
			`agents[0]: an agent needs "name"`, `parent is the agent that called it`, "a nameless agent scopes nothing"},
		{"missing steps", `{"id":"x","turns":[]}`, 1, 1, `a trajectory needs "steps"`, `"steps": []`, "no steps is not zero steps"},
		{"missing id", `{"steps":[]}`, 1, 1, `a trajectory needs "id"`, "matched to trajectories by id", "cases find trajectories by id"},
		{"null id", `{"id":null,"steps":[]}`, 1, 7, "id: want a string, got null", `"id": ""`, "the writer never writes a null id"},
		{"missing name", `{"id":"x","steps":[{"index":1,"args":{}}]}`, 1, 20, `steps[0]: a step needs "name"`, "", "a call without a tool name"},
		{"missing index", `{"id":"x","steps":[{"name":"a"}]}`, 1, 20, `steps[0]: a step needs "index"`, `"index": 1`, "index is required"},
		{"field twice", `{"id":"x","id":"y","steps":[]}`, 1, 11, `field "id" given twice`, "", "a second value must not replace the first silently"},
		{"index out of sequence", `{"id":"x","steps":[` + step + `,{"index":3,"name":"b"}]}`, 1, 62,
			"steps[1].index: is 3, want 2", "number them 1, 2, 3", "a renumbered or edited file is not guessed at"},
		{"turn out of sequence", `{"id":"x","turns":[{"turn":2}],"steps":[]}`, 1, 28, "turns[0].turn: is 2, want 1", "", "turns are numbered too"},
		{"index not whole", `{"id":"x","steps":[{"index":1.0,"name":"a"}]}`, 1, 29, "steps[0].index: want a whole number, got 1.0", "", "exact integers only"},
		{"token count not whole", `{"id":"x","steps":[],"metrics":{"tokens":{"input":1.5}}}`, 1, 51, "metrics.tokens.input: want a whole number, got 1.5", "", "tokens are counts"},
		{"step turn zero", `{"id":"x","steps":[{"index":1,"turn":0,"name":"a"}]}`, 1, 38, "steps[0].turn: want a number from 1, got 0", "write null", "turns count from 1; unknown is null"},
		{"bad time", `{"id":"x","steps":[{"index":1,"name":"a","start_time":"yesterday"}]}`, 1, 55, "steps[0].start_time: want an RFC 3339 time", "", "times are RFC 3339"},
		{"error not bool", `{"id":"x","steps":[{"index":1,"name":"a","error":"no"}]}`, 1, 50, "steps[0].error: want true or false, got a string", "", "types are checked"},
		{"steps not a list", `{"id":"x","steps":{}}`, 1, 19, "steps: want a list, got an object", "", "types are checked"},
		{"null trajectory", "null\n", 1, 1, "want a trajectory (an object), got null", "", "a line of null is not a run"},
		{"truncated line", "{\"id\":\"a\",\"steps\":[]}\n\n{\"id\":\"b\",\"steps\":[", 3, 20, "cut off", "--lenient", "the line of the cut, after a blank line"},
		{"broken line", "{\"id\":\"a\",\"steps\":[]}\n{\"id\":\"b\",\"steps\":[}\n", 2, 0, "invalid JSON", "", "the line of the break"},
		{"truncated pretty", "{\n  \"id\": \"x\",\n  \"steps\": [\n", 3, 13, "cut off", "--lenient", "a pretty-printed file cut off: the place just after its last byte"},
		{"empty list", "[]\n", 0, 0, "no trajectories", "", "an empty list is not a run with no calls"},
		{"deep args", `{"id":"x","steps":[{"index":1,"name":"a","args":` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `}]}`, 1, 0, "", "",
			"arguments nested 10,001 deep: an error, not a crash"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, _, err := formattest.Read(canonical.Format, "t.jsonl", []byte(tt.in))
			var te *trajeval.TraceError
			if !errors.As(err, &te) {
				t.Fatalf("Read = %v (output %q), want a *trajeval.TraceError: %s", err, out, tt.reason)
			}
			if te.File != "t.jsonl" {
				t.Errorf("error %v does not name the file", err)
			}
			if te.Line != tt.line || (tt.col != 0 && te.Col != tt.col) {
				t.Errorf("error at %d:%d, want %d:%d: %v (%s)", te.Line, te.Col, tt.line, tt.col, err, tt.reason)
			}
			if !strings.Contains(te.Msg, tt.msg) || !strings.Contains(te.Hint, tt.hint) {
				t.Errorf("error %q, want %q with hint %q (%s)", err, tt.msg, tt.hint, tt.reason)
			}
			if len(err.Error()) > 400 {
				t.Errorf("error is %d characters long; one clear line is wanted", len(err.Error()))
			}
		})
	}
}

// TestRead_exact checks the model Read gives, beyond the bytes written
// back: exact numbers, nulls and times.
func TestRead_exact(t *testing.T) {
	in := `{"id":"x","steps":[{"index":1,"name":"a","args":{"n":9007199254740993,"f":1.0},"error":null,"duration_ms":null,` +
		`"start_time":"2025-03-01T12:00:00.123456789+02:00"}],"metrics":{"tokens":{"input":9007199254740993},"llm_calls":null}}`
	var got []*trajeval.Trajectory
	err := canonical.Format.Read(context.Background(), trajeval.Input{Name: "x.json", R: strings.NewReader(in), Warn: func(w trajeval.Warning) { t.Errorf("warning: %v", w) }},
		func(t *trajeval.Trajectory) error { got = append(got, t); return nil })
	if err != nil || len(got) != 1 {
		t.Fatalf("Read = %d trajectories, %v", len(got), err)
	}
	s := got[0].Steps[0]
	args := s.Args.(map[string]any)
	if args["n"] != json.Number("9007199254740993") || args["f"] != json.Number("1.0") {
		t.Errorf("args %v: numbers must keep their spelling", args)
	}
	if s.Error != nil || s.DurationMS != nil {
		t.Errorf("error %v, duration %v: null must stay unknown", s.Error, s.DurationMS)
	}
	if want := time.Date(2025, 3, 1, 10, 0, 0, 123456789, time.UTC); !s.StartTime.Equal(want) {
		t.Errorf("start time %v, want %v to the nanosecond", s.StartTime, want)
	}
	m := got[0].Metrics
	if m.Tokens.Input == nil || *m.Tokens.Input != 9007199254740993 || m.Tokens.Output != nil || m.Tokens.Total != nil || m.LLMCalls != nil {
		t.Errorf("metrics %+v: the input count must be exact, the rest unknown", m)
	}
}

func TestFormat_Sniff(t *testing.T) {
	long := `{"id":"x","turns":[],"steps":[{"index":1,"turn":null,"id":null,"name":"a","args":{"text":"` + strings.Repeat("x", 5000) + `"}}]}`
	tests := []struct {
		name   string
		head   string
		claim  bool
		reason string
	}{
		{"json lines", `{"id":"x","steps":[{"index":1,"name":"a","args":{}}]}` + "\n", true, "what convert writes"},
		{"array", `[{"id":"x","steps":[{"index":1,"name":"a","args":null}]}]`, true, "a list of trajectories"},
		{"cut head", long[:200], true, "a head cut inside the first step's args, after index, name and args began"},
		{"later line has the step", `{"id":"a","steps":[]}` + "\n" + `{"id":"b","steps":[{"index":1,"name":"a","args":{}}]}`, true, "the first run made no calls"},
		{"no calls, all fields", `{"id":"a","turns":[],"steps":[],"metrics":{}}`, true, "a run without calls in the full canonical shape"},
		{"no calls, some fields", `{"id":"a","steps":[]}`, false, "too little to tell"},
		{"step without index", `{"id":"x","steps":[{"name":"a","args":{}}]}`, false, "the canonical step has an index"},
		{"misnamed args", `{"id":"x","steps":[{"index":1,"turn":1,"name":"a","arguments":{}}]}`, true, "index, name and turn: claimed, so that Read names the misnamed field"},
		{"too few step fields", `{"id":"x","steps":[{"index":1,"name":"a","arguments":{}}]}`, false, "index and name alone are too little to tell"},
		{"foreign step field", `{"id":"x","steps":[{"index":1,"name":"a","args":{},"observation":"ok"}]}`, true, "claimed, so that Read names the unknown field at its line"},
		{"foreign trajectory field", `{"id":"x","model":"m","steps":[{"index":1,"name":"a","args":{}}]}`, true, "claimed, so that Read names the unknown field at its line"},
		{"foreign field, no calls", `{"id":"a","turns":[],"steps":[],"metrics":{},"model":"m"}`, false, "without a step, only the exact canonical fields are claimed"},
		{"steps not a list", `{"id":"x","steps":{"index":1,"name":"a","args":{}}}`, false, "steps is a list"},
		{"openai chat", `{"id":"chatcmpl-1","object":"chat.completion","choices":[]}`, false, "another format"},
		{"agentv", `{"id":"case-1","output":[{"role":"assistant","tool_calls":[{"tool":"t"}]}]}`, false, "another format"},
		{"message list", `[{"role":"user","content":"hi"}]`, false, "another format"},
		{"not json", "hello", false, "text"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := canonical.Format.Sniff([]byte(tt.head))
			if (err == nil) != tt.claim {
				t.Errorf("Sniff = %v, want claimed %v: %s", err, tt.claim, tt.reason)
			}
		})
	}
}

func ExampleFormat() {
	in := `{"id": "run-1", "steps": [{"index": 1, "name": "search", "args": {"q": "laptop", "n": 9007199254740993}}]}`
	err := canonical.Format.Read(context.Background(), trajeval.Input{Name: "run.json", R: strings.NewReader(in), Warn: func(trajeval.Warning) {}},
		func(t *trajeval.Trajectory) error {
			fmt.Println(t.ID, t.Names(), t.Steps[0].Args)
			return nil
		})
	fmt.Println(err)
	// Output:
	// run-1 [search] map[n:9007199254740993 q:laptop]
	// <nil>
}
