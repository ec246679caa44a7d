package trace

import (
	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/adk"
	"github.com/trajeval/trajeval/internal/format/agentv"
	"github.com/trajeval/trajeval/internal/format/anthropic"
	"github.com/trajeval/trajeval/internal/format/bfcl"
	"github.com/trajeval/trajeval/internal/format/canonical"
	"github.com/trajeval/trajeval/internal/format/claudecode"
	"github.com/trajeval/trajeval/internal/format/codex"
	"github.com/trajeval/trajeval/internal/format/gemini"
	"github.com/trajeval/trajeval/internal/format/langchain"
	"github.com/trajeval/trajeval/internal/format/mcp"
	"github.com/trajeval/trajeval/internal/format/openai"
	"github.com/trajeval/trajeval/internal/format/otlp"
	"github.com/trajeval/trajeval/internal/format/tau2"
	"github.com/trajeval/trajeval/internal/format/vertex"
)

// formats is every trace format, in sniffing order: the first whose sniff
// claims a file's head reads it. Where two formats could claim one file,
// the order decides:
//  1. trajeval's canonical form comes first: its sniff claims only the
//     exact canonical shape, and no other format may take what convert
//     wrote.
//  2. OTLP (JSON, then protobuf) next: its resourceSpans envelope is
//     unmistakable.
//  3. Codex session files next: they hold Responses API items, which
//     OpenAI Responses would claim, but their envelope (or, in the older
//     shape, their first line and state lines) is Codex's own.
//  4. LangChain runs and messages, OpenAI Agents and Responses and
//     Anthropic before OpenAI Chat, whose messages list is the loosest
//     shape: each of them is a chat log with something more. Gemini CLI's
//     saved chats too: their checkpoints are lists of {role, parts}
//     contents, which OpenAI Chat would claim and read without a call.
//  5. A Vertex dataset's rows may carry an id, so it goes before AgentV's
//     JSON Lines with an id per line.
//  6. The rest claim shapes of their own (ADK eval sets and sessions,
//     τ²-bench results, Codex's exec stream and session files, Claude
//     Code and Gemini CLI logs, MCP sessions, BFCL results).
var formats = []trajeval.Format{
	canonical.Format,
	otlp.JSON,
	otlp.Proto,
	codex.Session,
	langchain.Runs,
	langchain.Messages,
	openai.Agents,
	openai.Responses,
	anthropic.Format,
	gemini.Chat,
	openai.Chat,
	vertex.Format,
	agentv.Format,
	adk.EvalSetFormat,
	adk.SessionFormat,
	tau2.Format,
	codex.Format,
	claudecode.Format,
	gemini.Format,
	mcp.Format,
	bfcl.Format,
}
