package rouge_test

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/rouge"
)

// The first two lines of rouge/testdata/target.txt and prediction.txt in
// google-research/google-research (rouge_score's own test data; Apache-2.0),
// read with readlines() as rouge_scorer_test.py does.
const (
	target0 = `ZfbCUIUuePaiLVUlCaUXxkpu XPeWing tUHfPMuZ',-Xd Y BrUgVJing M-HV.-DgdDaY.rFDJCRing Ht-LM EKBDXkME,yz'RBr q'wtion wIojNbN wL,b .a-'XdQggyFl jB-RPP'iyOIcUxer tKM L` + "\n"
	target1 = `KsJdPByEtAor fE-Qg Dpdbring cw-WeFyu vC MoBL Xdn g wkvcEiGvKtion BDFhrpMtion psing sbKao Q m qiing LMmer HqqLFXe,XPY,J XsurkMer ,ed nB'wH'bWVHjWFEing tQ.saefZwJtKrTlixYpMMsJing UCAPwNHeYVjDing c T BUySKtion gMPfJpwGw p'NvxAoping eu pBwMBKV'I DNxqelhu,PHPxDEq,mtion SN` + "\n"
	predic0 = `rFDJCRtion Ht-LM EKtDXkME,yz'RBr q'wer wrojNbN wL,b .a-'XdQggyFl jB-RPP'iyOIcUxi` + "\n"
	predic1 = `n cw-WeFyu vC MoBL Xdn g wkvcEiGvKtion BDFhrpMer pstion sbKao Q m qier LMmed HqqLFXe,XPY,J XsurkMeo ,ed nB'wH'bWVHjWFEer tQ.saefZwJtKrTlixYpMMNJtion UCAPwNHeYVjD` + "\n"
)

func TestTokenize(t *testing.T) {
	tests := []struct {
		in     string
		stem   bool
		want   []string
		reason string
	}{
		{"", false, nil, "empty text has no tokens"},
		{" \t\n ", false, nil, "whitespace only"},
		{"Hello, World!", false, []string{"hello", "world"}, "lower-cased, punctuation splits"},
		{"don't stop", false, []string{"don", "t", "stop"}, "apostrophe splits"},
		{"x_y-z.w", false, []string{"x", "y", "z", "w"}, "underscore, hyphen and dot split"},
		{"R2-D2 in 2024", false, []string{"r2", "d2", "in", "2024"}, "digits are token characters"},
		{"naïve café", false, []string{"na", "ve", "caf"}, "non-ASCII letters split"},
		{"ÉTÉ", false, []string{"t"}, "non-ASCII capitals are not folded to ASCII"},
		{"\u212Aelvin", false, []string{"kelvin"}, "Kelvin sign lower-cases to k in Python"},
		{"İstanbul", false, []string{"i", "stanbul"}, "İ lower-cases to i + combining dot, which splits"},
		{"ab\xffcd", false, []string{"ab", "cd"}, "invalid UTF-8 splits"},
		{"Running dogs", true, []string{"run", "dog"}, "stemming"},
		{"Running dogs", false, []string{"running", "dogs"}, "no stemming"},
		{"was has ties", true, []string{"was", "has", "tie"}, "only tokens longer than 3 are stemmed"},
		{"Skies", true, []string{"sky"}, "lower-cased before stemming, so the irregular table applies"},
	}
	for _, tt := range tests {
		if got := rouge.Tokenize(tt.in, tt.stem); !slices.Equal(got, tt.want) {
			t.Errorf("Tokenize(%q, %v) = %q, want %q (%s)", tt.in, tt.stem, got, tt.want, tt.reason)
		}
	}
}

func TestRouge1(t *testing.T) {
	tests := []struct {
		target, prediction string
		p, r, f            float64   // exact values
		pub                []float64 // published P, R, F (rounded), if any
		reason             string
	}{
		{"testing one two", "testing", 1, 1.0 / 3, 1.0 / 2, []float64{1, 1.0 / 3, 1.0 / 2},
			"rouge_scorer_test.py testRouge1"},
		{"testing one two", "testing one", 1, 2.0 / 3, 4.0 / 5, []float64{1, 2.0 / 3, 4.0 / 5},
			"rouge_scorer_test.py testMultipleRougeTypes (rouge1)"},
		{"testing one two", "", 0, 0, 0, []float64{0, 0, 0},
			"rouge_scorer_test.py testRougeEmpty (rouge1)"},
		{target0, predic0, 11.0 / 16, 11.0 / 27, 22.0 / 43, []float64{0.68750, 0.40741, 0.51163},
			"rouge_scorer_test.py testRouge1AgainstRouge155WithStemming, line 1 (ROUGE-1.5.5 figures)"},
		{target1, predic1, 18.0 / 26, 18.0 / 42, 36.0 / 68, []float64{0.69231, 0.42857, 0.52941},
			"rouge_scorer_test.py testRouge1AgainstRouge155WithStemming, line 2 (ROUGE-1.5.5 figures)"},
		{"", "", 0, 0, 0, nil, "both empty"},
		{"", "anything", 0, 0, 0, nil, "empty target"},
		{"?!", "...", 0, 0, 0, nil, "texts with no token characters"},
		{"red green", "blue", 0, 0, 0, nil, "no overlap"},
		{"the the the", "the", 1, 1.0 / 3, 1.0 / 2, nil, "prediction token matched once"},
		{"the", "the the the", 1.0 / 3, 1, 1.0 / 2, nil, "target token matched once"},
		{"Running runs", "run", 1, 1.0 / 2, 2.0 / 3, nil, "running and runs both stem to run, matched once"},
		{"cats", "cat", 1, 1, 1, nil, "cats (4 letters) is stemmed to cat"},
		{"was", "wa", 0, 0, 0, nil, "was (3 letters) is not stemmed"},
		{"The cat sat on the mat.", "The cats are sitting on the mat", 5.0 / 7, 5.0 / 6, 10.0 / 13, nil,
			"stemmed overlap the×2 cat on mat"},
	}
	for _, tt := range tests {
		got := rouge.Rouge1(tt.target, tt.prediction)
		want := rouge.Score{Precision: tt.p, Recall: tt.r, F: tt.f}
		if !near(got, want, 1e-12) {
			t.Errorf("Rouge1(%q, %q) = %+v, want %+v (%s)", tt.target, tt.prediction, got, want, tt.reason)
		}
		if tt.pub != nil {
			pub := rouge.Score{Precision: tt.pub[0], Recall: tt.pub[1], F: tt.pub[2]}
			// Published to five decimals: within half a unit of the last place.
			if !near(got, pub, 5e-6) {
				t.Errorf("Rouge1(%q, %q) = %+v, published %+v (%s)", tt.target, tt.prediction, got, pub, tt.reason)
			}
		}
	}
}

// TestRouge1WithoutStemming checks the unstemmed figures rouge_score's tests
// publish for the same lines (testRouge1AgainstRouge155): they pin down the
// tokenizer, and line 2 shows that stemming adds exactly one match.
func TestRouge1WithoutStemming(t *testing.T) {
	tests := []struct {
		target, prediction string
		overlap, nt, np    int
		pub                rouge.Score
	}{
		{target0, predic0, 11, 27, 16, rouge.Score{Precision: 0.68750, Recall: 0.40741, F: 0.51163}},
		{target1, predic1, 17, 42, 26, rouge.Score{Precision: 0.65385, Recall: 0.40476, F: 0.50000}},
	}
	for i, tt := range tests {
		tt2 := rouge.Tokenize(tt.target, false)
		pt := rouge.Tokenize(tt.prediction, false)
		counts := map[string]int{}
		for _, tok := range pt {
			counts[tok]++
		}
		overlap := 0
		for _, tok := range tt2 {
			if counts[tok] > 0 {
				counts[tok]--
				overlap++
			}
		}
		if overlap != tt.overlap || len(tt2) != tt.nt || len(pt) != tt.np {
			t.Errorf("line %d: overlap %d of %d target and %d prediction tokens, want %d of %d and %d",
				i+1, overlap, len(tt2), len(pt), tt.overlap, tt.nt, tt.np)
			continue
		}
		p, r := float64(overlap)/float64(len(pt)), float64(overlap)/float64(len(tt2))
		got := rouge.Score{Precision: p, Recall: r, F: 2 * p * r / (p + r)}
		if !near(got, tt.pub, 5e-6) {
			t.Errorf("line %d: %+v, published %+v", i+1, got, tt.pub)
		}
	}
}

func near(a, b rouge.Score, tol float64) bool {
	return math.Abs(a.Precision-b.Precision) <= tol &&
		math.Abs(a.Recall-b.Recall) <= tol &&
		math.Abs(a.F-b.F) <= tol
}

func ExampleRouge1() {
	// The sample pair from rouge_score's RougeScorer documentation.
	s := rouge.Rouge1("The quick brown fox jumps over the lazy dog",
		"The quick brown dog jumps on the log.")
	fmt.Printf("P=%.5f R=%.5f F=%.5f\n", s.Precision, s.Recall, s.F)
	fmt.Println(rouge.Tokenize("The quick brown fox jumps over the lazy dog", true))
	// Output:
	// P=0.75000 R=0.66667 F=0.70588
	// [the quick brown fox jump over the lazi dog]
}

// FuzzRouge checks the documented properties of Rouge1 and Tokenize on
// any pair of texts:
//  1. every value lies in [0, 1], and precision and recall are overlaps
//     over token counts;
//  2. swapping the texts swaps precision and recall and leaves F unchanged;
//  3. a text scored against itself is 1 when it has a token, else 0;
//  4. the order of the tokens does not matter (ROUGE-1 counts unigrams);
//  5. a prediction holding all of the target (and more) has recall 1;
//  6. tokens are non-empty runs of a-z0-9, stable when tokenized again,
//     and the stemmed ones are the plain ones with Stem applied to those
//     longer than three characters;
//  7. the results are deterministic.
func FuzzRouge(f *testing.F) {
	f.Add("testing one two", "testing")
	f.Add(target1, predic1)
	f.Add("", "")
	f.Add("İ\u212A naïve", "ab\xffcd Skies")
	f.Add("yyyyyy conditionally", "generalizations")
	f.Fuzz(func(t *testing.T, target, prediction string) {
		s := rouge.Rouge1(target, prediction)
		if again := rouge.Rouge1(target, prediction); again != s {
			t.Fatalf("Rouge1(%q, %q) = %+v, then %+v", target, prediction, s, again)
		}
		for _, v := range []float64{s.Precision, s.Recall, s.F} {
			if !(v >= 0 && v <= 1) {
				t.Fatalf("Rouge1(%q, %q) = %+v: value outside [0,1]", target, prediction, s)
			}
		}
		nt, np := len(rouge.Tokenize(target, true)), len(rouge.Tokenize(prediction, true))
		if !wholeOver(s.Precision, np) || !wholeOver(s.Recall, nt) {
			t.Fatalf("Rouge1(%q, %q) = %+v: not overlaps over %d and %d tokens", target, prediction, s, np, nt)
		}
		back := rouge.Rouge1(prediction, target)
		if back.F != s.F || back.Precision != s.Recall || back.Recall != s.Precision {
			t.Fatalf("Rouge1 not symmetric: %+v vs swapped %+v", s, back)
		}
		want := rouge.Score{}
		if nt > 0 {
			want = rouge.Score{Precision: 1, Recall: 1, F: 1}
		}
		if self := rouge.Rouge1(target, target); self != want {
			t.Fatalf("Rouge1(%q, itself) = %+v, want %+v", target, self, want)
		}
		plain := rouge.Tokenize(prediction, false)
		reversed := slices.Clone(plain)
		slices.Reverse(reversed)
		if r := rouge.Rouge1(target, strings.Join(reversed, " ")); r != s {
			t.Fatalf("Rouge1(%q, %q) = %+v, but %+v with the prediction's tokens reversed", target, prediction, s, r)
		}
		if nt > 0 {
			if r := rouge.Rouge1(target, target+" "+prediction); r.Recall != 1 {
				t.Fatalf("Rouge1(%q, target + %q) has recall %v, want 1", target, prediction, r.Recall)
			}
		}
		for _, text := range []string{target, prediction} {
			plain := rouge.Tokenize(text, false)
			for _, tok := range plain {
				if tok == "" || strings.Trim(tok, "abcdefghijklmnopqrstuvwxyz0123456789") != "" {
					t.Fatalf("Tokenize(%q) gives token %q", text, tok)
				}
			}
			if again := rouge.Tokenize(strings.Join(plain, " "), false); !slices.Equal(again, plain) {
				t.Fatalf("Tokenize(%q) = %q, but tokenized again %q", text, plain, again)
			}
			var stemmed []string
			for _, tok := range plain {
				if len(tok) > 3 {
					tok = rouge.Stem(tok)
				}
				if tok != "" {
					stemmed = append(stemmed, tok)
				}
			}
			if got := rouge.Tokenize(text, true); !slices.Equal(got, stemmed) {
				t.Fatalf("Tokenize(%q, stem) = %q, want the plain tokens stemmed: %q", text, got, stemmed)
			}
		}
	})
}

// wholeOver reports whether v is k/n for a whole k (v is 0 when n is 0).
func wholeOver(v float64, n int) bool {
	if n == 0 {
		return v == 0
	}
	k := math.Round(v * float64(n))
	return float64(k)/float64(n) == v
}
