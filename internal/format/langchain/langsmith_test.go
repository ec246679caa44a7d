package langchain_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/format/formattest"
	"github.com/trajeval/trajeval/internal/format/langchain"
)

// jsBatch is a batch the LangSmith JS client posts: times are numbers of
// milliseconds since 1970 (Date.now()), not ISO 8601 strings.
const jsBatch = `{"post":[` +
	`{"id":"r1","name":"agent","run_type":"chain","start_time":1795725518397,"end_time":1795725518479,"trace_id":"r1","dotted_order":"20261126T203838397001Zr1","inputs":{"input":"hi"},"outputs":{"output":"done"}},` +
	`{"id":"t1","name":"get_weather","run_type":"tool","start_time":1795725518400.5,"end_time":1795725518410,"parent_run_id":"r1","trace_id":"r1","dotted_order":"20261126T203838397001Zr1.20261126T203838400001Zt1","inputs":{"city":"Paris"},"outputs":{"outputs":"Sunny"}}` +
	`]}`

func TestRuns_Read(t *testing.T) {
	tests := []struct {
		name, data string
		want       string // the steps' start and end times, and duration_ms
		warn       string // a part of the warnings, "" for none
		reason     string
	}{
		{"JS client times", jsBatch,
			"2026-11-26T20:38:38.4005Z 2026-11-26T20:38:38.41Z 9.5", "",
			"the JS client's numeric times are milliseconds since 1970"},
		{"time out of range", strings.Replace(jsBatch, "1795725518400.5", "1e300", 1),
			" 2026-11-26T20:38:38.41Z 0", "start_time 1e300 is not a time in milliseconds",
			"a number no time can be is reported, not written as a year past 9999"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, warns, err := formattest.Read(langchain.Runs, "runs.json", []byte(tt.data))
			if err != nil {
				t.Fatalf("Read: %v (%s)", err, tt.reason)
			}
			if tt.warn == "" && len(warns) > 0 || !strings.Contains(string(warns), tt.warn) {
				t.Errorf("warnings:\n%s\nwant one with %q (%s)", warns, tt.warn, tt.reason)
			}
			var tr struct {
				Steps []struct {
					Start    string  `json:"start_time"`
					End      string  `json:"end_time"`
					Duration float64 `json:"duration_ms"`
				}
			}
			if err := json.Unmarshal(out, &tr); err != nil || len(tr.Steps) != 1 {
				t.Fatalf("%v in %s", err, out)
			}
			s := tr.Steps[0]
			if got := strings.Join([]string{s.Start, s.End, jsonNumber(s.Duration)}, " "); got != tt.want {
				t.Errorf("got  %s\nwant %s (%s)", got, tt.want, tt.reason)
			}
		})
	}
}

// jsLangChain is a LangChain.js run tree as the JS client posts it: the
// model run's token counts in outputs.llmOutput.tokenUsage, a traceable
// tool's string result wrapped as {"outputs": ...}.
const jsLangChain = `{"post":[` +
	`{"id":"r1","name":"agent","run_type":"chain","trace_id":"r1","dotted_order":"1Zr1","inputs":{"input":"hi"},"outputs":{"output":"done"}},` +
	`{"id":"m1","name":"ChatOpenAI","run_type":"llm","parent_run_id":"r1","trace_id":"r1","dotted_order":"1Zr1.2Zm1","outputs":{"generations":[],"llmOutput":{"tokenUsage":{"promptTokens":40,"completionTokens":12,"totalTokens":52}}}},` +
	`{"id":"t1","name":"get_weather","run_type":"tool","parent_run_id":"r1","trace_id":"r1","dotted_order":"1Zr1.3Zt1","start_time":"2026-01-01T00:00:00Z","end_time":"2026-01-01T00:00:01Z","inputs":{"city":"Paris"},"outputs":{"outputs":"Sunny"}}` +
	`]}`

// jsTraceable is the LangSmith JS client's traceable around an OpenAI
// call: the llm run's outputs are the provider's body, with its usage.
const jsTraceable = `{"post":[` +
	`{"id":"r1","name":"agent","run_type":"chain","trace_id":"r1","dotted_order":"1Zr1","inputs":{"input":"hi"},"outputs":{"output":"done"}},` +
	`{"id":"m1","name":"chat_model","run_type":"llm","parent_run_id":"r1","trace_id":"r1","dotted_order":"1Zr1.2Zm1","outputs":{"id":"chatcmpl_0","object":"chat.completion","usage":{"prompt_tokens":40,"completion_tokens":12,"total_tokens":52},"choices":[]}},` +
	`{"id":"t1","name":"get_weather","run_type":"tool","parent_run_id":"r1","trace_id":"r1","dotted_order":"1Zr1.3Zt1","start_time":"2026-01-01T00:00:00Z","end_time":"2026-01-01T00:00:01Z","inputs":{"city":"Paris"},"outputs":{"outputs":"Sunny"}}` +
	`]}`

func TestRuns_Read_js(t *testing.T) {
	// A traced function that records LangSmith's usage_metadata.
	withMetadata := strings.Replace(jsTraceable, `"usage":{"prompt_tokens":40,"completion_tokens":12,"total_tokens":52}`,
		`"usage_metadata":{"input_tokens":40,"output_tokens":12,"total_tokens":52}`, 1)
	for _, data := range []string{jsLangChain, jsTraceable, withMetadata} {
		readJS(t, data)
	}
}

func readJS(t *testing.T, data string) {
	t.Helper()
	out, warns, err := formattest.Read(langchain.Runs, "runs.json", []byte(data))
	if err != nil || len(warns) > 0 {
		t.Fatalf("Read: %v, warnings:\n%s", err, warns)
	}
	var tr struct {
		Steps   []struct{ Result any }
		Metrics struct {
			Tokens struct{ Input, Output, Total *int }
		}
	}
	if err := json.Unmarshal(out, &tr); err != nil || len(tr.Steps) != 1 {
		t.Fatalf("%v in %s", err, out)
	}
	if tr.Steps[0].Result != "Sunny" {
		t.Errorf("result %v, want Sunny: the JS traceable's {outputs: value} is the value", tr.Steps[0].Result)
	}
	tk := tr.Metrics.Tokens
	if tk.Input == nil || tk.Output == nil || tk.Total == nil || *tk.Input != 40 || *tk.Output != 12 || *tk.Total != 52 {
		t.Errorf("tokens %s, want 40, 12, 52 from LangChain.js's llmOutput.tokenUsage or the OpenAI body's usage", out)
	}
}

func jsonNumber(f float64) string {
	b, _ := json.Marshal(f)
	return string(b)
}

// TestRuns_modelRun reads a model run traced on its own as the LangSmith
// JS client's wrapper of the OpenAI SDK posts it: its POST body, then the
// body of PATCH /runs/{id}, which has no id and no run_type.
func TestRuns_modelRun(t *testing.T) {
	const post = `{"id":"r1","name":"ChatOpenAI","run_type":"llm","start_time":1728803137170,"trace_id":"r1","dotted_order":"20241013T070537170001Zr1","inputs":{"messages":[{"role":"user","content":"howdy"}]}}`
	const patch = `{"end_time":1728803138285,"dotted_order":"20241013T070537170001Zr1","trace_id":"r1","outputs":{"choices":[{"index":0,"message":{"role":"assistant","content":"Howdy!"}}],"usage_metadata":{"input_tokens":9,"output_tokens":3,"total_tokens":12}}}`
	tests := []struct {
		name, in string
		want     string // the trajectory's turns and metrics, "" for an error
		reason   string
	}{
		{"post and patch", `{"post":[` + post + `],"patch":[` + patch + `]}`,
			`[{"turn":1,"user":"howdy","final_response":"Howdy!"}] {"duration_ms":1115,"cost_usd":null,"tokens":{"input":9,"output":3,"total":12},"llm_calls":1}`,
			"the patch is the run its dotted_order names: its end, outputs and tokens; a model run on its own is a model call"},
		{"patch with an id", `{"post":[` + post + `],"patch":[` + strings.Replace(patch, `"dotted_order":"20241013T070537170001Zr1"`, `"id":"r1"`, 1) + `]}`,
			`[{"turn":1,"user":"howdy","final_response":"Howdy!"}] {"duration_ms":1115,"cost_usd":null,"tokens":{"input":9,"output":3,"total":12},"llm_calls":1}`,
			"an id names the run"},
		{"patch of nothing", `{"post":[` + post + `],"patch":[{"end_time":1728803138285}]}`, "",
			"no id and no dotted_order: not a run"},
		{"outside a patch", `{"post":[` + post + `]}` + "\n" + patch, "",
			"a record with no run_type outside a patch list is not a run"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, _, err := formattest.Read(langchain.Runs, "runs.json", []byte(tt.in))
			if tt.want == "" {
				if err == nil {
					t.Errorf("read %s, want an error (%s)", out, tt.reason)
				}
				return
			}
			if err != nil {
				t.Fatalf("Read: %v (%s)", err, tt.reason)
			}
			var tr struct{ Turns, Metrics json.RawMessage }
			if err := json.Unmarshal(out, &tr); err != nil {
				t.Fatal(err)
			}
			if got := string(tr.Turns) + " " + string(tr.Metrics); got != tt.want {
				t.Errorf("got  %s\nwant %s (%s)", got, tt.want, tt.reason)
			}
		})
	}
}
