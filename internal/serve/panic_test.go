package serve_test

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/check"
	"github.com/trajeval/trajeval/internal/serve"
)

// nilError is an error type whose Error method dereferences its receiver:
// returned as a typed nil, it panics where the error is written, outside
// the evaluator.
type nilError struct{ msg string }

func (e *nilError) Error() string { return e.msg }

// faulty counts the trajectories its evaluator has scored: the first
// panics inside Evaluate, the second returns a typed nil error, the others
// score 1.
var faulty atomic.Int32

func init() {
	err := check.Register("serve_test_faulty", func(struct{}) (trajeval.Evaluator, error) {
		return trajeval.EvaluatorFunc(func(context.Context, *trajeval.Trajectory) (trajeval.Outcome, error) {
			switch faulty.Add(1) {
			case 1:
				panic("boom")
			case 2:
				var e *nilError
				return trajeval.Outcome{}, e
			}
			return trajeval.Outcome{Score: 1}, nil
		}), nil
	})
	if err != nil {
		panic(err)
	}
}

// TestServer_panicInScoring checks that a panic while one trace is scored,
// inside an evaluator or after it (a registered evaluator's error that
// panics when written), makes that trace's row an error and leaves the
// server scoring the others.
func TestServer_panicInScoring(t *testing.T) {
	policy := filepath.Join(t.TempDir(), "policy.yaml")
	if err := os.WriteFile(policy, []byte("name: live\nexecution:\n  evaluators:\n    - {name: faulty, type: serve_test_faulty}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	faulty.Store(0)
	s := start(t, policy, serve.Config{})
	for _, f := range []string{"otlp/genai.json", "otlp/uipath.json", "otlp/openinference-failed.json"} {
		b, _ := ptraceotlp.NewExportRequestFromTraces(readTraces(t, filepath.Join(fixtures, f))[0]).MarshalProto()
		sendOK(t, s, b, "application/x-protobuf", nil)
	}
	s.stop()
	var got []string
	for _, r := range s.out.list(t) {
		e := r.Error
		if len(r.Evaluators) == 1 && r.Evaluators[0].Error != "" {
			e = r.Evaluators[0].Error
		}
		got = append(got, string(r.Status)+": "+e)
	}
	slices.Sort(got)
	want := []string{"error: evaluator failed: boom", "error: evaluator failed: its error cannot be written:", "pass: "}
	if len(got) != len(want) || !strings.HasPrefix(got[0], want[0]) || !strings.HasPrefix(got[1], want[1]) || got[2] != want[2] {
		t.Errorf("rows:\n%s\nwant rows starting\n%s\n(one per trace: a panic is that trace's error, never the server's end)", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestServer_scoreSafely checks the recovery itself, for a panic where no
// evaluator is: in the reader or the engine.
func TestServer_scoreSafely(t *testing.T) {
	var log syncBuffer
	s := start(t, policy, serve.Config{Log: slog.New(slog.NewTextHandler(&log, nil))})
	defer s.stop()
	id := pcommon.TraceID{0x5b, 0x8e}
	r, ok := serve.ScoreSafely(s.Server, id, func() trajeval.CaseResult { var m map[string]int; m["x"] = 1; return trajeval.CaseResult{} })
	if !ok || r.Status != trajeval.StatusError || r.ID != id.String() || r.Suite != "live" || !strings.HasPrefix(r.Error, "scoring failed: internal error: assignment to entry in nil map") {
		t.Errorf("row %+v, %v; want the trace's error row", r, ok)
	}
	if !strings.Contains(log.String(), "scoring a trace panicked") || !strings.Contains(log.String(), "goroutine") {
		t.Errorf("log:\n%s\nwant the panic logged with its stack", log.String())
	}
}
