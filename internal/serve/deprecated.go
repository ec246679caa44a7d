package serve

// OTLP before 0.19 called a ResourceSpans's scope_spans (field 2)
// instrumentation_library_spans, field 1000, with the same contents.
// pdata reads field 1000 of an ExportTraceServiceRequest as scope spans
// where field 2 is absent, but its TracesData decoder does not: so that
// old exporters keep being read, upgradeScopeSpans renumbers the field
// before decoding.
const deprecatedScopeSpans = 1000

// upgradeScopeSpans returns the protobuf ExportTraceServiceRequest req
// with the field 1000 of each ResourceSpans that has no field 2
// renumbered 2, in a new buffer; it returns req itself when there is
// nothing to renumber (always, from a current exporter), or when req is
// malformed (its decoding says why).
func upgradeScopeSpans(req []byte) []byte {
	if !hasDeprecated(req) {
		return req
	}
	out := make([]byte, 0, len(req))
	readFields(req, func(f wireField) {
		if f.num != 1 || f.typ != wireBytes || !deprecatedOnly(f.data) {
			out = append(out, f.raw...)
			return
		}
		rs := make([]byte, 0, len(f.data))
		readFields(f.data, func(f wireField) {
			if f.num == deprecatedScopeSpans && f.typ == wireBytes {
				rs = appendBytesField(rs, 2, f.data)
			} else {
				rs = append(rs, f.raw...)
			}
		})
		out = appendBytesField(out, 1, rs)
	})
	return out
}

// hasDeprecated reports whether req is well-formed and a ResourceSpans
// of it holds field 1000 and no field 2.
func hasDeprecated(req []byte) bool {
	found := false
	ok := readFields(req, func(f wireField) {
		found = found || f.num == 1 && f.typ == wireBytes && deprecatedOnly(f.data)
	})
	return ok && found
}

// deprecatedOnly reports whether the ResourceSpans rs holds field 1000
// and no field 2.
func deprecatedOnly(rs []byte) bool {
	var old, current bool
	ok := readFields(rs, func(f wireField) {
		old = old || f.num == deprecatedScopeSpans && f.typ == wireBytes
		current = current || f.num == 2
	})
	return ok && old && !current
}
