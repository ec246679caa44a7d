// Package langchain reads LangChain / LangGraph message dumps
// ("langchain") and LangSmith run trees ("langsmith") into trajectories.
//
// # langchain: message dumps
//
// A file holds a list of messages, a LangGraph state {"messages": [...]}
// (also inside "values", "channel_values" or a checkpoint), or JSON Lines
// of these, one conversation per line; JSON Lines of single messages are
// one conversation. A message may be in any dump shape: messages_to_dict
// {type, data}, dumpd {lc: 1, type: "constructor", id: [..., "AIMessage"],
// kwargs}, a plain model_dump with "type", an OpenAI-style {role, content}
// dict, or a (role, content) pair.
//  1. An AI message's tool_calls are its steps, in order. tool_calls is
//     authoritative: additional_kwargs.tool_calls (ChatOpenAI's raw copy)
//     and content tool_use / tool_call blocks (ChatAnthropic, standard
//     blocks) add only calls with ids tool_calls lacks, so one call is never
//     counted twice. invalid_tool_calls are steps with their raw arguments
//     (reported when not JSON).
//  2. A ToolMessage is the result of the call with its tool_call_id.
//     status "error" gives error true (the text is the error message);
//     "success", or no status in a LangChain dump (where it is the default
//     left out), gives false; an OpenAI-style tool dict gives null.
//  3. An AI message with two or more calls gives them one parallel group.
//  4. A human message starts a turn; the final response is the text of the
//     last AI message without tool calls.
//  5. A call id seen again in a later message is one step (the first), with
//     a warning. No timing. llm_calls counts the AI messages; tokens sum
//     their usage_metadata.
//  6. The trajectory id is the record's id, conversation_id, thread_id or
//     session_id (also under metadata), else config.configurable.thread_id.
//  7. An AI message's name (LangGraph names an agent's messages after the
//     agent, as a supervisor's workers do) is the agent of its calls. A
//     call named transfer_to_X (a supervisor's handoff tool) made by one
//     agent of the conversation to another, X, makes it X's caller.
//  8. A message of a type this reader does not know (a class or type name
//     it has no kind for) is skipped, with one warning per type and a
//     count (see package drift); LangGraph's remove messages are known.
//
// # langsmith: run trees
//
// A file holds runs: a run with nested child_runs, a list of runs (nested,
// or flat with parent_run_id), {"runs": [...]} or {"post": [...],
// "patch": [...]}, or JSON Lines of these. A run id seen twice is one run,
// the later fields filling in (a patch after a post). An element of a
// patch list with no run_type is the body of PATCH /runs/{id}: the run
// its id names, else the run id its dotted_order ends with.
//  1. Runs with run_type tool are the steps, in dotted_order (else
//     start_time, else file order), parents before children.
//  2. inputs.input is what LangChain stored as str(tool_input): JSON is
//     parsed, else a Python repr of dicts, lists, tuples, strings, numbers,
//     True, False and None; anything else stays the raw string, reported.
//     A ToolCall input {name, args, id, type: "tool_call"} (LangGraph's
//     ToolNode) gives its args and its id. Inputs without a lone "input"
//     key are the arguments as they are.
//  3. outputs.output (outputs.outputs from the JS client's traceable) is
//     the result; a ToolMessage gives its content, its
//     tool_call_id as the step id, and status "error" gives error true.
//     Runs have no call id of their own: id is null otherwise.
//  4. A run's error string gives error true and error_message its first
//     line (repr of the exception, before the traceback); status error
//     gives error true; a run that ended without one gives false.
//  5. start_time and end_time give the step's times: ISO 8601 strings
//     (naive times are UTC), or numbers of milliseconds since 1970, as
//     the LangSmith JS client sends them.
//  6. Sibling tool runs not separated by another run, each starting before
//     the ones before it ended (when times are known), share a parallel
//     group: LangGraph runs one model response's calls concurrently under
//     one "tools" node; AgentExecutor alternates model and tool runs.
//     Runs whose parent is not in the file hang under a stand-in for it.
//  7. Each root run is a turn; roots sharing extra.metadata thread_id,
//     session_id or conversation_id are one trajectory, in start order,
//     others one each. The turn's user text and final response come from
//     the root's inputs and outputs (messages, an OpenAI chat
//     completion's first choice, or input/output strings).
//  8. llm_calls counts llm runs, a root one too (a model call traced on
//     its own, as a wrapped client traces it); tokens sum their
//     prompt/completion/total
//     tokens (or outputs.llm_output.token_usage, LangChain.js's
//     outputs.llmOutput.tokenUsage, outputs.usage_metadata, or an OpenAI
//     body's outputs.usage); cost_usd sums total_cost;
//     duration_ms sums the roots' end − start when all have both.
//  9. agent is the LangGraph subgraph node the tool ran in, read from the
//     run's extra.metadata.langgraph_checkpoint_ns (else checkpoint_ns):
//     "support:<task>|billing:<task>|tools:<task>" gives agent billing,
//     called by support. A tool of the top graph (a namespace of one node)
//     and a run with no namespace have agent null: the top graph has no
//     name. A transfer_to_X tool run of one agent, X being another agent,
//     makes it X's caller (a supervisor's handoff), as in langchain.
//  10. A run_type other than tool, llm, chain, retriever, prompt, parser
//     and embedding is one warning per type with a count (see package
//     drift).
//
// Cost: langchain holds one conversation at a time and streams JSON
// Lines; a single JSON document is read whole. langsmith holds the whole
// file, as runs, because a trace's runs may be spread over it.
package langchain
