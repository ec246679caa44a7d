package canonical

import (
	"bytes"
	"fmt"
	"reflect"

	"github.com/trajeval/trajeval"
)

// FastAgrees reports whether the fast path read every trajectory of data,
// and if it did, whether the parser reads the same trajectories (else how
// they differ).
func FastAgrees(data []byte) (read bool, diff string) {
	var fastOut, slowOut []*trajeval.Trajectory
	_, ok, _ := (&fast{}).values(data, func(t *trajeval.Trajectory) error {
		fastOut = append(fastOut, t)
		return nil
	})
	if !ok {
		return false, ""
	}
	in := trajeval.Input{Name: "fast.jsonl"}
	err := newParser(in, data, 1).values(func(t *trajeval.Trajectory) error {
		slowOut = append(slowOut, t)
		return nil
	})
	if err != nil {
		return true, "the parser fails: " + err.Error()
	}
	if !reflect.DeepEqual(fastOut, slowOut) {
		return true, fmt.Sprintf("fast %s, parser %s", dump(fastOut), dump(slowOut))
	}
	return true, keptAgrees(data, slowOut)
}

// keptAgrees reports how the trajectories of data, read keeping their
// steps' objects and arrays as JSON text, differ from want, read without:
// the fast path must read them too, every text must be an object or an
// array, and each, decoded, the value read without. They are read from a
// copy of data that is then overwritten, as the reader's buffer is by the
// next lines: the texts must not share its memory.
func keptAgrees(data []byte, want []*trajeval.Trajectory) string {
	line := bytes.Clone(data)
	var kept []*trajeval.Trajectory
	_, ok, _ := (&fast{keepText: true}).values(line, func(t *trajeval.Trajectory) error {
		kept = append(kept, t)
		return nil
	})
	if !ok {
		return "the fast path reads the data, but not when it keeps text"
	}
	for i := range line {
		line[i] = 'x'
	}
	var got []*trajeval.Trajectory
	for _, t := range kept {
		for _, s := range t.Steps {
			for _, v := range []any{s.Args, s.Result} {
				if text, ok := trajeval.KeptText(v); ok && text[0] != '{' && text[0] != '[' {
					return fmt.Sprintf("step %d kept %s as text: only objects and arrays are", s.Index, text)
				}
			}
		}
		d, err := t.DecodeText()
		if err != nil {
			return "decoding the kept text: " + err.Error()
		}
		got = append(got, d)
	}
	if !reflect.DeepEqual(got, want) {
		return fmt.Sprintf("kept text %s, read without %s", dump(got), dump(want))
	}
	return ""
}

func dump(ts []*trajeval.Trajectory) string {
	s := ""
	for _, t := range ts {
		s += fmt.Sprintf("%+v; ", *t)
	}
	return s
}
