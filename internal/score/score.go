// Package score holds the formulas that turn counts into scores, once for
// every evaluator family (tool_trajectory, UiPath, Dokimos, ADK).
//
// Let hits be the matched calls, want the expected calls and got the
// actual steps. A [Normalisation] turns them, and the family's own
// recall-like score, into a score in [0, 1]:
//  1. recall: the family's score as computed (hits / want for most);
//  2. precision: hits / got; with nothing done, 1 if nothing was expected,
//     else 0;
//  3. f1: 2·hits / (want + got), the harmonic mean of precision and
//     recall; 1 when both are empty, 0 when one is;
//  4. max: hits / max(want, got), so missing and extra calls both count;
//     1 when both are empty;
//  5. binary: 1 when the recall score is 1, else 0.
package score

import "fmt"

// A Normalisation names how a score is computed from its counts.
type Normalisation string

// The normalisations.
const (
	Recall    Normalisation = "recall"
	Precision Normalisation = "precision"
	F1        Normalisation = "f1"
	Max       Normalisation = "max"
	Binary    Normalisation = "binary"
)

// Normalisations lists every normalisation, recall first (the default).
var Normalisations = []string{string(Recall), string(Precision), string(F1), string(Max), string(Binary)}

// Valid reports an error for a name that is not a normalisation.
func (n Normalisation) Valid() error {
	switch n {
	case "", Recall, Precision, F1, Max, Binary:
		return nil
	}
	return fmt.Errorf("unknown score %q (one of recall, precision, f1, max, binary)", string(n))
}

// Apply computes the score of n from hits, want and got, given the
// family's recall score. The zero Normalisation is recall.
func (n Normalisation) Apply(recall float64, hits, want, got int) float64 {
	switch n {
	case Precision:
		return Ratio(hits, got, Bool(want == 0))
	case F1:
		return HarmonicF1(hits, want, got)
	case Max:
		return Ratio(hits, max(want, got), 1)
	case Binary:
		return Bool(recall >= 1-1e-12)
	}
	return recall
}

// Ratio returns num/den, or whenEmpty when den is 0.
func Ratio(num, den int, whenEmpty float64) float64 {
	if den == 0 {
		return whenEmpty
	}
	return float64(num) / float64(den)
}

// HarmonicF1 is the F1 score of hits among want expected and got actual
// items: 1 when both are empty, 0 when either is or nothing matched.
func HarmonicF1(hits, want, got int) float64 {
	if want == 0 && got == 0 {
		return 1
	}
	if want == 0 || got == 0 || hits == 0 {
		return 0
	}
	p, r := float64(hits)/float64(got), float64(hits)/float64(want)
	return 2 * p * r / (p + r)
}

// AllOrNothing is 1 when every one of total checks is met, else 0.
func AllOrNothing(met, total int) float64 { return Bool(met == total) }

// Bool is 1 for true and 0 for false.
func Bool(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
