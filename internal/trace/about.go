package trace

// abouts say in one line what each format reads, for `trajeval formats`;
// a test checks that every registered format has one.
var abouts = map[string]string{
	"trajeval":         "trajeval's canonical trajectories, as `trajeval convert` writes them",
	"otlp":             "OpenTelemetry traces as OTLP/JSON or JSON Lines: GenAI, OpenInference, OpenLLMetry and UiPath spans",
	"otlp-proto":       "OpenTelemetry traces as binary OTLP protobuf",
	"langsmith":        "LangSmith run trees: nested child_runs, flat runs, batches",
	"langchain":        "LangChain and LangGraph message dumps and states",
	"openai-agents":    "OpenAI Agents SDK trace exports (traces and spans)",
	"openai-responses": "OpenAI Responses API: responses, requests with input, item lists",
	"anthropic":        "Anthropic Messages API: message lists, requests, responses",
	"openai-chat":      "OpenAI Chat Completions: message lists, requests, responses",
	"agentv":           "AgentV's trace shape: its cli provider's output file, or JSON Lines with an id per line",
	"adk-evalset":      "Google ADK eval sets: the invocations recorded in them",
	"adk-session":      "Google ADK saved sessions",
	"tau2":             "τ²-bench results files (tau2 run): one trajectory per simulation, the agent's calls",
	"codex":            "the JSON Lines of codex exec --json",
	"codex-session":    "Codex session files (~/.codex/sessions/…/rollout-*.jsonl)",
	"claude-code":      "Claude Code's stream-json output and session transcripts (~/.claude/projects)",
	"gemini-cli":       "the JSON Lines of gemini -p --output-format stream-json",
	"gemini-chat":      "Gemini CLI's saved sessions (~/.gemini/tmp/<project hash>/chats/session-*.json)",
	"mcp":              "Model Context Protocol traffic: JSON-RPC messages as JSON Lines",
	"bfcl":             "Berkeley Function Calling Leaderboard result files: {id, result} per line, the decoded calls",
	"vertex-dataset":   "Vertex AI Gen AI evaluation datasets: the predicted_trajectory of each JSON Lines row",
}

// About returns what the format called name reads, in one line; "" for
// a name that is not a format.
func About(name string) string { return abouts[name] }
