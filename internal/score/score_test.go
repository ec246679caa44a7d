package score_test

import (
	"math"
	"testing"

	"github.com/trajeval/trajeval/internal/score"
)

func TestNormalisation_Apply(t *testing.T) {
	tests := []struct {
		n               score.Normalisation
		recall          float64
		hits, want, got int
		score           float64
		reason          string
	}{
		{score.Recall, 0.4, 2, 5, 3, 0.4, "recall is the family's own score"},
		{"", 0.4, 2, 5, 3, 0.4, "the zero value is recall"},
		{score.Precision, 0, 1, 2, 4, 0.25, "hits / got"},
		{score.Precision, 1, 0, 0, 0, 1, "nothing expected nor done"},
		{score.Precision, 0, 0, 2, 0, 0, "nothing done, something expected"},
		{score.F1, 0, 1, 2, 2, 0.5, "P = R = 1/2"},
		{score.F1, 0, 2, 3, 5, 0.5, "2·2 / (3 + 5)"},
		{score.F1, 1, 0, 0, 0, 1, "both empty"},
		{score.F1, 0, 0, 0, 3, 0, "one empty"},
		{score.Max, 0, 2, 2, 4, 0.5, "hits / max(want, got)"},
		{score.Max, 1, 0, 0, 0, 1, "both empty"},
		{score.Binary, 1, 2, 2, 3, 1, "recall 1"},
		{score.Binary, 0.99, 2, 2, 3, 0, "recall below 1"},
	}
	for _, tc := range tests {
		t.Run(string(tc.n)+" "+tc.reason, func(t *testing.T) {
			if got := tc.n.Apply(tc.recall, tc.hits, tc.want, tc.got); math.Abs(got-tc.score) > 1e-12 {
				t.Errorf("Apply = %v, want %v: %s", got, tc.score, tc.reason)
			}
		})
	}
}

func TestNormalisation_Valid(t *testing.T) {
	for _, n := range score.Normalisations {
		if err := score.Normalisation(n).Valid(); err != nil {
			t.Errorf("%s: %v", n, err)
		}
	}
	if score.Normalisation("median").Valid() == nil {
		t.Error("median is no normalisation")
	}
}
