package otlp

import (
	"cmp"
	"context"

	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/trajeval/trajeval"
)

// FromTraces builds the trajectories of the spans of td by the rules that
// read a file (see the package comment): spans grouped by trace, traces
// that share a conversation key joined, the same span seen twice kept
// once. It is how spans that arrive over the network, rather than in a
// file, become trajectories. in names the source for warnings, and its
// Warn receives them; in.R is not read.
func FromTraces(ctx context.Context, td ptrace.Traces, in trajeval.Input, yield func(*trajeval.Trajectory) error) error {
	return FromTraceList(ctx, []ptrace.Traces{td}, in, yield)
}

// FromTraceList is [FromTraces] for spans held in several ptrace.Traces,
// read one after the other as the documents of one file are: the turns of
// a conversation gathered apart become one trajectory as they would if
// they were written to one file.
func FromTraceList(ctx context.Context, tds []ptrace.Traces, in trajeval.Input, yield func(*trajeval.Trajectory) error) error {
	if in.Warn == nil {
		in.Warn = func(trajeval.Warning) {}
	}
	r := newReader(in)
	for _, td := range tds {
		r.addTraces(td, 0)
	}
	return r.emit(ctx, yield)
}

// ConversationKey returns the conversation key of the spans of td as rule
// 10 reads a trace's: the gen_ai.conversation.id, else session.id, of the
// first span that has one, or else of that span's resource; "" when no
// span has one. For td holding one trace, traces with the same non-empty
// key are the ones a read joins into one trajectory.
func ConversationKey(td ptrace.Traces) string {
	for sp, resConv := range spansWithKey(td) {
		if c := cmp.Or(convKey(sp.Attributes()), resConv); c != "" {
			return c
		}
	}
	return ""
}
