package suite

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/trace"
)

// notASuite returns the error for a file named as a suite that a trace
// reader claims (trajeval eval run.json, run.json being a recorded run):
// it says how to pass a trace instead. It returns nil when no trace reader
// claims data.
func notASuite(path string, data []byte) error {
	const head = 1 << 20
	if len(data) > head {
		data = data[:head]
	}
	f, err := trace.Detect(path, data)
	if err != nil || f.Name() == "vertex-dataset" {
		// A Vertex AI dataset is both: its predictions are traces and its
		// references a suite, so its own errors stand.
		return nil
	}
	what := "the " + f.Name() + " format"
	if about, _, ok := strings.Cut(trace.About(f.Name()), ":"); ok && !strings.Contains(about, "trace") {
		what += " (" + about + ")"
	}
	return &trajeval.SpecError{File: path,
		Msg:  "this file looks like a trace in " + what + ", not a suite",
		Hint: fmt.Sprintf("pass it with --traces %s, or name it in a case's trace: key; trajeval init --from %s writes a suite from it", path, path)}
}

// firstTrace returns the first of paths that a trace reader claims, "" if
// none.
func firstTrace(paths []string) string {
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			continue
		}
		head := make([]byte, 64<<10)
		n, _ := io.ReadFull(f, head)
		f.Close()
		if _, err := trace.Detect(p, head[:n]); err == nil {
			return p
		}
	}
	return ""
}
