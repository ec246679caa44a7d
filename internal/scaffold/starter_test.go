package scaffold_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/scaffold"
)

// TestStarter checks that the starter suite passes on its trace, and that
// it is not vacuous: a trace that sends nothing fails it.
func TestStarter(t *testing.T) {
	dir := t.TempDir()
	if err := scaffold.Write(dir, scaffold.Starter()); err != nil {
		t.Fatal(err)
	}
	trajs, err := read(t, filepath.Join(dir, "traces/forecast-by-sms.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(trajs) != 1 || len(trajs[0].Steps) != 2 {
		t.Fatalf("the starter trace reads as %d trajectories, want 1 with 2 calls", len(trajs))
	}
	suitePath := filepath.Join(dir, scaffold.StarterSuite)
	if err := scaffold.Verify(context.Background(), suitePath, trajs); err != nil {
		t.Fatalf("the starter suite does not pass: %v", err)
	}
	trajs[0].Steps = trajs[0].Steps[:1]
	if err := scaffold.Verify(context.Background(), suitePath, trajs); err == nil {
		t.Errorf("the starter suite passes on a run that sent no SMS")
	}
	readme, err := os.ReadFile(filepath.Join(dir, "TRAJEVAL.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "trajeval eval suite.yaml") {
		t.Errorf("the README snippet does not say how to run the suite")
	}
}
