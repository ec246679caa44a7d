package history

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// From schema version 6 the trajectories kept by cases recorded together
// are compressed together, one chunk (a row of chunks), and so are their
// evaluators' details, another chunk: the encoders fill them as they
// encode each case, and each batch of cases is written with the chunks
// begun until then. The values of one run share most of their bytes (the
// same tools, keys and shapes), so that a chunk of a few hundred values
// takes a third of the bytes they take compressed one by one, and less
// time to compress.
//
// A chunk is the values one after another, compressed as one (see
// squeeze), of at most maxChunk bytes before compression but for a single
// larger value. A case's column then holds a reference to its value:
//
//	the byte 'C', then the chunk's id, the value's offset and its length
//	in the chunk's bytes before compression (each a uvarint).
//
// Chunks are numbered from 1 in each run as its cases are (the k-th chunk
// of shard s of n takes the id (k-1)·n+s), so that a shard begun again
// deletes its own.
const refMark = 'C'

// maxChunk bounds the bytes of a chunk before compression, and so the
// memory a chunk takes to write or to read one case of it: about 55
// trajectories of 20 calls. Chunks of 2 MB took 2% fewer bytes, and 25
// MB more peak memory on the bench (the writer's two buffers are live
// heap, which the collector's pace multiplies); chunks of 256 kB took 5%
// fewer bytes than 64 kB, and had the run touch 5 MB more memory for the
// first time on 4,000 traces (the history's buffers and, the heap's goal
// raised by them, the scoring's new objects): each first touch misses
// every cache. Chunks under 16 kB (S2's smaller table) took 40% more
// bytes and more instructions. A variable for the tests.
var maxChunk = 64 << 10

// A chunkRef is where a value is in the chunks of its run.
type chunkRef struct {
	chunk     int64
	off, size int
}

// maxRef is the longest reference appendRef writes: its mark and three
// varints of at most 64 bits.
const maxRef = 1 + 3*binary.MaxVarintLen64

// appendRef appends the reference r to b.
func appendRef(b []byte, r chunkRef) []byte {
	b = append(b, refMark)
	b = binary.AppendUvarint(b, uint64(r.chunk))
	b = binary.AppendUvarint(b, uint64(r.off))
	return binary.AppendUvarint(b, uint64(r.size))
}

// parseRef reads the reference appendRef wrote; false for a column that
// holds no reference (a value compressed alone, before schema version 6)
// or a damaged one.
func parseRef(b []byte) (chunkRef, bool) {
	if len(b) == 0 || b[0] != refMark {
		return chunkRef{}, false
	}
	b = b[1:]
	var v [3]uint64
	for i := range v {
		n, k := binary.Uvarint(b)
		if k <= 0 || n > maxStored {
			return chunkRef{}, false
		}
		v[i], b = n, b[k:]
	}
	if len(b) != 0 {
		return chunkRef{}, false
	}
	return chunkRef{int64(v[0]), int(v[1]), int(v[2])}, true
}

// isRef reports whether a column holds a reference into a chunk.
func isRef(b []byte) bool { return len(b) > 0 && b[0] == refMark }

// A chunker gathers the values of one kind into chunks, compressing each
// once full; the chunks wait, compressed, for the transaction of the batch
// whose rows refer to them (take).
type chunker struct {
	next func() int64 // the id of a new chunk
	run  int64
	id   int64   // of the chunk being filled
	raw  []byte  // its values, not yet compressed
	out  []byte  // scratch to compress into, reused chunk after chunk
	done [][]any // rows of chunks, compressed, not yet written
}

// add adds v to the chunk being filled, closing the chunk before when v
// would take it beyond maxChunk, and returns ref with v's reference
// appended.
func (c *chunker) add(ref, v []byte) []byte {
	if len(c.raw) > 0 && len(c.raw)+len(v) > maxChunk {
		c.close()
	}
	if len(c.raw) == 0 {
		c.id = c.next()
		if c.raw == nil {
			// At its size at once: grown by append's steps, a chunk's
			// buffer was copied into fresh memory a dozen times.
			c.raw = make([]byte, 0, maxChunk)
		}
	}
	ref = appendRef(ref, chunkRef{c.id, len(c.raw), len(v)})
	c.raw = append(c.raw, v...)
	return ref
}

// close compresses the chunk being filled into a row of chunks, to be
// written.
func (c *chunker) close() {
	if len(c.raw) == 0 {
		return
	}
	c.out = squeezeInto(c.out, c.raw)
	c.done = append(c.done, []any{c.run, c.id, bytes.Clone(c.out)})
	c.raw = c.raw[:0]
	if cap(c.raw) > 2*maxChunk || cap(c.out) > 2*maxChunk {
		c.raw, c.out = nil, nil // one huge value must not hold its memory for the run
	}
}

// take closes the chunk being filled and returns the rows of chunks not
// yet written, which the chunker no longer holds.
func (c *chunker) take() [][]any {
	c.close()
	rows := c.done
	c.done = nil
	return rows
}

// scratch are the buffers the encoders write JSON into, before copying
// it out at its size.
var scratch = sync.Pool{New: func() any { return new([]byte) }}

func getScratch() *[]byte { return scratch.Get().(*[]byte) }

// putScratch gives b back for another value; one huge value does not hold
// its memory for the run.
func putScratch(b *[]byte) {
	if cap(*b) > maxKept {
		return
	}
	scratch.Put(b)
}

// A resolver reads the values that cases of a run refer to in its chunks:
// asked for with want, given to their callbacks by resolve, a chunk
// decompressed at a time.
type resolver struct {
	run   int64
	wants map[int64][]want
}

type want struct {
	ref chunkRef
	use func(data []byte) error
}

// want asks for the value of reference blob (a column holding a reference)
// to be given to use.
func (r *resolver) want(blob []byte, use func(data []byte) error) error {
	ref, ok := parseRef(blob)
	if !ok {
		return fmt.Errorf("%w: a reference %q", errCompressed, blob)
	}
	if r.wants == nil {
		r.wants = map[int64][]want{}
	}
	r.wants[ref.chunk] = append(r.wants[ref.chunk], want{ref, use})
	return nil
}

// resolve reads the chunks wanted and gives each value asked for to its
// callback. A chunk missing, or a reference beyond its chunk, is a damaged
// history.
func (r *resolver) resolve(ctx context.Context, h *DB) error {
	ids := make([]any, 0, len(r.wants))
	for id := range r.wants {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b any) int { return cmp.Compare(a.(int64), b.(int64)) })
	for part := range slices.Chunk(ids, 500) {
		in := "(" + strings.TrimSuffix(strings.Repeat("?, ", len(part)), ", ") + ")"
		rows, err := h.db.QueryContext(ctx, h.d.bind("SELECT id, data FROM chunks WHERE run_id = ? AND id IN "+in), append([]any{r.run}, part...)...)
		if err != nil {
			return h.wrap(err)
		}
		for rows.Next() {
			var (
				id   int64
				blob []byte
			)
			if err := rows.Scan(&id, &blob); err != nil {
				rows.Close()
				return h.wrap(err)
			}
			if err := r.give(id, blob); err != nil {
				rows.Close()
				return err
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return h.wrap(err)
		}
	}
	for id := range r.wants {
		return fmt.Errorf("%w: run %d: chunk %d is missing", errCompressed, r.run, id)
	}
	return nil
}

// give decompresses chunk id and hands its values to those who want them.
func (r *resolver) give(id int64, blob []byte) error {
	ws, ok := r.wants[id]
	if !ok {
		return nil
	}
	delete(r.wants, id)
	data, err := unsqueeze(blob)
	if err != nil {
		return fmt.Errorf("run %d: chunk %d: %w", r.run, id, err)
	}
	for _, w := range ws {
		if w.ref.off > len(data) || w.ref.size > len(data)-w.ref.off {
			return fmt.Errorf("%w: run %d: chunk %d holds %d bytes, and a value is said to take %d from %d", errCompressed, r.run, id, len(data), w.ref.size, w.ref.off)
		}
		if err := w.use(data[w.ref.off : w.ref.off+w.ref.size : w.ref.off+w.ref.size]); err != nil {
			return err
		}
	}
	return nil
}
