package serve

import (
	"errors"
	"fmt"
	"io"

	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/trajeval/trajeval/internal/format/otlp"
)

// The memory of a request is charged to Config.MaxBytes before it is
// taken, in three parts, each released as soon as it is no longer held:
//  1. its body, as it is read (the buffers it grows through, and the
//     gzip reader's window);
//  2. what decoding it builds, estimated from its wire format before
//     anything is decoded (otlp.ScanProto for protobuf, jsonMemory for
//     JSON);
//  3. once decoded, its spans are moved (not copied) into the traces held,
//     and the reservation of 2 becomes their charge, estimated again from
//     the spans by the same costs (otlp.SpanMemory), plus the copy of
//     their resource and scope for each trace they go to. This is what
//     MaxBytes bounds between requests.
//
// Spans held, and the requests under way, therefore never charge more
// than MaxBytes together, but for a request taken while nothing else is
// held or under way. A request whose decoding alone would take more is
// refused for good (errTooCostly, 413), not retried.

// errTooCostly refuses a request whose decoding would take more memory
// than Config.MaxBytes allows in all.
var errTooCostly = errors.New("decoding the request would take more memory than the server may hold")

// errBadRequest marks a request that is not OTLP, or nested too deep.
var errBadRequest = errors.New("bad request")

// gzipWindow is what a gzip reader holds while it reads, charged once.
const gzipWindow = 64 << 10

// reserve charges n bytes of a request under way to the budget, or
// refuses: errClosing, errTooCostly when n alone passes MaxBytes,
// errBytesFull when what is held and under way leaves too little.
func (s *Server) reserve(n int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closing:
		return errClosing
	case s.cfg.MaxBytes <= 0:
	case n > s.cfg.MaxBytes:
		return fmt.Errorf("%w: %d bytes, more than the %d it may hold", errTooCostly, n, s.cfg.MaxBytes)
	case s.bytes+s.inflight+n > s.cfg.MaxBytes:
		return errBytesFull
	}
	s.inflight += n
	return nil
}

// release gives back n bytes that reserve charged.
func (s *Server) release(n int64) {
	s.mu.Lock()
	s.inflight -= n
	s.mu.Unlock()
}

// readCharged reads a request body as ReadBody does, charging the
// buffers it allocates with reserve; it returns what it charged, to be
// released by the caller, also on error.
func (s *Server) readCharged(r io.Reader, encoding string, limit, size int64) (body []byte, charged int64, err error) {
	charge := func(n int64) error {
		if err := s.reserve(n); err != nil {
			return err
		}
		charged += n
		return nil
	}
	body, err = readBody(r, encoding, limit, max(size, 0), charge)
	return body, charged, err
}

// take decodes one request body and ingests its spans, all or none,
// charging its decoding first; bodyCharge, the body's share of the
// budget, is released once the body is decoded. The error wraps
// errBadRequest when the body is not OTLP, else it is Ingest's or
// reserve's.
func (s *Server) take(body []byte, asJSON bool, bodyCharge int64) error {
	var memory int64
	if asJSON {
		m, err := jsonMemory(body)
		if err != nil {
			s.release(bodyCharge)
			return fmt.Errorf("%w: %v", errBadRequest, err)
		}
		memory = m
	} else {
		shape, err := otlp.ScanProto(body)
		if err != nil {
			s.release(bodyCharge)
			return fmt.Errorf("%w: the body is not an OTLP protobuf ExportTraceServiceRequest: %v", errBadRequest, err)
		}
		memory = shape.Memory
	}
	if err := s.reserve(memory); err != nil {
		s.release(bodyCharge)
		return err
	}
	td, err := DecodeTraces(body, asJSON)
	body = nil
	s.release(bodyCharge)
	if err != nil {
		s.release(memory)
		return fmt.Errorf("%w: %v", errBadRequest, err)
	}
	if err := s.ingest(td, memory, true); err != nil {
		s.release(memory)
		return err
	}
	return nil
}

// jsonMemory bounds what decoding the OTLP/JSON body b allocates: its
// text, copied, plus for each object the largest cost of a message (every
// message of OTLP/JSON is an object) and for each array a slice. It
// refuses a body nested deeper than attribute values may go.
func jsonMemory(b []byte) (int64, error) {
	// Objects and arrays around the deepest value: a request, its
	// resourceSpans, a ResourceSpans, ... down to a span's attribute value
	// (10 levels), and per level of value at most four (a kvlistValue's
	// value object, the list, its values, a key-value).
	const maxDepth = 16 + 4*otlp.MaxValueDepth
	var objects, arrays int64
	depth := 0
	inString, escaped := false, false
	for _, c := range b {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{', c == '[':
			if c == '{' {
				objects++
			} else {
				arrays++
			}
			if depth++; depth > maxDepth {
				return 0, fmt.Errorf("the JSON body nests deeper than %d levels (attribute values may nest %d levels)", maxDepth, otlp.MaxValueDepth)
			}
		case c == '}', c == ']':
			depth--
		}
	}
	return int64(len(b)) + objects*jsonObjectCost + arrays*64, nil
}

// jsonObjectCost is the most a JSON object of OTLP/JSON decodes into: a
// span, with its slot, as otlp.ScanProto charges it.
const jsonObjectCost = 512

// heldMemory returns the memory each span of td takes once copied into
// the traces held, in order; that of the copy of the resource and scope
// of each ScopeSpans, made once for each trace its spans go to; and the
// most that copying them all takes.
func heldMemory(td ptrace.Traces) (spans []int64, places [][]int64, sum int64) {
	spans = make([]int64, 0, td.SpanCount())
	rss := td.ResourceSpans()
	places = make([][]int64, rss.Len())
	for i := 0; i < rss.Len(); i++ {
		rs := rss.At(i)
		res := otlp.ResourceMemory(rs.Resource()) + int64(len(rs.SchemaUrl()))
		sss := rs.ScopeSpans()
		places[i] = make([]int64, sss.Len())
		for j := 0; j < sss.Len(); j++ {
			ss := sss.At(j)
			place := res + otlp.ScopeMemory(ss.Scope()) + int64(len(ss.SchemaUrl()))
			places[i][j] = place
			traces := map[[16]byte]bool{}
			for _, sp := range ss.Spans().All() {
				n := otlp.SpanMemory(sp) + seenCost
				spans = append(spans, n)
				sum += n
				if tid := sp.TraceID(); !traces[tid] {
					traces[tid] = true
					sum += place
				}
			}
		}
	}
	return spans, places, sum
}

// seenCost is what a held span adds to its trace's set of span ids.
const seenCost = 64
