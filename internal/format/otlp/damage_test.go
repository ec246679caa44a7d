package otlp_test

import (
	"bytes"
	"encoding/binary"
	"os"
	"strings"
	"testing"

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
