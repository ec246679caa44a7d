package trace_test

import (
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/trace"
)

var updateDetect = flag.Bool("update-detect", false, "rewrite testdata/detect.golden with the current decisions")

// detectRoots are the folders whose every file TestDetect_golden detects:
// the real corpus and the fixtures of the project, of every reader and of
// this package.
var detectRoots = []string{"../../testdata", "../format", "testdata"}

// TestDetect_golden runs Detect over every file under detectRoots (fuzz
// corpora aside) and compares each decision, the format or the whole
// error, with the one recorded in testdata/detect.golden: a change to how
// formats are sniffed may make detection faster, never different.
func TestDetect_golden(t *testing.T) {
	var lines []string
	for _, root := range detectRoots {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if d.Name() == "fuzz" {
					return fs.SkipDir
				}
				return nil
			}
			if !strings.Contains(filepath.ToSlash(path)+"/", "testdata/") {
				return nil // a reader's source, not its fixtures
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			head := data[:min(len(data), 1<<20)]
			decision := ""
			if f, err := trace.Detect("x", head); err != nil {
				decision = "error: " + strings.ReplaceAll(err.Error(), "\n", `\n`)
			} else {
				decision = f.Name()
			}
			lines = append(lines, filepath.ToSlash(path)+"\t"+decision)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	slices.Sort(lines)
	got := strings.Join(lines, "\n") + "\n"
	const golden = "testdata/detect.golden"
	if *updateDetect {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	b, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -run TestDetect_golden -update-detect to record the decisions)", err)
	}
	want := map[string]string{}
	for _, l := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		path, decision, _ := strings.Cut(l, "\t")
		want[path] = decision
	}
	for _, l := range lines {
		path, decision, _ := strings.Cut(l, "\t")
		w, ok := want[path]
		switch {
		case !ok:
			t.Errorf("%s: not in %s (a new file: record it with -update-detect)", path, golden)
		case w != decision:
			t.Errorf("%s: detected as\n\t%s\nwant\n\t%s", path, decision, w)
		}
		delete(want, path)
	}
	for path := range want {
		t.Errorf("%s: in %s but gone", path, golden)
	}
}
