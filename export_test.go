package trajeval

import (
	"encoding/json"

	"github.com/trajeval/trajeval/internal/jsonv"
)

// MarshalStd returns the JSON of t as encoding/json writes it through the
// wire shapes alone (what MarshalJSON wrote before the canonical form was
// encoded by hand), with the characters of jsonv.Escaped escaped.
func MarshalStd(t *Trajectory) ([]byte, error) {
	w := t.wire()
	steps := make([]stdStep, len(w.Steps))
	for i, s := range w.Steps {
		steps[i] = stdStep(s)
	}
	data, err := json.Marshal(struct {
		ID      string      `json:"id"`
		Turns   []turnJSON  `json:"turns"`
		Steps   []stdStep   `json:"steps"`
		Metrics metricsJSON `json:"metrics"`
		Agents  []agentJSON `json:"agents,omitempty"`
		Partial bool        `json:"partial,omitempty"`
	}{w.ID, w.Turns, steps, w.Metrics, w.Agents, w.Partial})
	return jsonv.Escape(data), err
}

// MarshalStepStd returns the JSON of s as encoding/json writes it.
func MarshalStepStd(s Step) ([]byte, error) { return s.marshalStd() }

type stdStep Step

func (s stdStep) MarshalJSON() ([]byte, error) { return (*Step)(&s).marshalStd() }
