package otlp_test

import (
	"bytes"
	"errors"
	"os"
	"runtime"
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/otlp"
)

// msg is a length-delimited field num holding the fields parts.
func msg(num protowire.Number, parts ...[]byte) []byte {
	b := protowire.AppendTag(nil, num, protowire.BytesType)
	return protowire.AppendBytes(b, bytes.Join(parts, nil))
}

func repeat(n int, b []byte) []byte { return bytes.Repeat(b, n) }

// request wraps spans in one ResourceSpans and one ScopeSpans.
func request(spans ...[]byte) []byte {
	return msg(1, msg(2, spans...))
}

// deepValue is an attribute whose value is an array nested depth levels:
// AnyValue{array_value: {values: [AnyValue{array_value: ...}]}}. The
// headers are written outside in, from lengths worked out inside out, so
// that a million levels take linear time.
func deepValue(depth int) []byte {
	lens := make([]int, 2*depth+1) // lens[i]: the length of the i-th innermost body
	for i := 1; i < len(lens); i++ {
		lens[i] = 1 + protowire.SizeVarint(uint64(lens[i-1])) + lens[i-1]
	}
	var v []byte
	for i := len(lens) - 1; i > 0; i-- {
		num := protowire.Number(1) // ArrayValue.values
		if i%2 == 0 {
			num = 5 // AnyValue.array_value
		}
		v = protowire.AppendTag(v, num, protowire.BytesType)
		v = protowire.AppendVarint(v, uint64(lens[i-1]))
	}
	return msg(9, msg(1, []byte("k")), msg(2, v))
}

// Deep is a request whose one span holds an attribute nested depth levels.
func Deep(depth int) []byte { return request(msg(2, deepValue(depth))) }

func TestScanProto(t *testing.T) {
	tests := []struct {
		name   string
		in     []byte
		err    error
		spans  int
		reason string
	}{
		{"empty", nil, nil, 0, "an empty request is a valid one with nothing in it"},
		{"at the limit", Deep(otlp.MaxValueDepth), nil, 1, "128 levels are read"},
		{"one past", Deep(otlp.MaxValueDepth + 1), otlp.ErrTooDeep, 0, "129 levels are refused"},
		{"very deep", Deep(100_000), otlp.ErrTooDeep, 0, "a hostile depth is refused without recursing through it"},
		{"kvlist", request(msg(2, msg(9, msg(2, nestKV(otlp.MaxValueDepth+1))))), otlp.ErrTooDeep, 0, "key-value lists count as levels too"},
		{"cut off", request(msg(2, msg(5, []byte("name"))))[:8], otlp.ErrMalformed, 0, "a length past the end is malformed"},
		{"wrong wire type", append([]byte{1<<3 | 0}, 1), otlp.ErrMalformed, 0, "resource_spans as a varint is not what the decoder reads"},
		{"unknown fields", append(protowire.AppendVarint(protowire.AppendTag(nil, 99, protowire.VarintType), 7), msg(98, []byte("x"))...), nil, 0, "unknown fields are skipped as the decoder skips them"},
		{"group at the end", append(protowire.AppendTag(nil, 99, protowire.StartGroupType), protowire.AppendTag(nil, 99, protowire.EndGroupType)...), otlp.ErrMalformed, 0, "the decoder refuses a group that ends the message, and so does the scan"},
		{"spans", request(repeat(3, msg(2))), nil, 3, "spans are counted"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := otlp.ScanProto(tt.in)
			if !errors.Is(err, tt.err) {
				t.Fatalf("ScanProto: err = %v, want %v (%s)", err, tt.err, tt.reason)
			}
			if err == nil && s.Spans != tt.spans {
				t.Errorf("Spans = %d, want %d (%s)", s.Spans, tt.spans, tt.reason)
			}
			if errors.Is(tt.err, otlp.ErrMalformed) {
				if ptraceotlp.NewExportRequest().UnmarshalProto(tt.in) == nil {
					t.Errorf("the decoder takes what ScanProto calls malformed (%s)", tt.reason)
				}
			}
		})
	}
}

// nestKV is an AnyValue body holding key-value lists nested depth levels.
func nestKV(depth int) []byte {
	v := []byte{}
	for range depth {
		v = msg(6, msg(1, msg(1, []byte("k")), msg(2, v))) // kvlist_value{values: [{key: k, value: v}]}
	}
	return v
}

// TestScanProto_memory checks that Shape.Memory is at least what pdata
// allocates to decode each shape, and not wildly more.
func TestScanProto_memory(t *testing.T) {
	genai, err := os.ReadFile("testdata/otlp-proto/genai.pb")
	if err != nil {
		t.Fatal(err)
	}
	str := msg(2, msg(1, []byte(strings.Repeat("x", 100))))
	tests := []struct {
		name string
		in   []byte
	}{
		{"empty spans", request(repeat(20000, msg(2)))},
		{"empty attributes", request(msg(2, repeat(20000, msg(9))))},
		{"string attributes", request(msg(2, repeat(5000, msg(9, msg(1, []byte("key")), str))))},
		{"wide array", request(msg(2, msg(9, msg(2, msg(5, repeat(20000, msg(1)))))))},
		{"wide kvlist", request(msg(2, msg(9, msg(2, msg(6, repeat(20000, msg(1)))))))},
		{"deep arrays", request(repeat(200, msg(2, deepValue(otlp.MaxValueDepth))))},
		{"deep kvlists", request(repeat(200, msg(2, msg(9, msg(2, nestKV(otlp.MaxValueDepth))))))},
		{"events", request(msg(2, repeat(20000, msg(11))))},
		{"links", request(msg(2, repeat(20000, msg(13))))},
		{"resource spans", repeat(20000, msg(1))},
		{"scope spans", msg(1, repeat(20000, msg(2)))},
		{"resource attributes", msg(1, msg(1, repeat(20000, msg(1))))},
		{"entity refs", msg(1, msg(1, repeat(20000, msg(3))))},
		{"scopes", msg(1, repeat(20000, msg(2, msg(1))))},
		{"genai", genai},
		{"genai many", bytes.Repeat(genai, 200)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := otlp.ScanProto(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			got := allocated(t, tt.in)
			if s.Memory < got || s.Memory > 6*got+1024 {
				t.Errorf("Memory = %d for %d bytes decoded into %d allocated: the estimate must be at least that, and not 6 times more", s.Memory, len(tt.in), got)
			}
		})
	}
}

// allocated is the least of what decoding b allocated in a few tries.
func allocated(t *testing.T, b []byte) int64 {
	best := int64(-1)
	for range 3 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		req := ptraceotlp.NewExportRequest()
		if err := req.UnmarshalProto(b); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		runtime.KeepAlive(req)
		if n := int64(after.TotalAlloc - before.TotalAlloc); best < 0 || n < best {
			best = n
		}
	}
	return best
}

// TestProto_tooDeep reads a file whose attribute nests past the limit (1.4 million levels overflowed pdata's stack):
// a positioned error, never a stack overflow, lenient or not.
func TestProto_tooDeep(t *testing.T) {
	for _, lenient := range []bool{false, true} {
		data := Deep(1_400_000)
		in := trajeval.Input{Name: "deep.pb", R: bytes.NewReader(data), Lenient: lenient, Warn: func(trajeval.Warning) {}}
		err := otlp.Proto.Read(t.Context(), in, func(*trajeval.Trajectory) error { return nil })
		var te *trajeval.TraceError
		if !errors.As(err, &te) || !errors.Is(err, otlp.ErrTooDeep) {
			t.Fatalf("lenient %v: err = %v, want a TraceError wrapping ErrTooDeep", lenient, err)
		}
		if te.File != "deep.pb" || !strings.Contains(te.Msg, "byte ") {
			t.Errorf("lenient %v: err = %v: want the file and the byte", lenient, err)
		}
		// Framed, as the Collector's file exporter writes.
		framed := append([]byte{0, 0, 0, 0}, data...)
		framed[0], framed[1], framed[2], framed[3] = byte(len(data)>>24), byte(len(data)>>16), byte(len(data)>>8), byte(len(data))
		in.R = bytes.NewReader(framed)
		if err := otlp.Proto.Read(t.Context(), in, func(*trajeval.Trajectory) error { return nil }); !errors.Is(err, otlp.ErrTooDeep) {
			t.Fatalf("framed, lenient %v: err = %v, want ErrTooDeep", lenient, err)
		}
	}
}

// FuzzScanProto checks ScanProto against the decoder it guards: it never
// panics, and never calls malformed what the decoder reads.
func FuzzScanProto(f *testing.F) {
	genai, _ := os.ReadFile("testdata/otlp-proto/genai.pb")
	f.Add(genai)
	f.Add(Deep(otlp.MaxValueDepth + 1))
	f.Add(request(msg(2, msg(9, msg(2, nestKV(3))))))
	f.Add(append(protowire.AppendTag(nil, 99, protowire.StartGroupType), protowire.AppendTag(nil, 99, protowire.EndGroupType)...))
	f.Fuzz(func(t *testing.T, b []byte) {
		_, err := otlp.ScanProto(b)
		if errors.Is(err, otlp.ErrTooDeep) {
			return
		}
		derr := ptraceotlp.NewExportRequest().UnmarshalProto(b)
		if errors.Is(err, otlp.ErrMalformed) && derr == nil {
			t.Fatalf("ScanProto: %v, but the decoder reads it", err)
		}
	})
}

func TestScanProto_fieldNumbers(t *testing.T) {
	// Field 9 (attributes) plus 2^32: the decoder reads it as field 9, so
	// must the scan.
	tag := protowire.AppendVarint(nil, (1<<32+9)<<3|2)
	deepAttr := deepValue(otlp.MaxValueDepth + 1) // field 9 of a span
	_, _, n := protowire.ConsumeTag(deepAttr)
	span := append(tag, deepAttr[n:]...)
	if _, err := otlp.ScanProto(request(msg(2, span))); !errors.Is(err, otlp.ErrTooDeep) {
		t.Errorf("ScanProto: %v, want ErrTooDeep: a field number past 32 bits is the decoder's field 9", err)
	}
}
