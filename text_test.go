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
		{"text by pointer", rawPtr(`{"n": 9007199254740993, "b": [true, null]}`), map[string]any{"n": json.Number("9007199254740993"), "b": []any{true, nil}}, false, "a *json.RawMessage, as readers keep text, decodes as the json.RawMessage does"},
		{"broken text by pointer", rawPtr(`{"a": `), nil, true, "and fails as it does"},
		{"nil pointer", (*json.RawMessage)(nil), nil, false, "a nil *json.RawMessage is the text null: no value"},
		{"pointer to nothing", rawPtr(""), nil, true, "empty text is no JSON value, by pointer or not"},
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

// rawPtr is text as a reader keeps it: a *json.RawMessage.
func rawPtr(text string) *json.RawMessage {
	raw := json.RawMessage(text)
	return &raw
}

func TestKeptText(t *testing.T) {
	text := json.RawMessage(`{"a":1}`)
	tests := []struct {
		name   string
		in     any
		want   string
		ok     bool
		reason string
	}{
		{"json.RawMessage", text, `{"a":1}`, true, "text put in a step by hand"},
		{"*json.RawMessage", &text, `{"a":1}`, true, "text as a reader keeps it"},
		{"nil pointer", (*json.RawMessage)(nil), "null", true, "a nil *json.RawMessage is the text null"},
		{"pointer to nil", new(json.RawMessage), "", true, "the text it points at, empty as a nil json.RawMessage is"},
		{"nil", nil, "", false, "no value is no text"},
		{"a string", `{"a":1}`, "", false, "a Go string is a value of its own, not JSON text"},
		{"bytes", []byte(`{"a":1}`), "", false, "a []byte is no text of the model"},
		{"a map", map[string]any{"a": json.Number("1")}, "", false, "a value of the model"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := trajeval.KeptText(tt.in)
			if ok != tt.ok || string(got) != tt.want {
				t.Errorf("got %q, %v; want %q, %v: %s", got, ok, tt.want, tt.ok, tt.reason)
			}
		})
	}
}

// TestStep_textForms: a step's arguments and result as a json.RawMessage
// (by hand) and as a *json.RawMessage (as readers keep them) are one:
// the same JSON form, the same values decoded; and a nil *json.RawMessage
// is no value, as nil is.
func TestStep_textForms(t *testing.T) {
	step := func(args, result any) *trajeval.Trajectory {
		return &trajeval.Trajectory{ID: "t", Steps: []trajeval.Step{{Index: 1, Name: "a", Args: args, Result: result}}}
	}
	tests := []struct {
		name   string
		forms  []*trajeval.Trajectory
		reason string
	}{
		{"text", []*trajeval.Trajectory{
			step(json.RawMessage(`{"z": 1, "a": [1.50]}`), json.RawMessage(`[{"ok":true}]`)),
			step(rawPtr(`{"z": 1, "a": [1.50]}`), rawPtr(`[{"ok":true}]`)),
			step(map[string]any{"z": json.Number("1"), "a": []any{json.Number("1.50")}}, []any{map[string]any{"ok": true}}),
		}, "text by value, by pointer and its value"},
		{"none", []*trajeval.Trajectory{
			step(nil, nil),
			step((*json.RawMessage)(nil), (*json.RawMessage)(nil)),
			step(json.RawMessage(`null`), rawPtr(`null`)),
		}, "nil, a nil pointer and the text null are no value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want, err := trajeval.AppendJSON(nil, tt.forms[len(tt.forms)-1])
			if err != nil {
				t.Fatal(err)
			}
			wantStep, _ := json.Marshal(tt.forms[len(tt.forms)-1].Steps[0])
			decoded, _ := tt.forms[len(tt.forms)-1].DecodeText()
			for i, tr := range tt.forms {
				got, err := trajeval.AppendJSON(nil, tr)
				if err != nil || string(got) != string(want) {
					t.Errorf("form %d: AppendJSON %s (%v), want %s: %s", i, got, err, want, tt.reason)
				}
				gotStep, err := json.Marshal(tr.Steps[0])
				if err != nil || string(gotStep) != string(wantStep) {
					t.Errorf("form %d: Step.MarshalJSON %s (%v), want %s: %s", i, gotStep, err, wantStep, tt.reason)
				}
				d, err := tr.DecodeText()
				if err != nil || !reflect.DeepEqual(d, decoded) {
					t.Errorf("form %d: DecodeText %#v (%v), want %#v: %s", i, d, err, decoded, tt.reason)
				}
			}
		})
	}
}
