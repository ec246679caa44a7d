package otlp_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/formattest"
	"github.com/trajeval/trajeval/internal/format/otlp"
)

func TestRead_damage(t *testing.T) { formattest.Breaks(t, otlp.JSON) }

func TestJSON_damage(t *testing.T) {
	span := func(id, name string) string {
		return `{"traceId":"6f000000000000000000000000000003","spanId":"` + id + `","name":"execute_tool ` + name + `","kind":1,"startTimeUnixNano":"1700000000000000000","endTimeUnixNano":"1700000000100000000","attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"execute_tool"}},{"key":"gen_ai.tool.name","value":{"stringValue":"` + name + `"}}]}`
	}
	doc := func(spans ...string) string {
		return `{"resourceSpans":[{"resource":{},"scopeSpans":[{"scope":{},"spans":[` + strings.Join(spans, ",") + `]}]}]}`
	}
	formattest.Damaged(t, otlp.JSON, []formattest.Damage{
		{Name: "truncated", In: doc(span("0300000000000001", "ping")) + "\n" + doc(span("0300000000000002", "pong"))[:400] + formattest.Mark,
			Steps: 2, Reason: "a span cut off in its attributes is kept with what it has"},
		{Name: "syntax error mid-file", In: doc(span("0300000000000001", "ping")) + "\n" + `{"resourceSpans":[‸}` + "\n" + doc(span("0300000000000003", "pang")) + "\n",
			Steps: 2, Reason: "the lines after the break are read on"},
		{Name: "document truncated", In: "{\"resourceSpans\":[{\"resource\":{},\"scopeSpans\":[{\"scope\":{},\"spans\":[\n" + span("0300000000000001", "ping") + ",\n" + span("0300000000000002", "pong")[:60] + formattest.Mark,
			Steps: 1, Reason: "a pretty-printed document keeps the spans before the cut"},
		{Name: "data after the document", In: doc(span("0300000000000001", "ping")) + "\n" + doc(span("0300000000000002", "pong")) + "‸}x\n",
			Steps: 2, Reason: "pdata's decoder stops at the end of its value and takes what follows: every line is checked as JSON first"},
		{Name: "a value left out", In: doc(span("0300000000000001", "ping")) + "\n" + strings.Replace(doc(span("0300000000000002", "pong")), `"value":{"stringValue":"pong"}`, `"value":‸,`, 1) + "\n",
			Steps: 2, Reason: "a value left out is invalid JSON"},
		{Name: "a raw NUL in a string", In: doc(span("0300000000000001", "ping")) + "\n" + doc(span("0300000000000002", "po‸\x00ng")) + "\n",
			Steps: 1, Reason: "JSON strings hold no raw control characters"},
	})
}

func TestProto_damage(t *testing.T) {
	data, err := os.ReadFile("testdata/otlp-proto/conversation-framed.pb")
	if err != nil {
		t.Fatal(err)
	}
	first := 4 + int(binary.BigEndian.Uint32(data))
	// What reading the first message alone gives.
	out, _, err := formattest.Read(otlp.Proto, "x.pb", data[:first])
	if err != nil {
		t.Fatal(err)
	}
	steps := bytes.Count(out, []byte(`"index":`))
	corrupt := bytes.Clone(data)
	corrupt[first+4] = 0xff // not a field of TracesData
	formattest.Damaged(t, otlp.Proto, []formattest.Damage{
		{Name: "truncated", In: string(data[:first+20]), Steps: steps, Reason: "the second message is cut off"},
		{Name: "corrupt mid-file", In: string(corrupt), Steps: steps, Reason: "the second message is not protobuf"},
	})
}

// TestRead_notOTLP checks that valid JSON that is not OTLP traces is told
// in the user's terms at its place, never in the decoder's own words.
func TestRead_notOTLP(t *testing.T) {
	tests := []struct {
		name, in string // ‸ marks the place
		msg      string
		reason   string
	}{
		{"number for a list", `{"resourceSpans": ‸5}` + "\n", `expected an array for "resourceSpans", got a number`, "a JSON Lines line"},
		{"number for an id", `{"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": ‸12, "name": "x"}]}]}]}` + "\n", `expected a string for "traceId", got a number`, "deep in a span"},
		{"object for a list", "{\n  \"resourceSpans\": [{\"scopeSpans\": ‸{}}]}\n", `expected an array for "scopeSpans", got an object`, "a pretty-printed document"},
		{"short id", `{"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "ab‸", "name": "x"}]}]}]}` + "\n", `an id of the wrong length for "traceId"`, "an id that is not 32 hex digits"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			i := strings.Index(tt.in, formattest.Mark)
			in := tt.in[:i] + tt.in[i+len(formattest.Mark):]
			line := strings.Count(in[:i], "\n") + 1
			col := i - strings.LastIndexByte(in[:i], '\n')
			_, _, err := formattest.Read(otlp.JSON, "x.json", []byte(in))
			var te *trajeval.TraceError
			if !errors.As(err, &te) || te.Line != line || te.Col != col || !strings.HasPrefix(te.Msg, tt.msg) {
				t.Errorf("Read = %v, want %q at %d:%d: %s", err, tt.msg, line, col, tt.reason)
			}
			for _, leak := range []string{"Read", "Iter", "jsoniter", "bigger context"} {
				if err != nil && strings.Contains(err.Error(), leak) {
					t.Errorf("error %q speaks of the decoder (%s)", err, leak)
				}
			}
		})
	}
}
