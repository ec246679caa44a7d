package serve

import (
	"encoding/binary"
	"unicode/utf8"
)

// The few protobuf messages serve writes or reads itself (a
// google.rpc.Status, an OTLP export's response) are encoded here by hand:
// linking a protobuf library for them would bring its package
// initialisation and its pages into every command of the executable.

// Protobuf wire types.
const (
	wireVarint = 0
	wireI64    = 1
	wireBytes  = 2
	wireI32    = 5
)

// appendVarintField appends field num holding the varint v.
func appendVarintField(b []byte, num int, v uint64) []byte {
	b = binary.AppendUvarint(b, uint64(num)<<3|wireVarint)
	return binary.AppendUvarint(b, v)
}

// appendBytesField appends the length-delimited field num holding v.
func appendBytesField[T []byte | string](b []byte, num int, v T) []byte {
	b = binary.AppendUvarint(b, uint64(num)<<3|wireBytes)
	b = binary.AppendUvarint(b, uint64(len(v)))
	return append(b, v...)
}

// A wireField is a field of a protobuf message: its number, its wire
// type, its value (v for a varint, data for a length-delimited one), and
// its encoding whole, tag included.
type wireField struct {
	num, typ int
	v        uint64
	data     []byte
	raw      []byte
}

// readFields calls f with each field of the protobuf message b, in
// order, and reports whether b is a well-formed message; it stops at the
// first field it cannot read. Groups (wire types 3 and 4, long
// deprecated) are not read: they make b malformed.
func readFields(b []byte, f func(wireField)) bool {
	for len(b) > 0 {
		field := b
		tag, n := binary.Uvarint(b)
		if n <= 0 || tag>>3 == 0 || tag>>3 > 1<<29-1 {
			return false
		}
		b = b[n:]
		head := n
		fd := wireField{num: int(tag >> 3), typ: int(tag & 7)}
		switch fd.typ {
		case wireVarint:
			fd.v, n = binary.Uvarint(b)
			if n <= 0 {
				return false
			}
		case wireI64, wireI32:
			n = 8
			if fd.typ == wireI32 {
				n = 4
			}
			if len(b) < n {
				return false
			}
		case wireBytes:
			size, k := binary.Uvarint(b)
			if k <= 0 || size > uint64(len(b)-k) {
				return false
			}
			fd.data, n = b[k:k+int(size)], k+int(size)
		default:
			return false
		}
		b = b[n:]
		fd.raw = field[:head+n]
		f(fd)
	}
	return true
}

// appendStatus appends a google.rpc.Status of code and msg, with the
// details given as (type URL, encoded message) pairs, each a
// google.protobuf.Any.
func appendStatus(b []byte, code int, msg string, details ...[2]string) []byte {
	b = appendVarintField(b, 1, uint64(code))
	b = appendBytesField(b, 2, msg)
	for _, d := range details {
		b = appendBytesField(b, 3, appendBytesField(appendBytesField(nil, 1, d[0]), 2, d[1]))
	}
	return b
}

// statusText is the message of the google.rpc.Status b, and whether b is
// one: a well-formed message whose message field, if any, is UTF-8.
func statusText(b []byte) (string, bool) {
	var msg []byte
	ok := readFields(b, func(f wireField) {
		if f.num == 2 && f.typ == wireBytes {
			msg = f.data
		}
	})
	if !ok || !utf8.Valid(msg) {
		return "", false
	}
	return string(msg), true
}
