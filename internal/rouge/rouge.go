// Package rouge computes ROUGE-1 precision, recall and F-measure with Porter
// stemming, reproducing the figure Google ADK reports as
// response_match_score. ADK obtains it from Google's rouge_score package as
//
//	rouge_scorer.RougeScorer(["rouge1"], use_stemmer=True).score(target, prediction)["rouge1"]
//
// with the expected final response as the target (reference) and the agent's
// final response as the prediction, and uses its fmeasure.
//
// # Tokenizing
//
// [Tokenize] follows rouge_score's default tokenizer (rouge/tokenize.py):
//
//  1. Lower-case the text as Python's str.lower does: A-Z become a-z, the
//     Kelvin sign (U+212A) becomes k, and capital I with dot above (U+0130)
//     becomes i followed by a combining dot, which is not a token character.
//  2. Replace every character other than a-z and 0-9 with a space. Anything
//     non-ASCII therefore separates tokens and never forms part of one;
//     invalid UTF-8 bytes are treated the same way.
//  3. Split on the spaces and drop empty pieces.
//  4. When stemming, replace each token longer than three characters by its
//     Porter stem ([Stem]); tokens of one to three characters are kept as
//     they are.
//
// # Stemming
//
// [Stem] is the Porter (1980) algorithm as NLTK's PorterStemmer runs it by
// default (NLTK_EXTENSIONS mode), which is what rouge_score uses. In Porter's
// terms (y is a vowel after a consonant; m is the number of vowel-consonant
// alternations in the stem; *o means the stem ends consonant-vowel-consonant
// with the last not w, x or y, or is a two-letter vowel-consonant stem), for
// a word w:
//
//  1. If w is in NLTK's irregular table (skies, dying, lying, tying, news,
//     innings, outings, cannings, howe, proceed, exceed, succeed, ...),
//     return its listed stem.
//  2. Lower-case w; if it had at most two characters, return it.
//  3. Step 1a: plurals (sses -> ss, ies -> i, s -> ""), except that a
//     four-letter -ies word becomes -ie.
//  4. Step 1b: -ied becomes -ie (four letters) or -i; else (m>0) eed -> ee;
//     else -ed or -ing goes if a vowel precedes it, and then -at, -bl, -iz
//     get an e back, a double consonant other than l, s, z is undoubled, or
//     a stem with m=1 and *o gets an e.
//  5. Step 1c: a final y after a consonant becomes i.
//  6. Step 2 (m>0): -ational, -tional, -enci, -anci, -izer, -bli, -alli,
//     -entli, -eli, -ousli, -ization, -ation, -ator, -alism, -iveness,
//     -fulness, -ousness, -aliti, -iviti, -biliti, -fulli, -logi are
//     shortened (-alli is tried first and step 2 rerun).
//  7. Step 3 (m>0): -icate, -ative, -alize, -iciti, -ical, -ful, -ness.
//  8. Step 4 (m>1): -al, -ance, -ence, -er, -ic, -able, -ible, -ant,
//     -ement, -ment, -ent, -ion after s or t, -ou, -ism, -ate, -iti, -ous,
//     -ive, -ize are removed.
//  9. Step 5: a final e goes if m>1, or if m=1 and not *o; a final ll
//     becomes l if m>1.
//
// In steps 1a, 2, 3 and 4 only the first listed suffix the word ends with is
// considered. The departures from the 1980 paper are explained in porter.go.
//
// # Scoring
//
// [Rouge1] scores a prediction against a target:
//
//  1. Tokenize both texts with stemming on.
//  2. Count each distinct token on each side.
//  3. overlap = the sum, over the target's distinct tokens, of the smaller of
//     its two counts (tokens are matched with multiplicity).
//  4. Precision = overlap / number of prediction tokens, Recall = overlap /
//     number of target tokens; either is 0 when its side has no tokens.
//  5. F = 2·Precision·Recall / (Precision + Recall), or 0 when
//     Precision + Recall is 0 (no overlap, or an empty side).
//
// All three values lie in [0, 1]. F does not depend on which text is the
// target: swapping the texts swaps Precision and Recall and leaves F
// bit-for-bit unchanged. The arithmetic is done in float64 in the same order
// as rouge_score's Python code, so the figures are the same floats.
package rouge

// Score is a ROUGE-1 result.
type Score struct {
	Precision float64 // overlap / prediction tokens
	Recall    float64 // overlap / target tokens
	F         float64 // harmonic mean of Precision and Recall
}

// Tokenize splits s into rouge_score tokens (see the package documentation),
// Porter-stemming tokens longer than three characters when stem is true.
// The result contains only non-empty strings of a-z and 0-9; it is nil when
// s has no token.
func Tokenize(s string, stem bool) []string {
	var tokens []string
	var cur []byte
	flush := func() {
		if len(cur) == 0 {
			return
		}
		tok := string(cur)
		cur = cur[:0]
		if stem && len(tok) > 3 {
			tok = Stem(tok)
		}
		if validToken(tok) {
			tokens = append(tokens, tok)
		}
	}
	for _, r := range s {
		switch {
		case 'a' <= r && r <= 'z', '0' <= r && r <= '9':
			cur = append(cur, byte(r))
		case 'A' <= r && r <= 'Z':
			cur = append(cur, byte(r-'A'+'a'))
		case r == '\u212A': // KELVIN SIGN lower-cases to k.
			cur = append(cur, 'k')
		case r == '\u0130': // İ lower-cases to i + U+0307; the dot splits.
			cur = append(cur, 'i')
			flush()
		default:
			flush()
		}
	}
	flush()
	return tokens
}

// validToken reports whether tok matches ^[a-z0-9]+$, rouge_score's final
// filter. Stems of such tokens always pass; the check mirrors the source.
func validToken(tok string) bool {
	if tok == "" {
		return false
	}
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// Rouge1 returns the stemmed ROUGE-1 score of prediction against target,
// as rouge_score's RougeScorer(["rouge1"], use_stemmer=True).score(target,
// prediction) computes it.
func Rouge1(target, prediction string) Score {
	t := Tokenize(target, true)
	p := Tokenize(prediction, true)

	predCounts := make(map[string]int, len(p))
	for _, tok := range p {
		predCounts[tok]++
	}
	targetCounts := make(map[string]int, len(t))
	for _, tok := range t {
		targetCounts[tok]++
	}
	overlap := 0
	for tok, n := range targetCounts {
		overlap += min(n, predCounts[tok])
	}

	precision := float64(overlap) / float64(max(len(p), 1))
	recall := float64(overlap) / float64(max(len(t), 1))
	return Score{Precision: precision, Recall: recall, F: fmeasure(precision, recall)}
}

// fmeasure is rouge_score's scoring.fmeasure, evaluated in the same order.
func fmeasure(precision, recall float64) float64 {
	if precision+recall > 0 {
		return 2 * precision * recall / (precision + recall)
	}
	return 0
}
