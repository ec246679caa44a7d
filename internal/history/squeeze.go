package history

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/klauspost/compress/s2"
)

// Stored trajectories and details are compressed: from schema version 5
// as the byte 'S' then an S2 block, before it as gzip. The first bytes
// tell which.
//
// S2, not gzip nor zstd: on the trajectories of bench/suitegen (5.5 kB of
// canonical JSON) it takes 4 µs a trajectory, against 20 µs for zstd's
// fastest level and 40 µs for gzip's, for 1,214 bytes against 810 and
// 872. A run that keeps the trajectories of its failing cases spends most
// of its recording compressing them, beside the scoring, on the same
// cores.
const s2Mark = 'S'

// maxStored bounds the bytes a stored trajectory or details decompress
// to: a damaged length must not take the memory of the machine.
const maxStored = 1 << 30

// errCompressed is a stored trajectory or details that do not decompress.
var errCompressed = errors.New("damaged compressed value")

// buffers are the scratch buffers of squeeze, one per encoder at a time.
var buffers = sync.Pool{New: func() any { return new([]byte) }}

// squeeze returns data compressed, in a slice of its own.
func squeeze(data []byte) []byte {
	buf := buffers.Get().(*[]byte)
	defer buffers.Put(buf)
	b := squeezeInto(*buf, data)
	*buf = b
	if cap(b) > maxKept {
		*buf = nil // one huge value must not hold its memory for the run
	}
	return bytes.Clone(b)
}

// squeezeInto returns data compressed, in buf when it is large enough;
// else in a new buffer with room for values an eighth larger than data,
// so that a buffer used again for values of about one size (a run's
// chunks, its packs) is not made again for each larger one.
func squeezeInto(buf, data []byte) []byte {
	if n := 1 + s2.MaxEncodedLen(len(data)); cap(buf) < n {
		buf = make([]byte, n+n/8)
	}
	buf = buf[:cap(buf)]
	buf[0] = s2Mark
	out := s2.Encode(buf[1:], data)
	return buf[:1+len(out)]
}

// unsqueeze returns what squeeze compressed, or gzip before schema
// version 5.
func unsqueeze(blob []byte) ([]byte, error) {
	switch {
	case bytes.HasPrefix(blob, []byte{0x1f, 0x8b}):
		zr, err := gzip.NewReader(bytes.NewReader(blob))
		if err != nil {
			return nil, err
		}
		data, err := io.ReadAll(io.LimitReader(zr, maxStored+1))
		if err != nil {
			return nil, err
		}
		if len(data) > maxStored {
			return nil, fmt.Errorf("%w: over %d bytes", errCompressed, maxStored)
		}
		return data, nil
	case len(blob) > 0 && blob[0] == s2Mark:
		n, err := s2.DecodedLen(blob[1:])
		if err != nil {
			return nil, fmt.Errorf("%w: %v", errCompressed, err)
		}
		if n > maxStored {
			return nil, fmt.Errorf("%w: over %d bytes", errCompressed, maxStored)
		}
		// The length is the block's own word: its operations must write as
		// many bytes before that many are allocated (10 damaged bytes took
		// a gigabyte).
		_, k := binary.Uvarint(blob[1:])
		if w, ok := s2Written(blob[1+k:], n); !ok || w != n {
			return nil, fmt.Errorf("%w: a block of %d bytes that says it holds %d", errCompressed, len(blob)-1, n)
		}
		data, err := s2.Decode(nil, blob[1:])
		if err != nil {
			return nil, fmt.Errorf("%w: %v", errCompressed, err)
		}
		return data, nil
	}
	return nil, fmt.Errorf("%w: unknown format", errCompressed)
}
