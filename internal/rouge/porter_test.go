package rouge_test

import (
	"bufio"
	"os"
	"path/filepath"
	"testing"

	"github.com/trajeval/trajeval/internal/rouge"
)

// Sources of the expected stems:
//
//	voc     Martin Porter's published test vocabulary and its stems,
//	        https://tartarus.org/martin/PorterStemmer/voc.txt and output.txt
//	        (only words on which NLTK's extensions make no difference).
//	doctest NLTK's nltk/test/stem.doctest ("Test the stemmer on various
//	        pluralised words").
//	unit    NLTK's nltk/test/unit/test_stem.py.
//	nltk    examples given in NLTK's porter.py for its extensions, and its
//	        table of irregular forms.
func TestStem(t *testing.T) {
	tests := []struct {
		word, want string
		reason     string
	}{
		// Step 1a.
		{"blesses", "bless", "voc: sses -> ss"},
		{"abilities", "abil", "voc: ies -> i, then biliti -> ble, then able goes"},
		{"abbess", "abbess", "voc: ss stays"},
		{"cats", "cat", "voc: final s goes"},
		// Step 1b.
		{"feed", "feed", "voc: eed needs m>0 and -ed is not tried instead"},
		{"agreed", "agre", "voc: eed -> ee, then step 5a drops e"},
		{"bled", "bled", "voc: ed needs a vowel in the stem"},
		{"abated", "abat", "voc: ed goes, at -> ate, step 4 drops ate"},
		{"troubled", "troubl", "voc: bl -> ble, then step 5a drops e"},
		{"authorized", "author", "voc: iz -> ize, step 4 drops ize"},
		{"chopping", "chop", "voc: double consonant undoubled"},
		{"tanned", "tan", "voc: double consonant undoubled after ed"},
		{"falling", "fall", "voc: double l is kept"},
		{"addressing", "address", "voc: double s is kept"},
		{"failing", "fail", "voc: m=1 but not cvc: no e added"},
		{"sing", "sing", "voc: ing needs a vowel in the stem"},
		// Step 1c.
		{"happy", "happi", "voc: y -> i after a consonant"},
		// Step 2.
		{"rational", "ration", "voc: ational matches first but m=0, tional is not tried"},
		{"clemency", "clemenc", "voc: enci -> ence, then step 4 drops ence"},
		{"arrogancy", "arrog", "voc: anci -> ance, then step 4 drops ance"},
		{"abominably", "abomin", "voc: bli -> ble (Martin's change to abli -> able)"},
		{"accidentally", "accident", "voc: alli -> al, step 4 drops al"},
		{"apparently", "appar", "voc: entli -> ent, step 4 drops ent"},
		{"adventurously", "adventur", "voc: ousli -> ous, step 4 drops ous"},
		{"accommodation", "accommod", "voc: ation -> ate, step 4 drops ate"},
		{"alligator", "allig", "voc: ator -> ate, step 4 drops ate"},
		{"forgiveness", "forgiv", "voc: iveness -> ive, step 4 drops ive"},
		{"bashfulness", "bash", "voc: fulness -> ful, step 3 drops ful"},
		{"covetousness", "covet", "voc: ousness -> ous, step 4 drops ous"},
		{"activity", "activ", "voc: iviti -> ive, step 4 drops ive"},
		{"apology", "apolog", "voc: logi -> log"},
		// Step 3.
		{"certificate", "certif", "voc: icate -> ic, step 4 drops ic"},
		{"accusative", "accus", "voc: ative goes"},
		{"moralize", "moral", "voc: alize -> al"},
		{"felicity", "felic", "voc: iciti -> ic, step 4 drops ic"},
		{"alphabetical", "alphabet", "voc: ical -> ic, step 4 drops ic"},
		{"baleful", "bale", "voc: ful goes; m=1 cvc keeps the e"},
		{"amazedness", "amazed", "voc: ness goes"},
		// Step 4.
		{"abundance", "abund", "voc: ance goes when m>1"},
		{"absence", "absenc", "voc: ence stays when m=1; step 5a drops e"},
		{"absolver", "absolv", "voc: er goes"},
		{"adriatic", "adriat", "voc: ic goes"},
		{"accessible", "access", "voc: ible goes"},
		{"abundant", "abund", "voc: ant goes"},
		{"abatement", "abat", "voc: ement goes"},
		{"admission", "admiss", "voc: ion goes after s"},
		{"abruption", "abrupt", "voc: ion goes after t"},
		{"baptism", "baptism", "voc: ism stays when m=1"},
		{"abstemious", "abstemi", "voc: ous goes"},
		{"abortive", "abort", "voc: ive goes"},
		// Step 5.
		{"agnize", "agniz", "voc: e goes when m=1 and not cvc"},
		{"ampthill", "ampthil", "voc: ll -> l when m>1"},
		{"abbominable", "abbomin", "voc: several steps"},
		// NLTK's own test expectations.
		{"caresses", "caress", "doctest"},
		{"flies", "fli", "doctest: NLTK -ies rule for longer words"},
		{"dies", "die", "doctest: NLTK -ies rule for four-letter words"},
		{"mules", "mule", "doctest"},
		{"denied", "deni", "doctest: NLTK -ied rule for longer words"},
		{"died", "die", "doctest: NLTK -ied rule for four-letter words"},
		{"agreed", "agre", "doctest"},
		{"owned", "own", "doctest"},
		{"humbled", "humbl", "doctest"},
		{"sized", "size", "doctest"},
		{"meeting", "meet", "doctest"},
		{"stating", "state", "doctest"},
		{"siezing", "siez", "doctest"},
		{"itemization", "item", "doctest"},
		{"sensational", "sensat", "doctest"},
		{"traditional", "tradit", "doctest"},
		{"reference", "refer", "doctest"},
		{"colonizer", "colon", "doctest"},
		{"plotted", "plot", "doctest"},
		{"oed", "o", "unit: nltk issue 1581, must not fail"},
		{"On", "on", "unit: lower-cased"},
		{"I", "i", "unit: short words are only lower-cased"},
		{"Github", "github", "unit: lower-cased before stemming"},
		// NLTK extensions, as documented in its porter.py.
		{"spied", "spi", "nltk: spied -> spi"},
		{"enjoy", "enjoy", "nltk: y after a vowel stays"},
		{"spy", "spi", "nltk: y -> i after a consonant even with no vowel"},
		{"cry", "cri", "nltk: as spy"},
		{"by", "by", "nltk: words of two letters are left alone"},
		{"skies", "sky", "nltk: irregular forms table"},
		{"sky", "sky", "nltk: irregular forms table"},
		{"dying", "die", "nltk: irregular forms table"},
		{"lying", "lie", "nltk: irregular forms table"},
		{"tying", "tie", "nltk: irregular forms table"},
		{"news", "news", "nltk: irregular forms table"},
		{"innings", "inning", "nltk: irregular forms table"},
		{"outings", "outing", "nltk: irregular forms table"},
		{"cannings", "canning", "nltk: irregular forms table"},
		{"howe", "howe", "nltk: irregular forms table"},
		{"proceed", "proceed", "nltk: irregular forms table"},
		{"exceed", "exceed", "nltk: irregular forms table"},
		{"succeed", "succeed", "nltk: irregular forms table"},
		{"Skies", "ski", "nltk: the table is consulted before lower-casing"},
		{"geology", "geolog", "nltk: the l of logi counts in the measure"},
		{"conditionally", "condit", "nltk: alli -> al, then step 2 again"},
		{"carefully", "care", "nltk: fulli -> ful"},
		{"owing", "owe", "nltk: two-letter vc stem counts as cvc"},
		{"use", "use", "nltk: two-letter vc stem counts as cvc"},
		// Odd input.
		{"", "", "empty word"},
		{"x", "x", "one letter"},
		{"ies", "i", "no four-letter special case at three letters"},
		{"yyyyyy", "yyyyyi", "y alternates consonant/vowel, so the last y follows a consonant"},
		{"r2d2ing", "r2d2ing", "digits are consonants: no vowel before ing"},
		{"CAFÉS", "café", "non-ASCII letters are consonants"},
	}
	for _, tt := range tests {
		if got := rouge.Stem(tt.word); got != tt.want {
			t.Errorf("Stem(%q) = %q, want %q (%s)", tt.word, got, tt.want, tt.reason)
		}
	}
}

// TestStemMartinVocabulary checks the core algorithm against all of Martin
// Porter's published vocabulary (testdata/porter, whose README names the
// source).
func TestStemMartinVocabulary(t *testing.T) {
	dir := filepath.Join("testdata", "porter")
	words := readLines(t, filepath.Join(dir, "voc.txt"))
	stems := readLines(t, filepath.Join(dir, "output.txt"))
	if len(words) != len(stems) {
		t.Fatalf("voc.txt has %d lines, output.txt %d", len(words), len(stems))
	}
	bad := 0
	for i, w := range words {
		if got := rouge.StemMartin(w); got != stems[i] {
			bad++
			if bad <= 20 {
				t.Errorf("StemMartin(%q) = %q, want %q", w, got, stems[i])
			}
		}
	}
	if len(words) != 23531 {
		t.Errorf("voc.txt has %d words, want the 23531 of the published vocabulary", len(words))
	}
	if bad > 0 {
		t.Logf("%d words, %d mismatches", len(words), bad)
	}
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
}
