package trajeval_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/trajeval/trajeval"
)

// TestAppendJSON_ciCommand: ##[ (a CI runner's command, read anywhere in a
// line of its log) is never written raw, whether a string is written by
// the encoder or kept text is copied as it stands; text holding other #s
// reads back the same.
func TestAppendJSON_ciCommand(t *testing.T) {
	tests := []struct {
		name, text string
		reason     string
	}{
		{"command in kept text", `{"q":"##[add-mask]x"}`, "kept text is copied as it stands only without ##["},
		{"three #s", `{"q":"###[x"}`, "the # before [ is the one escaped"},
		{"other #s", `{"q":"# a #[b] ##"}`, "a # not before #[ is written as it is"},
		{"command in a key", `{"##[error]":1}`, "keys are strings too"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw := json.RawMessage(tt.text)
			tr := &trajeval.Trajectory{ID: "x ##[set-output name=a;]b", Steps: []trajeval.Step{
				{Index: 1, Name: "##[debug]n", Args: &raw, Result: "##[warning]r"},
			}}
			out, err := trajeval.AppendJSON(nil, tr)
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(out, []byte("##[")) {
				t.Fatalf("AppendJSON wrote ##[ raw (%s):\n%s", tt.reason, out)
			}
			var back struct {
				ID    string `json:"id"`
				Steps []struct {
					Name   string          `json:"name"`
					Args   json.RawMessage `json:"args"`
					Result string          `json:"result"`
				} `json:"steps"`
			}
			if err := json.Unmarshal(out, &back); err != nil {
				t.Fatal(err)
			}
			var got, want any
			if err := json.Unmarshal(back.Steps[0].Args, &got); err != nil {
				t.Fatal(err)
			}
			_ = json.Unmarshal(raw, &want)
			if back.ID != tr.ID || back.Steps[0].Name != "##[debug]n" || back.Steps[0].Result != "##[warning]r" || !jsonEqual(got, want) {
				t.Errorf("read back %+v, args %v; want the same text (%s)", back, got, tt.reason)
			}
		})
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}
