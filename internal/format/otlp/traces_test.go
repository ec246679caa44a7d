package otlp_test

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/trajeval/trajeval/internal/format/otlp"
	"github.com/trajeval/trajeval/internal/trajeval"
)

// TestFromTraces checks that spans handed over in memory give the
// trajectories the file reader gives, warnings included.
func TestFromTraces(t *testing.T) {
	for _, name := range []string{"genai.json", "uipath.json", "openinference.json"} {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile("testdata/otlp/" + name)
			if err != nil {
				t.Fatal(err)
			}
			td, err := (&ptrace.JSONUnmarshaler{}).UnmarshalTraces(data)
			if err != nil {
				t.Fatal(err)
			}
			var fromFile, fromMemory []string
			var warnFile, warnMemory int
			f, _ := os.Open("testdata/otlp/" + name)
			defer f.Close()
			in := trajeval.Input{Name: name, R: f, Warn: func(trajeval.Warning) { warnFile++ }}
			if err := otlp.JSON.Read(context.Background(), in, collect(&fromFile)); err != nil {
				t.Fatal(err)
			}
			in = trajeval.Input{Name: name, Warn: func(trajeval.Warning) { warnMemory++ }}
			if err := otlp.FromTraces(context.Background(), td, in, collect(&fromMemory)); err != nil {
				t.Fatal(err)
			}
			if len(fromFile) == 0 || len(fromFile) != len(fromMemory) || warnFile != warnMemory {
				t.Fatalf("file: %d trajectories, %d warnings; memory: %d, %d", len(fromFile), warnFile, len(fromMemory), warnMemory)
			}
			for i := range fromFile {
				if fromFile[i] != fromMemory[i] {
					t.Errorf("trajectory %d differs:\nfile   %s\nmemory %s", i, fromFile[i], fromMemory[i])
				}
			}
		})
	}
}

func collect(out *[]string) func(*trajeval.Trajectory) error {
	return func(t *trajeval.Trajectory) error {
		b, err := json.Marshal(t)
		*out = append(*out, string(b))
		return err
	}
}
