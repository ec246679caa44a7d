package adk_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/format/adk"
	"github.com/trajeval/trajeval/internal/format/formattest"
)

// TestSession_fastAndSlow reads lists of sessions twice: as they are, and
// with a session that jsonv's Parser refuses (a lone surrogate, which
// encoding/json reads) put at each place in the list, so that the reader
// leaves the Parser there and reads the rest as it always did. Each time,
// every other session reads to the same trajectory, with the same
// warnings at the same lines, whether the Parser or encoding/json read it.
func TestSession_fastAndSlow(t *testing.T) {
	var sessions []string
	files, _ := filepath.Glob("../../../testdata/real/adk-session/*.json")
	more, _ := filepath.Glob("testdata/adk-session/*.session.json")
	for _, name := range append(files, more...) {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if d := bytes.TrimSpace(data); len(d) > 0 && d[0] == '{' {
			sessions = append(sessions, string(d))
		}
	}
	if len(sessions) < 3 {
		t.Fatalf("%d sessions in the test files", len(sessions))
	}
	const refused = `{"id": "odd \ud800", "events": [{"author": "user", "invocation_id": "i", "content": {"parts": [{"text": "hi"}], "role": "user"}}]}`
	list := func(ss []string) []byte { return []byte("[\n" + strings.Join(ss, ",\n") + "\n]\n") }
	read := func(data []byte) []string {
		out, warns, err := formattest.Read(adk.SessionFormat, "sessions.json", data)
		if err != nil {
			t.Fatal(err)
		}
		return append(strings.Split(strings.TrimSpace(string(out)), "\n"), string(warns))
	}
	fast := read(list(sessions))
	for k := 0; k <= len(sessions); k++ {
		with := append(append(append([]string{}, sessions[:k]...), refused), sessions[k:]...)
		got := read(list(with))
		if len(got) != len(fast)+1 {
			t.Fatalf("refused session at %d: %d trajectories, want %d", k, len(got)-1, len(fast))
		}
		got = append(got[:k], got[k+1:]...) // the refused session's trajectory
		for i := range len(sessions) {
			if got[i] != fast[i] {
				t.Errorf("refused session at %d: session %d reads\n%s\nwant\n%s", k, i, got[i], fast[i])
			}
		}
		if gw, fw := lineless(got[len(got)-1]), lineless(fast[len(fast)-1]); gw != fw {
			t.Errorf("refused session at %d: warnings\n%s\nwant\n%s", k, gw, fw)
		}
	}
}

// lineless drops the places of warnings, which move down by the lines of
// the session put in.
func lineless(warns string) string {
	var b strings.Builder
	for _, w := range strings.Split(warns, "\n") {
		if _, rest, ok := strings.Cut(w, ": "); ok {
			w = rest
		}
		b.WriteString(w + "\n")
	}
	return b.String()
}

// FuzzSession_fastAndSlow reads a list of sessions as it is and with a
// session the Parser refuses put first, on a line of its own, so that
// encoding/json reads all of it: the same trajectories after that one,
// and an error either both ways or neither.
func FuzzSession_fastAndSlow(f *testing.F) {
	for _, glob := range []string{"../../../testdata/real/adk-session/*.json", "testdata/adk-session/*.session.json"} {
		files, _ := filepath.Glob(glob)
		for _, name := range files {
			if data, err := os.ReadFile(name); err == nil {
				f.Add([]byte("[" + string(data) + "]"))
			}
		}
	}
	const refused = `{"id": "\ud800", "events": []}`
	f.Fuzz(func(t *testing.T, data []byte) {
		d := bytes.TrimLeft(data, " \t\r\n")
		if len(d) == 0 || d[0] != '[' || bytes.HasPrefix(bytes.TrimLeft(d[1:], " \t\r\n"), []byte("]")) {
			return
		}
		fo, _, ferr := formattest.Read(adk.SessionFormat, "s.json", data)
		so, _, serr := formattest.Read(adk.SessionFormat, "s.json", []byte("[\n"+refused+",\n"+string(d[1:])))
		if (ferr == nil) != (serr == nil) {
			t.Fatalf("error %v read by the Parser, %v by encoding/json", ferr, serr)
		}
		if ferr != nil {
			return
		}
		_, rest, _ := strings.Cut(string(so), "\n")
		if string(fo) != rest {
			t.Fatalf("read by the Parser:\n%s\nby encoding/json:\n%s", fo, rest)
		}
	})
}
