package otlp

import (
	"fmt"
	"unicode/utf8"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/trajeval/trajeval"
)

// checkUTF8 checks the strings of td, decoded from the protobuf message at
// byte off: pdata's protobuf decoder takes any bytes for a string, where
// the JSON of every other format is checked as UTF-8 as it is read.
// Read strictly, an invalid string is an error naming the span and field;
// read leniently, a warning (once per file), and the bytes are kept.
func (r *reader) checkUTF8(td ptrace.Traces, off int64) error {
	where := invalidUTF8(td)
	if where == "" {
		return nil
	}
	msg := fmt.Sprintf("the message at byte %d: invalid UTF-8 in %s: the strings of a trace are UTF-8 text", off, where)
	if !r.in.Lenient {
		return &trajeval.TraceError{File: r.in.Name, Msg: msg,
			Hint: "the file is corrupt or was written by a broken exporter; fix it, or pass --lenient to read it as it is",
			Err:  trajeval.ErrCorruptTrace}
	}
	if !r.warned["utf8"] {
		r.warned["utf8"] = true
		r.in.Warn(trajeval.Warning{File: r.in.Name, Msg: msg + "; read leniently: kept as it is"})
	}
	return nil
}

// invalidUTF8 names the first string of td that is not UTF-8 ("span
// <id>: attribute gen_ai.tool.name"), or returns "".
func invalidUTF8(td ptrace.Traces) string {
	for _, rs := range td.ResourceSpans().All() {
		if k := badAttrs(rs.Resource().Attributes(), 0); k != "" {
			return "a resource attribute " + k
		}
		for _, ss := range rs.ScopeSpans().All() {
			sc := ss.Scope()
			if !utf8.ValidString(sc.Name()) || !utf8.ValidString(sc.Version()) {
				return "a scope's name or version"
			}
			if k := badAttrs(sc.Attributes(), 0); k != "" {
				return "a scope attribute " + k
			}
			for _, s := range ss.Spans().All() {
				if w := badSpan(s); w != "" {
					return "span " + s.SpanID().String() + ": " + w
				}
			}
		}
	}
	return ""
}

func badSpan(s ptrace.Span) string {
	switch {
	case !utf8.ValidString(s.Name()):
		return "its name"
	case !utf8.ValidString(s.Status().Message()):
		return "its status message"
	case !utf8.ValidString(s.TraceState().AsRaw()):
		return "its trace state"
	}
	if k := badAttrs(s.Attributes(), 0); k != "" {
		return "attribute " + k
	}
	for _, e := range s.Events().All() {
		if !utf8.ValidString(e.Name()) {
			return "an event's name"
		}
		if k := badAttrs(e.Attributes(), 0); k != "" {
			return "event " + e.Name() + ": attribute " + k
		}
	}
	for _, l := range s.Links().All() {
		if k := badAttrs(l.Attributes(), 0); k != "" {
			return "a link's attribute " + k
		}
	}
	return ""
}

// maxWalk bounds how deep badAttrs looks into nested values: the decoder
// has already built them, and deeper values are not read as strings.
const maxWalk = 64

// badAttrs returns the key of the first attribute of m whose key or value
// holds a string that is not UTF-8 ("?" for an unprintable key), or "".
func badAttrs(m pcommon.Map, depth int) string {
	for k, v := range m.All() {
		if !utf8.ValidString(k) {
			return "?"
		}
		if !validValue(v, depth) {
			return fmt.Sprintf("%q", k)
		}
	}
	return ""
}

func validValue(v pcommon.Value, depth int) bool {
	if depth > maxWalk {
		return true
	}
	switch v.Type() {
	case pcommon.ValueTypeStr:
		return utf8.ValidString(v.Str())
	case pcommon.ValueTypeMap:
		return badAttrs(v.Map(), depth+1) == ""
	case pcommon.ValueTypeSlice:
		for _, e := range v.Slice().All() {
			if !validValue(e, depth+1) {
				return false
			}
		}
	}
	return true
}
