package gemini_test

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/trajeval/trajeval/internal/format/formattest"
	"github.com/trajeval/trajeval/internal/format/gemini"
)

// TestChat_fastAndSlow reads each session of the one-object shape twice:
// with its projectHash, which no trajectory shows, a plain string, so that
// a jsonv.Parser reads the file, and a lone surrogate, which the Parser
// refuses and encoding/json reads. The trajectory, the warnings and their
// lines are the same either way.
func TestChat_fastAndSlow(t *testing.T) {
	files, _ := filepath.Glob("../../../testdata/real/gemini-chat/*.json")
	more, _ := filepath.Glob("testdata/gemini-chat/*.json")
	hash := regexp.MustCompile(`"projectHash":\s*"[^"]*"`)
	read := 0
	for _, name := range append(files, more...) {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if !hash.Match(data) {
			continue
		}
		read++
		fast := hash.ReplaceAll(data, []byte(`"projectHash": "h"`))
		slow := hash.ReplaceAll(data, []byte(`"projectHash": "\ud800"`))
		fo, fw, ferr := formattest.Read(gemini.Chat, filepath.Base(name), fast)
		so, sw, serr := formattest.Read(gemini.Chat, filepath.Base(name), slow)
		if string(fo) != string(so) || string(fw) != string(sw) || (ferr == nil) != (serr == nil) {
			t.Errorf("%s: read by the Parser:\n%s%s%v\nby encoding/json:\n%s%s%v", name, fo, fw, ferr, so, sw, serr)
		}
	}
	if read < 2 {
		t.Fatalf("%d sessions of the one-object shape", read)
	}
}
