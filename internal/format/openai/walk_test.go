package openai_test

import (
	"os"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/format/formattest"
	"github.com/trajeval/trajeval/internal/format/openai"
)

// TestAgents_walkFiles reads every JSON and JSON Lines file of the tests
// (every format's, the real ones too) as openai-agents, strictly and
// leniently, with the reader that walks records with a jsonv.Parser and
// with the one that decoded them into maps (openai.RefAgents): the same
// trajectories, warnings and errors.
func TestAgents_walkFiles(t *testing.T) {
	files := formattest.AllFiles(t)
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		formattest.SameRead(t, openai.RefAgents, openai.Agents, name, data)
	}
	t.Logf("%d files", len(files))
}

// agentsSpan is a function span of trace_a as the Python SDK exports it,
// with more JSON members spliced in after span_data.
func agentsSpan(id, more string) string {
	return `{"object": "trace.span", "id": "` + id + `", "trace_id": "trace_a", "parent_id": "span_ag", "started_at": "2025-03-13T10:00:01+00:00", "ended_at": "2025-03-13T10:00:02+00:00", "span_data": {"type": "function", "name": "search", "input": "{\"q\": 1}", "output": "ok"}` + more + `}`
}

// TestAgents_walk reads records that a map of the decoded record holds
// otherwise than its text says at first sight, with both readers (see
// TestAgents_walkFiles).
func TestAgents_walk(t *testing.T) {
	const trace = `{"object": "trace", "id": "trace_a", "workflow_name": "w", "group_id": null}`
	agent := `{"object": "trace.span", "id": "span_ag", "trace_id": "trace_a", "parent_id": null, "started_at": "2025-03-13T10:00:00Z", "ended_at": "2025-03-13T10:00:09Z", "span_data": {"type": "agent", "name": "A"}}`
	tests := []struct {
		name, in, reason string
	}{
		{"keys twice", agentsSpan("s1", `, "span_data": {"type": "function", "name": "read", "name": 7, "input": "{}"}, "id": "s9"`),
			"the last of a key given twice is the one a map holds: the second span_data, id s9, a name that is no string"},
		{"object null", `{"object": null, "data": [` + trace + `, ` + agentsSpan("s1", "") + `]}`,
			"a null object is a payload's"},
		{"payload with an object", `{"object": "list", "data": [` + agentsSpan("s1", "") + `]}`,
			"a payload with an object is not one: junk"},
		{"data twice", `{"data": [` + agentsSpan("s1", "") + `], "data": [` + agentsSpan("s2", "") + `]}`,
			"the records of the first data are dropped"},
		{"data then object", `{"data": [` + agentsSpan("s1", "") + `], "object": "trace.span", "trace_id": "trace_b", "span_data": {"type": "function", "name": "x"}}`,
			"an object after the data makes the record a span, its list dropped"},
		{"payloads nested", `{"data": [{"data": [` + agentsSpan("s1", "") + `, [` + agentsSpan("s2", "") + `]]}, 7, null, "x", []]}`,
			"lists and payloads in lists; values that are not records are junk"},
		{"trace by workflow", `{"id": "trace_a", "workflow_name": "w", "group_id": "g1"}` + "\n" + agentsSpan("s1", ""),
			"a workflow_name and no span_data is a trace"},
		{"workflow and span_data", `{"id": "s1", "trace_id": "trace_a", "workflow_name": "w", "span_data": {"type": "function", "name": "x"}}`,
			"span_data makes it a span"},
		{"span_data not an object", `{"id": "s1", "trace_id": "trace_a", "span_data": [1]}`, "a span of no type, an unknown one"},
		{"error object", agentsSpan("s1", `, "error": {"message": "boom", "data": {"error": "bad", "error": "worse"}}`),
			"message and data.error, the last one"},
		{"error data not an object", agentsSpan("s1", `, "error": {"message": "boom", "data": "x"}`), "no data.error"},
		{"error not an object", agentsSpan("s1", `, "error": ["x", {"b": 1, "a": 2}, 1.50]`), "fmt.Sprint of the value"},
		{"error empty", agentsSpan("s1", `, "error": {}`), "an error with no message"},
		{"error string", agentsSpan("s1", `, "error": ""`), "an empty error is an error"},
		{"times", `{"object": "trace.span", "id": "s1", "trace_id": "t", "started_at": 1741860001.5, "ended_at": "13/03/2025", "span_data": {"type": "function"}}` + "\n" +
			`{"object": "trace.span", "id": "s2", "trace_id": "t", "started_at": true, "ended_at": "", "span_data": {"type": "function"}}` + "\n" +
			`{"object": "trace.span", "id": "s3", "trace_id": "t", "started_at": -1, "ended_at": {"a": 1}, "span_data": {"type": "function"}}` + "\n" +
			`{"object": "trace.span", "id": "s4", "trace_id": "t", "started_at": "2025-03-13 10:00:01", "ended_at": "2025-03-13T10:00:02.123456789", "span_data": {"type": "function"}}`,
			"epoch seconds; warnings for times that are not ISO 8601, in order; other layouts"},
		{"lone surrogate", agentsSpan("s1", `, "x": "\ud800"`) + "\n" + agentsSpan("s2", ""), "a line the Parser refuses is decoded by encoding/json and walked again"},
		{"invalid UTF-8", agentsSpan("s1", ", \"x\": \"\xff\"") + "\n" + agentsSpan("s2", ""), "the same"},
		{"surrogate in the input", `{"object": "trace.span", "id": "s1", "trace_id": "t", "span_data": {"type": "function", "name": "n\ud800", "input": "{\"a\": \"\\ud800\"}"}}`,
			"replaced by encoding/json in the name, and in the arguments"},
		{"escaped keys", `{"obj\u0065ct": "trace.span", "id": "s1", "trace_id": "t", "span_data": {"typ\u0065": "function", "name": "x"}}`, "a key spelled with an escape is that key"},
		{"keys in another case", `{"Object": "trace.span", "ID": "s1", "trace_id": "t", "Span_Data": {"type": "function"}}`, "keys are case-sensitive: junk"},
		{"span twice", agentsSpan("s1", "") + "\n" + agentsSpan("s1", `, "ended_at": null`) + "\n" + agent,
			"the same span again: the fuller copy kept"},
		{"usage", `{"object": "trace.span", "id": "g1", "trace_id": "t", "span_data": {"type": "generation", "usage": {"prompt_tokens": 3, "completion_tokens": 2.0}, "input": [{"role": "user", "content": "hi"}], "output": [{"role": "assistant", "content": "done"}]}}` + "\n" + agentsSpan("s1", ""),
			"tokens, the user's text and the final answer from generation spans"},
		{"document", "[\n" + trace + ",\n" + agentsSpan("s1", "") + "\n]\n", "a document of one list"},
		{"documents", trace + "\n\n" + agentsSpan("s1", "") + " " + agentsSpan("s2", ""), "concatenated values"},
		{"broken document", "[\n" + trace + ",\n" + agentsSpan("s1", "") + ",\n" + agentsSpan("s2", "")[:50], "damage: what came before"},
		{"null line", trace + "\nnull\n" + agentsSpan("s1", ""), "a null is not a record"},
		{"too deep", agentsSpan("s1", `, "x": `+strings.Repeat("[", 200)+strings.Repeat("]", 200)), "nested deeper than the limit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			formattest.SameRead(t, openai.RefAgents, openai.Agents, "walk.jsonl", []byte(tt.in))
			if t.Failed() {
				t.Log(tt.reason)
			}
		})
	}
}

// FuzzAgents_walk reads any bytes with both readers (see
// TestAgents_walkFiles).
func FuzzAgents_walk(f *testing.F) {
	for _, name := range formattest.KeptFiles(f, "openai-agents") {
		if data, err := os.ReadFile(name); err == nil && len(data) < 64<<10 {
			f.Add(data)
		}
	}
	f.Add([]byte(agentsSpan("s1", `, "error": {"message": "m", "data": {"error": "e"}}, "span_data": null, "object": null`)))
	f.Add([]byte(`{"data": [{"data": [` + agentsSpan("s1", "") + `]}, 1], "object": null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		formattest.SameRead(t, openai.RefAgents, openai.Agents, "fuzz.jsonl", data)
	})
}
