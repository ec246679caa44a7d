package tau2_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/formattest"
	"github.com/trajeval/trajeval/internal/format/tau2"
)

var formats = []trajeval.Format{tau2.Format}

func TestGolden(t *testing.T) { formattest.Golden(t, formats...) }

func TestDetect(t *testing.T) { formattest.Detect(t, formats...) }

func FuzzRead(f *testing.F) { formattest.Fuzz(f, formats, nil) }

func TestRead_damage(t *testing.T) { formattest.Breaks(t, formats...) }

func TestReadErrors(t *testing.T) {
	formattest.FailsAtLine(t, tau2.Format, 1, "not json\n", "[1]\n", `{"info": {}, "tasks": []}`)
}

func TestSniffRejects(t *testing.T) {
	formattest.SniffRejects(t, []string{
		`{"eval_set_id": "s", "eval_cases": []}`,
		`[{"id": "0", "user_scenario": {}, "evaluation_criteria": {}}]`,
		`{"resourceSpans": []}`,
		`{"messages": [{"role": "user", "content": "hi"}]}`,
	}, formats...)
}

// The trial is not part of the canonical JSON, so the golden files do not
// show it.
func TestRead_trials(t *testing.T) {
	data, err := os.ReadFile("testdata/tau2/airline.json")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	in := trajeval.Input{Name: "airline.json", R: bytes.NewReader(data), Warn: func(trajeval.Warning) {}}
	err = tau2.Format.Read(context.Background(), in, func(tr *trajeval.Trajectory) error {
		got = append(got, fmt.Sprintf("%s/%d", tr.ID, tr.Trial))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := "0/1 0/2"; strings.Join(got, " ") != want {
		t.Errorf("task/trial of each simulation: %v, want %s (τ²'s trials count from 0, trajeval's from 1)", got, want)
	}
}

// TestRead_placedLinearly reads results files of many simulations, written
// on many lines and on one: each simulation's line is counted on from the
// last, never from the start of the file.
func TestRead_placedLinearly(t *testing.T) {
	data, err := os.ReadFile("testdata/tau2/airline.json")
	if err != nil {
		t.Fatal(err)
	}
	var file map[string]any
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	sims := file["simulations"].([]any)
	for len(sims) < 2000 {
		sims = append(sims, sims[:min(len(sims), 2000-len(sims))]...)
	}
	file["simulations"] = sims
	indented, err := json.MarshalIndent(file, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	oneLine, err := json.Marshal(file)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		data   []byte
		reason string
	}{
		{"indented", indented, "the line of each simulation counted on from the last"},
		{"one line", oneLine, "the column is counted on too, though only the line is used"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			formattest.PlacedLinearly(t, tau2.Format, "results.json", tt.data, tt.reason)
		})
	}
}
