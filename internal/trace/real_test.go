package trace_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/trace"
)

// realTraj is what one trajectory of a real file holds, as counted by
// reading the file itself (see testdata/real/README.md).
type realTraj struct {
	i     int    // which trajectory of the file, from 0
	id    string // its id
	turns int
	calls string // the calls' names in order, name@agent for a sub-agent's call (spaces in names as _)
	args  string // the first call's arguments, as JSON with sorted keys; "" when it has no call
}

// TestRead_realFiles reads every file of testdata/real, files other
// projects committed and files the real libraries wrote, and checks what
// each holds: its format, how many trajectories and calls, and for some
// trajectories their ids, turns, calls in order with their agents, and
// arguments.
func TestRead_realFiles(t *testing.T) {
	tests := []struct {
		path                string
		format              string
		trajectories, steps int
		want                []realTraj
		reason              string
	}{
		{"adk-evalset/dependent_tool_calls.test.json", "adk-evalset", 1, 2, []realTraj{
			{0, "tests/integration/fixture/home_automation_agent/test_files/dependent_tool_calls.test.json", 2, "set_device_info get_device_info", `{"device_id":"device_2","location":"Bedroom","status":"OFF"}`},
		}, "ADK's own eval set: one case, two invocations"},
		{"adk-evalset/eval_data1.evalset.json", "adk-evalset", 1, 10, []realTraj{
			{0, "eval_data_set_google_shopping", 6, "transfer_to_agent get_product_details_for_brand transfer_to_agent go_to_url click_element_with_text get_page_source transfer_to_agent transfer_to_agent transfer_to_agent transfer_to_agent", ""},
		}, "the older list form: six queries, their expected calls"},
		{"adk-evalset/pretrip.test.json", "adk-evalset", 1, 6, []realTraj{
			{0, "/home/user/Projects/adk-samples/python/agents/travel-concierge/eval/data/pretrip.test.json", 2, "transfer_to_agent google_search_grounding google_search_grounding google_search_grounding google_search_grounding what_to_pack_agent", ""},
		}, "an ADK sample's eval set, calls of sub-agents as tools"},
		{"adk-session/adk-js-2.0.0.session.json", "adk-session", 1, 3, []realTraj{
			{0, "5801a010-b5d0-477b-b467-4ed3bf18099e", 1, "run_shell_command@helper read_file@helper read_file@helper", `{"command":"echo hi","description":"Print hi"}`},
		}, "ADK for TypeScript 2.0.0, generated: camelCase fields, two calls of one response, the second read throwing"},
		{"adk-session/sample.session.json", "adk-session", 1, 2, []realTraj{
			{0, "683bcc98-7359-4b65-9cdb-307f85ae62c0", 1, "transfer_to_other_agent@spark_assistant transfer_to_other_agent@spark_assistant", `{"agent_name":"research_assistant"}`},
		}, "a saved session: two transfers by one agent"},
		{"adk-session/successful_test.session.json", "adk-session", 1, 1, []realTraj{
			{0, "ead43200-b575-4241-9248-233b4be4f29a", 2, "update_fc@root_agent", `{"data_four":["1","hello","3.14"],"data_one":"RRRR","data_three":["apple","banana"],"data_two":"3.141529"}`},
		}, "a saved session with state updates"},
		{"agentv/copilot-transcript.jsonl", "agentv", 1, 1, []realTraj{
			{0, "should-not-trigger-csv-analyzer", 1, "Read", `{"file_path":"sales.csv","path":"sales.csv"}`},
		}, "agentv import's rows: one message a line, one trajectory per test_id"},
		{"agentv/imported-codex-transcript.jsonl", "agentv", 1, 3, []realTraj{
			{0, "imported-codex-config-fix", 1, "Read Grep Edit", `{"path":"package.json"}`},
		}, "agentv import codex's rows"},
		{"agentv/replay-target-output.jsonl", "agentv", 2, 6, []realTraj{
			{0, "inspect-and-fix-config", 1, "Read Grep Edit", `{"path":"package.json"}`},
			{1, "recover-from-tool-error", 1, "Read Read Edit", `{"path":"src/missing-config.ts"}`},
		}, "replay fixtures: ids from test_id"},
		{"bfcl/airev_BFCL_v4_live_relevance_result.json", "bfcl", 16, 15, []realTraj{
			{0, "live_relevance_0-0-0", 1, "generate_human_image search_engine.query", ""},
			{3, "live_relevance_3-3-0", 1, "", ""},
			{15, "live_relevance_15-15-0", 1, "", ""},
		}, "prompting mode: Python calls as text; the last does not parse and is the model's text answer, and the fourth's arguments hold a Python tuple, which BFCL's decoder keeps as a tuple: it stays text, as BFCL reads it"},
		{"bfcl/glyphh_BFCL_v4_live_parallel_result.json", "bfcl", 16, 39, []realTraj{
			{0, "live_parallel_3-0-3", 1, "get_current_weather get_current_weather get_current_weather", `{"location":"Cancún, Mexico","unit":"celsius"}`},
			{14, "live_parallel_12-8-0", 1, "log_food log_food log_food log_food log_food log_food", `{"food_name":"iced coffee","meal_name":"breakfast","portion_amount":12,"portion_unit":"ounces"}`},
		}, "function-calling mode: a list of {name: JSON arguments}"},
		{"canonical/bfcl-glyphh-live-parallel.jsonl", "trajeval", 16, 39, []realTraj{
			{0, "live_parallel_3-0-3", 1, "get_current_weather get_current_weather get_current_weather", `{"location":"Cancún, Mexico","unit":"celsius"}`},
			{14, "live_parallel_12-8-0", 1, "log_food log_food log_food log_food log_food log_food", `{"food_name":"iced coffee","meal_name":"breakfast","portion_amount":12,"portion_unit":"ounces"}`},
		}, "what trajeval convert wrote from bfcl/glyphh_BFCL_v4_live_parallel_result.json"},
		{"canonical/claude-code-491e126e-subagent.jsonl", "trajeval", 1, 25, []realTraj{
			{0, "491e126e-1e71-469c-ade2-fcc8af567c74", 2, "WebFetch WebSearch WebSearch WebSearch Glob WebSearch Read WebSearch AskUserQuestion Task Read@Plan Read@Plan Bash@Plan Bash@Plan Bash@Plan Read@Plan Bash@Plan Read@Plan Read@Plan Write ExitPlanMode Bash Bash Bash Bash", ""},
		}, "what trajeval convert wrote from claude-code/491e126e-subagent.jsonl: the sub-agent's calls keep their agent"},
		{"claude-code/491e126e-subagent.jsonl", "claude-code", 1, 25, []realTraj{
			{0, "491e126e-1e71-469c-ade2-fcc8af567c74", 2, "WebFetch WebSearch WebSearch WebSearch Glob WebSearch Read WebSearch AskUserQuestion Task Read@Plan Read@Plan Bash@Plan Bash@Plan Bash@Plan Read@Plan Bash@Plan Read@Plan Read@Plan Write ExitPlanMode Bash Bash Bash Bash", ""},
		}, "Claude Code 2.1.38: the Plan sub-agent's nine calls come from agent_progress lines"},
		{"claude-code/258c7280-task-notification.jsonl", "claude-code", 1, 1, []realTraj{
			{0, "258c7280-ae70-4798-800f-63464d01a85d", 2, "Read", `{"file_path":"/tmp/claude-1000/-home-USER-projects-spotter-worktrees-spotter-gqc/tasks/bd0afab.output"}`},
		}, "Claude Code 2.1.39: the <task-notification> Claude Code writes when a background command ends is no turn; the user's question after it is"},
		{"claude-code/codemie-turn-1.jsonl", "claude-code", 1, 27, []realTraj{
			{0, "e9fb405b-169f-40eb-9396-7e75076f045d", 1, "Task " + of("solution-architect", "Glob Glob Read Read Read Read Read Read Grep Read Glob Read Bash Grep Read Bash Grep Read Read Bash") + " Bash Bash Bash Bash Bash Bash", ""},
		}, "Claude Code 2.1.7: the sub-agent's twenty calls come from subagents/agent-a485154.jsonl"},
		{"claude-code/takopi-stream-json-session.jsonl", "claude-code", 2, 2, []realTraj{
			{0, "aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa", 1, "Bash Write", `{"command":"ls","timeout":600000}`},
			{1, "bbbbbbbb-bbbb-bbbb-bbbb-bbbbbbbbbbbb", 1, "", ""},
		}, "print mode (stream-json): two sessions, the second failing before any call"},
		{"claude-code/claude-code-2.1.197-session.jsonl", "claude-code", 1, 5, []realTraj{
			{0, "f4b6106e-5cdb-410f-99a1-06311ddee21c", 1, "Bash Read Bash Agent Read@general-purpose", `{"command":"echo hi","description":"Print hi"}`},
		}, "Claude Code 2.1.197, generated: two calls of one message, a failing command, the Task tool named Agent; its sub-agent's call comes from subagents/"},
		{"claude-code/claude-code-2.1.197-stream-json.jsonl", "claude-code", 1, 5, []realTraj{
			{0, "f4b6106e-5cdb-410f-99a1-06311ddee21c", 1, "Bash Read Bash Agent Read@general-purpose", `{"command":"echo hi","description":"Print hi"}`},
		}, "the same run's claude -p --output-format stream-json: the sub-agent's lines carry parent_tool_use_id, task_* system lines are no calls"},
		{"claude-code/claude-code-2.1.332-session.jsonl", "claude-code", 1, 5, []realTraj{
			{0, "616e7557-3ba9-4c2a-897f-06bacac1ce19", 1, "Bash Read Bash Agent Read@general-purpose", `{"command":"echo hi","description":"Print hi"}`},
		}, "Claude Code 2.1.332, generated: the sub-agent runs in the background; the task notification Claude Code writes when it ends (origin task-notification) is no turn, and the request and cost lines hold no call"},
		{"claude-code/claude-code-2.1.332-compact-session.jsonl", "claude-code", 1, 10, []realTraj{
			{0, "512bcb9c-c28f-4391-bb87-c1fa193fc374", 2, "Bash Read Bash Agent Read@general-purpose Bash Read Bash Agent Read@general-purpose", `{"command":"echo hi","description":"Print hi"}`},
		}, "Claude Code 2.1.332, generated: a run, /compact and a second prompt in one session (--resume): the compaction's boundary, summary and command are no turns, and each run's sub-agent comes from its own file"},
		{"claude-code/claude-code-2.1.332-stream-json.jsonl", "claude-code", 1, 5, []realTraj{
			{0, "616e7557-3ba9-4c2a-897f-06bacac1ce19", 1, "Bash Read Bash Agent Read@general-purpose", `{"command":"echo hi","description":"Print hi"}`},
		}, "the same run's stream: the run Claude Code starts itself when the sub-agent ends (a second init, a result line with origin task-notification) goes on with the user's turn"},
		{"codex/agentcmd-stream-output-2.jsonl", "codex", 1, 1, []realTraj{
			{0, "019a2d7a-6455-7170-a661-c6d8b94c630a", 1, "command_execution", `{"command":"bash -lc ls"}`},
		}, "recorded codex exec --json (0.46.0): a command whose item.started has no exit_code"},
		{"codex/agentcmd-stream-output-3.jsonl", "codex", 1, 1, []realTraj{
			{0, "019a2d7a-8e1c-7111-b1a6-8cec551a55a0", 1, "file_change", `{"changes":[{"kind":"add","path":"/private/tmp/codex-research-test/hello.txt"}]}`},
		}, "recorded codex exec --json (0.46.0): a file_change completed without item.started"},
		{"codex/takopi-exec-json-all-formats.jsonl", "codex", 1, 7, []realTraj{
			{0, "0199a213-81c0-7800-8aa1-bbab2a035a53", 2, "command_execution command_execution file_change file_change search_issues search_issues web_search", `{"command":"pytest -q"}`},
		}, "codex exec --json: every item type, a failed second turn"},
		{"codex/codex-cli-0.171.0-exec.jsonl", "codex", 1, 3, []realTraj{
			{0, "01a219b4-9d63-7c91-b76a-569dd872509d", 1, "command_execution command_execution command_execution", `{"command":"/bin/bash -lc 'echo hi'"}`},
		}, "codex exec --json of codex-cli 0.171.0, generated: an error item (model metadata) is no call; the third command fails"},
		{"codex/codex-cli-0.171.0-web-search-exec.jsonl", "codex", 1, 2, []realTraj{
			{0, "01a21e01-b91e-7590-b4bd-4fc5ac4e297a", 1, "web_search command_execution", `{"action":{"query":"codex rollout format","type":"search"},"query":"codex rollout format"}`},
		}, "codex exec --json of codex-cli 0.171.0, generated: a web search the API ran (its item written with two id keys) and a command"},
		{"codex-session/codex-cli-0.171.0-web-search-rollout-2026-11-27T17-15-59-01a21e01-b91e-7590-b4bd-4fc5ac4e297a.jsonl", "codex-session", 1, 2, []realTraj{
			{0, "01a21e01-b91e-7590-b4bd-4fc5ac4e297a", 1, "web_search exec_command", `{"query":"codex rollout format","type":"search"}`},
		}, "the session file of that run: the web_search_call item and the function_call of one response share a group"},
		{"codex-session/codemie-turn-1.jsonl", "codex-session", 1, 0, []realTraj{
			{0, "a1b2c3d4-e5f6-7890-abcd-ef1234567890", 1, "", ""},
		}, "a Codex session without a call is a trajectory, not an error"},
		{"codex-session/rollout-2026-02-23T13-19-38-019c8a70-dda7-7f33-98ea-f30553347322.jsonl", "codex-session", 1, 1, []realTraj{
			{0, "019c8a70-dda7-7f33-98ea-f30553347322", 1, "exec_command", `"[REDACTED_ARGUMENTS len=456 sha=df6be51a]"`},
		}, "a session cut after its first call; the arguments were redacted before publishing"},
		{"codex-session/rollout-2026-02-23T20-34-25-019c8bfe-ec25-79e0-97d7-bda6a9c575ff.jsonl", "codex-session", 1, 5, []realTraj{
			{0, "019c8bfe-ec25-79e0-97d7-bda6a9c575ff", 1, "mcp__cloud-associates__search_workflows [REDACTED_NAME_len=43_sha=c186413b] mcp__cloud-associates__execute_workflow mcp__cloud-associates__execute_workflow mcp__cloud-associates__execute_workflow", `"[REDACTED_ARGUMENTS len=46 sha=4cb9a2fc]"`},
		}, "Codex Desktop 0.104: MCP calls, one turn"},
		{"codex-session/codex-cli-0.171.0-rollout-2026-11-26T21-13-16-01a219b4-9d63-7c91-b76a-569dd872509d.jsonl", "codex-session", 1, 3, []realTraj{
			{0, "01a219b4-9d63-7c91-b76a-569dd872509d", 1, "exec_command exec_command exec_command", `{"cmd":"echo hi"}`},
		}, "the session file of the same codex exec run (0.171.0): two calls of one response share a group; world_state and token_usage_record lines hold no call"},
		{"openai-agents/agents-js-0.1-guardrail.json", "openai-agents", 1, 2, []realTraj{
			{0, "", 1, "lookup_stock@Order_agent ship_order@Order_agent", `{"sku":"A-100"}`},
		}, "the Agents SDK 0.1's export: a guardrail span is no call, the second tool's error span is a failed call"},
		{"gemini-cli/agentcmd-0.11.0-453aa339.jsonl", "gemini-cli", 1, 3, []realTraj{
			{0, "453aa339-7d2b-4709-a41a-b0b73beaff85", 1, "read_file replace read_file", `{"absolute_path":"/private/tmp/gemini-test/created.txt"}`},
		}, "Gemini CLI 0.11.0's stream of the session whose saved file is gemini-chat/agentcmd-…: the same calls"},
		{"gemini-cli/oneshot-b35ecd66.jsonl", "gemini-cli", 1, 1, []realTraj{
			{0, "b35ecd66-4ed8-43cd-b73b-9dd2eb9b2f4e", 1, "google_web_search", `{"query":"capital of columbia"}`},
		}, "a stream of January 2026: the answer in two delta chunks"},
		{"gemini-chat/gemini-cli-0.61.0-session-2026-11-27T17-06-f37f35f7.jsonl", "gemini-chat", 1, 3, []realTraj{
			{0, "f37f35f7-07da-41c4-98a9-cae62e52f378", 1, "run_shell_command read_file read_file", `{"command":"echo hi","description":"Print hi"}`},
		}, "Gemini CLI 0.61.0, generated: the session context in a $set and the calls' responses, recorded as user messages, are no turns"},
		{"gemini-cli/gemini-cli-0.61.0-stream-json.jsonl", "gemini-cli", 1, 3, []realTraj{
			{0, "f37f35f7-07da-41c4-98a9-cae62e52f378", 1, "run_shell_command read_file read_file", `{"command":"echo hi","description":"Print hi"}`},
		}, "the same run's gemini -p --output-format stream-json: the same calls, the second batch of two"},
		{"gemini-chat/gemini-cli-0.61.0-subagent-session-2026-11-27T18-04-256d48f1.jsonl", "gemini-chat", 1, 3, []realTraj{
			{0, "256d48f1-820e-4cfc-9100-cce3a39853c4", 1, "invoke_agent read_file@generalist complete_task@generalist", `{"agent_name":"generalist","prompt":"Read hello.txt and say what it holds."}`},
		}, "Gemini CLI 0.61.0, generated: an invoke_agent call whose sub-agent's calls are in its own file, 256d48f1-…/cf964a72-….jsonl beside the session, read after the call"},
		{"gemini-chat/256d48f1-820e-4cfc-9100-cce3a39853c4/cf964a72-0f8c-4325-b17f-29261cfa23c4.jsonl", "gemini-chat", 1, 2, []realTraj{
			{0, "cf964a72-0f8c-4325-b17f-29261cfa23c4", 1, "read_file complete_task", `{"file_path":"hello.txt"}`},
		}, "that sub-agent's own file (kind subagent), read alone: a session of its own"},
		{"gemini-cli/gemini-cli-0.61.0-subagent-stream-json.jsonl", "gemini-cli", 1, 1, []realTraj{
			{0, "256d48f1-820e-4cfc-9100-cce3a39853c4", 1, "invoke_agent", `{"agent_name":"generalist","prompt":"Read hello.txt and say what it holds."}`},
		}, "the same run's stream-json: it holds the main agent's calls only (its stats count 3), the sub-agent's are in the saved session"},
		{"gemini-chat/agent-sessions-jsonl_v040.jsonl", "gemini-chat", 1, 1, []realTraj{
			{0, "gemini_stage0_jsonl", 1, "run_shell_command", `{"command":"ls -F","description":"List files in the current directory."}`},
		}, "the JSON Lines session shape: a metadata line, messages and a $set line"},
		{"gemini-chat/agentcmd-session-2025-10-29T10-36-453aa339.json", "gemini-chat", 1, 3, []realTraj{
			{0, "453aa339-7d2b-4709-a41a-b0b73beaff85", 1, "read_file replace read_file", `{"absolute_path":"/private/tmp/gemini-test/created.txt"}`},
		}, "a saved session, one object: one call per gemini message"},
		{"gemini-chat/codemie-session-2026-01-16T11-01-file-ops-37b7abef.json", "gemini-chat", 1, 14, []realTraj{
			{0, "37b7abef-713d-4522-85f0-8ff15a4e6d17", 5, "write_todos delegate_to_agent write_todos read_file read_file read_file write_todos search_file_content read_file write_file read_file write_file read_file write_file", ""},
		}, "five prompts; one gemini message holds three batches of calls"},
		{"openai-agents/agents-js-handoff.json", "openai-agents", 1, 2, []realTraj{
			{0, "", 1, "get_weather@Weather_agent get_time@Weather_agent", `{"city":"Paris"}`},
		}, "the Agents SDK's trace export: the handoff is no call, the two tools are the weather agent's"},
		{"anthropic/pydantic-ai-mcp-servers-response-1.json", "anthropic", 1, 1, []realTraj{
			{0, "msg_01MYDjkvBDRaKsY6PDwQz3n6", 1, "ask_question", `{"question":"What is pydantic-ai and what does this repository do?","repoName":"pydantic/pydantic-ai"}`},
		}, "a recorded Messages API response: the MCP connector's mcp_tool_use and mcp_tool_result blocks are one call"},
		{"anthropic/pydantic-ai-mixed-strict-tool-run-request-3.json", "anthropic", 1, 2, []realTraj{
			{0, "", 1, "country_source capital_lookup", `{}`},
		}, "a recorded request body: two tool_use blocks in two assistant messages, each answered by a tool_result"},
		{"anthropic/pydantic-ai-multiple-parallel-tool-calls-request-2.json", "anthropic", 1, 4, []realTraj{
			{0, "", 1, "retrieve_entity_info retrieve_entity_info retrieve_entity_info retrieve_entity_info", `{"name":"Alice"}`},
		}, "a request body of February 2025 (claude-3-5-haiku): four tool_use blocks of one message, answered in one user message"},
		{"anthropic/pydantic-ai-tool-with-thinking-request-2.json", "anthropic", 1, 1, []realTraj{
			{0, "", 1, "get_user_country", `{}`},
		}, "a recorded request body: thinking, text and tool_use blocks in one assistant message"},
		{"langchain/langchain-js-0.3-serialized.json", "langchain", 1, 4, []realTraj{
			{0, "", 2, "get_weather get_time get_weather get_time", `{"city":"Paris"}`},
		}, "LangChain.js 0.3's toJSON (lc: 1 constructors): two questions, two parallel calls each"},
		{"langchain/langchain-js-stored-messages.json", "langchain", 1, 4, []realTraj{
			{0, "", 2, "get_weather get_time get_weather get_time", `{"city":"Paris"}`},
		}, "LangChain.js 1.4's stored messages ({type, data})"},
		{"langsmith/langchain-js-batch.jsonl", "langsmith", 1, 4, []realTraj{
			{0, "thread-weather-1", 2, "get_weather get_time get_weather get_time", `{"city":"Paris"}`},
		}, "LangChain.js traced by the LangSmith JS client 0.12 (a batch ingest body): two roots of one thread are two turns"},
		{"langsmith/langsmith-js-0.3-batch.jsonl", "langsmith", 1, 2, []realTraj{
			{0, "thread-weather-2", 1, "get_weather get_time", `{"city":"Paris"}`},
		}, "the LangSmith JS client 0.3's traceable runs, the second tool failing"},
		{"langsmith/langsmith-js-0.1.65-wrap-openai-default.json", "langsmith", 1, 0, []realTraj{
			{0, "dc34609e-3eeb-459d-bc2a-6fedb01d2e6e", 1, "", ""},
		}, "one model run of the LangSmith JS client 0.1.65's wrapOpenAI: its POST body, then its PATCH body, which has no id or run_type"},
		{"langsmith/langsmith-js-0.1.65-wrap-openai-reasoning.json", "langsmith", 1, 0, []realTraj{
			{0, "e954b8e3-c337-4a05-bf0a-ca2baac3ba48", 1, "", ""},
		}, "one model run of the LangSmith JS client 0.1.65's wrapOpenAI: its POST body, then its PATCH body, which has no id or run_type"},
		{"langsmith/langsmith-js-0.1.65-wrap-openai-stream.json", "langsmith", 1, 0, []realTraj{
			{0, "33c08c32-435c-4788-b973-b5bee4a31f87", 1, "", ""},
		}, "one model run of the LangSmith JS client 0.1.65's wrapOpenAI: its POST body, then its PATCH body, which has no id or run_type"},
		{"langsmith/langsmith-js-0.1.65-wrap-openai-stream-no-usage.json", "langsmith", 1, 0, []realTraj{
			{0, "a9a7fdab-0e16-4153-898a-33a0c1d9f759", 1, "", ""},
		}, "one model run of the LangSmith JS client 0.1.65's wrapOpenAI: its POST body, then its PATCH body, which has no id or run_type"},
		{"mcp/typescript-sdk-1.32-stdio.jsonl", "mcp", 1, 6, []realTraj{
			{0, "session-1", 0, "get_weather get_weather get_time search_flights book_flight get_news", `{"city":"Paris"}`},
		}, "the stdio traffic of the MCP TypeScript SDK 1.32.2, protocol 2025-11-25: initialize and tools/list are no calls"},
		{"mcp/typescript-sdk-1.9-stdio.jsonl", "mcp", 1, 6, []realTraj{
			{0, "session-1", 0, "get_weather get_weather get_time search_flights book_flight get_news", `{"city":"Paris"}`},
		}, "the same client and server on the MCP TypeScript SDK 1.9.0, protocol 2024-11-05"},
		{"mcp/typescript-sdk-1.32-two-sessions.jsonl", "mcp", 2, 2, []realTraj{
			{0, "session-1", 0, "get_weather", `{"city":"Paris"}`},
			{1, "session-2", 0, "get_time", `{"timezone":"Europe/Paris"}`},
		}, "one log of two server processes: the second initialize starts session-2, whose ids start again at 0"},
		{"openai-chat/pydantic-ai-keep-instructions-request-2.json", "openai-chat", 1, 1, []realTraj{
			{0, "", 1, "get_temperature", `{"city":"Tokyo"}`},
		}, "a recorded Chat Completions request body: the call and its tool message"},
		{"openai-chat/pydantic-ai-multiple-agent-tool-calls-request-4.json", "openai-chat", 1, 2, []realTraj{
			{0, "", 2, "get_capital get_capital", `{"country":"France"}`},
		}, "a recorded request body: two questions, a call each, one id not OpenAI's"},
		{"openai-responses/pydantic-ai-model-retry-request-2.json", "openai-responses", 1, 2, []realTraj{
			{0, "", 1, "get_location get_location", `{"loc_name":"Londos"}`},
		}, "a request body of March 2025: two calls of one response, one group, paired with their outputs"},
		{"openai-responses/pydantic-ai-mcp-server-tool-response-1.json", "openai-responses", 1, 1, []realTraj{
			{0, "resp_0083938b3a28070e0068fabd81970881a0a1195f2cab45bd04", 1, "ask_question", `{"question":"Provide a brief summary of the repository, including purpose, main features, and status.","repoName":"pydantic/pydantic-ai"}`},
		}, "a recorded response object: mcp_list_tools and reasoning items, one mcp_call"},
		{"openai-responses/pydantic-ai-simple-response-with-tool-call-request-2.json", "openai-responses", 1, 1, []realTraj{
			{0, "", 1, "get_capital", `{"country":"PotatoLand"}`},
		}, "a recorded Responses request body: function_call and function_call_output items"},
		{"otlp/genai-semconv-js.json", "otlp", 1, 2, []realTraj{
			{0, "", 1, "get_weather@weather_agent get_time@weather_agent", `{"city":"Paris"}`},
		}, "GenAI execute_tool spans under invoke_agent"},
		{"otlp-proto/genai-semconv-js.pb", "otlp-proto", 1, 2, []realTraj{
			{0, "", 1, "get_weather@weather_agent get_time@weather_agent", `{"city":"Paris"}`},
		}, "the same GenAI spans as binary OTLP protobuf"},
		{"otlp/otel-instrumentation-openai-0.22.0.json", "otlp", 2, 0, []realTraj{
			{0, "", 1, "", ""},
		}, "the OpenTelemetry instrumentation of the OpenAI client 0.22.0, generated: two chat spans, each a trace, their messages in log events; the first is read partial (internal/format/otlp's TestRead_unrecordedCalls)"},
		{"otlp/openinference-openai-js.json", "otlp", 1, 2, []realTraj{
			{0, "", 1, "get_weather@weather_agent get_time@weather_agent", `{"city":"Paris"}`},
		}, "OpenInference TOOL spans under an AGENT span, LLM spans from the OpenAI client"},
		{"tau2/tau2-enhanced-airline-llm-agent.json", "tau2", 6, 10, []realTraj{
			{0, "0", 4, "get_reservation_details transfer_to_human_agents", `{"reservation_id":"EHGLP3"}`},
			{1, "3", 5, "get_user_details get_reservation_details transfer_to_human_agents", `{"user_id":"anya_garcia_5901"}`},
			{2, "5", 3, "", ""},
			{4, "3", 4, "get_reservation_details get_user_details transfer_to_human_agents", `{"reservation_id":"JMO1MG"}`},
		}, "τ²-bench airline results (gemini-2.5-flash, two trials): the agent greets first, so turn 1 has no user; a task without a call"},
		{"tau2/tau2-enhanced-airline-retry-agent.json", "tau2", 6, 10, []realTraj{
			{1, "3", 4, "get_reservation_details", `{"reservation_id":"JMO1MG"}`},
			{3, "0", 6, "get_reservation_details get_flight_status get_flight_status", `{"reservation_id":"EHGLP3"}`},
			{5, "5", 4, "transfer_to_human_agents", ""},
		}, "the same fork at a later commit, another agent: the second trials differ from the first"},
	}
	seen := map[string]bool{}
	for _, tt := range tests {
		seen[tt.path] = true
		t.Run(tt.path, func(t *testing.T) {
			var got []*trajeval.Trajectory
			format := ""
			err := trace.Read(context.Background(), filepath.Join("../../testdata/real", tt.path),
				trace.Options{Detected: func(f string) { format = f }},
				func(tr *trajeval.Trajectory) error { got = append(got, tr); return nil })
			if err != nil {
				t.Fatalf("Read: %v (%s)", err, tt.reason)
			}
			if format != tt.format {
				t.Errorf("detected as %s, want %s", format, tt.format)
			}
			steps := 0
			for _, tr := range got {
				steps += len(tr.Steps)
			}
			if len(got) != tt.trajectories || steps != tt.steps {
				t.Errorf("%d trajectories with %d calls, want %d with %d (%s)", len(got), steps, tt.trajectories, tt.steps, tt.reason)
			}
			for _, w := range tt.want {
				if w.i >= len(got) {
					continue
				}
				tr := got[w.i]
				if w.id != "" && tr.ID != w.id {
					t.Errorf("trajectory %d: id %q, want %q", w.i, tr.ID, w.id)
				}
				if len(tr.Turns) != w.turns {
					t.Errorf("trajectory %d: %d turns, want %d", w.i, len(tr.Turns), w.turns)
				}
				if c := calls(tr); c != w.calls {
					t.Errorf("trajectory %d: calls\n%s\nwant\n%s (%s)", w.i, c, w.calls, tt.reason)
				}
				if w.args != "" && len(tr.Steps) > 0 {
					if a := argsJSON(t, tr.Steps[0].Args); a != w.args {
						t.Errorf("trajectory %d: first call's arguments %s, want %s", w.i, a, w.args)
					}
				}
			}
		})
	}
	// Every file of the corpus is checked here.
	err := filepath.Walk("../../testdata/real", func(path string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("../../testdata/real", path)
		if info.IsDir() && (rel == "gen" || rel == "dialects" || strings.HasSuffix(rel, "subagents")) {
			return filepath.SkipDir
		}
		trace := strings.HasSuffix(rel, ".json") || strings.HasSuffix(rel, ".jsonl") || strings.HasSuffix(rel, ".pb")
		if !info.IsDir() && trace && !seen[filepath.ToSlash(rel)] {
			t.Errorf("testdata/real/%s is not checked by this test", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// calls writes a trajectory's calls as "name name@agent ...".
func calls(tr *trajeval.Trajectory) string {
	var out []string
	for _, s := range tr.Steps {
		c := strings.ReplaceAll(s.Name, " ", "_")
		if s.Agent != "" {
			c += "@" + strings.ReplaceAll(s.Agent, " ", "_")
		}
		out = append(out, c)
	}
	return strings.Join(out, " ")
}

// of writes names, calls of one agent, as calls does.
func of(agent, names string) string {
	f := strings.Fields(names)
	for i := range f {
		f[i] += "@" + agent
	}
	return strings.Join(f, " ")
}

func argsJSON(t *testing.T, v any) string {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(b.String())
}

// TestRead_realCanonical reads each file of testdata/real/canonical,
// written by trajeval convert from another file of the corpus, and its
// source: both must give the same trajectories, field for field.
func TestRead_realCanonical(t *testing.T) {
	tests := []struct {
		converted, source string
		reason            string
	}{
		{"canonical/bfcl-glyphh-live-parallel.jsonl", "bfcl/glyphh_BFCL_v4_live_parallel_result.json", "sixteen trajectories, parallel calls, JSON arguments"},
		{"canonical/claude-code-491e126e-subagent.jsonl", "claude-code/491e126e-subagent.jsonl", "a sub-agent's calls, results, times and errors"},
	}
	for _, tt := range tests {
		t.Run(tt.converted, func(t *testing.T) {
			got, want := readJSON(t, tt.converted), readJSON(t, tt.source)
			if len(got) != len(want) {
				t.Fatalf("%d trajectories, the source %d (%s)", len(got), len(want), tt.reason)
			}
			for i := range got {
				if got[i] != want[i] {
					t.Errorf("trajectory %d differs from the source's (%s):\n%s\nwant\n%s", i, tt.reason, got[i], want[i])
				}
			}
		})
	}
}

// readJSON reads a file of testdata/real and returns its trajectories in
// canonical JSON.
func readJSON(t *testing.T, path string) []string {
	t.Helper()
	var out []string
	err := trace.Read(context.Background(), filepath.Join("../../testdata/real", path), trace.Options{},
		func(tr *trajeval.Trajectory) error {
			b, err := json.Marshal(tr)
			if err != nil {
				return err
			}
			out = append(out, string(b))
			return nil
		})
	if err != nil {
		t.Fatalf("Read %s: %v", path, err)
	}
	return out
}
