package rouge

import (
	"unicode"
	"unicode/utf8"
)

// This file is a from-scratch Go implementation of the suffix-stripping
// algorithm of M. F. Porter, "An algorithm for suffix stripping", Program
// 14(3), 1980, pp. 130-137, in the variant that NLTK's PorterStemmer runs by
// default (mode NLTK_EXTENSIONS). rouge_score stems with exactly that
// stemmer, so every departure from the 1980 paper that changes a result is
// reproduced here and flagged "NLTK:" or "Martin:" where it is applied:
//
//   - Martin: Porter's own later revisions, which NLTK keeps in every mode
//     except ORIGINAL_ALGORITHM: words of one or two letters are returned
//     unchanged; step 2 rewrites -bli as -ble instead of -abli as -able;
//     step 2 also rewrites -logi as -log.
//   - NLTK: a short table of irregular words whose stem is fixed in advance
//     (skies -> sky, dying -> die, proceed -> proceed, ...). The table is
//     consulted with the word as given, before it is lower-cased.
//   - NLTK: a four-letter word ending in -ies or -ied keeps its e
//     (dies -> die, tied -> tie), while longer ones lose it (flies -> fli,
//     spied -> spi). For -ied that is all step 1b does to the word.
//   - NLTK: final y becomes i exactly when a consonant precedes it
//     (happy -> happi, cry -> cri, but enjoy -> enjoy); the paper's test is
//     "the stem contains a vowel" instead, which keeps cry and turns enjoy
//     into enjoi.
//   - NLTK: -alli is rewritten to -al first and step 2 is run again on the
//     result; -fulli becomes -ful; the -logi rule counts the l with the stem
//     when it measures it (so geology -> geolog, not geologi).
//   - NLTK: the "*o" test (stem ends consonant-vowel-consonant) also holds
//     for a two-letter stem that is vowel-consonant, whatever the consonant.
//
// Martin Porter's published vocabulary (voc.txt/output.txt) corresponds to
// the Martin rules alone; stemMartin exposes that variant so the package
// tests can check the common core against the full published list.

// irregular maps a word to the stem NLTK assigns it without running the
// algorithm (NLTK's table of irregular forms).
var irregular = map[string]string{
	"sky":      "sky",
	"skies":    "sky",
	"dying":    "die",
	"lying":    "lie",
	"tying":    "tie",
	"news":     "news",
	"inning":   "inning",
	"innings":  "inning",
	"outing":   "outing",
	"outings":  "outing",
	"canning":  "canning",
	"cannings": "canning",
	"howe":     "howe",
	"proceed":  "proceed",
	"exceed":   "exceed",
	"succeed":  "succeed",
}

// Stem returns the Porter stem of word as NLTK's PorterStemmer().stem(word)
// does: the irregular-word table is consulted first, words of at most two
// characters are only lower-cased, and everything else is lower-cased and run
// through steps 1a to 5b. Characters other than a, e, i, o, u and y count as
// consonants, so digits and non-ASCII letters are simply carried along.
func Stem(word string) string { return stem(word, true) }

// stemMartin is Stem without the NLTK extensions: the variant whose output
// Martin Porter publishes for his test vocabulary.
func stemMartin(word string) string { return stem(word, false) }

func stem(word string, nltk bool) string {
	if nltk {
		if s, ok := irregular[word]; ok {
			return s
		}
	}
	lower := lowerPy(word)
	if utf8.RuneCountInString(word) <= 2 {
		return lower
	}
	w := []rune(lower)
	w = step1a(w, nltk)
	w = step1b(w, nltk)
	w = step1c(w, nltk)
	w = step2(w, nltk)
	w = step3(w)
	w = step4(w)
	w = step5a(w, nltk)
	w = step5b(w)
	return string(w)
}

// lowerPy lower-cases s the way Python's str.lower does for every character
// whose lower case matters here: Go's per-rune mapping, except that capital
// I with dot above (U+0130) becomes i followed by a combining dot (U+0307),
// as Python's full case mapping has it. (Python's context-dependent final
// sigma is not reproduced; it cannot affect a Porter rule.)
func lowerPy(s string) string {
	out := make([]rune, 0, len(s))
	for _, r := range s {
		if r == '\u0130' {
			out = append(out, 'i', '\u0307')
			continue
		}
		out = append(out, unicode.ToLower(r))
	}
	return string(out)
}

// consonants reports, for each letter of w, whether it is a consonant in the
// paper's sense: anything but a, e, i, o, u, where y is a consonant at the
// start of the word or after a vowel, and a vowel after a consonant.
func consonants(w []rune) []bool {
	c := make([]bool, len(w))
	for i, r := range w {
		switch r {
		case 'a', 'e', 'i', 'o', 'u':
			c[i] = false
		case 'y':
			c[i] = i == 0 || !c[i-1]
		default:
			c[i] = true
		}
	}
	return c
}

// measure is the paper's m: the number of vowel-run/consonant-run pairs in
// [C](VC){m}[V], i.e. how often a vowel is directly followed by a consonant.
func measure(w []rune) int {
	c := consonants(w)
	m := 0
	for i := 0; i+1 < len(c); i++ {
		if !c[i] && c[i+1] {
			m++
		}
	}
	return m
}

func positive(w []rune) bool { return measure(w) > 0 }

func aboveOne(w []rune) bool { return measure(w) > 1 }

// hasVowel is the paper's *v*.
func hasVowel(w []rune) bool {
	for _, cons := range consonants(w) {
		if !cons {
			return true
		}
	}
	return false
}

// endsDouble is the paper's *d: the last two letters are the same consonant.
func endsDouble(w []rune) bool {
	n := len(w)
	return n >= 2 && w[n-1] == w[n-2] && consonants(w)[n-1]
}

// endsCVC is the paper's *o: consonant, vowel, consonant, the last not w, x
// or y. NLTK also accepts a two-letter stem made of a vowel and a consonant.
func endsCVC(w []rune, nltk bool) bool {
	n := len(w)
	c := consonants(w)
	if n >= 3 && c[n-3] && !c[n-2] && c[n-1] {
		switch w[n-1] {
		case 'w', 'x', 'y':
		default:
			return true
		}
	}
	return nltk && n == 2 && !c[0] && c[1]
}

func hasSuffix(w []rune, suffix string) bool {
	if len(suffix) > len(w) {
		return false
	}
	off := len(w) - len(suffix)
	for i := 0; i < len(suffix); i++ {
		if w[off+i] != rune(suffix[i]) {
			return false
		}
	}
	return true
}

// join returns a new slice holding stem followed by the ASCII text tail.
func join(stem []rune, tail string) []rune {
	out := make([]rune, 0, len(stem)+len(tail))
	out = append(out, stem...)
	for i := 0; i < len(tail); i++ {
		out = append(out, rune(tail[i]))
	}
	return out
}

// rule replaces suffix by repl when cond (nil: always) holds for what is left
// of the word once the suffix is removed.
type rule struct {
	suffix, repl string
	cond         func(stem []rune) bool
}

// apply runs the first rule of the list whose suffix the word has. Its
// condition decides whether the word changes; either way the later rules of
// the list are not tried, as in the paper ("the longest matching suffix").
func apply(w []rune, rules []rule) []rune {
	for _, r := range rules {
		if !hasSuffix(w, r.suffix) {
			continue
		}
		stem := w[:len(w)-len(r.suffix)]
		if r.cond == nil || r.cond(stem) {
			return join(stem, r.repl)
		}
		return w
	}
	return w
}

// step1a removes plural endings: sses -> ss, ies -> i, ss stays, s goes.
func step1a(w []rune, nltk bool) []rune {
	// NLTK: a four-letter word in -ies only loses the s (dies -> die).
	if nltk && len(w) == 4 && hasSuffix(w, "ies") {
		return join(w[:1], "ie")
	}
	return apply(w, []rule{
		{"sses", "ss", nil},
		{"ies", "i", nil},
		{"ss", "ss", nil},
		{"s", "", nil},
	})
}

// step1b removes -eed, -ed and -ing, then repairs the stem left behind.
func step1b(w []rune, nltk bool) []rune {
	// NLTK: -ied is settled here and nothing else of step 1b runs; a
	// four-letter word keeps its e (died -> die), longer ones do not
	// (spied -> spi).
	if nltk && hasSuffix(w, "ied") {
		if len(w) == 4 {
			return join(w[:1], "ie")
		}
		return join(w[:len(w)-3], "i")
	}
	// (m>0) eed -> ee. A word in -eed never falls through to the -ed rule,
	// which is why feed stays feed.
	if hasSuffix(w, "eed") {
		stem := w[:len(w)-3]
		if positive(stem) {
			return join(stem, "ee")
		}
		return w
	}
	var stem []rune
	switch {
	case hasSuffix(w, "ed") && hasVowel(w[:len(w)-2]):
		stem = w[:len(w)-2]
	case hasSuffix(w, "ing") && hasVowel(w[:len(w)-3]):
		stem = w[:len(w)-3]
	default:
		return w
	}
	// The suffix went: put an e back after -at, -bl, -iz; undouble a final
	// double consonant other than l, s, z; add e to a short cvc stem.
	switch {
	case hasSuffix(stem, "at"), hasSuffix(stem, "bl"), hasSuffix(stem, "iz"):
		return join(stem, "e")
	case endsDouble(stem):
		switch stem[len(stem)-1] {
		case 'l', 's', 'z':
			return stem
		}
		return stem[:len(stem)-1]
	case measure(stem) == 1 && endsCVC(stem, nltk):
		return join(stem, "e")
	}
	return stem
}

// step1c turns a final y into i.
func step1c(w []rune, nltk bool) []rune {
	cond := hasVowel
	if nltk {
		// NLTK: only after a consonant, and not when that consonant is
		// the whole stem (cry -> cri, enjoy -> enjoy). Two-letter words
		// never get here, so in effect: whenever a consonant precedes.
		cond = func(stem []rune) bool {
			return len(stem) > 1 && consonants(stem)[len(stem)-1]
		}
	}
	return apply(w, []rule{{"y", "i", cond}})
}

// step2 maps double suffixes to single ones when the stem has m > 0.
func step2(w []rune, nltk bool) []rune {
	// NLTK: -alli -> -al is tried before anything else, and when it fires
	// the shortened word goes through step 2 once more.
	if nltk && hasSuffix(w, "alli") && positive(w[:len(w)-4]) {
		return step2(join(w[:len(w)-4], "al"), nltk)
	}
	rules := []rule{
		{"ational", "ate", positive},
		{"tional", "tion", positive},
		{"enci", "ence", positive},
		{"anci", "ance", positive},
		{"izer", "ize", positive},
		{"bli", "ble", positive}, // Martin: the paper has abli -> able.
		{"alli", "al", positive},
		{"entli", "ent", positive},
		{"eli", "e", positive},
		{"ousli", "ous", positive},
		{"ization", "ize", positive},
		{"ation", "ate", positive},
		{"ator", "ate", positive},
		{"alism", "al", positive},
		{"iveness", "ive", positive},
		{"fulness", "ful", positive},
		{"ousness", "ous", positive},
		{"aliti", "al", positive},
		{"iviti", "ive", positive},
		{"biliti", "ble", positive},
	}
	if nltk {
		rules = append(rules,
			rule{"fulli", "ful", positive},
			// The l of -logi is measured as part of the stem.
			rule{"logi", "log", func(stem []rune) bool {
				return positive(w[:len(w)-3])
			}},
		)
	} else {
		rules = append(rules, rule{"logi", "log", positive}) // Martin.
	}
	return apply(w, rules)
}

// step3 removes or shortens -ic-, -ful, -ness and friends when m > 0.
func step3(w []rune) []rune {
	return apply(w, []rule{
		{"icate", "ic", positive},
		{"ative", "", positive},
		{"alize", "al", positive},
		{"iciti", "ic", positive},
		{"ical", "ic", positive},
		{"ful", "", positive},
		{"ness", "", positive},
	})
}

// step4 strips the remaining suffixes when m > 1.
func step4(w []rune) []rune {
	return apply(w, []rule{
		{"al", "", aboveOne},
		{"ance", "", aboveOne},
		{"ence", "", aboveOne},
		{"er", "", aboveOne},
		{"ic", "", aboveOne},
		{"able", "", aboveOne},
		{"ible", "", aboveOne},
		{"ant", "", aboveOne},
		{"ement", "", aboveOne},
		{"ment", "", aboveOne},
		{"ent", "", aboveOne},
		{"ion", "", func(stem []rune) bool {
			if !aboveOne(stem) {
				return false
			}
			last := stem[len(stem)-1]
			return last == 's' || last == 't'
		}},
		{"ou", "", aboveOne},
		{"ism", "", aboveOne},
		{"ate", "", aboveOne},
		{"iti", "", aboveOne},
		{"ous", "", aboveOne},
		{"ive", "", aboveOne},
		{"ize", "", aboveOne},
	})
}

// step5a drops a final e when m > 1, or when m = 1 and the stem does not end
// cvc. Unlike the other steps both conditions are tried for the one suffix.
func step5a(w []rune, nltk bool) []rune {
	if !hasSuffix(w, "e") {
		return w
	}
	stem := w[:len(w)-1]
	m := measure(stem)
	if m > 1 || (m == 1 && !endsCVC(stem, nltk)) {
		return stem
	}
	return w
}

// step5b turns a final ll into l when m > 1.
func step5b(w []rune) []rune {
	if hasSuffix(w, "ll") && aboveOne(w[:len(w)-1]) {
		return w[:len(w)-1]
	}
	return w
}
