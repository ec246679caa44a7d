package secret_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/trajeval/trajeval/internal/secret"
)

// FuzzScrubber_String checks the package's first rule on any secret and
// text: no 8-byte run of the secret survives. Secrets holding a bracket
// are left out: the marker's own text could then rebuild a window.
func FuzzScrubber_String(f *testing.F) {
	f.Add("sk-test-SECRET-0123456789", "Bearer sk-test-SECRET-0123456789")
	f.Add("sk-test-SECRET-0123456789", strings.Repeat("x", 290)+"sk-test-SECRET-012")
	f.Add("aaaaaaaaaaaa", "aaaaaaaaabaaaaaaaa")
	f.Add("clé-secrète-été", "ét clé-secrète-été")
	f.Fuzz(func(t *testing.T, key, text string) {
		if strings.ContainsAny(key, "[]") {
			return
		}
		got := secret.NewScrubber(key).String(text)
		for i := 0; i+secret.Window <= len(key); i++ {
			if w := key[i : i+secret.Window]; strings.Contains(got, w) {
				t.Fatalf("String(%q) = %q keeps %q of the secret", text, got, w)
			}
		}
		if utf8.ValidString(text) && !utf8.ValidString(got) {
			t.Fatalf("String(%q) = %q: valid text became invalid", text, got)
		}
	})
}
