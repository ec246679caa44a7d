package otlp

import (
	"go.opentelemetry.io/collector/pdata/pcommon"
)

// The operations and span kinds the conventions name that carry nothing
// this reader scores: known, so never drift.
var (
	// skippedOps are GenAI operations (gen_ai.operation.name) other than
	// the ones read: execute_tool, invoke_agent, chat, generate_content
	// and text_completion.
	skippedOps = map[string]bool{"embeddings": true, "create_agent": true}
	// skippedKinds are OpenInference span kinds other than TOOL, AGENT
	// and LLM.
	skippedKinds = map[string]bool{"CHAIN": true, "RETRIEVER": true, "EMBEDDING": true, "RERANKER": true,
		"GUARDRAIL": true, "EVALUATOR": true, "PROMPT": true, "UNKNOWN": true}
)

// unread notes, as drift, a span that a semantic convention marks as GenAI
// or agent work (gen_ai.operation.name, openinference.span.kind) but with
// an operation or kind this reader does not know, so that a newer version
// of the conventions cannot drop calls in silence. A span without either
// attribute is an ordinary span: not noted.
func (r *reader) unread(attrs pcommon.Map, oiKind string, line int) {
	if op := str(attrs, "gen_ai.operation.name"); op != "" {
		if !skippedOps[op] {
			r.unknown.Saw("gen_ai.operation.name", op, line)
		}
		return
	}
	if oiKind != "" && !skippedKinds[oiKind] {
		r.unknown.Saw("openinference.span.kind", oiKind, line)
	}
}

// reportDrift warns once per kind noted by unread.
func (r *reader) reportDrift() { r.unknown.Report(r.in, "otlp") }
