package history

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/trajeval/trajeval"
)

// From schema version 10 the details of a case's evaluators kept in a
// chunk are a compact encoding of their fields, not their JSON array,
// when the encoding carries them exactly: their JSON took most of what a
// failing case cost the history beside its trajectory, and twice the
// bytes for S2 to compress. Read back, they are written as the JSON they
// were (appendDetails) and read through it, so every command sees what the
// JSON gave. The encoding:
//
//	the byte 'D', the number of evaluators, then for each the byte 0 (no
//	details) or 1 and: its mode; hits, expected and actual; the number
//	of matched pairs, then each one's item, step and tool; of missing
//	items, each one's item and tool and the number of its near misses,
//	each one's step, tool and why, and the number of its argument
//	differences, each one's path, want and got (as the text of the
//	details holds them); of extra steps, each one's step and tool; of
//	checks, each one's name, status and message; of warnings, each one.
//
// A number is a varint (zig-zag), a count a uvarint, a string its length
// (a uvarint) and its bytes as they were. What the encoding does not
// carry (a scope, or notes: a dialect's own values) keeps the details of
// that case as their JSON.
const detailsMark = 'D'

// errDetails is stored details that do not read back.
var errDetails = errors.New("damaged details")

// carried reports whether the encoding carries d exactly.
func carried(d *trajeval.Details) bool {
	if d == nil {
		return true
	}
	return d.Scope == nil && d.Notes == nil
}

// appendDetailsCode appends the encoding of the n details at(0), …,
// at(n-1) to b, and true; b as given and false when the encoding would
// not carry one of them.
func appendDetailsCode(b []byte, n int, at func(i int) *trajeval.Details) ([]byte, bool) {
	for i := range n {
		if !carried(at(i)) {
			return b, false
		}
	}
	b = append(b, detailsMark)
	b = binary.AppendUvarint(b, uint64(n))
	for i := range n {
		d := at(i)
		if d == nil {
			b = append(b, 0)
			continue
		}
		b = append(b, 1)
		b = appendCaseString(b, d.Mode)
		b = binary.AppendVarint(b, int64(d.Hits))
		b = binary.AppendVarint(b, int64(d.Expected))
		b = binary.AppendVarint(b, int64(d.Actual))
		b = binary.AppendUvarint(b, uint64(len(d.Matched)))
		for _, p := range d.Matched {
			b = binary.AppendVarint(b, int64(p.Item))
			b = binary.AppendVarint(b, int64(p.Step))
			b = appendCaseString(b, p.Tool)
		}
		b = binary.AppendUvarint(b, uint64(len(d.Missing)))
		for _, m := range d.Missing {
			b = binary.AppendVarint(b, int64(m.Item))
			b = appendCaseString(b, m.Tool)
			b = binary.AppendUvarint(b, uint64(len(m.Near)))
			for _, n := range m.Near {
				b = binary.AppendVarint(b, int64(n.Step))
				b = appendCaseString(b, n.Tool)
				b = appendCaseString(b, n.Why)
				b = binary.AppendUvarint(b, uint64(len(n.Diffs)))
				for _, a := range n.Diffs {
					b = appendCaseString(b, a.Path)
					b = appendCaseString(b, a.Want)
					b = appendCaseString(b, a.Got)
				}
			}
		}
		b = binary.AppendUvarint(b, uint64(len(d.Extra)))
		for _, x := range d.Extra {
			b = binary.AppendVarint(b, int64(x.Step))
			b = appendCaseString(b, x.Tool)
		}
		b = binary.AppendUvarint(b, uint64(len(d.Checks)))
		for _, c := range d.Checks {
			b = appendCaseString(b, c.Name)
			b = appendCaseString(b, c.Status)
			b = appendCaseString(b, c.Message)
		}
		b = binary.AppendUvarint(b, uint64(len(d.Warnings)))
		for _, w := range d.Warnings {
			b = appendCaseString(b, w)
		}
	}
	return b, true
}

// A detailsReader reads the encoding of appendDetailsCode. Every count is
// checked against the bytes left before anything is allocated for it (an
// item takes at least one byte), so damaged details cannot take more
// memory than a few times their own size.
type detailsReader struct{ byteReader }

// near reads the near misses of a missing item.
func (r *detailsReader) near() []trajeval.NearMiss {
	n := r.count("near misses", 4)
	if n == 0 {
		return nil
	}
	near := make([]trajeval.NearMiss, n)
	for i := range near {
		near[i] = trajeval.NearMiss{Step: r.int("near step"), Tool: r.str("near tool"), Why: r.str("near why")}
		if k := r.count("differences", 3); k > 0 {
			near[i].Diffs = make([]trajeval.ArgDiff, k)
			for j := range near[i].Diffs {
				near[i].Diffs[j] = trajeval.ArgDiff{Path: r.str("difference path"), Want: r.str("difference want"), Got: r.str("difference got")}
			}
		}
	}
	return near
}

// decodeDetails reads what appendDetailsCode wrote.
func decodeDetails(data []byte) ([]*trajeval.Details, error) {
	if len(data) == 0 || data[0] != detailsMark {
		return nil, fmt.Errorf("%w: no mark", errDetails)
	}
	r := detailsReader{byteReader{b: data[1:], kind: errDetails, unclaimed: len(data) - 1}}
	ds := make([]*trajeval.Details, r.count("evaluators", 1))
	for i := range ds {
		if r.err != nil {
			break
		}
		if len(r.b) == 0 {
			r.fail("evaluator")
			break
		}
		has := r.b[0]
		r.b = r.b[1:]
		switch has {
		case 0:
			continue
		case 1:
		default:
			r.fail(fmt.Sprintf("evaluator %d's mark %d", i, has))
			continue
		}
		d := &trajeval.Details{Mode: r.str("mode"), Hits: r.int("hits"), Expected: r.int("expected"), Actual: r.int("actual")}
		if n := r.count("matched", 3); n > 0 {
			d.Matched = make([]trajeval.Pair, n)
			for j := range d.Matched {
				d.Matched[j] = trajeval.Pair{Item: r.int("matched item"), Step: r.int("matched step"), Tool: r.str("matched tool")}
			}
		}
		if n := r.count("missing", 3); n > 0 {
			d.Missing = make([]trajeval.Missing, n)
			for j := range d.Missing {
				d.Missing[j] = trajeval.Missing{Item: r.int("missing item"), Tool: r.str("missing tool"), Near: r.near()}
			}
		}
		if n := r.count("extra", 2); n > 0 {
			d.Extra = make([]trajeval.Extra, n)
			for j := range d.Extra {
				d.Extra[j] = trajeval.Extra{Step: r.int("extra step"), Tool: r.str("extra tool")}
			}
		}
		if n := r.count("checks", 3); n > 0 {
			d.Checks = make([]trajeval.Check, n)
			for j := range d.Checks {
				d.Checks[j] = trajeval.Check{Name: r.str("check name"), Status: r.str("check status"), Message: r.str("check message")}
			}
		}
		if n := r.count("warnings", 1); n > 0 {
			d.Warnings = make([]string, n)
			for j := range d.Warnings {
				d.Warnings[j] = r.str("warning")
			}
		}
		ds[i] = d
	}
	if r.err == nil && len(r.b) != 0 {
		r.fail(fmt.Sprintf("%d bytes after the last evaluator", len(r.b)))
	}
	if r.err != nil {
		return nil, r.err
	}
	return ds, nil
}

// readDetails returns the JSON array of the details data holds: data
// itself when it is JSON (before schema version 10, or what the encoding
// does not carry), else the JSON of the details it encodes, as
// appendDetails wrote it when they were recorded.
func readDetails(data []byte) ([]byte, error) {
	if len(data) == 0 || data[0] != detailsMark {
		return data, nil
	}
	ds, err := decodeDetails(data)
	if err != nil {
		return nil, err
	}
	return appendDetails(nil, len(ds), func(i int) *trajeval.Details { return ds[i] })
}
