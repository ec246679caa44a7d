package errlist_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/trajeval/trajeval/internal/errlist"
)

func TestSplit(t *testing.T) {
	a, b, c := errors.New("a"), errors.New("b"), errors.New("c")
	tests := []struct {
		name   string
		err    error
		want   []error
		reason string
	}{
		{"nil", nil, nil, "no error is no list"},
		{"one", a, []error{a}, "a plain error is itself"},
		{"nested", errors.Join(a, errors.Join(b, c)), []error{a, b, c}, "nested joins are taken apart, in order"},
		{"wrapped join", fmt.Errorf("x: %w, %w", a, b), []error{a, b}, "any error that unwraps to several"},
		{"wrapped one", fmt.Errorf("x: %w", a), nil, "an error wrapping one stays whole"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := errlist.Split(tt.err)
			want := tt.want
			if want == nil && tt.err != nil {
				want = []error{tt.err}
			}
			if !slices.Equal(got, want) {
				t.Errorf("Split = %v, want %v: %s", got, want, tt.reason)
			}
		})
	}
}
