package trajeval

import (
	"encoding/json"
	"slices"

	"github.com/trajeval/trajeval/internal/jsonv"
)

// Decoded returns the value of v: the value its JSON text holds when v is
// JSON text (see [KeptText]), else v itself. Text that is not one JSON
// value is an error.
//
// A reader asked to keep JSON text ([Input].KeepText) may leave a step's
// arguments and result as the text it read, so that nothing is decoded
// that no one looks at: the evaluators of a run mostly look at the
// arguments of a few steps, and at no result. The rules:
//  1. Step.Args and Step.Result hold a value of the model (see [Step]), or
//     JSON text in one of two forms: a json.RawMessage, as a Go user may
//     put there by hand, or a *json.RawMessage, as a reader leaves it (a
//     pointer goes into an interface without an allocation of its own:
//     a reader's texts of a record share one slab of json.RawMessage and
//     one buffer of bytes). The two forms are one: every consumer, and
//     [KeptText], takes them alike. A nil *json.RawMessage is the text
//     null, no value: the same as nil. A reader keeps the text of one
//     JSON object or array, checked as valid JSON nested no deeper than
//     the reader allows, and copied out of the reader's buffers; strings,
//     numbers, booleans and null are never left as text.
//  2. Decoded gives the value the text holds, exactly what the reader
//     would have decoded: numbers stay exact (json.Number). Code that
//     looks into arguments or results goes through Decoded, or through
//     [Trajectory.DecodeText] for a whole trajectory, or takes the text
//     with KeptText and reads it itself; text a reader kept always
//     decodes.
//  3. The JSON form is the same either way: [AppendJSON], MarshalJSON
//     and the run history write what writing the value the text holds
//     gives. AppendJSON copies the text itself only when it is already
//     exactly those bytes (no white space, keys sorted and distinct,
//     nothing to escape); the history encodes the text without
//     building the value.
//  4. Only a reader asked to keep text: trace.Read and trace.ReadFile
//     never ask, so the trajectories they return hold values only. A run
//     asks only for the traces of cases that score no turns and whose
//     evaluators all read through Decoded themselves and look at a part
//     of the arguments and results: every deterministic evaluator but
//     ragas_tool_call_f1, bfcl_ast, tool_call_validity, tool_efficiency
//     and grounding (which look at nearly all of them), with code, the
//     judged evaluators, and any evaluator limited to an agent or
//     negated (a lower score for text that does not decode would be a
//     pass). For the others the text would be scanned, then decoded all
//     the same, which costs more than decoding as the reader reads. A
//     run hands an evaluator that does not read through Decoded the
//     trajectory decoded; a run's CaseResult.Trajectory may hold text.
func Decoded(v any) (any, error) {
	raw, ok := KeptText(v)
	if !ok {
		return v, nil
	}
	return jsonv.Decode(raw)
}

// KeptText returns the JSON text v holds when v is text (see [Decoded]):
// a json.RawMessage, or a *json.RawMessage, the text it points at, a nil
// one being the text null. ok is false for a value of the model. The text
// is not checked, and is not to be changed: it is the step's own.
func KeptText(v any) (text json.RawMessage, ok bool) {
	switch x := v.(type) {
	case *json.RawMessage:
		if x == nil {
			return null, true
		}
		return *x, true
	case json.RawMessage:
		return x, true
	}
	return nil, false
}

// null is the text of a nil *json.RawMessage; full, so that an append
// copies it.
var null = json.RawMessage("null")[:4:4]

// DecodeText returns t with the JSON text of its arguments and results
// decoded (see Decoded): t itself when it holds none, else a copy whose
// steps are new, so that t, which other goroutines may be reading, is not
// changed.
func (t *Trajectory) DecodeText() (*Trajectory, error) {
	i := 0
	for i < len(t.Steps) && !t.Steps[i].hasText() {
		i++
	}
	if i == len(t.Steps) {
		return t, nil
	}
	c := *t
	c.Steps = slices.Clone(t.Steps)
	for k := i; k < len(c.Steps); k++ {
		s := &c.Steps[k]
		var err error
		if s.Args, err = Decoded(s.Args); err != nil {
			return nil, err
		}
		if s.Result, err = Decoded(s.Result); err != nil {
			return nil, err
		}
	}
	return &c, nil
}

// hasText reports whether s's arguments or result are JSON text.
func (s *Step) hasText() bool {
	_, a := KeptText(s.Args)
	_, r := KeptText(s.Result)
	return a || r
}
