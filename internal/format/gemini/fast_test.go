package gemini_test

import (
	"bytes"
	"fmt"
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

// FuzzChat_fastAndSlow reads a session object with a projectHash the
// Parser reads, and with one it refuses, which encoding/json reads, as
// long (so that errors are placed alike): the same trajectory, warnings
// and error.
func FuzzChat_fastAndSlow(f *testing.F) {
	for _, glob := range []string{"../../../testdata/real/gemini-chat/*.json", "testdata/gemini-chat/*.json"} {
		files, _ := filepath.Glob(glob)
		for _, name := range files {
			if data, err := os.ReadFile(name); err == nil {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d := bytes.TrimLeft(data, " \t\r\n")
		if len(d) == 0 || d[0] != '{' {
			return
		}
		fo, fw, ferr := formattest.Read(gemini.Chat, "c.json", append([]byte(`{"projectHash": "xxxxxx",`), d[1:]...))
		so, sw, serr := formattest.Read(gemini.Chat, "c.json", append([]byte(`{"projectHash": "\ud800",`), d[1:]...))
		if string(fo) != string(so) || string(fw) != string(sw) || fmt.Sprint(ferr) != fmt.Sprint(serr) {
			t.Fatalf("read by the Parser:\n%s%s%v\nby encoding/json:\n%s%s%v", fo, fw, ferr, so, sw, serr)
		}
	})
}
