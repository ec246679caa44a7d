// Package otelcoltest holds what the tests of the trajeval connector and
// of the Collector built with it share: the OTLP fixtures whose traces
// the connector must score as trajeval eval does, a reader for them, and
// the scores read back from the connector's log events.
//
// A verdict is the sorted evaluator results of one trace, each
// "name=label:score", joined by spaces; verdicts compare without trace
// ids, so traces whose ids a test rewrote still compare with eval's.
package otelcoltest

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/trajeval/trajeval/suite"
)

// SameAsEval lists the fixtures (under internal/format/otlp/testdata)
// whose trajectories are each one trace: traces that share a conversation
// are joined by eval, never by the connector.
var SameAsEval = []string{
	"otlp/genai.json", "otlp/openinference-contents.json", "otlp/openinference-failed.json",
	"otlp/uipath.json", "otlp/uipath-seed.json", "otlp/uipath-python-args.json", "otlp/usage-cost.json",
	"otlp/chat-only.jsonl", "otlp/duplicates.jsonl", "otlp/no-call-ids.jsonl", "otlp-proto/genai.pb",
}

// Distinct is SameAsEval without the fixtures that repeat another's
// traces (otlp-proto/genai.pb holds the traces of otlp/genai.json): one
// run can send all of them and score each trace once.
func Distinct() []string {
	return slices.DeleteFunc(slices.Clone(SameAsEval), func(f string) bool { return f == "otlp-proto/genai.pb" })
}

// Events adds, per trace id, the evaluator results of the connector's log
// events in ld to into, and counts each trace once per plog.Logs in times
// (the connector sends one plog.Logs per scored trace). An event not
// named gen_ai.evaluation.result fails the test.
func Events(t testing.TB, ld plog.Logs, into map[string][]string, times map[string]int) {
	t.Helper()
	seen := map[string]bool{}
	rls := ld.ResourceLogs()
	for i := 0; i < rls.Len(); i++ {
		sls := rls.At(i).ScopeLogs()
		for j := 0; j < sls.Len(); j++ {
			recs := sls.At(j).LogRecords()
			for k := 0; k < recs.Len(); k++ {
				lr := recs.At(k)
				if lr.EventName() != "gen_ai.evaluation.result" {
					t.Errorf("event name %q", lr.EventName())
				}
				a := lr.Attributes()
				get := func(k string) pcommon.Value { v, _ := a.Get(k); return v }
				id := lr.TraceID().String()
				into[id] = append(into[id], fmt.Sprintf("%s=%s:%s", get("gen_ai.evaluation.name").Str(),
					get("gen_ai.evaluation.score.label").Str(), num(get("gen_ai.evaluation.score.value").Double())))
				seen[id] = true
			}
		}
	}
	for id := range seen {
		times[id]++
	}
}

func num(f float64) string {
	b, _ := json.Marshal(f)
	return string(b)
}

// Verdicts gives the verdict of each trace in per, sorted.
func Verdicts(per map[string][]string) []string {
	var out []string
	for _, evs := range per {
		evs = slices.Sorted(slices.Values(evs))
		out = append(out, strings.Join(evs, " "))
	}
	slices.Sort(out)
	return out
}

// EvalVerdicts scores the traces file with the policy as trajeval eval
// --traces does, and gives the verdicts.
func EvalVerdicts(t testing.TB, policy, traces string) []string {
	t.Helper()
	opts := suite.RunOptions{Traces: traces}
	s, err := opts.Load(policy)
	if err != nil {
		t.Fatal(err)
	}
	per := map[string][]string{}
	for r, err := range s.Run(context.Background(), opts) {
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range r.Evaluators {
			per[r.ID] = append(per[r.ID], fmt.Sprintf("%s=%s:%s", e.Name, e.Status, num(e.Score)))
		}
	}
	return Verdicts(per)
}

// ReadTraces reads an OTLP fixture: JSON (a document, or JSON Lines, one
// request per line) or protobuf (.pb).
func ReadTraces(t testing.TB, path string) []ptrace.Traces {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Ext(path) == ".pb" {
		td, err := (&ptrace.ProtoUnmarshaler{}).UnmarshalTraces(data)
		if err != nil {
			t.Fatal(err)
		}
		return []ptrace.Traces{td}
	}
	lines := []string{string(data)}
	if filepath.Ext(path) == ".jsonl" {
		lines = slices.Collect(strings.Lines(string(data)))
	}
	var out []ptrace.Traces
	for _, line := range lines {
		td, err := (&ptrace.JSONUnmarshaler{}).UnmarshalTraces([]byte(line))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, td)
	}
	return out
}

// FreeAddr gives a loopback address with a free TCP port.
func FreeAddr(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}
