package suite_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/suite"
)

// FuzzLoad: LoadFile never panics, and every error it returns is a
// SpecError naming the file.
func FuzzLoad(f *testing.F) {
	for _, s := range []string{
		"evalcases:\n  - id: a" + okEval,
		"tests:\n  - id: a\n    assertions:\n      - {type: composite, evaluators: [{type: tool-trajectory, expected: [a]}]}\n",
		"execution:\n  evaluators:\n    - {type: execution_metrics, max_tool_calls: 1}\nevalcases:\n  - {id: a, skip_defaults: true}\n",
		"evalcases:\n  - id: a\n    turns:\n      - input: hi\n        evaluators: [{type: tool_trajectory, expected: [{tool: x, args: {q: {$regex: a}}}]}]\n",
		"{\"eval_set_id\": \"x\", \"eval_cases\": []}",
		"evalcases: [oops", "",
	} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "fuzz.yaml")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		s, errs := suite.LoadFile(path, suite.Options{}, true)
		for _, err := range errs {
			var se *trajeval.SpecError
			if !errors.As(err, &se) {
				t.Fatalf("error %v (%T) is not a SpecError", err, err)
			}
			if se.File != path {
				t.Fatalf("error %v does not name the file", err)
			}
		}
		if s == nil && len(errs) == 0 {
			t.Fatal("no suite and no error for a file the user named")
		}
	})
}
