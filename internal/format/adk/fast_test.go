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
