package otlp

import (
	"context"

	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/trajeval/trajeval/internal/trajeval"
)

// FromTraces builds the trajectories of the spans of td by the rules that
// read a file (see the package comment): spans grouped by trace, traces
// that share a conversation key joined, the same span seen twice kept
// once. It is how spans that arrive over the network, rather than in a
// file, become trajectories. in names the source for warnings, and its
// Warn receives them; in.R is not read.
func FromTraces(ctx context.Context, td ptrace.Traces, in trajeval.Input, yield func(*trajeval.Trajectory) error) error {
	if in.Warn == nil {
		in.Warn = func(trajeval.Warning) {}
	}
	r := newReader(in)
	r.addTraces(td, 0)
	return r.emit(ctx, yield)
}
