package main

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// bfclReal is the BFCL folder of the real-file corpus: BFCL v4's data and
// possible answers, and one model's results with the score files BFCL's
// own checker wrote for them (testdata/real/dialects/README.md).
const bfclReal = "../../testdata/real/dialects/bfcl/"

// TestEval_bfclParity scores a model's published BFCL results with trajeval
// eval, as a user would (the possible-answer file, its question file found
// in BFCL's layout, the result file as --traces), and holds every verdict
// against the score file BFCL's checker wrote for the same results: the
// same entries fail, with the same error type. BFCL reports the first
// wrong parameter in the model's argument order, which a trajectory does
// not keep (trajeval checks them in name order, docs/bfcl.md); where an
// entry has several wrong parameters the error type may differ, and those
// entries are listed with the parameters at stake.
func TestEval_bfclParity(t *testing.T) {
	tests := []struct {
		category, dir string
		pass, total   int // BFCL's correct_count and total_count
		// otherError: entries whose error type may differ from BFCL's,
		// because more than one of their parameters is wrong.
		otherError map[string]string
	}{
		{"simple_python", "non_live", 378, 400, nil},
		{"parallel", "non_live", 183, 200, nil},
		{"simple_java", "non_live", 76, 100, map[string]string{
			"simple_java_87": "suspendPolicy and property are both wrong; BFCL names suspendPolicy, the first the model wrote"}},
		{"simple_javascript", "non_live", 36, 50, map[string]string{
			"simple_javascript_5":  "store has the wrong type and context the wrong value; BFCL names store, the first the model wrote",
			"simple_javascript_29": "events has a wrong value and callback is not a parameter; BFCL names events, the first the model wrote"}},
		{"live_parallel", "live", 12, 16, nil},
		{"live_parallel_multiple", "live", 18, 24, nil},
	}
	for _, tt := range tests {
		t.Run(tt.category, func(t *testing.T) {
			name := "BFCL_v4_" + tt.category
			want, head := bfclScores(t, filepath.Join(bfclReal, "score/glyphh-ada-1.1", tt.dir, name+"_score.json"))
			if head.Correct != tt.pass || head.Total != tt.total {
				t.Fatalf("the score file says %d of %d, the table %d of %d", head.Correct, head.Total, tt.pass, tt.total)
			}
			got := bfclEval(t, filepath.Join(bfclReal, "data/possible_answer", name+".json"),
				filepath.Join(bfclReal, "result/glyphh-ada-1.1", tt.dir, name+"_result.json"))
			if len(got) != tt.total {
				t.Fatalf("trajeval scored %d entries, BFCL %d", len(got), tt.total)
			}
			passed := 0
			for _, id := range slices.Sorted(maps.Keys(got)) {
				g := got[id]
				errType, failed := want[id]
				switch {
				case g.status == "pass" && !failed:
					passed++
				case g.status == "pass":
					t.Errorf("%s: trajeval passes it, BFCL fails it (%s)", id, errType)
				case !failed:
					t.Errorf("%s: trajeval gives %s (%s), BFCL passes it", id, g.status, g.errorType)
				case g.errorType != errType && tt.otherError[id] == "":
					t.Errorf("%s: error type %s, BFCL's %s", id, g.errorType, errType)
				}
			}
			if passed != tt.pass {
				t.Errorf("%d entries pass, BFCL passes %d", passed, tt.pass)
			}
			for id := range tt.otherError {
				if _, failed := want[id]; !failed {
					t.Errorf("%s is listed as failing with several wrong parameters, but BFCL passes it", id)
				}
			}
		})
	}
}

type bfclHead struct {
	Correct int `json:"correct_count"`
	Total   int `json:"total_count"`
}

// bfclScores reads a BFCL score file: its first line's counts, then one
// line per failing entry; it returns each failing entry's error type by id.
func bfclScores(t *testing.T, path string) (map[string]string, bfclHead) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	var head bfclHead
	if err := json.Unmarshal([]byte(lines[0]), &head); err != nil {
		t.Fatalf("%s:1: %v", path, err)
	}
	failed := map[string]string{}
	for i, line := range lines[1:] {
		var e struct {
			ID        string `json:"id"`
			Valid     bool   `json:"valid"`
			ErrorType string `json:"error_type"`
		}
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("%s:%d: %v", path, i+2, err)
		}
		if e.Valid || e.ID == "" {
			t.Fatalf("%s:%d: not a failing entry", path, i+2)
		}
		failed[e.ID] = e.ErrorType
	}
	return failed, head
}

type bfclVerdict struct{ status, errorType string }

// bfclEval runs trajeval eval on a possible-answer file with --traces
// results and returns each case's status and BFCL error type by id.
func bfclEval(t *testing.T, answers, results string) map[string]bfclVerdict {
	t.Helper()
	got := map[string]bfclVerdict{}
	for _, line := range evalRows(t, answers, "--traces", results, "--no-db", "-q") {
		var row struct {
			ID         string `json:"id"`
			Status     string `json:"status"`
			Evaluators []struct {
				Details struct {
					Notes struct {
						ErrorType string `json:"error_type"`
					} `json:"notes"`
				} `json:"details"`
			} `json:"evaluators"`
		}
		if err := json.Unmarshal(line, &row); err != nil {
			t.Fatalf("result row %q: %v", line, err)
		}
		if len(row.Evaluators) != 1 {
			t.Fatalf("%s: %d evaluators, want one bfcl_ast", row.ID, len(row.Evaluators))
		}
		got[row.ID] = bfclVerdict{row.Status, row.Evaluators[0].Details.Notes.ErrorType}
	}
	return got
}
