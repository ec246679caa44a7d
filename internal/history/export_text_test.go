package history

// AppendText appends the value JSON text holds, at the given depth, the
// way a trajectory's encoding writes kept text when it takes it straight
// (ok false when it gives up and decodes, with nothing appended);
// AppendValue appends a value as the encoding writes it; ReadValue reads
// one value back. For the tests of trajtext.go.
func AppendText(b, text []byte, depth int) ([]byte, bool) {
	e := trajEncoder{b: b, ok: true}
	ok := e.text(text, depth)
	e.doneText()
	return e.b, ok && e.ok
}

func AppendValue(b []byte, v any, depth int) ([]byte, bool) {
	e := trajEncoder{b: b, ok: true}
	e.value(v, depth)
	return e.b, e.ok
}

func ReadValue(data []byte) (any, error) {
	d := trajDecoder{b: data, unclaimed: len(data)}
	v := d.value(0)
	if d.err == nil && len(d.b) != 0 {
		d.fail("%d bytes after the value", len(d.b))
	}
	return v, d.err
}
