// Package trace reads recorded agent traces into trajectories
// ([trajeval.Trajectory]), whatever their format: OpenTelemetry (JSON and
// protobuf), OpenAI chat, Responses and Agents SDK exports, Anthropic,
// Google ADK sessions and eval sets, LangSmith and LangChain runs, the
// session files of Codex, Claude Code and Gemini CLI, MCP logs, AgentV,
// τ²-bench and BFCL results ([Formats] lists them).
//
// [ReadFile] and [Read] read a whole trace strictly: a damaged file is an
// error at its file, line and column. [ReadOptions] say how else to read:
// a forced format, leniently (what comes before the damage, marked
// Partial), with the warnings sent to a function, or streamed one
// trajectory at a time ([ReadOptions.EachFile], [ReadOptions.Each]).
//
// The format is recognised from the content, never from the file name;
// [ReadOptions] gives the rules.
package trace
