package spec_test

import (
	"errors"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval/spec"
)

func TestPlace(t *testing.T) {
	n, err := config.Parse("suite.yaml", []byte("a: 1\nprompt: hi\n"))
	if err != nil {
		t.Fatal(err)
	}
	at := n.Get("prompt")
	placed := &trajeval.SpecError{File: "other.yaml", Line: 3, Col: 1, Msg: "elsewhere"}
	tests := []struct {
		name   string
		err    error
		want   string
		reason string
	}{
		{"nil", nil, "", "no error stays none"},
		{"unplaced", &trajeval.SpecError{Msg: "bad", Hint: "do this"}, "suite.yaml:2:9: prompt: bad (do this)", "a constructor's error takes the key's place and keeps its hint"},
		{"plain", errors.New("boom"), "suite.yaml:2:9: prompt: boom", "any other error is placed too"},
		{"placed", placed, placed.Error(), "an error that has a place keeps it"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := spec.Place(at, tt.err)
			if (got == nil) != (tt.want == "") || got != nil && got.Error() != tt.want {
				t.Errorf("Place = %v, want %q (%s)", got, tt.want, tt.reason)
			}
			if got != nil && !errors.Is(got, trajeval.ErrConfig) {
				t.Errorf("Place = %v: not a configuration error", got)
			}
		})
	}
}
