package otlp_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"runtime"
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/otlp"
)

// TestProto_Read_messageBuffer reads one large message, framed and
// unframed, and checks what reading it allocated: a message is read into
// one buffer of its declared size when the file holds it, where a buffer
// that grows as data arrives allocates it several times over (a
// bytes.Buffer, growing by doubling, allocated about four times the
// message before the decoder saw it, and held up to three at once: at
// the limit of a GiB a message, up to 3 GiB).
func TestProto_Read_messageBuffer(t *testing.T) {
	const size = 16 << 20
	td := ptrace.NewTraces()
	span := td.ResourceSpans().AppendEmpty().ScopeSpans().AppendEmpty().Spans().AppendEmpty()
	span.SetName("filler")
	span.SetTraceID([16]byte{1})
	span.SetSpanID([8]byte{1})
	span.Attributes().PutStr("filler", strings.Repeat("x", size))
	msg, err := (&ptrace.ProtoMarshaler{}).MarshalTraces(td)
	if err != nil {
		t.Fatal(err)
	}
	framed := binary.BigEndian.AppendUint32(nil, uint32(len(msg)))
	framed = append(framed, msg...)
	tests := []struct {
		name   string
		data   []byte
		reason string
	}{
		{"framed", framed, "the Collector's file exporter writes each message after its length"},
		{"unframed", msg, "one TracesData is read a ResourceSpans at a time"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			in := trajeval.Input{Name: "big.pb", R: bytes.NewReader(tt.data), Warn: func(trajeval.Warning) {}}
			err := otlp.Proto.Read(context.Background(), in, func(*trajeval.Trajectory) error { return nil })
			runtime.ReadMemStats(&after)
			t.Logf("read: %v; allocated %d MiB", err, (after.TotalAlloc-before.TotalAlloc)>>20)
			// The message's buffer, the decoder's copy of the attribute,
			// and the reader's own buffer of a MiB; a growing buffer
			// adds two to four times the message.
			if got, most := after.TotalAlloc-before.TotalAlloc, uint64(2*size+size/2); got > most {
				t.Errorf("reading a message of %d MiB allocated %d MiB, want at most %d MiB: %s", size>>20, got>>20, most>>20, tt.reason)
			}
		})
	}
}
