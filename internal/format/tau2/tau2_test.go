package tau2_test

import (
	"bytes"
	"context"
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
