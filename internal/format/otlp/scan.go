package otlp

import (
	"errors"
	"fmt"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// MaxValueDepth is how deeply attribute values may nest: an array or a
// key-value list inside another counts one level, and a value 128 levels
// down is the deepest read. Real attributes nest a few levels; the limit
// exists because the protobuf decoder recurses once per level, and a
// request of a million levels (a few megabytes) would overflow the stack,
// which no Go program can recover from.
const MaxValueDepth = 128

// Errors of [ScanProto].
var (
	// ErrTooDeep is protobuf whose attribute values nest deeper than
	// MaxValueDepth.
	ErrTooDeep = errors.New("attribute values nested too deep")
	// ErrMalformed is protobuf that is cut off or not well-formed.
	ErrMalformed = errors.New("malformed protobuf")
)

// A ScanError says where [ScanProto] stopped.
type ScanError struct {
	Offset int64 // of the field at fault, from the start of the message
	Msg    string
	Err    error // ErrTooDeep or ErrMalformed
}

func (e *ScanError) Error() string { return fmt.Sprintf("byte %d: %s", e.Offset, e.Msg) }

func (e *ScanError) Unwrap() error { return e.Err }

// A Shape is what decoding a protobuf message will build, counted by
// [ScanProto] before anything is decoded.
type Shape struct {
	Spans int
	// Values counts attributes and the values within arrays and lists.
	Values int
	// Memory bounds the bytes that decoding the message allocates: a
	// fixed cost for each message it holds (a span, an attribute, a
	// value...), measured on the decoder used, plus the text it copies.
	Memory int64
}

// kind names the OTLP trace messages that the decoder builds. Only the
// fields that hold messages matter to the scan; others are skipped.
type kind uint8

const (
	kRequest kind = iota // TracesData and ExportTraceServiceRequest alike
	kResourceSpans
	kResource
	kEntityRef
	kScopeSpans
	kScope
	kSpan
	kEvent
	kLink
	kStatus
	kKeyValue
	kKeyValueList
	kArrayValue
	kAnyValue
	kID  // a trace or span id: a fixed array, nothing allocated
	kStr // a string or bytes field, copied by the decoder
	kNone
)

// fields maps a message's field numbers to the kind they hold, for the
// length-delimited fields the decoder reads (its other fields are scalars
// or skipped).
var fields = [...]map[uint64]kind{
	kRequest:       {1: kResourceSpans},
	kResourceSpans: {1: kResource, 2: kScopeSpans, 3: kStr, 1000: kScopeSpans},
	kResource:      {1: kKeyValue, 3: kEntityRef},
	kEntityRef:     {1: kStr, 2: kStr, 3: kStr, 4: kStr},
	kScopeSpans:    {1: kScope, 2: kSpan, 3: kStr},
	kScope:         {1: kStr, 2: kStr, 3: kKeyValue},
	kSpan:          {1: kID, 2: kID, 3: kStr, 4: kID, 5: kStr, 9: kKeyValue, 11: kEvent, 13: kLink, 15: kStatus},
	kEvent:         {2: kStr, 3: kKeyValue},
	kLink:          {1: kID, 2: kID, 3: kStr, 4: kKeyValue},
	kStatus:        {2: kStr},
	kKeyValue:      {1: kStr, 2: kAnyValue},
	kKeyValueList:  {1: kKeyValue},
	kArrayValue:    {1: kAnyValue},
	kAnyValue:      {1: kStr, 5: kArrayValue, 6: kKeyValueList, 7: kStr},
}

// cost is what the decoder allocates for one message of each kind,
// rounded up from what pdata v1.70 was measured to take (see
// TestScanProto_memory): the struct, its share of the slice that holds
// it (slices grow by doubling), and the box of a oneof.
var cost = [...]int64{
	kRequest:       64,
	kResourceSpans: 192,
	kResource:      96,
	kEntityRef:     160,
	kScopeSpans:    160,
	kScope:         96,
	kSpan:          480,
	kEvent:         192,
	kLink:          224,
	kStatus:        0, // held in the span
	kKeyValue:      256,
	kKeyValueList:  64,
	kArrayValue:    64,
	kAnyValue:      96,
	kID:            0,
	kStr:           16, // the size class's slack
}

// ScanProto reads the wire format of b, an OTLP ExportTraceServiceRequest
// or TracesData (they are the same on the wire), without decoding it: it
// counts what decoding would build, and fails with a *ScanError holding
// ErrTooDeep when attribute values nest deeper than [MaxValueDepth], or
// ErrMalformed when a field the decoder would read is cut off or has the
// wrong wire type. Fields the decoder skips are skipped. Its own
// recursion is bounded by MaxValueDepth, so that b can be checked before
// a decoder that recurses without bound is let near it.
func ScanProto(b []byte) (Shape, error) {
	var s Shape
	err := s.scan(b, 0, kRequest, 0)
	return s, err
}

// scan walks the message b of kind k, found at byte off, with depth
// arrays and lists around it.
func (s *Shape) scan(b []byte, off int64, k kind, depth int) error {
	for pos := 0; pos < len(b); {
		at := off + int64(pos)
		tag, n := varint(b[pos:])
		// The decoder takes the field number's low 32 bits, as a
		// signed number: so does the scan, or a field could be read
		// as one thing here and another there.
		num := int32(tag >> 3)
		if n <= 0 || num <= 0 {
			return malformed(at, "a bad field tag")
		}
		pos += n
		field, wire := uint64(num), tag&7
		child, known := fields[k][field]
		if !known {
			end, err := skip(b, pos, wire)
			if err != nil {
				return malformed(at, err.Error())
			}
			pos = end
			continue
		}
		if wire != 2 {
			return malformed(at, fmt.Sprintf("field %d has wire type %d, not length-delimited", field, wire))
		}
		l, n := varint(b[pos:])
		if n <= 0 || l > uint64(len(b)-pos-n) {
			return malformed(at, fmt.Sprintf("field %d is cut off", field))
		}
		pos += n
		body := b[pos : pos+int(l)]
		pos += int(l)
		s.Memory += cost[child]
		switch child {
		case kStr:
			s.Memory += int64(len(body))
			continue
		case kID:
			continue
		case kSpan:
			s.Spans++
		case kKeyValue, kAnyValue:
			s.Values++
		}
		d := depth
		if child == kArrayValue || child == kKeyValueList {
			if d++; d > MaxValueDepth {
				return &ScanError{Offset: at, Err: ErrTooDeep,
					Msg: fmt.Sprintf("an attribute value nests arrays or lists more than %d levels deep", MaxValueDepth)}
			}
		}
		if err := s.scan(body, off+int64(pos)-int64(l), child, d); err != nil {
			return err
		}
	}
	return nil
}

func malformed(at int64, msg string) error {
	return &ScanError{Offset: at, Msg: msg, Err: ErrMalformed}
}

// skip returns the end of the value of wire type wire at b[pos:], as
// pdata's decoder skips a field it does not know, quirks included: a
// group is skipped by counting its starts and ends, never by recursion,
// up to the first field inside it that is not a group.
func skip(b []byte, pos int, wire uint64) (int, error) {
	depth := 0
	for pos < len(b) {
		switch wire {
		case 0:
			_, n := varint(b[pos:])
			if n <= 0 {
				return 0, errors.New("a varint is cut off")
			}
			return pos + n, nil
		case 1, 5:
			w := 8
			if wire == 5 {
				w = 4
			}
			if len(b)-pos < w {
				return 0, errors.New("a fixed-size field is cut off")
			}
			return pos + w, nil
		case 2:
			l, n := varint(b[pos:])
			if n <= 0 || l > uint64(len(b)-pos-n) {
				return 0, errors.New("a field is cut off")
			}
			return pos + n + int(l), nil
		case 3:
			depth++
		case 4:
			if depth == 0 {
				return 0, errors.New("a group ends that never started")
			}
			depth--
		default:
			return 0, fmt.Errorf("wire type %d does not exist", wire)
		}
		if depth == 0 {
			return pos, nil
		}
		tag, n := varint(b[pos:])
		if n <= 0 {
			return 0, errors.New("a bad field tag")
		}
		pos += n
		wire = tag & 7
	}
	return 0, errors.New("a field is cut off")
}

// SpanMemory estimates the memory a decoded span holds, by the costs
// [ScanProto] charges: what a copy of it takes.
func SpanMemory(sp ptrace.Span) int64 {
	n := cost[kSpan] + strMemory(sp.Name()) + strMemory(sp.TraceState().AsRaw()) + strMemory(sp.Status().Message())
	n += mapMemory(sp.Attributes())
	for i := 0; i < sp.Events().Len(); i++ {
		e := sp.Events().At(i)
		n += cost[kEvent] + strMemory(e.Name()) + mapMemory(e.Attributes())
	}
	for i := 0; i < sp.Links().Len(); i++ {
		l := sp.Links().At(i)
		n += cost[kLink] + strMemory(l.TraceState().AsRaw()) + mapMemory(l.Attributes())
	}
	return n
}

// ResourceMemory is [SpanMemory] for a resource and its ResourceSpans.
func ResourceMemory(r pcommon.Resource) int64 {
	return cost[kResourceSpans] + cost[kResource] + mapMemory(r.Attributes())
}

// ScopeMemory is [SpanMemory] for a scope and its ScopeSpans.
func ScopeMemory(s pcommon.InstrumentationScope) int64 {
	return cost[kScopeSpans] + cost[kScope] + strMemory(s.Name()) + strMemory(s.Version()) + mapMemory(s.Attributes())
}

func strMemory(s string) int64 {
	if s == "" {
		return 0
	}
	return cost[kStr] + int64(len(s))
}

// mapMemory walks the values of m with a stack of its own: values read
// by another decoder may nest deeper than a recursion should go.
func mapMemory(m pcommon.Map) int64 {
	var n int64
	var stack []pcommon.Value
	for k, v := range m.All() {
		n += cost[kKeyValue] + strMemory(k)
		stack = append(stack, v)
	}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n += cost[kAnyValue]
		switch v.Type() {
		case pcommon.ValueTypeStr:
			n += strMemory(v.Str())
		case pcommon.ValueTypeBytes:
			n += cost[kStr] + int64(v.Bytes().Len())
		case pcommon.ValueTypeSlice:
			n += cost[kArrayValue]
			for _, e := range v.Slice().All() {
				stack = append(stack, e)
			}
		case pcommon.ValueTypeMap:
			n += cost[kKeyValueList]
			for k, e := range v.Map().All() {
				n += cost[kKeyValue] + strMemory(k)
				stack = append(stack, e)
			}
		}
	}
	return n
}

// varint reads a varint as the OTLP decoder does, which differs from
// encoding/binary.Uvarint: a tenth byte's bits beyond 64 are dropped, not
// an overflow. It returns the value and the bytes read: 0 when b ends
// first, -1 when an eleventh byte would be needed.
func varint(b []byte) (uint64, int) {
	var v uint64
	for i := 0; i < 10; i++ {
		if i == len(b) {
			return 0, 0
		}
		v |= uint64(b[i]&0x7f) << (7 * i)
		if b[i] < 0x80 {
			return v, i + 1
		}
	}
	return 0, -1
}
