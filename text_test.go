package trajeval_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/trajeval/trajeval"
)

func TestDecoded(t *testing.T) {
	tests := []struct {
		name    string
		in      any
		want    any
		wantErr bool
		reason  string
	}{
		{"a value", map[string]any{"a": json.Number("1")}, map[string]any{"a": json.Number("1")}, false, "a value of the model is itself"},
		{"nil", nil, nil, false, "no value stays none"},
		{"text", json.RawMessage(`{"n": 9007199254740993, "b": [true, null]}`), map[string]any{"n": json.Number("9007199254740993"), "b": []any{true, nil}}, false, "text decodes with exact numbers"},
		{"a string", `{"a": 1}`, `{"a": 1}`, false, "a Go string is text of its own, not JSON"},
		{"broken text", json.RawMessage(`{"a": `), nil, true, "text that is not JSON is an error, never a value"},
		{"two values", json.RawMessage(`1 2`), nil, true, "one value only"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := trajeval.Decoded(tt.in)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v: %s", err, tt.reason)
			}
			if !tt.wantErr && !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %#v, want %#v: %s", got, tt.want, tt.reason)
			}
		})
	}
}

func TestTrajectory_DecodeText(t *testing.T) {
	text := func() *trajeval.Trajectory {
		return &trajeval.Trajectory{ID: "t", Steps: []trajeval.Step{
			{Index: 1, Name: "a", Args: map[string]any{}, Result: "ok"},
			{Index: 2, Name: "b", Args: json.RawMessage(`{"z": 1, "a": "x"}`), Result: json.RawMessage(`[{"ok": true}]`)},
		}}
	}
	decoded := &trajeval.Trajectory{ID: "t", Steps: []trajeval.Step{
		{Index: 1, Name: "a", Args: map[string]any{}, Result: "ok"},
		{Index: 2, Name: "b", Args: map[string]any{"z": json.Number("1"), "a": "x"}, Result: []any{map[string]any{"ok": true}}},
	}}
	t.Run("text", func(t *testing.T) {
		in := text()
		got, err := in.DecodeText()
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, decoded) {
			t.Errorf("got %#v, want %#v", got, decoded)
		}
		if !reflect.DeepEqual(in, text()) {
			t.Errorf("the trajectory decoded changed: other goroutines may be reading it")
		}
	})
	t.Run("values", func(t *testing.T) {
		if got, err := decoded.DecodeText(); err != nil || got != decoded {
			t.Errorf("got %p, %v; want the trajectory itself: nothing to decode", got, err)
		}
	})
	t.Run("broken", func(t *testing.T) {
		in := text()
		in.Steps[1].Result = json.RawMessage(`[`)
		if got, err := in.DecodeText(); err == nil {
			t.Errorf("got %#v, want an error for text that is not JSON", got)
		}
	})
	t.Run("JSON", func(t *testing.T) {
		// The canonical form writes the value the text holds: keys
		// sorted, as for the decoded trajectory.
		a, errA := trajeval.AppendJSON(nil, text())
		b, errB := trajeval.AppendJSON(nil, decoded)
		if errA != nil || errB != nil || string(a) != string(b) {
			t.Errorf("AppendJSON with text: %s (%v)\ndecoded: %s (%v)", a, errA, b, errB)
		}
		in := text()
		sa, errA := json.Marshal(in.Steps[1])
		sb, errB := json.Marshal(decoded.Steps[1])
		if errA != nil || errB != nil || string(sa) != string(sb) {
			t.Errorf("Step.MarshalJSON with text: %s (%v)\ndecoded: %s (%v)", sa, errA, sb, errB)
		}
	})
}
