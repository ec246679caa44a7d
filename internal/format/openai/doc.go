// Package openai reads OpenAI's message logs into trajectories, in three
// formats.
//
// # openai-chat: Chat Completions messages
//
// A file holds a JSON array of messages, a request {"messages": [...]}, a
// response {"choices": [{"message": ...}], "usage": ...} (a request body
// holding both is read as the messages then the first choice), or JSON
// Lines of any of these, one conversation per line; JSON Lines of single
// messages are one conversation.
//  1. Each entry of an assistant message's tool_calls is a step, in array
//     order; function.arguments is a JSON string and is parsed (asked to
//     keep text, as a run asks, a string holding an object or an array
//     is kept as that JSON text, decoded where it is looked at; see
//     trajeval.Decoded). A custom
//     tool's free-text input stays a string. LangChain's flat
//     {name, args, id} entries are read too.
//  2. A role tool message is the result of the call with its tool_call_id;
//     text parts are joined into a string.
//  3. The legacy function_call has no id: a role function reply answers the
//     earliest unanswered call of its name.
//  4. An assistant message with two or more calls gives them one parallel
//     group.
//  5. error is null: the format has no error flag. No timing.
//  6. A user message starts a turn; the final response is the text of the
//     last assistant message without tool calls.
//  7. llm_calls counts the assistant messages; tokens come from usage.
//  8. The trajectory id is the record's id, conversation_id, thread_id or
//     session_id (also looked up under metadata), else empty.
//  9. A message role other than system, developer, user, assistant, tool
//     and function, or a tool call type other than function, custom and
//     tool_call, is one warning per kind with a count (see package drift).
//
// # openai-responses: Responses API items
//
// A file holds a response object ({"object": "response", "output": [...]}),
// a request ({"input": [...]}, possibly with "output" beside it), a list
// of items, or JSON Lines of these (one trajectory per line; JSON Lines of
// single items are one conversation).
//  1. function_call items are steps; their id is call_id, not the fc_ item
//     id. function_call_output pairs by call_id. Likewise custom_tool_call,
//     computer_call, local_shell_call, shell_call and apply_patch_call with
//     their *_output items (apply_patch_call_output status gives error).
//  2. Provider-run tools (mcp_call, web_search_call, file_search_call,
//     code_interpreter_call, image_generation_call) are steps holding their
//     own result; status completed gives error false, failed true, and an
//     mcp_call error gives error true with its message.
//  3. error is null for client calls: function outputs have no error flag.
//  4. Client calls of one response share a parallel group: in a response's
//     output all of them; in a plain item list, each run of consecutive
//     calls (reasoning items aside).
//  5. A user message (or a string input) starts a turn; the last assistant
//     message gives the final response.
//  6. A response object counts as one llm call; tokens from usage.
//  7. reasoning, mcp_list_tools, mcp_approval_request,
//     mcp_approval_response, item_reference and compaction items carry
//     nothing to score; any other item type the reader does not know is
//     one warning per type with a count (see package drift).
//
// # openai-agents: Agents SDK trace export
//
// A file holds the exported traces and spans: the ingest payload
// {"data": [...]}, a list, or JSON Lines of traces, spans or payloads.
//  1. Each function span is a step (name, input parsed as JSON arguments,
//     output kept as the string the SDK recorded), ordered by started_at.
//  2. There are no call ids: id is null. A span id seen twice (exported at
//     start and at end) is one step, the copy with an end.
//  3. A span's error gives error true and error_message "message: data.error";
//     an ended span without one gives error false; a span with no end
//     gives null and a warning.
//  4. Times come from started_at and ended_at; the duration is their
//     difference.
//  5. The calls of one model response are the function spans between two
//     model (generation or response) spans under one parent; when no model
//     spans were exported, the function spans that overlap in time. Two or
//     more share a parallel group.
//  6. agent is the name of the nearest agent span above the call. The
//     trajectory's agents list every agent span's name with the nearest
//     agent span above it as its caller (an agent run as another's tool),
//     and each handoff span's to_agent with its from_agent as the caller.
//  7. Traces sharing a group_id form one trajectory with a turn per trace,
//     in start order; other traces are trajectories of their own. The turn's
//     user text and final response come from generation spans when they
//     recorded messages.
//  8. llm_calls counts generation and response spans; tokens sum their usage.
//  9. guardrail, custom, mcp_tools, transcription, speech and speech_group
//     spans carry nothing to score; any other span type the reader does
//     not know is one warning per type with a count (see package drift).
//
// Cost: chat and responses hold one conversation at a time and stream JSON
// Lines; a single JSON document is read whole. openai-agents holds the
// whole file, as spans, because a trace's spans may be spread over it.
//
// A cut or broken JSON value is an error at its line and column; read
// leniently, it is read up to the break and its trajectory is partial
// (openai-agents: every trajectory, since the lost spans may belong to any
// trace). Other problems never stop the reading: each (arguments that are
// not JSON, a result for an unknown call, a call id used twice) is
// reported once as a warning.
package openai
