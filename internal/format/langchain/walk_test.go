package langchain_test

import (
	"os"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/format/formattest"
	"github.com/trajeval/trajeval/internal/format/langchain"
)

// TestRuns_walkFiles reads every JSON and JSON Lines file of the tests
// (every format's, the real ones too) as langsmith, strictly and
// leniently, with the reader that walks records with a jsonv.Parser and
// with the one that decoded them into maps (langchain.RefRuns): the same
// trajectories, warnings and errors.
func TestRuns_walkFiles(t *testing.T) {
	files := formattest.AllFiles(t)
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		formattest.SameRead(t, langchain.RefRuns, langchain.Runs, name, data)
	}
	t.Logf("%d files", len(files))
}

// lsRun is a tool run of trace r0 as the Python client posts it, with
// more JSON members spliced in at the end.
func lsRun(id, more string) string {
	return `{"id": "` + id + `", "name": "search", "run_type": "tool", "trace_id": "r0", "dotted_order": "20250313T100001000000Zr0.20250313T100001000000Z` + id + `", "parent_run_id": "r0", "start_time": "2025-03-13T10:00:01", "end_time": "2025-03-13T10:00:02", "extra": {"metadata": {"thread_id": "th1"}}, "inputs": {"input": "{\"q\": 1}"}, "outputs": {"output": "ok"}, "error": null, "status": "success"` + more + `}`
}

// TestRuns_walk reads records that a map of the decoded record holds
// otherwise than its text says at first sight, with both readers (see
// TestRuns_walkFiles).
func TestRuns_walk(t *testing.T) {
	const root = `{"id": "r0", "name": "Agent", "run_type": "chain", "trace_id": "r0", "start_time": "2025-03-13T10:00:00", "end_time": "2025-03-13T10:00:09", "inputs": {"input": "go"}, "outputs": {"output": "done"}}`
	tests := []struct {
		name, in, reason string
	}{
		{"keys twice", lsRun("t1", `, "name": "read", "name": 7, "extra": {"metadata": {"thread_id": "a"}, "metadata": {"session_id": "b"}}, "id": "t9"`),
			"the last of a key given twice is the one a map holds"},
		{"run_type null", `{"run_type": null, "post": [` + root + `]}`, "a null run_type is a wrapper's"},
		{"wrapper order", `{"patch": [` + lsRun("t1", `, "end_time": "2025-03-13T10:00:05", "name": "patched"`) + `], "post": [` + strings.ReplaceAll(root, "r0", "r1") + `, ` + lsRun("t1", "") + `], "runs": [` + root + `]}`,
			"runs, then post, then patch, whatever their order in the text"},
		{"wrapper lists twice", `{"post": [` + lsRun("t1", "") + `], "post": [` + lsRun("t2", "") + `], "post": [` + root + `]}`,
			"the last post only"},
		{"wrapper of no list", `{"post": {"id": "x"}, "patch": 3}` + "\n" + root, "junk"},
		{"wrapper of empty lists", `{"post": []}` + "\n" + root, "an empty list is no junk"},
		{"run with wrapper keys", `{"id": "r0", "run_type": "chain", "post": [` + lsRun("t1", "") + `], "start_time": "2025-03-13T10:00:00"}`,
			"a run's post is not read"},
		{"wrapper with child_runs", `{"child_runs": [` + lsRun("t1", "") + `], "runs": [` + root + `]}`,
			"a wrapper's child_runs are not read"},
		{"child runs", `{"id": "r0", "run_type": "chain", "child_runs": [` + strings.ReplaceAll(lsRun("t1", `, "child_runs": [{"id": "t2", "run_type": "tool", "name": "inner"}]`), `"parent_run_id": "r0", `, "") +
			`, {"post": [{"id": "t3", "run_type": "tool", "name": "wrapped"}]}, {"id": "t4", "run_type": "tool", "parent_run_id": "elsewhere"}], "trace_id": "r0", "extra": {"metadata": {"thread_id": 5}}}`,
			"children hang under their run, through wrappers, unless they name their parent; the run first, then its children"},
		{"child_runs after other lists", `{"id": "r0", "run_type": "chain", "child_runs": [{"id": "a", "run_type": "tool"}], "post": [{"id": "x", "run_type": "tool"}], "child_runs": [{"id": "b", "run_type": "tool", "child_runs": [{"id": "c", "run_type": "tool"}]}], "runs": [2]}`,
			"the last child_runs only, moved up to their run; the run's post and runs dropped"},
		{"child_runs twice", `{"id": "r0", "run_type": "chain", "child_runs": [{"id": "a", "run_type": "tool"}], "child_runs": "none"}`,
			"the last child_runs, not a list: no children"},
		{"patch merges", root + "\n" + lsRun("t1", "") + "\n" +
			`{"id": "t1", "run_type": "tool", "name": null, "end_time": "2025-03-13T10:00:04", "outputs": {"output": "later"}, "error": "Boom('x')\ntraceback", "extra": null, "status": 1}`,
			"a patch's fields that are not null win; a status that is no string"},
		{"patch extra", lsRun("t1", `, "parent_run_id": null`) + "\n" + `{"id": "t1", "run_type": "tool", "extra": {"runtime": {}}}`, "a patch's extra replaces the metadata"},
		{"times", `{"id": "a", "run_type": "tool", "start_time": 1741860001500, "end_time": "13/03/2025"}` + "\n" +
			`{"id": "b", "run_type": "tool", "start_time": true, "end_time": ""}` + "\n" +
			`{"id": "c", "run_type": "tool", "start_time": -1, "end_time": {"a": 1}}` + "\n" +
			`{"id": "d", "run_type": "tool", "start_time": "2025-03-13 10:00:01", "end_time": "2025-03-13T10:00:02.123456789+02:00"}` + "\n" +
			`{"id": "e", "run_type": "tool", "start_time": 1e300, "end_time": 1741860001500.25}`,
			"milliseconds; warnings for times that are not ISO 8601, in order; other layouts"},
		{"run types", `{"id": "a", "run_type": 5}` + "\n" + `{"id": "b", "run_type": "agent"}` + "\n" + root, "run types that are not LangSmith's"},
		{"missing parent", lsRun("t1", `, "parent_run_id": "gone", "trace_id": 3`), "a stand-in parent"},
		{"tokens", root + "\n" + `{"id": "l1", "run_type": "llm", "parent_run_id": "r0", "prompt_tokens": 3, "completion_tokens": 2.0, "total_tokens": null, "total_cost": 0.5}` + "\n" +
			`{"id": "l2", "run_type": "llm", "parent_run_id": "r0", "outputs": {"usage_metadata": {"input_tokens": 1, "output_tokens": 1, "total_tokens": 2}}, "total_cost": "x"}`,
			"token counts and cost"},
		{"graph agent", lsRun("t1", `, "extra": {"metadata": {"langgraph_checkpoint_ns": "billing:1|tools:2", "checkpoint_ns": "x"}}`), "the sub-agent of a tool run"},
		{"lone surrogate", lsRun("t1", `, "x": "\ud800"`) + "\n" + lsRun("t2", ""), "a line the Parser refuses is decoded by encoding/json and walked again"},
		{"invalid UTF-8", lsRun("t1", ", \"x\": \"\xff\"") + "\n" + lsRun("t2", ""), "the same"},
		{"escaped keys", `{"run_typ\u0065": "tool", "id": "a", "nam\u0065": "x"}`, "a key spelled with an escape is that key"},
		{"keys in another case", `{"Run_Type": "tool", "id": "a"}`, "keys are case-sensitive: junk"},
		{"document", "[\n" + root + ",\n" + lsRun("t1", "") + "\n]\n", "a document of one list"},
		{"documents", root + "\n\n" + lsRun("t1", "") + " " + lsRun("t2", ""), "concatenated values"},
		{"broken document", "[\n" + root + ",\n" + lsRun("t1", "") + ",\n" + lsRun("t2", "")[:50], "damage: what came before"},
		{"null line", root + "\nnull\n" + lsRun("t1", ""), "a null is not a record"},
		{"junk in a list", `[` + root + `, 1, "x", null, []]`, "values that are not runs are junk"},
		{"too deep", lsRun("t1", `, "x": `+strings.Repeat("[", 200)+strings.Repeat("]", 200)), "nested deeper than the limit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			formattest.SameRead(t, langchain.RefRuns, langchain.Runs, "walk.jsonl", []byte(tt.in))
			if t.Failed() {
				t.Log(tt.reason)
			}
		})
	}
}

// FuzzRuns_walk reads any bytes with both readers (see
// TestRuns_walkFiles).
func FuzzRuns_walk(f *testing.F) {
	for _, name := range formattest.KeptFiles(f, "langsmith") {
		if data, err := os.ReadFile(name); err == nil && len(data) < 64<<10 {
			f.Add(data)
		}
	}
	f.Add([]byte(`{"patch": [` + lsRun("t1", "") + `], "post": [{"id": "t1", "run_type": null, "child_runs": [{"id": "k", "run_type": "llm"}]}]}`))
	f.Add([]byte(`[{"id": "r", "run_type": "chain", "child_runs": [{"runs": [{"id": "k", "run_type": "tool", "start_time": 1.5e12}]}]}, 2]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		formattest.SameRead(t, langchain.RefRuns, langchain.Runs, "fuzz.jsonl", data)
	})
}
