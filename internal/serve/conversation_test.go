package serve_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/serve"
)

// convPolicy writes testdata/policy.yaml with the conversations setting
// settings (none when ""), and returns its path. eval reads the policy
// without it: the evaluators are the same.
func convPolicy(t *testing.T, settings string) string {
	t.Helper()
	data, err := os.ReadFile(policy)
	if err != nil {
		t.Fatal(err)
	}
	if settings != "" {
		data = append(data, "conversations: "+settings+"\n"...)
	}
	path := filepath.Join(t.TempDir(), "policy.yaml")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// byRow is what must agree between eval and serve for a row, keyed by
// the row's id: a conversation's rows agree only when both join the same
// traces, and their details (the steps matched, by index) only when the
// turns come in the same order.
func byRow(rs []trajeval.CaseResult) map[string]string {
	out := map[string]string{}
	for _, r := range rs {
		var details []*trajeval.Details
		for _, e := range r.Evaluators {
			details = append(details, e.Details)
		}
		b, _ := json.Marshal(details)
		out[r.ID] = fmt.Sprint(verdictOf(r), string(b))
	}
	return out
}

func TestServer_conversationsSameAsEval(t *testing.T) {
	pol := convPolicy(t, "{idle: 1h}")
	for _, f := range []string{"otlp/conversation.jsonl", "otlp/chat-turns.jsonl"} {
		path := filepath.Join(fixtures, f)
		want := byRow(evalRows(t, policy, path))
		var spans []ptrace.Traces
		for _, td := range readTraces(t, path) {
			spans = append(spans, spansOf(td)...)
		}
		for i, tr := range transports {
			t.Run(f+"/"+tr.name, func(t *testing.T) {
				// One span per request, in an order that mixes the turns
				// and the spans of each turn.
				rand.New(rand.NewPCG(1, uint64(i))).Shuffle(len(spans), func(i, j int) { spans[i], spans[j] = spans[j], spans[i] })
				s := start(t, pol, serve.Config{})
				for _, one := range spans {
					tr.send(t, s, one)
				}
				s.stop()
				got := s.out.list(t)
				if g := byRow(got); len(g) != len(got) || !maps.Equal(g, want) {
					t.Errorf("serve scored\n%v\neval scored\n%v", g, want)
				}
				for _, r := range got {
					if len(r.TraceIDs) == 0 && len(r.ID) != 32 {
						t.Errorf("row %s lists no traces", r.ID)
					}
				}
			})
		}
	}
}

// The traces of otlp/conversation.jsonl: two turns of conversation
// conv-42, and a trace of no conversation.
const (
	turn1 = "0af7651916cd43dd8448eb211c80319c"
	turn2 = "1bf7651916cd43dd8448eb211c80319d"
	alone = "2cf7651916cd43dd8448eb211c80319e"
)

// traceOf returns the spans of otlp/conversation.jsonl of the trace id,
// without its root span when noRoot.
func traceOf(t *testing.T, id string, noRoot bool) ptrace.Traces {
	t.Helper()
	return spansWhere(t, func(sp ptrace.Span) bool {
		return sp.TraceID().String() == id && !(noRoot && sp.ParentSpanID().IsEmpty())
	})
}

// spansWhere returns the spans of otlp/conversation.jsonl that keep
// keeps.
func spansWhere(t *testing.T, keep func(ptrace.Span) bool) ptrace.Traces {
	t.Helper()
	out := ptrace.NewTraces()
	for _, td := range readTraces(t, filepath.Join(fixtures, "otlp/conversation.jsonl")) {
		for _, one := range spansOf(td) {
			if keep(one.ResourceSpans().At(0).ScopeSpans().At(0).Spans().At(0)) {
				one.ResourceSpans().MoveAndAppendTo(out.ResourceSpans())
			}
		}
	}
	if out.SpanCount() == 0 {
		t.Fatal("no spans")
	}
	return out
}

// A row is what a test expects of a row: its id, the traces of a
// conversation's row, and text its warnings hold.
type row struct {
	id         string
	traces     []string
	incomplete bool
	warning    string
}

func TestServer_conversations(t *testing.T) {
	type send struct {
		traces []string // sent in one request
		noRoot string   // a trace of them sent without its root span
		wait   int      // rows to wait for after sending
	}
	tests := []struct {
		name     string
		settings string
		cfg      serve.Config
		sends    []send
		before   int // rows written before shutdown
		want     []row
		metric   string
		reason   string
	}{
		{"off", "", serve.Config{Grace: time.Millisecond},
			[]send{{traces: []string{turn1, turn2, alone}, wait: 3}}, 3,
			[]row{{id: turn1}, {id: turn2}, {id: alone}},
			"trajeval_serve_traces_scored_total", "without conversations: each trace alone, as before"},
		{"idle", "{idle: 30ms}", serve.Config{Grace: time.Millisecond},
			[]send{{traces: []string{turn1, turn2, alone}, wait: 2}}, 2,
			[]row{{id: alone}, {id: "conv-42", traces: []string{turn1, turn2}}},
			`trajeval_serve_conversations_scored_total{status="fail"} 1`, "a conversation is scored once idle, with no shutdown"},
		{"max turns", "{idle: 1h, max_turns: 2}", serve.Config{Grace: time.Millisecond},
			[]send{{traces: []string{turn1, turn2}, wait: 1}}, 1,
			[]row{{id: "conv-42", traces: []string{turn1, turn2}}},
			"trajeval_serve_conversation_turns_total 2", "max_turns scores at once, long before idle"},
		{"shutdown", "{idle: 1h}", serve.Config{Grace: time.Millisecond},
			[]send{{traces: []string{turn2, alone}, wait: 1}, {traces: []string{turn1}}}, 1,
			[]row{{id: alone}, {id: "conv-42", traces: []string{turn1, turn2}}},
			"trajeval_serve_conversations_pending 1", "shutdown scores the conversations held, turns in start order"},
		{"late turn", "{idle: 30ms}", serve.Config{Grace: time.Millisecond},
			[]send{{traces: []string{turn1}, wait: 1}, {traces: []string{turn2}, wait: 2}}, 2,
			[]row{{id: "conv-42", traces: []string{turn1}}, {id: "conv-42", traces: []string{turn2}, warning: "went on after it was scored"}},
			"trajeval_serve_conversation_turns_late_total 1", "a turn after its conversation was scored starts it anew, and says so"},
		{"incomplete turn", "{idle: 1h}", serve.Config{},
			[]send{{traces: []string{turn1, turn2}, noRoot: turn1}}, 0,
			[]row{{id: "conv-42", traces: []string{turn1, turn2}, incomplete: true, warning: "turn trace " + turn1 + ": its root span never arrived"}},
			`trajeval_serve_conversations_scored_total{status="error"} 1`, "a turn without its root makes the conversation incomplete: never a pass"},
		{"score turns", "{idle: 1h, score_turns: true}", serve.Config{},
			[]send{{traces: []string{turn1, turn2, alone}}}, 0,
			[]row{{id: turn1}, {id: turn2}, {id: alone}, {id: "conv-42", traces: []string{turn1, turn2}}},
			`trajeval_serve_traces_scored_total{status="fail"} 3`, "score_turns scores each turn alone too"},
		{"memory", "{idle: 1h}", serve.Config{Grace: time.Millisecond, MaxSpans: 8},
			[]send{{traces: []string{turn1, turn2}, wait: 1}}, 1,
			[]row{{id: "conv-42", traces: []string{turn1, turn2}, warning: "scored before it was idle"}},
			"trajeval_serve_spans_held 0", "held turns that fill the span cap are scored early, not kept to block traffic"},
		// A nanosecond's grace: the sweep that follows the second turn's
		// request moves it into its conversation before it checks the
		// byte cap, so the two turns are scored early together; with a
		// longer grace the turn could still be gathering, its bytes
		// counted, and the conversation scored without it.
		{"memory bytes", "{idle: 1h}", serve.Config{Grace: time.Nanosecond, MaxBytes: -1}, // room for the two requests
			[]send{{traces: []string{turn1}}, {traces: []string{turn2}, wait: 1}}, 1,
			[]row{{id: "conv-42", traces: []string{turn1, turn2}, warning: "scored before it was idle"}},
			"trajeval_serve_bytes_held 0", "held turns that fill the byte cap are scored early too"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.cfg.Tick = time.Millisecond
			var bodies [][]byte
			for _, sd := range tt.sends {
				req := ptrace.NewTraces()
				for _, id := range sd.traces {
					traceOf(t, id, id == sd.noRoot).ResourceSpans().MoveAndAppendTo(req.ResourceSpans())
				}
				b, _ := ptraceotlp.NewExportRequestFromTraces(req).MarshalProto()
				bodies = append(bodies, b)
			}
			if tt.cfg.MaxBytes < 0 {
				// What the first turn holds, and room for the second
				// request: the turns then hold more than nine tenths.
				held := func(b []byte) int64 {
					probe := start(t, convPolicy(t, tt.settings), serve.Config{Grace: time.Millisecond})
					defer probe.stop()
					sendOK(t, probe, b, "application/x-protobuf", nil)
					// Read once the turn is held: while its spans are still
					// gathered they are charged differently, and a slow
					// machine would read that.
					poll(t, "the turn is held", func() bool { return probe.gaugeValue(t, "trajeval_serve_conversations_pending") == 1 })
					return int64(probe.gaugeValue(t, "trajeval_serve_bytes_held"))
				}
				tt.cfg.MaxBytes = held(bodies[0]) + max(oneRequest(t, bodies[1]), int64(len(bodies[1]))+1+held(bodies[1]))
			}
			s := start(t, convPolicy(t, tt.settings), tt.cfg)
			for i, sd := range tt.sends {
				sendOK(t, s, bodies[i], "application/x-protobuf", nil)
				if sd.wait > 0 {
					waitRows(t, s.out, sd.wait)
				}
			}
			if n := len(s.out.list(t)); n != tt.before {
				t.Errorf("%d rows before shutdown, want %d", n, tt.before)
			}
			if tt.cfg.MaxSpans > 0 || tt.cfg.MaxBytes > 0 {
				// Scored early for memory: the spans are let go once the
				// row is written, a moment later.
				poll(t, "no span is held", func() bool { return s.gaugeValue(t, "trajeval_serve_spans_held") == 0 })
			}
			metrics := s.metricsText(t)
			s.stop()
			got := s.out.list(t)
			if len(got) != len(tt.want) {
				t.Fatalf("%d rows, want %d (%s): %v", len(got), len(tt.want), tt.reason, ids(got))
			}
			for i, w := range tt.want {
				r := got[i]
				if tt.name == "off" || tt.name == "score turns" {
					r = got[slices.IndexFunc(got, func(r trajeval.CaseResult) bool { return r.ID == w.id })]
				}
				if r.ID != w.id || !slices.Equal(r.TraceIDs, w.traces) {
					t.Errorf("row %d: id %s, traces %v; want %s, %v (%s)", i, r.ID, r.TraceIDs, w.id, w.traces, tt.reason)
				}
				if w.incomplete {
					checkIncomplete(t, r)
				} else if r.Status == trajeval.StatusError {
					t.Errorf("row %s: status error: %s", r.ID, r.Error)
				}
				if w.warning != "" && !strings.Contains(strings.Join(r.Warnings, "\n"), w.warning) {
					t.Errorf("row %s: warnings %q lack %q", r.ID, r.Warnings, w.warning)
				}
			}
			// The metric is read before shutdown, and again after.
			if !strings.Contains(metrics+s.metricsText(t), tt.metric) {
				t.Errorf("metrics lack %s:\n%s", tt.metric, metrics)
			}
		})
	}
}

// TestServer_conversationLaterSpans checks that a span that comes after
// its trace was done joins the trace's turn while its conversation holds
// it, and is late once the conversation was scored.
func TestServer_conversationLaterSpans(t *testing.T) {
	want := byRow(evalRows(t, policy, filepath.Join(fixtures, "otlp/conversation.jsonl")))["conv-42"]
	all := spansWhere(t, func(sp ptrace.Span) bool { return sp.TraceID().String() != alone }).SpanCount()
	child := func(sp ptrace.Span) bool { return sp.SpanID().String() == "f000000000000001" } // turn 1's lookup_order call, with its result
	root1 := func(sp ptrace.Span) bool { return sp.TraceID().String() == turn1 && sp.ParentSpanID().IsEmpty() }
	tests := []struct {
		name     string
		settings string
		cfg      serve.Config
		later    func(ptrace.Span) bool // the spans sent, twice, after their turn was done
		scored   bool                   // sent after the conversation was scored
		rows     int                    // rows written; 0 for 1
		metrics  []string
		reason   string
	}{
		{"child", "{idle: 1h}", serve.Config{Grace: time.Millisecond}, child, false, 0,
			[]string{"trajeval_serve_conversation_spans_joined_total 1", "trajeval_serve_spans_duplicate_total 1",
				"trajeval_serve_spans_late_total 0", fmt.Sprintf("trajeval_serve_spans_held %d", all)},
			"a child exported late joins its held turn, once, and counts as held"},
		{"root", "{idle: 1h}", serve.Config{Idle: 20 * time.Millisecond}, root1, false, 0,
			[]string{"trajeval_serve_conversation_spans_joined_total 1", "trajeval_serve_spans_duplicate_total 1",
				"trajeval_serve_spans_late_total 0", fmt.Sprintf("trajeval_serve_spans_held %d", all)},
			"a root that comes while its turn is held makes the turn complete"},
		{"score turns", "{idle: 1h, score_turns: true}", serve.Config{Grace: time.Millisecond}, child, false, 3,
			[]string{"trajeval_serve_conversation_spans_joined_total 1"},
			"the turn's own row goes without the span, the conversation's has it"},
		{"scored", "{idle: 1h, max_turns: 2}", serve.Config{Grace: time.Millisecond, Idle: time.Millisecond}, child, true, 0,
			[]string{"trajeval_serve_conversation_spans_joined_total 0", "trajeval_serve_spans_late_total 2"},
			"once the conversation is scored, its turns' spans are late while it is remembered, not only for Config.Idle"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.cfg.Tick = time.Millisecond
			s := start(t, convPolicy(t, tt.settings), tt.cfg)
			first := spansWhere(t, func(sp ptrace.Span) bool { return sp.TraceID().String() != alone && !tt.later(sp) })
			b, _ := ptraceotlp.NewExportRequestFromTraces(first).MarshalProto()
			sendOK(t, s, b, "application/x-protobuf", nil)
			if tt.scored {
				waitRows(t, s.out, 1)
			} else {
				poll(t, "both turns are done and held", func() bool {
					return s.gaugeValue(t, "trajeval_serve_conversation_turns_total") == 2
				})
			}
			b, _ = ptraceotlp.NewExportRequestFromTraces(spansWhere(t, tt.later)).MarshalProto()
			sendOK(t, s, b, "application/x-protobuf", nil)
			sendOK(t, s, b, "application/x-protobuf", nil) // an exporter's retry
			metrics := s.metricsText(t)
			s.stop()
			for _, m := range tt.metrics {
				if !strings.Contains(metrics, m+"\n") {
					t.Errorf("metrics lack %s (%s):\n%s", m, tt.reason, metrics)
				}
			}
			got := s.out.list(t)
			if len(got) != max(tt.rows, 1) {
				t.Fatalf("%d rows, want %d (%s): %v", len(got), max(tt.rows, 1), tt.reason, ids(got))
			}
			if tt.scored {
				return
			}
			if g := byRow(got)["conv-42"]; g != want {
				t.Errorf("serve scored\n%s\neval scored\n%s\n(%s)", g, want, tt.reason)
			}
			conv := got[slices.IndexFunc(got, func(r trajeval.CaseResult) bool { return r.ID == "conv-42" })]
			if conv.Status == trajeval.StatusError {
				t.Errorf("status error: %s; warnings %q (%s)", conv.Error, conv.Warnings, tt.reason)
			}
		})
	}
}

func ids(rs []trajeval.CaseResult) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.ID+" "+strings.Join(r.TraceIDs, ","))
	}
	return out
}

func TestLoadPolicy_conversations(t *testing.T) {
	tests := []struct {
		name, settings string
		want           *serve.Conversations
		err            string
		reason         string
	}{
		{"absent", "", nil, "", "off by default"},
		{"true", "true", &serve.Conversations{Idle: 5 * time.Minute, MaxTurns: 100}, "", "true takes the defaults"},
		{"false", "false", nil, "", "false is off"},
		{"map", "{idle: 90s, max_turns: 3, score_turns: true}", &serve.Conversations{Idle: 90 * time.Second, MaxTurns: 3, ScoreTurns: true}, "", "every setting"},
		{"camel", "{maxTurns: 7}", &serve.Conversations{Idle: 5 * time.Minute, MaxTurns: 7}, "", "keys in any spelling, as elsewhere"},
		{"unknown key", "{idel: 1m}", nil, `unknown key "idel"`, "a typo is an error, never ignored"},
		{"zero idle", "{idle: 0s}", nil, "longer than 0", "a conversation that never waits is a mistake"},
		{"no unit", "{idle: 5}", nil, "conversations.idle", "a duration needs its unit"},
		{"zero turns", "{max_turns: 0}", nil, "at least 1", "a conversation holds a turn at least"},
		{"list", "[5m]", nil, "map of settings", "the shape is a map"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pol, err := serve.LoadPolicy(convPolicy(t, tt.settings), nil)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one with %q (%s)", err, tt.err, tt.reason)
				}
				if !strings.Contains(err.Error(), "policy.yaml:") {
					t.Errorf("error %v does not say where", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := pol.Conversations
			if (got == nil) != (tt.want == nil) || (got != nil && *got != *tt.want) {
				t.Errorf("Conversations = %+v, want %+v (%s)", got, tt.want, tt.reason)
			}
		})
	}
}

func TestAppendEvents_conversation(t *testing.T) {
	tests := []struct {
		name   string
		row    trajeval.CaseResult
		want   string // the gen_ai.conversation.id of the events, "" for none
		reason string
	}{
		{"trace", trajeval.CaseResult{ID: turn1, Evaluators: []trajeval.Result{{Name: "e", Status: trajeval.StatusPass}}},
			"", "a trace's row names no conversation"},
		{"conversation", trajeval.CaseResult{ID: "conv-42", TraceIDs: []string{turn1, turn2}, Evaluators: []trajeval.Result{{Name: "e", Status: trajeval.StatusPass}}},
			"conv-42", "a conversation's row names it, as its trace id is only its last turn's"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs := plog.NewLogRecordSlice()
			if n := serve.AppendEvents(recs, pcommon.TraceID{1}, pcommon.SpanID{2}, tt.row, 0); n != 1 {
				t.Fatalf("%d events, want 1", n)
			}
			got := ""
			if v, ok := recs.At(0).Attributes().Get("gen_ai.conversation.id"); ok {
				got = v.Str()
			}
			if got != tt.want {
				t.Errorf("gen_ai.conversation.id %q, want %q: %s", got, tt.want, tt.reason)
			}
		})
	}
}

// TestServer_conversationLink checks that a conversation's results are
// linked to its last turn: its trace and its root span.
func TestServer_conversationLink(t *testing.T) {
	type link struct{ trace, root string }
	got := make(chan link, 4)
	s := start(t, convPolicy(t, "{idle: 1h}"), serve.Config{Results: func(tr pcommon.TraceID, root pcommon.SpanID, r trajeval.CaseResult) {
		got <- link{tr.String(), root.String()}
	}})
	req := ptrace.NewTraces()
	traceOf(t, turn2, false).ResourceSpans().MoveAndAppendTo(req.ResourceSpans())
	traceOf(t, turn1, false).ResourceSpans().MoveAndAppendTo(req.ResourceSpans())
	var want link
	rss := traceOf(t, turn2, false).ResourceSpans()
	for i := 0; i < rss.Len(); i++ {
		if sp := rss.At(i).ScopeSpans().At(0).Spans().At(0); sp.ParentSpanID().IsEmpty() {
			want = link{turn2, sp.SpanID().String()}
		}
	}
	if err := s.Ingest(req); err != nil {
		t.Fatal(err)
	}
	s.stop()
	if l := <-got; l != want {
		t.Errorf("results linked to %+v, want the last turn's %+v", l, want)
	}
}
