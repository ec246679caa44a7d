package history_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/history"
)

// pointers returns t with its arguments and results that are a
// json.RawMessage as a *json.RawMessage, as readers keep text, and those
// that are nil as a nil *json.RawMessage.
func pointers(t *trajeval.Trajectory) *trajeval.Trajectory {
	c := *t
	c.Steps = append([]trajeval.Step(nil), t.Steps...)
	for i := range c.Steps {
		for _, v := range []*any{&c.Steps[i].Args, &c.Steps[i].Result} {
			switch x := (*v).(type) {
			case json.RawMessage:
				*v = &x
			case nil:
				*v = (*json.RawMessage)(nil)
			}
		}
	}
	return &c
}

// TestAppendTrajectory_textForms: text as a *json.RawMessage (as readers
// keep it) is stored as the same text as a json.RawMessage (by hand) is,
// byte for byte, and a nil *json.RawMessage as nil is; both read back as
// the same trajectory, whose canonical JSON is the one written.
func TestAppendTrajectory_textForms(t *testing.T) {
	tests := []struct {
		name   string
		tr     *trajeval.Trajectory
		reason string
	}{
		{"bench", benchTrajectoryOf(3, true), "objects as they stand"},
		{"odd texts", keptTextResults()[1].Trajectory, "white space, keys out of order, escapes, a repeated key"},
		{"none", &trajeval.Trajectory{ID: "t", Steps: []trajeval.Step{{Index: 1, Name: "a"}, {Index: 2, Name: "b", Args: json.RawMessage(`null`)}}}, "no arguments, no result"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kept := pointers(tt.tr)
			hand, okHand := history.AppendTrajectory(nil, tt.tr)
			ptr, okPtr := history.AppendTrajectory(nil, kept)
			if !okHand || !okPtr || !bytes.Equal(ptr, hand) {
				t.Fatalf("stored by pointer (%v)\n%q\nby value (%v)\n%q\n%s", okPtr, ptr, okHand, hand, tt.reason)
			}
			back, err := history.DecodeTrajectory(ptr)
			if err != nil {
				t.Fatal(err)
			}
			handBack, _ := history.DecodeTrajectory(hand)
			if !reflect.DeepEqual(back, handBack) {
				t.Errorf("read back as\n%#v\nwant\n%#v", back, handBack)
			}
			want, errW := trajeval.AppendJSON(nil, kept)
			got, errG := trajeval.AppendJSON(nil, back)
			if errW != nil || errG != nil || !bytes.Equal(got, want) {
				t.Errorf("read back as\n%s (%v)\nwant\n%s (%v)", got, errG, want, errW)
			}
		})
	}
}
