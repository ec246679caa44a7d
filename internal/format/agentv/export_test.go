package agentv

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"time"

	"github.com/trajeval/trajeval"
)

// FastAgrees reports whether the fast path read data as a record, and if
// it did, whether encoding/json reads the same record (else how they
// differ).
func FastAgrees(data []byte) (read bool, diff string) {
	return fastAgrees(&decoder{}, &decoder{keepText: true}, data)
}

// FastAgreesAfter is FastAgrees with decoders that read before first,
// and remember how it was written (see jsonv.Shape, jsonv.RecentSpan).
func FastAgreesAfter(before, data []byte) (read bool, diff string) {
	dec, kept := &decoder{}, &decoder{keepText: true}
	fastDecode(dec, before)
	fastDecode(kept, bytes.Clone(before))
	return fastAgrees(dec, kept, data)
}

// fastAgrees is FastAgrees with dec, and kept for the record read
// keeping text (see keptAgrees).
func fastAgrees(dec, kept *decoder, data []byte) (read bool, diff string) {
	fast, ok := fastDecode(dec, data)
	if !ok {
		// Neither way reads what one leaves to encoding/json.
		if _, ok := fastRead(&decoder{}, data, nil); ok {
			return true, "read straight into steps, but not into toolCalls"
		}
		return false, ""
	}
	var std record
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	if err := d.Decode(&std); err != nil {
		return true, "encoding/json fails: " + err.Error()
	}
	settle(&std)
	if !fast.valid {
		return true, "the fast path did not mark its record valid"
	}
	// Where the numbers are kept is not what was read: the fast path
	// keeps them in its recordMem (see get), encoding/json on their own.
	std.valid, std.mem = true, fast.mem
	// The fast path's claim that no call id is given twice (see
	// idBuckets), which build then trusts: checked here, as encoding/json
	// makes no such claim.
	if fast.idsDistinct && idsRepeat(std) {
		return true, "the fast path says no call id is given twice, but one is"
	}
	std.idsDistinct = fast.idsDistinct
	if !reflect.DeepEqual(fast, std) {
		return true, fmt.Sprintf("fast %#v, encoding/json %#v", fast, std)
	}
	// Again with what the decoder keeps from one record to the next (its
	// short strings, its clock's minute): the same record. The first's
	// calls live in the decoder's scratch, so it is checked first.
	if again, ok := fastDecode(dec, data); !ok || !reflect.DeepEqual(again, std) {
		return true, fmt.Sprintf("read again: %v, %#v, encoding/json %#v", ok, again, std)
	}
	// The fast path's claim that every string is UTF-8 (see build): the
	// trajectory is the same with every string checked.
	in := trajeval.Input{Name: "fuzz", Warn: func(trajeval.Warning) {}}
	var clk clock
	valid := build(in, fast, 1, false, &clk)
	// A record is built once: its trajectory is its recordMem's (see
	// build), so the second is built in another.
	fast.valid, fast.mem = false, nil
	checked := build(in, fast, 1, false, &clk)
	checked.Finish()
	if !reflect.DeepEqual(valid, checked) {
		return true, fmt.Sprintf("unchecked %#v, checked %#v", valid, checked)
	}
	// Read straight into steps (see stepRead), or read again into
	// toolCalls: the same trajectory, with text kept or not.
	for _, keep := range []bool{false, true} {
		if diff := straightAgrees(data, valid, keep); diff != "" {
			return true, diff
		}
	}
	// Twice with kept: the second time, what it remembers of the first.
	for range 2 {
		if diff := keptAgrees(kept, data, valid); diff != "" {
			return true, diff
		}
	}
	return true, ""
}

// keptAgrees reports how the record data, read by dec keeping its calls'
// objects and arrays as JSON text (see decoder.value), differs from want,
// its trajectory read without: the fast path must read it too, and each text,
// decoded, must be the value read without. The record is read from a copy
// of data that is then overwritten, as the reader's buffer is by the next
// line: the texts must not share its memory.
func keptAgrees(dec *decoder, data []byte, want *trajeval.Trajectory) string {
	line := bytes.Clone(data)
	r, ok := fastDecode(dec, line)
	if !ok {
		return "the fast path reads the record, but not when it keeps text"
	}
	in := trajeval.Input{Name: "fuzz", Warn: func(trajeval.Warning) {}}
	var clk clock
	kept := build(in, r, 1, false, &clk)
	for i := range line {
		line[i] = 'x'
	}
	got, err := kept.DecodeText()
	if err != nil {
		return "decoding the kept text: " + err.Error()
	}
	if !reflect.DeepEqual(got, want) {
		return fmt.Sprintf("with text kept, decoded %#v, read without %#v", got, want)
	}
	return ""
}

// straightAgrees reports how the trajectory of the record data, read by
// fastRead (straight into steps where it can, see stepRead) keeping text
// or not, differs from want, its trajectory read into toolCalls without.
func straightAgrees(data []byte, want *trajeval.Trajectory, keep bool) string {
	line := bytes.Clone(data)
	r, ok := fastRead(&decoder{keepText: keep}, line, nil)
	if !ok {
		return "the fast path reads the record, but not by fastRead"
	}
	in := trajeval.Input{Name: "fuzz", Warn: func(trajeval.Warning) {}}
	var clk clock
	got := build(in, r, 1, false, &clk)
	if keep {
		for i := range line {
			line[i] = 'x'
		}
		var err error
		if got, err = got.DecodeText(); err != nil {
			return "decoding the kept text: " + err.Error()
		}
	}
	if !reflect.DeepEqual(got, want) {
		return fmt.Sprintf("read straight (%v, text kept %v) %#v, into toolCalls %#v", r.direct, keep, got, want)
	}
	return ""
}

// ReadStraight reports whether fastRead reads the record data straight
// into steps (see stepRead), after the records before with one decoder.
func ReadStraight(data []byte, before ...[]byte) bool {
	d := &decoder{keepText: true}
	for _, b := range before {
		fastRead(d, b, nil)
	}
	r, ok := fastRead(d, data, nil)
	return ok && r.direct
}

// StepsRoom is the room (capacity) of the steps of the record data,
// read straight after the records before by one decoder (0 when not).
func StepsRoom(data []byte, before ...[]byte) int {
	d := &decoder{}
	for _, b := range before {
		fastRead(d, b, nil)
	}
	r, ok := fastRead(d, data, nil)
	if !ok || !r.direct {
		return 0
	}
	return cap(r.steps)
}

// MaxGuess is maxGuess.
const MaxGuess = maxGuess

// idsRepeat reports whether a call id of r is given twice, or is not a
// string (a number, which idBuckets does not tell apart).
func idsRepeat(r record) bool {
	seen := map[string]bool{}
	for _, msgs := range [][]message{r.Output, r.OutputMessages} {
		for _, m := range msgs {
			for _, c := range m.ToolCalls {
				id, ok := c.ID.(string)
				if c.ID != nil && (!ok || seen[id]) {
					return true
				}
				seen[id] = seen[id] || ok
			}
		}
	}
	return false
}

// FastTime reads the times ss in turn with one clock: with clock.millis
// those of its length, which is clock.parse for them, with parse the rest.
func FastTime(ss ...string) (ts []time.Time, oks []bool) {
	var c clock
	for _, s := range ss {
		var t time.Time
		var at instant
		var ok bool
		if len(s) == millisTime {
			at, ok = c.millis((*[millisTime]byte)([]byte(s)))
		} else {
			at, ok = c.parse([]byte(s))
		}
		if ok {
			t = at.time()
		}
		ts, oks = append(ts, t), append(oks, ok)
	}
	return ts, oks
}

// settle gives r its id and the calls of r the times the fast path
// reads itself, as it stores them (see decoder.stamp).
func settle(r *record) {
	if s, ok := r.ID.(string); ok {
		r.idText, r.ID = s, nil // a string id, as the fast path keeps it
	}
	var c clock
	for _, msgs := range [][]message{r.Output, r.OutputMessages} {
		for _, m := range msgs {
			for k := range m.ToolCalls {
				call := &m.ToolCalls[k]
				if call.DurationMS != nil {
					call.duration, call.parsed, call.DurationMS = *call.DurationMS, call.parsed|8, nil
				}
				for i, s := range []*string{&call.StartTime, &call.EndTime, &call.Timestamp} {
					if t, ok := c.parse([]byte(*s)); ok {
						call.at[i], call.parsed, *s = t, call.parsed|1<<i, ""
					}
				}
			}
		}
	}
}

// DecodeBoth reads records in turn, record i at line i+1, with one
// decoder whose fast path remembers how the records before were written
// (see jsonv.Shape and jsonv.Recent), and each again with encoding/json
// alone (decodeJSON). It returns how the two differ at the first record
// where they do (the trajectory, the error with its place, the warnings),
// "" if nowhere, and how many records the fast path read.
func DecodeBoth(records [][]byte, keepText, lenient bool) (fast int, diff string) {
	dec := &decoder{keepText: keepText}
	for i, data := range records {
		var warnFast, warnJSON []string
		in := trajeval.Input{Name: "traces.jsonl", KeepText: keepText, Lenient: lenient}
		in.Warn = func(w trajeval.Warning) { warnFast = append(warnFast, w.String()) }
		// decode's two ways, told apart.
		var tf *trajeval.Trajectory
		var errFast error
		if r, ok := fastRead(dec, data, nil); ok {
			fast++
			tf, errFast = buildRecord(in, r, i+1, &dec.clock)
		} else {
			tf, errFast = decodeJSON(in, data, i+1, &dec.clock)
		}
		in.Warn = func(w trajeval.Warning) { warnJSON = append(warnJSON, w.String()) }
		var clk clock
		tj, errJSON := decodeJSON(in, data, i+1, &clk)
		if fmt.Sprint(errFast) != fmt.Sprint(errJSON) {
			return fast, fmt.Sprintf("record %d, %q: error %v, encoding/json's %v", i+1, data, errFast, errJSON)
		}
		if !reflect.DeepEqual(warnFast, warnJSON) {
			return fast, fmt.Sprintf("record %d, %q: warnings %q, encoding/json's %q", i+1, data, warnFast, warnJSON)
		}
		if (tf == nil) != (tj == nil) {
			return fast, fmt.Sprintf("record %d, %q: trajectory %v, encoding/json's %v", i+1, data, tf != nil, tj != nil)
		}
		if tf == nil {
			continue
		}
		a, errA := trajeval.AppendJSON(nil, tf)
		b, errB := trajeval.AppendJSON(nil, tj)
		if errA != nil || errB != nil || !bytes.Equal(a, b) {
			return fast, fmt.Sprintf("record %d, %q:\nfast path:     %s (%v)\nencoding/json: %s (%v)", i+1, data, a, errA, b, errB)
		}
		if !keepText && !reflect.DeepEqual(tf, tj) {
			return fast, fmt.Sprintf("record %d, %q:\nfast path:     %#v\nencoding/json: %#v", i+1, data, tf, tj)
		}
	}
	return fast, ""
}
