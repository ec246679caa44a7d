package run_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/run"
	"github.com/trajeval/trajeval/internal/suite"
	"github.com/trajeval/trajeval/internal/suite/dialects"
	"github.com/trajeval/trajeval/internal/trace"
)

// The repository's fixtures: every suite under these folders (under
// internal, their testdata) is scored, and every trace file read, by the
// tests of kept text below.
var fixtures = []string{"../../examples", "../../testdata", "../../internal"}

// perSuite is about how many scorings TestScore_keptText runs a suite.
const perSuite = 500

// kindsSuite holds an evaluator of every type that reads kept text
// itself, looking into arguments and results, and kindsTraces arguments
// and results of every JSON kind; the suite is scored on every
// trajectory, not on a sample.
const (
	kindsSuite  = "testdata/kepttext/suite.yaml"
	kindsTraces = "testdata/kepttext/traces.jsonl"
)

// textReaders are the evaluator types that read kept text themselves
// (eval.ReadsText): the fixtures must score each, and hold no other.
var textReaders = []string{
	"tool_trajectory", "execution_metrics", "composite",
	"deepeval_tool_correctness", "ragas_tool_call_accuracy",
	"tool_error", "tool_rules",
	"tool_call_args", "tool_call_output", "tool_call_count", "tool_call_order",
	"tool_trajectory_avg_score", "response_match_score",
	"trajectory_exact_match", "trajectory_in_order_match", "trajectory_any_order_match",
	"trajectory_precision", "trajectory_recall", "trajectory_single_tool_use",
	"tau2_action", "tau2_communicate", "tau2_reward",
	"tool_correctness", "tool_name_reliability", "tool_description_reliability",
}

// TestScore_keptText scores the cases of every suite of the repository's
// examples and testdata on the trajectories of their trace files, written
// as AgentV JSON Lines and read back twice: with the calls' arguments and
// results kept as JSON text (as a run reads them) and decoded: every
// trajectory must be the same in canonical JSON, and score the same rows
// (see sameRows). The AgentV lines of kindsTraces are read as they are
// written, with the repeated keys and spellings a value does not keep.
func TestScore_keptText(t *testing.T) {
	lines := agentvLines(t, fixtureTrajectories(t))
	kinds, err := os.ReadFile(kindsTraces)
	if err != nil {
		t.Fatal(err)
	}
	lines = append(lines, kinds...)
	kept, decoded := readAgentv(t, lines, true), readAgentv(t, lines, false)
	sameTrajectories(t, kept, decoded)
	sameRows(t, kept, decoded)
}

// TestScore_keptTextFormats is TestScore_keptText for the other readers
// that keep text: the fixtures' trajectories written in each format, with
// each object of their arguments and results in reverse key order, and a
// few arguments that must not be kept as text (a JSON string, null, a
// scalar, text that is not JSON, blank), read back with text kept and
// decoded, must give the same canonical JSON, warnings and rows.
func TestScore_keptTextFormats(t *testing.T) {
	trajs := append(fixtureTrajectories(t), oddArguments()...)
	tests := []struct {
		format string
		write  func(*testing.T, []*trajeval.Trajectory) []byte
		reason string
	}{
		{"trajeval", canonicalLines, "the canonical form that convert writes: args and results kept"},
		{"openai-chat", chatLines, "Chat Completions: arguments are a JSON string whose content is kept"},
	}
	for _, tt := range tests {
		t.Run(tt.format, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "traces.jsonl")
			if err := os.WriteFile(path, tt.write(t, trajs), 0o644); err != nil {
				t.Fatal(err)
			}
			kept, warnKept := readFormat(t, tt.format, path, true)
			decoded, warnDecoded := readFormat(t, tt.format, path, false)
			if !slices.Equal(warnKept, warnDecoded) {
				t.Errorf("%s: warnings differ:\nkept text: %q\ndecoded:   %q", tt.reason, warnKept, warnDecoded)
			}
			sameTrajectories(t, kept, decoded)
			sameRows(t, kept, decoded)
		})
	}
}

// sameTrajectories requires kept, read keeping text, and decoded, read
// without, to be the same trajectories in canonical JSON, with only
// objects and arrays kept as text, and enough of them to tell.
func sameTrajectories(t *testing.T, kept, decoded []*trajeval.Trajectory) {
	t.Helper()
	if len(kept) != len(decoded) {
		t.Fatalf("read %d trajectories with text kept, %d decoded", len(kept), len(decoded))
	}
	texts := 0
	for i := range kept {
		for _, s := range kept[i].Steps {
			for _, v := range []any{s.Args, s.Result} {
				text, ok := trajeval.KeptText(v)
				if !ok {
					continue
				}
				texts++
				if len(text) == 0 || text[0] != '{' && text[0] != '[' {
					t.Errorf("trajectory %s step %d: %q kept as text: only objects and arrays are", kept[i].ID, s.Index, text)
				}
			}
		}
		a, errA := trajeval.AppendJSON(nil, kept[i])
		b, errB := trajeval.AppendJSON(nil, decoded[i])
		if errA != nil || errB != nil || !bytes.Equal(a, b) {
			t.Errorf("trajectory %d (%s): canonical JSON differs:\nkept text: %s (%v)\ndecoded:   %s (%v)", i, kept[i].ID, a, errA, b, errB)
		}
	}
	if texts < 100 {
		t.Fatalf("only %d arguments and results kept as text: the test reads too little", texts)
	}
	t.Logf("%d trajectories, %d arguments and results kept as text", len(kept), texts)
}

// sameRows scores every suite of the fixtures on kept and decoded, the
// same trajectories read with text kept and without: every evaluator
// type and dialect of the fixtures must give the same rows either way.
// An evaluator that took the text for no value at all would score
// differently.
func sameRows(t *testing.T, kept, decoded []*trajeval.Trajectory) {
	t.Helper()
	suites := fixtureSuites(t)
	types, readers := map[string]bool{}, map[string]bool{}
	scored := 0
	// Trajectories by id: a case is also scored on those with its id, as a
	// run pairs them, where its expected calls meet the calls they name.
	byID := map[string][]int{}
	for i, tr := range kept {
		byID[tr.ID] = append(byID[tr.ID], i)
	}
	for _, s := range suites {
		cases := allCases(s)
		// Each case on every stride-th trajectory, from its own start:
		// a suite's cases share out the trajectories, about perSuite
		// scorings a suite.
		stride := max(1, len(cases)*len(kept)/perSuite)
		if strings.HasSuffix(filepath.ToSlash(s.File), kindsSuite) {
			stride = 1
		}
		for _, c := range cases {
			for _, ev := range c.Evaluators {
				if ev.ReadsText() {
					readers[ev.Type] = true
				}
			}
		}
		for k, c := range cases {
			var at []int
			for i := k % stride; i < len(kept); i += stride {
				at = append(at, i)
			}
			for _, i := range byID[c.ID] {
				if (i-k%stride)%stride != 0 {
					at = append(at, i)
				}
			}
			for _, i := range at {
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				a := run.Score(ctx, s, c, kept[i])
				b := run.Score(ctx, s, c, decoded[i])
				cancel()
				ja, jb := rowJSON(t, a), rowJSON(t, b)
				if ja != jb {
					t.Errorf("%s: case %s on trajectory %s: rows differ:\nkept text: %s\ndecoded:   %s", s.File, c.ID, kept[i].ID, ja, jb)
				}
				for _, r := range a.Evaluators {
					types[r.Type] = true
				}
				scored++
			}
		}
	}
	// The fixtures must reach every evaluator that reads text itself.
	for _, want := range textReaders {
		if !types[want] || !readers[want] {
			t.Errorf("no %s evaluator that reads text among the fixtures' (%d types): add one to %s", want, len(types), kindsSuite)
		}
	}
	for typ := range readers {
		if !slices.Contains(textReaders, typ) {
			t.Errorf("%s reads kept text, and is not among textReaders: list it, and score it in %s", typ, kindsSuite)
		}
	}
	t.Logf("types: %v", types)
	t.Logf("%d suites, %d scorings, %d evaluator types, %d trajectories", len(suites), scored, len(types), len(kept))
}

// allCases returns the cases of s, or for a suite with no cases one case
// holding its evaluators, as a run scores each trajectory with them.
func allCases(s *suite.Suite) []*suite.Case {
	if len(s.Cases) > 0 {
		return s.Cases
	}
	return []*suite.Case{{ID: "open", Evaluators: s.Evaluators}}
}

// rowJSON is the row of r as the reports write it.
func rowJSON(t *testing.T, r trajeval.CaseResult) string {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// skipFixture says which files the tests of kept text pass over: fuzz
// corpora and hostile input (refused, not scored), and under internal
// everything but testdata.
func skipFixture(path string, d fs.DirEntry, err error) bool {
	return err != nil || d.IsDir() || strings.Contains(path, "/fuzz/") || strings.Contains(path, "/hostile/") ||
		strings.HasPrefix(path, "../../internal/") && !strings.Contains(path, "/testdata/")
}

// fixtureSuites loads every suite of the fixtures that loads without
// error (some are broken on purpose), with no targets run.
func fixtureSuites(t *testing.T) []*suite.Suite {
	t.Helper()
	var out []*suite.Suite
	for _, dir := range fixtures {
		_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if skipFixture(path, d, err) {
				return nil
			}
			switch filepath.Ext(path) {
			case ".yaml", ".yml", ".json", ".jsonl", ".csv":
			default:
				return nil
			}
			loaded, errs := suite.Load([]string{path}, suite.Options{Dialects: dialects.All()})
			if len(errs) > 0 {
				return nil
			}
			for _, s := range loaded {
				if len(s.Cases) > 0 || len(s.Evaluators) > 0 {
					out = append(out, s)
				}
			}
			return nil
		})
	}
	if len(out) < 10 {
		t.Fatalf("found %d suites among the fixtures", len(out))
	}
	return out
}

// fixtureTrajectories reads every trace file of the fixtures that reads
// without error, as its format is detected.
func fixtureTrajectories(t *testing.T) []*trajeval.Trajectory {
	t.Helper()
	var out []*trajeval.Trajectory
	for _, dir := range fixtures {
		_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if skipFixture(path, d, err) {
				return nil
			}
			switch filepath.Ext(path) {
			case ".json", ".jsonl":
			default:
				return nil
			}
			var got []*trajeval.Trajectory
			err = trace.Read(context.Background(), path, trace.Options{}, func(tr *trajeval.Trajectory) error {
				got = append(got, tr)
				return nil
			})
			if err == nil {
				out = append(out, got...)
			}
			return nil
		})
	}
	if len(out) < 20 {
		t.Fatalf("found %d trajectories among the fixtures", len(out))
	}
	return out
}

// The shapes of AgentV's records, as agentv's reader reads them.
type (
	avRecord struct {
		ID         string      `json:"id"`
		Output     []avMessage `json:"output"`
		TokenUsage *avUsage    `json:"token_usage,omitempty"`
		CostUSD    *float64    `json:"cost_usd,omitempty"`
		DurationMS *float64    `json:"duration_ms,omitempty"`
	}
	avUsage struct {
		Input  *int64 `json:"input,omitempty"`
		Output *int64 `json:"output,omitempty"`
		Total  *int64 `json:"total,omitempty"`
	}
	avMessage struct {
		Role      string   `json:"role"`
		Name      string   `json:"name,omitempty"`
		Content   *string  `json:"content,omitempty"`
		ToolCalls []avCall `json:"tool_calls,omitempty"`
	}
	avCall struct {
		Tool       string   `json:"tool"`
		ID         string   `json:"id,omitempty"`
		Input      any      `json:"input"`
		Output     any      `json:"output,omitempty"`
		Status     string   `json:"status,omitempty"`
		Error      string   `json:"error,omitempty"`
		StartTime  string   `json:"start_time,omitempty"`
		EndTime    string   `json:"end_time,omitempty"`
		DurationMS *float64 `json:"duration_ms,omitempty"`
	}
)

// agentvLines writes each trajectory as one AgentV record: a user
// message a turn, an assistant message for each parallel group of calls
// (or call) of one agent, the turn's final response last.
func agentvLines(t *testing.T, trajs []*trajeval.Trajectory) []byte {
	t.Helper()
	var b bytes.Buffer
	stamp := func(at time.Time) string {
		if at.IsZero() {
			return ""
		}
		return at.UTC().Format(time.RFC3339Nano)
	}
	for n, tr := range trajs {
		r := avRecord{ID: tr.ID, Output: []avMessage{}, CostUSD: tr.Metrics.CostUSD, DurationMS: tr.Metrics.DurationMS}
		if r.ID == "" {
			r.ID = "t" + string(rune('a'+n%26))
		}
		if tk := tr.Metrics.Tokens; tk.Reported() {
			r.TokenUsage = &avUsage{tk.Input, tk.Output, tk.Total}
		}
		turns := max(len(tr.Turns), 1)
		for turn := 1; turn <= turns; turn++ {
			var final *string
			if turn <= len(tr.Turns) {
				r.Output = append(r.Output, avMessage{Role: "user", Content: tr.Turns[turn-1].User})
				final = tr.Turns[turn-1].FinalResponse
			}
			for i := 0; i < len(tr.Steps); {
				s := tr.Steps[i]
				if s.Turn != turn && !(turn == 1 && s.Turn == 0) {
					i++
					continue
				}
				m := avMessage{Role: "assistant", Name: s.Agent}
				for j := i; j < len(tr.Steps); j++ {
					c := tr.Steps[j]
					if j > i && (s.ParallelGroup == 0 || c.ParallelGroup != s.ParallelGroup || c.Agent != s.Agent) {
						break
					}
					call := avCall{Tool: c.Name, ID: c.ID, Input: reversed(c.Args), Output: reversed(c.Result), Error: c.ErrorMessage,
						StartTime: stamp(c.StartTime), EndTime: stamp(c.EndTime), DurationMS: c.DurationMS}
					if c.Error != nil {
						call.Status = map[bool]string{true: "error", false: "ok"}[*c.Error]
					}
					m.ToolCalls = append(m.ToolCalls, call)
					i = j + 1
				}
				r.Output = append(r.Output, m)
			}
			if final != nil {
				r.Output = append(r.Output, avMessage{Role: "assistant", Content: final})
			}
		}
		line, err := json.Marshal(r)
		if err != nil {
			t.Fatalf("trajectory %s: %v", tr.ID, err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// reversed is v with every object's keys in reverse order, so that the
// text a reader keeps is not in the canonical form (keys sorted): the
// canonical JSON must come from the value, not be copied from the text.
func reversed(v any) any {
	switch x := v.(type) {
	case map[string]any:
		keys := slices.Sorted(maps.Keys(x))
		var b bytes.Buffer
		b.WriteByte('{')
		for i := len(keys) - 1; i >= 0; i-- {
			k, _ := json.Marshal(keys[i])
			val, _ := json.Marshal(reversed(x[keys[i]]))
			b.Write(k)
			b.WriteByte(':')
			b.Write(val)
			if i > 0 {
				b.WriteByte(',')
			}
		}
		b.WriteByte('}')
		return json.RawMessage(b.Bytes())
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = reversed(e)
		}
		return out
	}
	return v
}

// readAgentv reads lines as the agentv format, keeping text or not.
func readAgentv(t *testing.T, lines []byte, keep bool) []*trajeval.Trajectory {
	t.Helper()
	path := filepath.Join(t.TempDir(), "traces.jsonl")
	if err := os.WriteFile(path, lines, 0o644); err != nil {
		t.Fatal(err)
	}
	var out []*trajeval.Trajectory
	err := trace.Read(context.Background(), path, trace.Options{From: "agentv", KeepText: keep}, func(tr *trajeval.Trajectory) error {
		out = append(out, tr)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestRun_keptText runs a suite whose evaluators read arguments and
// results through trajeval.Decoded (argument and output matching, $from
// on arguments and results, exact arguments, metrics) on AgentV traces
// whose objects are not in canonical form (keys out of order, white
// space), with the trajectories in the rows: the rows must be the same
// whether the reader keeps the text or not.
func TestRun_keptText(t *testing.T) {
	const suiteYAML = `name: kept
execution:
  evaluators:
    - {name: order, type: tool_trajectory, mode: in_order, args_match: superset, expected: [{tool: search, args: {query: python history}}, {tool: read, args: {id: {$from: "search.result.items[*].id"}}}]}
    - {name: given, type: tool_trajectory, mode: any_order, expected: [{tool: read, args: {id: {$from: "search.args.first"}}}]}
    - {name: exact, type: tool_trajectory, mode: any_order, args_match: exact, expected: [{tool: read, args: {id: doc-1, opts: {deep: true, n: 12345678901234567890}}}]}
    - {name: outs, type: tool_trajectory, mode: any_order, expected: [{tool: search, output: {items: [{id: doc-1}]}}, {tool: read, output: {ok: true}}]}
    - {name: budget, type: execution_metrics, max_tool_calls: 3}
`
	call := func(tool, id, input, output string) string {
		return fmt.Sprintf(`{"tool": %q, "id": %q, "input": %s, "output": %s, "status": "ok"}`, tool, id, input, output)
	}
	// One message a call: calls of one message are parallel, and a $from
	// looks back only at calls issued before.
	record := func(id string, calls ...string) string {
		msgs := []string{`{"role": "user", "content": "go"}`}
		for _, c := range calls {
			msgs = append(msgs, `{"role": "assistant", "tool_calls": [`+c+`]}`)
		}
		return fmt.Sprintf(`{"id": %q, "output": [%s]}`, id, strings.Join(msgs, ", "))
	}
	search := call("search", "c1", `{ "query" : "python history", "first": "doc-1", "limit": 10 }`, `{"total": 2, "items": [ {"id": "doc-1"}, {"id":"doc-2"} ]}`)
	traces := strings.Join([]string{
		record("pass", search, call("read", "c2", `{"opts": {"n": 12345678901234567890, "deep": true}, "id": "doc-1"}`, `{ "ok": true }`)),
		record("wrong-id", search, call("read", "c2", `{"id": "doc-9", "opts": {"deep": true, "n": 12345678901234567891}}`, `{"ok": false}`)),
		record("text", call("search", "c1", `{"query": "python history"}`, `"{\"items\": [{\"id\": \"doc-1\"}]}"`), call("read", "c2", `[1, 2.50, {"b": null, "a": []}]`, `[]`), call("delete", "c3", `{}`, `{"gone": "\u00e9\n"}`)),
	}, "\n") + "\n"
	dir := t.TempDir()
	for name, content := range map[string]string{"suite.yaml": suiteYAML, "traces.jsonl": traces} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, errs := suite.LoadFile(filepath.Join(dir, "suite.yaml"), suite.Options{}, true)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	rows := func(keep bool) []string {
		defer run.SetKeepText(keep)()
		var out []string
		opts := run.Options{Traces: filepath.Join(dir, "traces.jsonl"), IncludeTrace: true}
		_, err := run.Run(context.Background(), []*suite.Suite{s}, opts, func(r trajeval.CaseResult) error {
			r.StartedAt, r.DurationMS = time.Time{}, 0
			out = append(out, rowJSON(t, r))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	kept, decoded := rows(true), rows(false)
	if !slices.Equal(kept, decoded) {
		t.Errorf("rows differ:\nkept text:\n%s\ndecoded:\n%s", strings.Join(kept, "\n"), strings.Join(decoded, "\n"))
	}
	if len(kept) != 3 || !strings.HasPrefix(kept[0], `{"id":"pass","suite":"kept","status":"pass"`) || !strings.HasPrefix(kept[1], `{"id":"wrong-id","suite":"kept","status":"fail"`) {
		t.Errorf("the suite does not score as written:\n%s", strings.Join(kept, "\n"))
	}
}

// TestRun_keptTextReaders: a run's readers keep text only for cases whose
// evaluators all read it themselves (eval.ReadsText: every deterministic
// type, and a composite whose members all do) and that score no turns;
// with any other evaluator (grounding, which reads every argument and
// result) they decode as they read, since text scanned first and decoded
// after for that evaluator costs more than values decoded once. A scope
// (agent:) reads text when the evaluator it limits does.
func TestRun_keptTextReaders(t *testing.T) {
	const traces = `{"id": "c", "output": [{"role": "user", "content": "go"}, {"role": "assistant", "name": "main", "tool_calls": [{"tool": "search", "id": "c1", "input": {"query": "q"}, "output": {"ok": true}, "status": "ok"}]}]}` + "\n"
	const scoped = `{name: scoped, type: tool_trajectory, mode: any_order, expected: [search], agent: main}`
	const grounding = `{name: grounded, type: grounding}`
	tests := []struct {
		name, evaluators string
		kept             bool
		reason           string
	}{
		{"text readers", `[{type: tool_trajectory, mode: any_order, expected: [search]}, {type: execution_metrics, max_tool_calls: 3}, {type: tool_rules, rules: [{never: delete}]}, {type: tool_error}]`, true,
			"each decodes what it looks at"},
		{"one that decodes", `[{type: tool_trajectory, mode: any_order, expected: [search]}, ` + grounding + `]`, false,
			"grounding is handed the trajectory decoded: the reader decodes once instead"},
		{"a scoped reader", `[{type: tool_trajectory, mode: any_order, expected: [search]}, ` + scoped + `]`, true,
			"a scope reads only each step's agent: an evaluator limited to an agent reads text when it does"},
		{"a scoped evaluator that decodes", `[{type: tool_trajectory, mode: any_order, expected: [search]}, {type: ragas_tool_call_f1, agent: main, reference_tool_calls: [{name: search, args: {query: q}}]}]`, false,
			"a scope of an evaluator that decodes decodes"},
		{"one that would decode all", `[{type: tool_trajectory, mode: any_order, expected: [search]}, {type: ragas_tool_call_f1, reference_tool_calls: [{name: search, args: {query: q}}]}]`, false,
			"ragas_tool_call_f1 compares the arguments of nearly every call: decoded as read, they cost less"},
		{"composite of readers", `[{type: composite, aggregator: {type: weighted_average}, evaluators: [{name: a, type: tool_trajectory, mode: any_order, expected: [search]}, {name: b, type: tool_error}]}]`, true,
			"a composite whose members all read text reads text"},
		{"composite with one that decodes", `[{type: composite, aggregator: {type: weighted_average}, evaluators: [{name: a, type: tool_trajectory, mode: any_order, expected: [search]}, ` + grounding + `]}]`, false,
			"a composite is handed text only when every member reads it"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			suiteYAML := "name: s\nexecution:\n  evaluators: " + tt.evaluators + "\nevalcases:\n  - {id: c, input: go}\n"
			for name, content := range map[string]string{"suite.yaml": suiteYAML, "traces.jsonl": traces} {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			s, errs := suite.LoadFile(filepath.Join(dir, "suite.yaml"), suite.Options{}, true)
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			var got []trajeval.CaseResult
			opts := run.Options{Traces: filepath.Join(dir, "traces.jsonl"), IncludeTrace: true}
			if _, err := run.Run(context.Background(), []*suite.Suite{s}, opts, func(r trajeval.CaseResult) error {
				got = append(got, r)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 || got[0].Trajectory == nil || len(got[0].Trajectory.Steps) != 1 {
				t.Fatalf("got %+v, want one case with its one-step trajectory", got)
			}
			if got[0].Status != trajeval.StatusPass {
				t.Errorf("status %s (%s), want pass", got[0].Status, got[0].Error)
			}
			_, kept := trajeval.KeptText(got[0].Trajectory.Steps[0].Args)
			if kept != tt.kept {
				t.Errorf("arguments kept as text: %v, want %v (%s)", kept, tt.kept, tt.reason)
			}
		})
	}
}

// oddArguments is a trajectory whose arguments are strings that a reader
// of arguments given as a JSON string must not keep as text, or must keep
// without the white space around them.
func oddArguments() []*trajeval.Trajectory {
	args := []string{
		"not json {", "", "   ", "null", `"quoted"`, "42", "true",
		" {\"z\": 1, \"a\": {\"n\": 12345678901234567890}} \n",
		"[1, 2.50, {\"b\": null, \"a\": []}]",
		`{"bad": "\ud800"}`, // a lone surrogate: decoded by encoding/json, not kept
		`{"a": 1} {"b": 2}`, `{"a": 1`, "{\"a\": \"\xff\"}",
		strings.Repeat("[", 200) + strings.Repeat("]", 200),
	}
	tr := &trajeval.Trajectory{ID: "odd-arguments"}
	for i, a := range args {
		tr.Steps = append(tr.Steps, trajeval.Step{ID: fmt.Sprintf("odd_%d", i), Name: "search", Args: a, Result: map[string]any{"ok": true, "n": json.Number("1.50")}})
	}
	tr.Finish()
	return []*trajeval.Trajectory{tr}
}

// canonicalLines writes each trajectory in the canonical form, one a
// line, its arguments' and results' objects with their keys in reverse
// order (see reversed).
func canonicalLines(t *testing.T, trajs []*trajeval.Trajectory) []byte {
	t.Helper()
	var b bytes.Buffer
	for _, tr := range trajs {
		line, err := trajeval.AppendJSON(nil, tr)
		if err != nil {
			t.Fatalf("trajectory %s: %v", tr.ID, err)
		}
		d := json.NewDecoder(bytes.NewReader(line))
		d.UseNumber()
		var m map[string]any
		if err := d.Decode(&m); err != nil {
			t.Fatal(err)
		}
		for _, s := range m["steps"].([]any) {
			s := s.(map[string]any)
			s["args"], s["result"] = reversed(s["args"]), reversed(s["result"])
		}
		if line, err = json.Marshal(m); err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// chatLines writes each trajectory as an OpenAI Chat Completions
// conversation, one a line: a user message a turn, an assistant message
// a call, its arguments the JSON text of the step's (objects' keys in
// reverse order) or a string argument as it stands, a tool message with
// its result, and the turn's final response.
func chatLines(t *testing.T, trajs []*trajeval.Trajectory) []byte {
	t.Helper()
	type (
		function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		}
		call struct {
			ID       string   `json:"id,omitempty"`
			Type     string   `json:"type"`
			Function function `json:"function"`
		}
		message struct {
			Role       string  `json:"role"`
			Content    *string `json:"content"`
			ToolCalls  []call  `json:"tool_calls,omitempty"`
			ToolCallID string  `json:"tool_call_id,omitempty"`
		}
		record struct {
			ID       string    `json:"id"`
			Messages []message `json:"messages"`
		}
	)
	text := func(v any) string {
		if s, ok := v.(string); ok {
			return s
		}
		b, err := json.Marshal(reversed(v))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	var b bytes.Buffer
	for _, tr := range trajs {
		r := record{ID: tr.ID, Messages: []message{}}
		for turn := 1; turn <= max(len(tr.Turns), 1); turn++ {
			var final *string
			if turn <= len(tr.Turns) {
				r.Messages = append(r.Messages, message{Role: "user", Content: tr.Turns[turn-1].User})
				final = tr.Turns[turn-1].FinalResponse
			}
			for _, s := range tr.Steps {
				if s.Turn != turn && !(turn == 1 && s.Turn == 0) {
					continue
				}
				r.Messages = append(r.Messages, message{Role: "assistant", ToolCalls: []call{{ID: s.ID, Type: "function", Function: function{Name: s.Name, Arguments: text(s.Args)}}}})
				if s.Result != nil && s.ID != "" {
					res := text(s.Result)
					r.Messages = append(r.Messages, message{Role: "tool", ToolCallID: s.ID, Content: &res})
				}
			}
			if final != nil {
				r.Messages = append(r.Messages, message{Role: "assistant", Content: final})
			}
		}
		line, err := json.Marshal(r)
		if err != nil {
			t.Fatalf("trajectory %s: %v", tr.ID, err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// readFormat reads the file path as format, keeping text or not, with
// the warnings given.
func readFormat(t *testing.T, format, path string, keep bool) ([]*trajeval.Trajectory, []string) {
	t.Helper()
	var out []*trajeval.Trajectory
	var warns []string
	opts := trace.Options{From: format, KeepText: keep, Warn: func(w trajeval.Warning) { warns = append(warns, w.String()) }}
	err := trace.Read(context.Background(), path, opts, func(tr *trajeval.Trajectory) error {
		out = append(out, tr)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out, warns
}
