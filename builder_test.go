package trajeval_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/trajeval/trajeval"
	canonicalformat "github.com/trajeval/trajeval/internal/format/canonical"
)

func ExampleBuilder() {
	b := trajeval.NewBuilder("run-1")
	b.User("Compare the weather in Paris and Rome.")
	// One model response asked for two calls at once: a parallel group.
	b.Call(
		trajeval.ToolCall{ID: "call_1", Name: "get_weather", Args: map[string]any{"city": "Paris", "days": 1}},
		trajeval.ToolCall{ID: "call_2", Name: "get_weather", Args: json.RawMessage(`{"city": "Rome", "days": 1}`)},
	)
	// Results pair with calls by id, in whatever order they come back.
	b.Result(trajeval.ToolResult{ID: "call_2", Value: map[string]any{"temp_c": 24}, Duration: 180 * time.Millisecond})
	b.Result(trajeval.ToolResult{ID: "call_1", ErrorMessage: "timeout", Duration: 5 * time.Second})
	b.Final("Rome is 24°C; Paris did not answer.")
	b.Metrics(trajeval.Metrics{LLMCalls: new(int64(2)), Tokens: trajeval.Tokens{Input: new(int64(812)), Output: new(int64(64))}})
	t, err := b.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	enc.Encode(t)
	// Output:
	// {
	//   "id": "run-1",
	//   "turns": [
	//     {
	//       "turn": 1,
	//       "user": "Compare the weather in Paris and Rome.",
	//       "final_response": "Rome is 24°C; Paris did not answer."
	//     }
	//   ],
	//   "steps": [
	//     {
	//       "index": 1,
	//       "turn": 1,
	//       "id": "call_1",
	//       "name": "get_weather",
	//       "args": {
	//         "city": "Paris",
	//         "days": 1
	//       },
	//       "result": null,
	//       "error": true,
	//       "error_message": "timeout",
	//       "duration_ms": 5000,
	//       "start_time": null,
	//       "end_time": null,
	//       "parallel_group": 1,
	//       "agent": null
	//     },
	//     {
	//       "index": 2,
	//       "turn": 1,
	//       "id": "call_2",
	//       "name": "get_weather",
	//       "args": {
	//         "city": "Rome",
	//         "days": 1
	//       },
	//       "result": {
	//         "temp_c": 24
	//       },
	//       "error": null,
	//       "error_message": null,
	//       "duration_ms": 180,
	//       "start_time": null,
	//       "end_time": null,
	//       "parallel_group": 1,
	//       "agent": null
	//     }
	//   ],
	//   "metrics": {
	//     "duration_ms": null,
	//     "cost_usd": null,
	//     "tokens": {
	//       "input": 812,
	//       "output": 64,
	//       "total": 876
	//     },
	//     "llm_calls": 2
	//   }
	// }
}

// canonical is t's canonical JSON, compact.
func canonical(t *testing.T, v *trajeval.Trajectory) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestBuilder_Build(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		name   string
		build  func(b *trajeval.Builder)
		want   string // a part of the canonical JSON
		reason string
	}{
		{"calls before the first user message are turn 1", func(b *trajeval.Builder) {
			b.Call(trajeval.ToolCall{Name: "ls"})
			b.User("hi")
			b.Call(trajeval.ToolCall{Name: "cat"})
		}, `"turns":[{"turn":1,"user":null,"final_response":null},{"turn":2,"user":"hi","final_response":null}]`,
			"readers open turn 1 for what comes before the first user message"},
		{"step turns", func(b *trajeval.Builder) {
			b.Call(trajeval.ToolCall{Name: "ls"})
			b.User("hi")
			b.Call(trajeval.ToolCall{Name: "cat"})
		}, `"index":2,"turn":2,"id":null,"name":"cat"`, "each call belongs to the turn it was added in"},
		{"one call has no group", func(b *trajeval.Builder) {
			b.Call(trajeval.ToolCall{Name: "a"})
			b.Call(trajeval.ToolCall{Name: "b"}, trajeval.ToolCall{Name: "c"})
		}, `"name":"a","args":{},"result":null,"error":null,"error_message":null,"duration_ms":null,"start_time":null,"end_time":null,"parallel_group":null`,
			"a call alone in its response is not batched"},
		{"groups count from 1", func(b *trajeval.Builder) {
			b.Call(trajeval.ToolCall{Name: "a"})
			b.Call(trajeval.ToolCall{Name: "b"}, trajeval.ToolCall{Name: "c"})
		}, `"name":"c","args":{},"result":null,"error":null,"error_message":null,"duration_ms":null,"start_time":null,"end_time":null,"parallel_group":1`,
			"the first batch is group 1 even after single calls"},
		{"int64 stays exact", func(b *trajeval.Builder) {
			b.Call(trajeval.ToolCall{Name: "a", Args: map[string]any{"n": int64(1)<<53 + 1}})
		}, `"args":{"n":9007199254740993}`, "Go integers must not pass through float64"},
		{"raw JSON numbers stay exact", func(b *trajeval.Builder) {
			b.Call(trajeval.ToolCall{Name: "a", Args: json.RawMessage(`{"n": 9007199254740993, "x": 1.50}`)})
		}, `"args":{"n":9007199254740993,"x":1.50}`, "json.RawMessage is parsed with exact numbers"},
		{"a struct is its JSON", func(b *trajeval.Builder) {
			type query struct {
				Q     string `json:"q"`
				Limit uint64 `json:"limit,omitempty"`
			}
			b.Call(trajeval.ToolCall{Name: "search", Args: query{Q: "go", Limit: math.MaxUint64}})
		}, `"args":{"limit":18446744073709551615,"q":"go"}`, "struct tags decide the keys, as encoding/json does"},
		{"a string is text", func(b *trajeval.Builder) {
			b.Call(trajeval.ToolCall{Name: "shell", Args: `{"not": "parsed"}`})
		}, `"args":"{\"not\": \"parsed\"}"`, "free-text input stays text; JSON text is passed as json.RawMessage"},
		{"JSON null arguments are {}", func(b *trajeval.Builder) {
			b.Call(trajeval.ToolCall{Name: "a", Args: json.RawMessage(`null`)})
		}, `"args":{}`, "a call without arguments has the empty object, as the readers give"},
		{"result keeps text", func(b *trajeval.Builder) {
			b.Call(trajeval.ToolCall{ID: "1", Name: "a"})
			b.Result(trajeval.ToolResult{ID: "1", Value: "42"})
		}, `"result":"42","error":null`, "a string result is not parsed, and error stays unknown"},
		{"error false", func(b *trajeval.Builder) {
			b.Call(trajeval.ToolCall{ID: "1", Name: "a"})
			b.Result(trajeval.ToolResult{ID: "1", Value: true, Error: new(false)})
		}, `"result":true,"error":false`, "a known success is false, not null"},
		{"duration from start and end", func(b *trajeval.Builder) {
			b.Call(trajeval.ToolCall{ID: "1", Name: "a", Start: t0})
			b.Result(trajeval.ToolResult{ID: "1", End: t0.Add(1500 * time.Millisecond)})
		}, `"duration_ms":1500,"start_time":"2026-01-02T03:04:05Z","end_time":"2026-01-02T03:04:06.5Z"`, "end − start when no duration is given"},
		{"explicit duration wins", func(b *trajeval.Builder) {
			b.Call(trajeval.ToolCall{ID: "1", Name: "a", Start: t0})
			b.Result(trajeval.ToolResult{ID: "1", End: t0.Add(time.Second), Duration: 250 * time.Millisecond})
		}, `"duration_ms":250`, "the explicit duration is the tool's own measure"},
		{"agent", func(b *trajeval.Builder) {
			b.Call(trajeval.ToolCall{Name: "a", Agent: "researcher"})
		}, `"agent":"researcher"`, "the sub-agent that made the call"},
		{"called", func(b *trajeval.Builder) {
			b.Call(trajeval.ToolCall{Name: "a", Agent: "researcher"})
			b.Called("researcher", "lead")
		}, `"agents":[{"name":"researcher","parent":"lead"}]`, "which agent called which"},
		{"final replaced", func(b *trajeval.Builder) {
			b.User("q")
			b.Final("first")
			b.Final("second")
		}, `"final_response":"second"`, "the last answer of a turn is its final response"},
		{"turn without user", func(b *trajeval.Builder) {
			b.User("q")
			b.Turn()
			b.Final("a")
		}, `{"turn":2,"user":null,"final_response":"a"}`, "a turn the trace shows no message for"},
		{"metrics add up", func(b *trajeval.Builder) {
			b.Metrics(trajeval.Metrics{LLMCalls: new(int64(1)), CostUSD: new(0.25), Tokens: trajeval.Tokens{Input: new(int64(10)), Total: new(int64(100))}})
			b.Metrics(trajeval.Metrics{LLMCalls: new(int64(2)), CostUSD: new(0.5), Tokens: trajeval.Tokens{Input: new(int64(5))}})
		}, `"metrics":{"duration_ms":null,"cost_usd":0.75,"tokens":{"input":15,"output":null,"total":100},"llm_calls":3}`,
			"a given total is kept; what is never given stays null"},
		{"nothing", func(b *trajeval.Builder) {}, `{"id":"x","turns":[],"steps":[],"metrics":{"duration_ms":null,"cost_usd":null,"tokens":null,"llm_calls":null}}`,
			"an empty trajectory is valid"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := trajeval.NewBuilder("x")
			tt.build(b)
			got, err := b.Build()
			if err != nil {
				t.Fatalf("Build: %v (%s)", err, tt.reason)
			}
			if s := canonical(t, got); !strings.Contains(s, tt.want) {
				t.Errorf("got  %s\nwant a part %s\n(%s)", s, tt.want, tt.reason)
			}
		})
	}
}

func TestBuilder_Build_errors(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		name   string
		build  func(b *trajeval.Builder)
		want   string // a part of the error message
		reason string
	}{
		{"unknown id", func(b *trajeval.Builder) {
			b.Call(trajeval.ToolCall{ID: "call_1", Name: "a"})
			b.Result(trajeval.ToolResult{ID: "call_2", Value: "x"})
		}, `result for call "call_2", which was never added`, "results pair by id, never by position"},
		{"result without id", func(b *trajeval.Builder) {
			b.Call(trajeval.ToolCall{Name: "a"})
			b.Result(trajeval.ToolResult{Value: "x"})
		}, "a result has no call id", "an id-less result must not pair with the only call"},
		{"second result", func(b *trajeval.Builder) {
			b.Call(trajeval.ToolCall{ID: "1", Name: "a"})
			b.Result(trajeval.ToolResult{ID: "1"})
			b.Result(trajeval.ToolResult{ID: "1"})
		}, `a second result for call "1"`, "a call has one outcome"},
		{"no name", func(b *trajeval.Builder) {
			b.Call(trajeval.ToolCall{ID: "1"})
		}, `call 1 (id "1") has no tool name`, "a step without a name cannot be matched"},
		{"duplicate id", func(b *trajeval.Builder) {
			b.Call(trajeval.ToolCall{ID: "1", Name: "a"})
			b.Call(trajeval.ToolCall{ID: "1", Name: "b"})
		}, `call 2 (b): call id "1" is used twice`, "a result could not say which call it answers"},
		{"duplicate id in one response", func(b *trajeval.Builder) {
			b.Call(trajeval.ToolCall{ID: "1", Name: "a"}, trajeval.ToolCall{ID: "1", Name: "b"})
		}, `call id "1" is used twice`, "ids are unique within a response too"},
		{"invalid raw JSON", func(b *trajeval.Builder) {
			b.Call(trajeval.ToolCall{Name: "a", Args: json.RawMessage(`{"a":`)})
		}, "call 1 (a): arguments: not valid JSON text", "broken JSON is not kept silently"},
		{"not JSON", func(b *trajeval.Builder) {
			b.Call(trajeval.ToolCall{Name: "a", Args: map[string]any{"f": math.NaN()}})
		}, "call 1 (a): arguments: NaN cannot be written as JSON", "NaN has no JSON form"},
		{"channel result", func(b *trajeval.Builder) {
			b.Call(trajeval.ToolCall{ID: "1", Name: "a"})
			b.Result(trajeval.ToolResult{ID: "1", Value: make(chan int)})
		}, `result of call "1" (a): a value of Go type chan int cannot be written as JSON`, "a channel has no JSON form"},
		{"message but not failed", func(b *trajeval.Builder) {
			b.Call(trajeval.ToolCall{ID: "1", Name: "a"})
			b.Result(trajeval.ToolResult{ID: "1", Error: new(false), ErrorMessage: "boom"})
		}, "has an error message but is marked as not failed", "a contradiction is a mistake"},
		{"negative duration", func(b *trajeval.Builder) {
			b.Call(trajeval.ToolCall{ID: "1", Name: "a"})
			b.Result(trajeval.ToolResult{ID: "1", Duration: -time.Second})
		}, "negative duration -1s", "no call takes negative time"},
		{"ends before it starts", func(b *trajeval.Builder) {
			b.Call(trajeval.ToolCall{ID: "1", Name: "a", Start: t0})
			b.Result(trajeval.ToolResult{ID: "1", End: t0.Add(-time.Second)})
		}, "it ends (2026-01-02T03:04:04Z) before it starts (2026-01-02T03:04:05Z)", "swapped times are a mistake"},
		{"overflow", func(b *trajeval.Builder) {
			b.Metrics(trajeval.Metrics{Tokens: trajeval.Tokens{Input: new(int64(math.MaxInt64))}})
			b.Metrics(trajeval.Metrics{Tokens: trajeval.Tokens{Input: new(int64(1))}})
		}, "metrics: a count overflows int64", "a wrapped count would look small"},
		{"caller without name", func(b *trajeval.Builder) {
			b.Called("researcher", "")
		}, `called: an agent and its caller need names, got "researcher" and ""`, "a nameless caller scopes nothing"},
		{"first misuse kept", func(b *trajeval.Builder) {
			b.Result(trajeval.ToolResult{ID: "a"})
			b.Result(trajeval.ToolResult{ID: "b"})
		}, `result for call "a"`, "later additions are ignored once the Builder failed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := trajeval.NewBuilder("x")
			tt.build(b)
			got, err := b.Build()
			if err == nil {
				t.Fatalf("Build = %s, want an error containing %q (%s)", canonical(t, got), tt.want, tt.reason)
			}
			if got != nil {
				t.Errorf("Build returned a trajectory with its error")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q, want it to contain %q (%s)", err, tt.want, tt.reason)
			}
		})
	}
}

func TestBuilder_Build_again(t *testing.T) {
	b := trajeval.NewBuilder("x")
	b.Call(trajeval.ToolCall{ID: "1", Name: "a"})
	first, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	b.Result(trajeval.ToolResult{ID: "1", Value: "done"})
	b.Call(trajeval.ToolCall{ID: "2", Name: "b"})
	second, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Steps) != 1 || first.Steps[0].Result != nil {
		t.Errorf("the first trajectory changed after later additions: %s", canonical(t, first))
	}
	if len(second.Steps) != 2 || second.Steps[0].Result != "done" {
		t.Errorf("second Build = %s, want both calls and the result", canonical(t, second))
	}
}

func ExampleBuilder_structLiteral() {
	// The same kind of run written as a literal: JSON values only, results
	// on their steps, Finish last.
	user, answer := "Weather in Paris?", "18°C."
	t := &trajeval.Trajectory{
		ID:    "run-2",
		Turns: []trajeval.Turn{{User: &user, FinalResponse: &answer}},
		Steps: []trajeval.Step{{
			Turn:      1,
			ID:        "call_1",
			Name:      "get_weather",
			Args:      map[string]any{"city": "Paris", "days": json.Number("1")},
			Result:    "18°C",
			Error:     new(false),
			StartTime: time.Date(2026, 1, 2, 9, 0, 0, 0, time.UTC),
			EndTime:   time.Date(2026, 1, 2, 9, 0, 0, 250e6, time.UTC),
		}},
	}
	t.Finish()
	s := t.Steps[0]
	fmt.Printf("step %d in turn %d: %s took %v ms\n", s.Index, s.Turn, s.Name, *s.DurationMS)
	// Output:
	// step 1 in turn 1: get_weather took 250 ms
}

// TestBuilder_Build_canonical checks that what the Builder builds is read
// back unchanged from its canonical JSON, as `trajeval convert` writes it.
func TestBuilder_Build_canonical(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	b := trajeval.NewBuilder("run-3")
	b.User("q")
	b.Call(trajeval.ToolCall{ID: "1", Name: "a", Args: map[string]any{"n": uint64(math.MaxUint64)}, Start: t0, Agent: "sub"},
		trajeval.ToolCall{ID: "2", Name: "b", Args: json.RawMessage(`[1, 2.50, "x"]`)})
	b.Result(trajeval.ToolResult{ID: "2", Value: map[string]any{"ok": true}, Error: new(false)})
	b.Result(trajeval.ToolResult{ID: "1", ErrorMessage: "boom", End: t0.Add(time.Second)})
	b.Turn()
	b.Call(trajeval.ToolCall{Name: "c", Args: "free text"})
	b.Final("done")
	b.Metrics(trajeval.Metrics{CostUSD: new(0.01), DurationMS: new(1200.5), LLMCalls: new(int64(3)), Tokens: trajeval.Tokens{Output: new(int64(7))}})
	built, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	data := canonical(t, built)
	var got []*trajeval.Trajectory
	in := trajeval.Input{Name: "t.jsonl", R: strings.NewReader(data + "\n"), Warn: func(w trajeval.Warning) { t.Errorf("reader warns: %s", w) }}
	err = canonicalformat.Format.Read(context.Background(), in, func(tr *trajeval.Trajectory) error {
		got = append(got, tr)
		return nil
	})
	if err != nil || len(got) != 1 {
		t.Fatalf("read %d trajectories, error %v", len(got), err)
	}
	if again := canonical(t, got[0]); again != data {
		t.Errorf("read back %s\nbuilt     %s", again, data)
	}
}
