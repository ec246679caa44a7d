// Package jsondec measures JSON decoders on trajeval's own JSON Lines trace
// decoding: each line of an agentv-shaped traces file (as bench/suitegen
// writes) decoded into the record the agentv reader decodes, with exact
// numbers where the reader keeps them. It is its own module, so that the
// decoders it tries are not dependencies of trajeval:
//
//	go run ./bench/suitegen -n 10000 -steps 20 -dir /tmp/b10k
//	cd bench/jsondec && JSONDEC_FILE=/tmp/b10k/traces.jsonl go test -bench . -benchmem
//	JSONDEC_FILE=/tmp/b10k/traces.jsonl GOEXPERIMENT=jsonv2 go test -bench Std -benchmem
//
// With GOEXPERIMENT=jsonv2, encoding/json itself runs on the v2 decoder.
//
// The Any benchmarks decode each line into the JSON data model instead
// (map[string]any, []any, json.Number), the form arguments and results
// take, and check first that each decoder gives what encoding/json gives;
// Any_JSONV is trajeval's own scanner (internal/jsonv), from this
// checkout (the replace directive in go.mod).
package jsondec

import (
	"bytes"
	stdjson "encoding/json"
	"errors"
	"os"
	"reflect"
	"testing"

	"github.com/bytedance/sonic"
	jsonv2 "github.com/go-json-experiment/json"
	goccy "github.com/goccy/go-json"
	jsoniter "github.com/json-iterator/go"

	"github.com/trajeval/trajeval/internal/jsonv"
)

// record mirrors the agentv reader's record: one trace per line.
type record struct {
	ID             any         `json:"id"`
	Output         []message   `json:"output"`
	OutputMessages []message   `json:"output_messages"`
	TokenUsage     *tokenUsage `json:"token_usage"`
	CostUSD        *float64    `json:"cost_usd"`
	DurationMS     *float64    `json:"duration_ms"`
}

type tokenUsage struct {
	Input  *int64 `json:"input"`
	Output *int64 `json:"output"`
	Total  *int64 `json:"total"`
}

type message struct {
	Role      string     `json:"role"`
	Name      string     `json:"name"`
	Content   any        `json:"content"`
	ToolCalls []toolCall `json:"tool_calls"`
}

type toolCall struct {
	Tool       string   `json:"tool"`
	Input      any      `json:"input"`
	Output     any      `json:"output"`
	ID         any      `json:"id"`
	Status     string   `json:"status"`
	Error      any      `json:"error"`
	StartTime  string   `json:"start_time"`
	EndTime    string   `json:"end_time"`
	Timestamp  string   `json:"timestamp"`
	DurationMS *float64 `json:"duration_ms"`
}

func input(b *testing.B) [][]byte {
	path := os.Getenv("JSONDEC_FILE")
	if path == "" {
		b.Skip("set JSONDEC_FILE to a traces.jsonl written by bench/suitegen")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	return bytes.Split(bytes.TrimSpace(data), []byte("\n"))
}

// run decodes every line with decode and checks the tool call count
// against encoding/json's.
func run(b *testing.B, decode func([]byte, *record) error) {
	lines := input(b)
	size, want := 0, 0
	for _, l := range lines {
		size += len(l) + 1
		var r record
		if err := stdjson.Unmarshal(l, &r); err != nil {
			b.Fatal(err)
		}
		for _, m := range r.Output {
			want += len(m.ToolCalls)
		}
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		calls := 0
		for _, l := range lines {
			var r record
			if err := decode(l, &r); err != nil {
				b.Fatal(err)
			}
			for _, m := range r.Output {
				calls += len(m.ToolCalls)
			}
		}
		if calls != want {
			b.Fatalf("%d tool calls, want %d", calls, want)
		}
	}
}

// BenchmarkStdDecoder is what the agentv reader does: a json.Decoder per
// line, numbers kept exact (UseNumber).
func BenchmarkStdDecoder(b *testing.B) {
	run(b, func(l []byte, r *record) error {
		d := stdjson.NewDecoder(bytes.NewReader(l))
		d.UseNumber()
		return d.Decode(r)
	})
}

// BenchmarkStdUnmarshal is json.Unmarshal (numbers become float64).
func BenchmarkStdUnmarshal(b *testing.B) {
	run(b, func(l []byte, r *record) error { return stdjson.Unmarshal(l, r) })
}

var iter = jsoniter.Config{UseNumber: true, EscapeHTML: true, SortMapKeys: true, ValidateJsonRawMessage: true}.Froze()

// BenchmarkJSONIter is json-iterator with the standard library's
// behaviour and exact numbers (UseNumber).
func BenchmarkJSONIter(b *testing.B) {
	run(b, func(l []byte, r *record) error { return iter.Unmarshal(l, r) })
}

// BenchmarkJSONv2 is github.com/go-json-experiment/json, the module form
// of encoding/json/v2 (numbers in any become float64).
func BenchmarkJSONv2(b *testing.B) {
	run(b, func(l []byte, r *record) error { return jsonv2.Unmarshal(l, r) })
}

var sonicAPI = sonic.Config{UseNumber: true, EscapeHTML: true, SortMapKeys: true, ValidateString: true, CopyString: true}.Froze()

// BenchmarkSonic is github.com/bytedance/sonic with exact numbers
// (UseNumber), strings copied out of the input and checked as UTF-8, as
// encoding/json does.
func BenchmarkSonic(b *testing.B) {
	run(b, func(l []byte, r *record) error { return sonicAPI.Unmarshal(l, r) })
}

// BenchmarkGoccy is github.com/goccy/go-json's Decoder with exact numbers
// (UseNumber).
func BenchmarkGoccy(b *testing.B) {
	run(b, func(l []byte, r *record) error {
		d := goccy.NewDecoder(bytes.NewReader(l))
		d.UseNumber()
		return d.Decode(r)
	})
}

// runAny decodes every line into the JSON data model (map[string]any,
// []any, json.Number), first checking on every line that decode gives
// what encoding/json gives: exact numbers, the same strings.
func runAny(b *testing.B, decode func([]byte) (any, error)) {
	lines := input(b)
	size := 0
	for _, l := range lines {
		size += len(l) + 1
		d := stdjson.NewDecoder(bytes.NewReader(l))
		d.UseNumber()
		var want any
		if err := d.Decode(&want); err != nil {
			b.Fatal(err)
		}
		got, err := decode(l)
		if err != nil || !reflect.DeepEqual(got, want) {
			b.Fatalf("%s: decodes to %#v, %v; encoding/json gives %#v", l, got, err, want)
		}
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for _, l := range lines {
			if _, err := decode(l); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkAny_Std is encoding/json into the data model, exact numbers.
func BenchmarkAny_Std(b *testing.B) {
	runAny(b, func(l []byte) (any, error) {
		d := stdjson.NewDecoder(bytes.NewReader(l))
		d.UseNumber()
		var v any
		err := d.Decode(&v)
		return v, err
	})
}

// BenchmarkAny_Sonic is sonic into the data model, exact numbers.
func BenchmarkAny_Sonic(b *testing.B) {
	runAny(b, func(l []byte) (any, error) {
		var v any
		err := sonicAPI.Unmarshal(l, &v)
		return v, err
	})
}

// BenchmarkAny_JSONV is trajeval's own scanner, jsonv.Parser.Value, into
// the data model, after the depth check every line goes through.
func BenchmarkAny_JSONV(b *testing.B) {
	var p jsonv.Parser
	runAny(b, func(l []byte) (any, error) {
		if err := jsonv.CheckDepth(l); err != nil {
			return nil, err
		}
		p.Reset(l)
		v, ok := p.Value()
		if !ok || !p.End() {
			return nil, errors.New("jsonv.Parser says no")
		}
		return v, nil
	})
}
