package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestExamples_readme checks examples/README.md against the examples: each
// folder's section has a table of its cases (case | verdict | why), and
// trajeval eval on the folder gives exactly those cases with exactly those
// verdicts. The README can therefore never drift from what the examples do.
func TestExamples_readme(t *testing.T) {
	const dir = "../../examples"
	readme, err := os.ReadFile(filepath.Join(dir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	tables, err := readmeTables(readme)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var folders []string
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue // hidden folders (.trajeval: the run history) hold no suites
		}
		if _, err := os.Stat(filepath.Join(dir, e.Name(), "go.mod")); err == nil {
			continue // a Go module (go-library), tested by its own go test
		}
		folders = append(folders, e.Name())
	}
	for name := range tables {
		if !slices.Contains(folders, name) {
			t.Errorf("README has a section for %s, which is not a folder of examples/", name)
		}
	}
	all := map[string]string{}
	for _, folder := range folders {
		t.Run(folder, func(t *testing.T) {
			want, ok := tables[folder]
			if !ok {
				t.Fatalf("examples/README.md has no section \"## %s\" with a case table", folder)
			}
			got := evalVerdicts(t, filepath.Join(dir, folder))
			compareVerdicts(t, got, want)
			for id, v := range got {
				all[folder+"/"+id] = v
			}
		})
	}

	// The README's first command runs every folder at once: the same cases,
	// the same verdicts.
	t.Run("all", func(t *testing.T) {
		got := evalVerdicts(t, dir)
		n := 0
		for _, rows := range tables {
			n += len(rows)
		}
		if len(got) != n {
			t.Errorf("trajeval eval examples scores %d cases, the README's tables list %d", len(got), n)
		}
		for key, v := range all {
			id := key[strings.IndexByte(key, '/')+1:]
			if got[id] != v {
				t.Errorf("case %s: %q when its folder runs alone, %q when all examples run", key, v, got[id])
			}
		}
	})
}

// compareVerdicts reports every case whose verdict differs, and every case
// only one side has.
func compareVerdicts(t *testing.T, got, want map[string]string) {
	t.Helper()
	for id, v := range want {
		g, ok := got[id]
		switch {
		case !ok:
			t.Errorf("case %s is in the README's table but trajeval does not score it", id)
		case g != v:
			t.Errorf("case %s: the README says %s, trajeval says %s", id, v, g)
		}
	}
	for id, v := range got {
		if _, ok := want[id]; !ok {
			t.Errorf("case %s (%s) is not in the README's table", id, v)
		}
	}
}

// evalVerdicts runs trajeval eval on path and returns each case's status
// by case id.
func evalVerdicts(t *testing.T, path string) map[string]string {
	t.Helper()
	got := map[string]string{}
	for _, line := range evalRows(t, path) {
		var row struct {
			ID, Status string
			Attempt    int
		}
		if err := json.Unmarshal(line, &row); err != nil {
			t.Fatalf("result row %q: %v", line, err)
		}
		if row.Attempt > 0 {
			// A trial of the case: the README names it "id (attempt N)".
			row.ID = fmt.Sprintf("%s (attempt %d)", row.ID, row.Attempt)
		}
		if _, dup := got[row.ID]; dup {
			t.Errorf("case %s is scored twice", row.ID)
		}
		got[row.ID] = row.Status
	}
	if len(got) == 0 {
		t.Fatalf("trajeval eval %s scored no case", path)
	}
	return got
}

// evalRows runs trajeval eval with args (and --format jsonl) and returns
// its result rows; an exit code other than 0 or 1 fails the test.
func evalRows(t *testing.T, args ...string) [][]byte {
	t.Helper()
	var out, errb bytes.Buffer
	stdin, _ := os.Open(os.DevNull)
	defer stdin.Close()
	err := execute(context.Background(), append(append([]string{"eval"}, args...), "--format", "jsonl"), stdin, &out, &errb)
	if code := exitCode(err, &errb); code != 0 && code != 1 {
		t.Fatalf("trajeval eval %s: exit %d\n%s", strings.Join(args, " "), code, errb.String())
	}
	var rows [][]byte
	sc := bufio.NewScanner(&out)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		rows = append(rows, slices.Clone(sc.Bytes()))
	}
	return rows
}

// readmeTables reads the case tables of examples/README.md: under each
// "## folder (...)" heading, the rows of its table "| case | verdict | why |",
// as case → verdict by folder.
func readmeTables(md []byte) (map[string]map[string]string, error) {
	tables := map[string]map[string]string{}
	folder := ""
	header := false
	for i, line := range strings.Split(string(md), "\n") {
		line = strings.TrimSpace(line)
		if h, ok := strings.CutPrefix(line, "## "); ok {
			folder, _, _ = strings.Cut(h, " ")
			header = false
			continue
		}
		if !strings.HasPrefix(line, "|") || folder == "" {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for j := range cells {
			cells[j] = strings.TrimSpace(cells[j])
		}
		switch {
		case len(cells) >= 2 && cells[0] == "case" && cells[1] == "verdict":
			header = true
			if tables[folder] == nil {
				tables[folder] = map[string]string{}
			}
			continue
		case strings.Trim(cells[0], "-: ") == "":
			continue // the header's rule
		case !header:
			return nil, &readmeError{i + 1, "a table row before its \"| case | verdict |\" header"}
		case len(cells) < 3 || cells[2] == "":
			return nil, &readmeError{i + 1, "a row without its reason (| case | verdict | why |)"}
		}
		id, verdict := strings.Trim(cells[0], "`"), cells[1]
		if verdict != "pass" && verdict != "fail" && verdict != "error" {
			return nil, &readmeError{i + 1, "verdict " + verdict + " is none of pass, fail, error"}
		}
		if _, dup := tables[folder][id]; dup {
			return nil, &readmeError{i + 1, "case " + id + " is listed twice"}
		}
		tables[folder][id] = verdict
	}
	return tables, nil
}

type readmeError struct {
	line int
	msg  string
}

func (e *readmeError) Error() string { return fmt.Sprintf("examples/README.md:%d: %s", e.line, e.msg) }
