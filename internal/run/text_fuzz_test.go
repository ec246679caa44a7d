package run_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/run"
	"github.com/trajeval/trajeval/internal/suite"
	"github.com/trajeval/trajeval/internal/suite/dialects"
	"github.com/trajeval/trajeval/internal/trace"
)

// FuzzScore_keptText is TestScore_keptText on the fuzzer's texts: the
// arguments and results of a search and a read (made twice), written as AgentV
// records (each text as it stands where it is JSON, else as a string) and
// as OpenAI Chat Completions (arguments and tool output as strings, JSON
// or not), are read with text kept and decoded: the same error, warnings,
// canonical JSON and rows of every evaluator that reads kept text
// (kindsSuite).
func FuzzScore_keptText(f *testing.F) {
	suites, errs := suite.Load([]string{kindsSuite}, suite.Options{Dialects: dialects.All()})
	if len(errs) > 0 || len(suites) != 1 {
		f.Fatalf("loading %s: %v", kindsSuite, errs)
	}
	s := suites[0]
	c := allCases(s)[0]
	for _, seed := range [][4]string{
		{`{"query": "python history", "limit": 10}`, `{"total": 1, "items": [{"id": "doc-1", "score": 1.0}]}`, `{"id": "doc-1", "opts": {"deep": true, "n": 12345678901234567890}}`, `{"ok": true}`},
		{`{"query": "ruby", "limit": 10, "query": "python history"}`, `{"total": 0, "total": 1, "items": [{"id": "doc-2", "id": "doc-1"}]}`, `{"id": "doc-1", "opts": {"deep": false, "deep": true}}`, `{"error": "first", "error": null}`},
		{`{"query": "python history", "limit": 10.0, "n": -0, "big": 1e400, "int": 9007199254740993}`, `[1, 1.0, 1e0, -0, 0.0, 1E+2]`, `{"id": "doc-1", "opts": {"n": 1.2345678901234567890e19}}`, `{"error": "permission denied", "code": 403}`},
		{`{"query": "python\u0020history", "q\u00e9": "\u00e9\n\t\"\\\/\ud83d\ude00", "k\u0000ey": "\u2028"}`, `{"items": [{"id": "doc\u002d1"}], "total": 1}`, `{"\u0069d": "doc-1"}`, `"{\"ok\": true, \"error\": null}"`},
		{`not json {`, ``, `   `, `{"a": 1} {"b": 2}`},
		{`{"bad": "\ud800"}`, "{\"a\": \"\xff\"}", `null`, `42`},
		{`[1, [2, {"a": null, "b": []}], "s", true, false, null, {}]`, `[]`, `{"id": ["doc-1", "doc-2"], "nested": {"a": {"b": [[[{"e": 1}]]]}}}`, `{"error": ""}`},
		{strings.Repeat("[", 200) + strings.Repeat("]", 200), `{"error": {"message": "timeout"}}`, `{"id": "doc-1", "id": "doc-2"}`, `{"Error": "x", "error": "é"}`},
	} {
		f.Add(seed[0], seed[1], seed[2], seed[3])
	}
	f.Fuzz(func(t *testing.T, searchArgs, searchResult, readArgs, readResult string) {
		texts := [4]string{searchArgs, searchResult, readArgs, readResult}
		for _, format := range []string{"agentv", "openai-chat"} {
			line := fuzzLine(t, format, texts)
			kept, errKept, warnKept := readBytes(format, line, true)
			decoded, errDecoded, warnDecoded := readBytes(format, line, false)
			if fmt.Sprint(errKept) != fmt.Sprint(errDecoded) {
				t.Fatalf("%s %s: error with text kept %v, decoded %v", format, line, errKept, errDecoded)
			}
			if fmt.Sprint(warnKept) != fmt.Sprint(warnDecoded) {
				t.Fatalf("%s %s: warnings with text kept %q, decoded %q", format, line, warnKept, warnDecoded)
			}
			if len(kept) != len(decoded) {
				t.Fatalf("%s %s: %d trajectories with text kept, %d decoded", format, line, len(kept), len(decoded))
			}
			for i := range kept {
				a, errA := trajeval.AppendJSON(nil, kept[i])
				b, errB := trajeval.AppendJSON(nil, decoded[i])
				if fmt.Sprint(errA) != fmt.Sprint(errB) || !bytes.Equal(a, b) {
					t.Fatalf("%s %s: canonical JSON differs:\nkept text: %s (%v)\ndecoded:   %s (%v)", format, line, a, errA, b, errB)
				}
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				ra, rb := run.Score(ctx, s, c, kept[i]), run.Score(ctx, s, c, decoded[i])
				cancel()
				if ja, jb := rowJSON(t, ra), rowJSON(t, rb); ja != jb {
					t.Fatalf("%s %s: rows differ:\nkept text: %s\ndecoded:   %s", format, line, ja, jb)
				}
			}
		}
	})
}

// fuzzLine writes one record of format for FuzzScore_keptText: a search
// and a read made twice, with texts as their arguments and results, and the answer.
func fuzzLine(t *testing.T, format string, texts [4]string) []byte {
	t.Helper()
	quote := func(s string) string {
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	var line string
	switch format {
	case "agentv":
		v := func(s string) string {
			if json.Valid([]byte(s)) {
				return s
			}
			return quote(s)
		}
		call := func(tool, id, in, out string) string {
			return `{"tool": "` + tool + `", "id": "` + id + `", "input": ` + v(in) + `, "output": ` + v(out) + `, "status": "ok"}`
		}
		line = `{"id": "fuzz", "output": [{"role": "user", "content": "go"}, {"role": "assistant", "tool_calls": [` + call("search", "c1", texts[0], texts[1]) +
			`]}, {"role": "assistant", "tool_calls": [` + call("read", "c2", texts[2], texts[3]) + `]}, {"role": "assistant", "tool_calls": [` + call("read", "c3", texts[2], texts[3]) + `]}, {"role": "assistant", "content": "Python was created by Guido van Rossum."}]}`
	case "openai-chat":
		call := func(tool, id, args, out string) string {
			return `{"role": "assistant", "content": null, "tool_calls": [{"id": "` + id + `", "type": "function", "function": {"name": "` + tool + `", "arguments": ` + quote(args) + `}}]}, ` +
				`{"role": "tool", "tool_call_id": "` + id + `", "content": ` + quote(out) + `}`
		}
		line = `{"id": "fuzz", "messages": [{"role": "user", "content": "go"}, ` + call("search", "c1", texts[0], texts[1]) + `, ` + call("read", "c2", texts[2], texts[3]) + `, ` + call("read", "c3", texts[2], texts[3]) +
			`, {"role": "assistant", "content": "Python was created by Guido van Rossum."}]}`
	}
	return []byte(line + "\n")
}

// readBytes reads data as format, keeping text or not: its trajectories,
// error and warnings.
func readBytes(format string, data []byte, keep bool) ([]*trajeval.Trajectory, error, []string) {
	var out []*trajeval.Trajectory
	var warns []string
	opts := trace.Options{From: format, KeepText: keep, Warn: func(w trajeval.Warning) { warns = append(warns, w.String()) }}
	err := trace.ReadFrom(context.Background(), "traces.jsonl", bytes.NewReader(data), opts, func(tr *trajeval.Trajectory) error {
		out = append(out, tr)
		return nil
	})
	return out, err, warns
}
