package history

import (
	"encoding/binary"
	"fmt"
	"math"
)

// A byteReader reads the binary encodings of packs and details: varints,
// strings and byte slices with their lengths, float64 bits. Its first
// failure is kept as err (kind, wrapped, with what was being read), and
// every read after it returns a zero value, so a decoder checks err once
// at its end.
type byteReader struct {
	b    []byte
	err  error
	kind error // the sentinel err wraps: errCasePack, errDetails
	// unclaimed is how many bytes the counts read so far leave for
	// others, the length of the data at first (see count).
	unclaimed int
}

func (r *byteReader) fail(what string) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: %s", r.kind, what)
	}
	r.b = nil
}

func (r *byteReader) uvarint(what string) uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.fail(what)
		return 0
	}
	r.b = r.b[n:]
	return v
}

// count reads a count of items of at least size bytes each, that the
// bytes left must be able to hold. Each item has a first byte of its
// own, so all the counts of the data claim at most its bytes, however
// they nest: checked against the bytes left alone, missing items, their
// near misses and those's differences, each claiming them all, took 150
// times the bytes read.
func (r *byteReader) count(what string, size int) int {
	v, n := binary.Uvarint(r.b)
	if n <= 0 || v > uint64((len(r.b)-n)/size) || v > uint64(r.unclaimed/size) {
		r.fail(what)
		return 0
	}
	r.b = r.b[n:]
	r.unclaimed -= int(v) * size
	return int(v)
}

func (r *byteReader) int(what string) int {
	v, n := binary.Varint(r.b)
	if n <= 0 || int64(int(v)) != v {
		r.fail(what)
		return 0
	}
	r.b = r.b[n:]
	return int(v)
}

// bytes reads a length and as many bytes, which point into r's data.
func (r *byteReader) bytes(what string) []byte {
	n := r.uvarint(what)
	if n > uint64(len(r.b)) {
		r.fail(what)
		return nil
	}
	v := r.b[:n:n]
	r.b = r.b[n:]
	return v
}

// str reads a length and as many bytes, as a string of its own.
func (r *byteReader) str(what string) string {
	n := r.count(what, 1)
	if r.err != nil {
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}

func (r *byteReader) float(what string) float64 {
	if len(r.b) < 8 {
		r.fail(what)
		return 0
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(r.b))
	r.b = r.b[8:]
	return v
}
