package history

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// From schema version 8 the cases of one written batch are not a row of
// cases each but one row of packs, their rows one after another,
// compressed as one (see squeeze):
//
//	version byte (1), count (uvarint), then per case in the order of
//	its seq: seq (uvarint), suite, case id, status, error, warnings,
//	judge, trace (each a string: uvarint length and bytes; warnings and
//	judge as JSON, "" when absent), attempt (uvarint), flags (a byte:
//	1 partial, 2 a start is known, 4 evaluators packed), the start
//	(varint, milliseconds since 1970, when known), score and duration
//	in milliseconds (each the 8 bytes of its float64, little-endian),
//	then the references to its trajectory and details in the chunks and
//	its packed evaluators (each as a string, "" when absent).
//
// A row of cases cost SQLite two B-trees (the table and the index of case
// ids), written at random places once a history holds several runs; a
// pack of up to 1,024 cases is one row. Packs are numbered from 1 in each
// run as chunks are (the k-th pack of shard s of n takes the id (k-1)·n+s),
// so that a shard begun again deletes its own. What a case keeps is the
// same whichever way it is stored, and reads back alike (DB.Rows).
const casePackVersion = 1

// minCase is the fewest bytes a case takes in a pack: its seq, attempt
// and flags a byte each, ten strings of a byte each when empty, and two
// numbers of eight bytes.
const minCase = 3 + 10 + 16

// errCasePack is a pack of cases that does not read back.
var errCasePack = errors.New("damaged pack of cases")

// The flags of a case in a pack.
const (
	flagPartial = 1 << iota
	flagStarted
	flagEvals
)

// A stored case is a case's row as the database holds it, from a row of
// cases or from a pack: what DB.Rows turns into a result.
type stored struct {
	seq                         int
	suite, id, status           string
	errText, warnings, judge    string
	trace                       string
	attempt                     int
	partial, hasStart, hasEvals bool
	started                     int64
	score, duration             float64
	traj, evals, details        []byte
}

// appendCaseString appends s as a string of a pack: its length, then its
// bytes.
func appendCaseString[T string | []byte](b []byte, s T) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	if len(s) == 0 {
		// Most of a case's strings are empty (its error, warnings,
		// judge, trace; an evaluator's error, members, judge): no call
		// of memmove for them.
		return b
	}
	return append(b, s...)
}

// appendStored appends the row of s to a pack being filled.
func appendStored(b []byte, s *stored) []byte {
	b = binary.AppendUvarint(b, uint64(s.seq))
	// Each string written by a call of its own: ranging over an array of
	// the seven cost a passing case 160 instructions, copying them in.
	b = appendCaseString(b, s.suite)
	b = appendCaseString(b, s.id)
	b = appendCaseString(b, s.status)
	b = appendCaseString(b, s.errText)
	b = appendCaseString(b, s.warnings)
	b = appendCaseString(b, s.judge)
	b = appendCaseString(b, s.trace)
	b = binary.AppendUvarint(b, uint64(s.attempt))
	var f byte
	if s.partial {
		f |= flagPartial
	}
	if s.hasStart {
		f |= flagStarted
	}
	if s.hasEvals {
		f |= flagEvals
	}
	b = append(b, f)
	if s.hasStart {
		b = binary.AppendVarint(b, s.started)
	}
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(s.score))
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(s.duration))
	b = appendCaseString(b, s.traj)
	b = appendCaseString(b, s.evals)
	return appendCaseString(b, s.details)
}

// packHeader returns the start of a pack of n cases.
func packHeader(n int) []byte {
	return binary.AppendUvarint([]byte{casePackVersion}, uint64(n))
}

// unpackCases returns the cases of a pack, decompressed, in their order;
// the byte slices of each point into data. A pack that does not read back
// wholly is errCasePack.
func unpackCases(data []byte) ([]stored, error) {
	if len(data) == 0 || data[0] != casePackVersion {
		return nil, fmt.Errorf("%w: version %v", errCasePack, data[:min(len(data), 1)])
	}
	r := byteReader{b: data[1:], kind: errCasePack}
	n := r.uvarint("count")
	// A case takes at least minCase bytes: a damaged count must not take
	// the memory of the machine.
	if r.err != nil || n > uint64(len(r.b))/minCase {
		return nil, fmt.Errorf("%w: a count of %d cases in %d bytes", errCasePack, n, len(data))
	}
	out := make([]stored, n)
	for i := range out {
		s := &out[i]
		seq := r.uvarint("seq")
		if seq > maxSeq {
			r.fail("seq")
		}
		s.seq = int(seq)
		for _, v := range [...]*string{&s.suite, &s.id, &s.status, &s.errText, &s.warnings, &s.judge, &s.trace} {
			*v = string(r.bytes("text"))
		}
		attempt := r.uvarint("attempt")
		if attempt > math.MaxInt32 {
			r.fail("attempt")
		}
		s.attempt = int(attempt)
		if len(r.b) == 0 {
			r.fail("flags")
			break
		}
		f := r.b[0]
		r.b = r.b[1:]
		if f&^(flagPartial|flagStarted|flagEvals) != 0 {
			r.fail("flags")
		}
		s.partial, s.hasStart, s.hasEvals = f&flagPartial != 0, f&flagStarted != 0, f&flagEvals != 0
		if s.hasStart {
			v, k := binary.Varint(r.b)
			if k <= 0 {
				r.fail("start")
			} else {
				s.started, r.b = v, r.b[k:]
			}
		}
		s.score = r.float("score")
		s.duration = r.float("duration")
		s.traj = nilIfEmpty(r.bytes("trajectory"))
		s.evals = r.bytes("evaluators")
		s.details = nilIfEmpty(r.bytes("details"))
		if !s.hasEvals {
			s.evals = nil
		}
		if r.err != nil {
			return nil, fmt.Errorf("case %d of %d: %w", i+1, n, r.err)
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	if len(r.b) != 0 {
		return nil, fmt.Errorf("%w: %d bytes after its %d cases", errCasePack, len(r.b), n)
	}
	return out, nil
}

func nilIfEmpty(b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	return b
}
