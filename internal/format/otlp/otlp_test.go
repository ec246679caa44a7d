package otlp_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/formattest"
	"github.com/trajeval/trajeval/internal/format/otlp"
)

func TestGolden(t *testing.T) {
	if formattest.Updating() {
		writeProtoFiles(t)
	}
	formattest.Golden(t, otlp.JSON, otlp.Proto)
}

// writeProtoFiles writes the protobuf test files from their JSON
// counterparts with pdata's marshaler: one unframed TracesData, and the
// Collector file exporter's framing (4-byte big-endian length, then the
// message) with one message per JSON line.
func writeProtoFiles(t *testing.T) {
	dir := filepath.Join("testdata", "otlp-proto")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ from, to string }{
		{"genai.json", "genai.pb"},
		{"conversation.jsonl", "conversation-framed.pb"},
	} {
		data, err := os.ReadFile(filepath.Join("testdata", "otlp", tc.from))
		if err != nil {
			t.Fatal(err)
		}
		var out []byte
		if strings.HasSuffix(tc.from, ".jsonl") {
			for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
				msg := toProto(t, line)
				out = binary.BigEndian.AppendUint32(out, uint32(len(msg)))
				out = append(out, msg...)
			}
		} else {
			out = toProto(t, data)
		}
		if err := os.WriteFile(filepath.Join(dir, tc.to), out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func toProto(t *testing.T, js []byte) []byte {
	t.Helper()
	td, err := (&ptrace.JSONUnmarshaler{}).UnmarshalTraces(js)
	if err != nil {
		t.Fatal(err)
	}
	b, err := (&ptrace.ProtoMarshaler{}).MarshalTraces(td)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestProtoMatchesJSON checks that the protobuf files read exactly as the
// JSON they were written from.
func TestProtoMatchesJSON(t *testing.T) {
	for _, tc := range []struct{ pb, js string }{
		{"otlp-proto/genai.pb", "otlp/genai.json"},
		{"otlp-proto/conversation-framed.pb", "otlp/conversation.jsonl"},
	} {
		pb, _ := os.ReadFile(filepath.Join("testdata", tc.pb))
		js, _ := os.ReadFile(filepath.Join("testdata", tc.js))
		gotPB, _, err := formattest.Read(otlp.Proto, "x", pb)
		if err != nil {
			t.Fatal(err)
		}
		gotJS, _, err := formattest.Read(otlp.JSON, "x", js)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(gotPB, gotJS) {
			t.Errorf("%s reads differently from %s:\n%s\n%s", tc.pb, tc.js, gotPB, gotJS)
		}
	}
}

// TestJSONLinesOfDocument checks that a document read as one line and
// pretty-printed gives the same trajectories.
func TestJSONLinesOfDocument(t *testing.T) {
	data, err := os.ReadFile("testdata/otlp/genai.json")
	if err != nil {
		t.Fatal(err)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, data); err != nil {
		t.Fatal(err)
	}
	a, _, err := formattest.Read(otlp.JSON, "x", data)
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := formattest.Read(otlp.JSON, "x", compact.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Errorf("pretty and compact differ:\n%s\n%s", a, b)
	}
}

func TestDetect(t *testing.T) { formattest.Detect(t, otlp.JSON, otlp.Proto) }

func TestSniffRejects(t *testing.T) {
	formattest.SniffRejects(t, []string{
		`{"resourceLogs": []}`,
		`{"id": "x", "output": [{"role": "assistant"}]}`,
		`[{"role": "user", "content": "hi"}]`,
		"\x0a\x05hello",
		"",
	}, otlp.JSON, otlp.Proto)
}

func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		name, data string
		line, col  int
	}{
		{"truncated document", "{\n  \"resourceSpans\": [\n    {\"scopeSpans\": [", 3, 21},
		{"syntax error", "{\n  \"resourceSpans\": [}\n", 2, 21},
		{"no spans", `{"resourceSpans": []}` + "\n", 0, 0},
		{"bad line only", `{"resourceSpans": [` + "\n", 1, 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := formattest.Read(otlp.JSON, "f.json", []byte(tc.data))
			var te *trajeval.TraceError
			if !errors.As(err, &te) {
				t.Fatalf("err = %v, want a TraceError", err)
			}
			if te.Line != tc.line || te.Col != tc.col {
				t.Errorf("at %d:%d, want %d:%d (%v)", te.Line, te.Col, tc.line, tc.col, err)
			}
		})
	}
}

func TestProtoErrors(t *testing.T) {
	pb, err := os.ReadFile("testdata/otlp-proto/genai.pb")
	if err != nil {
		t.Fatal(err)
	}
	// Cut in the middle: nothing whole is left.
	_, _, err = formattest.Read(otlp.Proto, "f.pb", pb[:len(pb)/2])
	if err == nil {
		t.Error("a protobuf file cut in half read without error")
	}
	var te *trajeval.TraceError
	if !errors.As(err, &te) {
		t.Errorf("err = %v, want a TraceError", err)
	}
}

// TestJSON_Read states, beside the golden files, what some test files are
// about.
func TestJSON_Read(t *testing.T) {
	tests := []struct {
		file   string
		want   string // per trajectory: turns, steps, cost; "|" between trajectories
		reason string
	}{
		{"chat-turns.jsonl", "2 6 - | 3 2 -", "chat spans alone: a turn is a user message, not a span; a call only the histories hold is a step"},
		{"openinference-contents.json", "1 3 -", "tool_use content parts are calls"},
		{"legacy-prompt.jsonl", "1 2 - | 1 1 -", "gen_ai.prompt / gen_ai.completion, flattened or as JSON"},
		{"usage-cost.json", "1 0 0.013", "cost summed over LLM spans, a wrapper not counted beside its inner span"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "otlp", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			out, _, err := formattest.Read(otlp.JSON, tt.file, data)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, line := range bytes.Split(bytes.TrimSpace(out), []byte("\n")) {
				var tr trajeval.Trajectory
				if err := json.Unmarshal(line, &tr); err != nil {
					t.Fatal(err)
				}
				cost := "-"
				if tr.Metrics.CostUSD != nil {
					cost = fmt.Sprint(*tr.Metrics.CostUSD)
				}
				got = append(got, fmt.Sprintf("%d %d %s", len(tr.Turns), len(tr.Steps), cost))
			}
			if g := strings.Join(got, " | "); g != tt.want {
				t.Errorf("got %q, want %q: %s", g, tt.want, tt.reason)
			}
		})
	}
}

// TestJSON_placedLinearly reads a file of many OTLP/JSON documents written
// one after another: the line of each is counted on from the last, never
// from the start of the file.
func TestJSON_placedLinearly(t *testing.T) {
	doc, err := os.ReadFile("testdata/otlp/genai.json")
	if err != nil {
		t.Fatal(err)
	}
	data := bytes.Repeat(append(bytes.TrimSpace(doc), '\n'), 200)
	formattest.PlacedLinearly(t, otlp.JSON, "export.json", data, "the line of each document counted on from the last")
}

// TestRead_unrecordedCalls checks that a trace whose chat span ended to
// call tools, and which records no call, is read partial with a warning:
// the OpenTelemetry instrumentation of the OpenAI client (0.22.0) keeps
// the messages, the calls included, in log events.
func TestRead_unrecordedCalls(t *testing.T) {
	chat := func(reason, extra string) string {
		return `{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"0af7651916cd43dd8448eb211c80319c","spanId":"b7ad6b7169203331","name":"chat gpt-4o-mini","kind":3,` +
			`"startTimeUnixNano":"1795800000000000000","endTimeUnixNano":"1795800000100000000","status":{},"attributes":[` +
			`{"key":"gen_ai.operation.name","value":{"stringValue":"chat"}},` +
			`{"key":"gen_ai.response.finish_reasons","value":{"arrayValue":{"values":[{"stringValue":"` + reason + `"}]}}}` + extra + `]}]}]}]}`
	}
	tests := []struct {
		name, in string
		partial  bool
		reason   string
	}{
		{"real file", "", true, "the file the instrumentation wrote: its first trace asks for get_weather and holds no call"},
		{"tool calls, no messages", chat("tool_calls", ""), true, "the calls the model asked for are not in the file"},
		{"tool_call of the conventions", chat("tool_call", ""), true, "the GenAI conventions' own name for the reason"},
		{"stop", chat("stop", ""), false, "a model that answered asked for nothing"},
		{"calls in the output", chat("tool_calls", `,{"key":"gen_ai.output.messages","value":{"stringValue":"[{\"role\":\"assistant\",\"parts\":[{\"type\":\"tool_call\",\"id\":\"c1\",\"name\":\"get_weather\",\"arguments\":{}}]}]"}}`), false,
			"the span names its calls: they are steps"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := []byte(tt.in)
			if tt.in == "" {
				var err error
				if data, err = os.ReadFile("../../../testdata/real/otlp/otel-instrumentation-openai-0.22.0.json"); err != nil {
					t.Fatal(err)
				}
			}
			out, warns, err := formattest.Read(otlp.JSON, "traces.json", data)
			if err != nil {
				t.Fatal(err)
			}
			first, _, _ := bytes.Cut(out, []byte("\n"))
			var tr trajeval.Trajectory
			if err := json.Unmarshal(first, &tr); err != nil {
				t.Fatal(err)
			}
			warned := strings.Contains(string(warns), "ended to call tools")
			if tr.Partial != tt.partial || warned != tt.partial {
				t.Errorf("partial %v, warned %v; want %v (%s)\n%s", tr.Partial, warned, tt.partial, tt.reason, warns)
			}
		})
	}
}
