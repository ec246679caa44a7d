// Package trajeval scores what AI agents do: which tools they call, in what
// order, with which arguments, how fast, with what errors, across turns.
// It is a Go library, usable from go test with no API key, and the
// command trajeval (cmd/trajeval) is built on it.
//
// # The flow
//
// Data flows one way:
//
//	trace file ──read──▶ Trajectory ──evaluate──▶ Result ──report──▶ text, JSON, JSON Lines
//	                          ▲
//	suite file ───load────────┘ (expected calls, evaluator settings)
//
// Every trace format (OpenTelemetry, OpenAI, Anthropic, Google ADK,
// LangChain, agent CLIs, MCP, AgentV, τ²-bench, BFCL results) is read into
// one [Trajectory]; every suite dialect (AgentV YAML, ADK eval sets, UiPath
// evaluation sets, τ²-bench tasks, BFCL possible answers) is translated
// into evaluators over that
// one model. So every evaluator works on every source, and no dialect adds
// a branch to the engine.
//
// # From Go
//
// This package holds the model: [Trajectory], [Step], [Result] and the
// rest, with the [Evaluator] and [Format] interfaces and the errors every
// layer shares. It imports only the standard library. The work is done by
// packages beside it, each with few names:
//
//   - Package trace (github.com/trajeval/trajeval/trace) reads a recorded
//     trace in any of its formats (trace.Formats) into trajectories:
//     trace.ReadFile and trace.Read; trace.ReadOptions reads leniently,
//     forces a format, collects warnings or streams a large file.
//   - Package check (github.com/trajeval/trajeval/check) makes evaluators
//     in Go (check.Trajectory, check.Calls, check.Rules...) and scores a
//     trajectory with them: check.Evaluate returns one [Result], with
//     [Result.Passed], Score, Status and [Result.Explain], the same
//     explanation as the command's text report. An [Evaluator] is any
//     value with an Evaluate method ([EvaluatorFunc] adapts a function);
//     check.Configure gives it a name, threshold, weight or negation, and
//     check.Register makes a type of your own usable in suite files.
//   - Package suite (github.com/trajeval/trajeval/suite) loads suite files
//     and folders (suite.Load); Suite.Run streams their results, and
//     Case.Score scores a trajectory you have, e.g. from an agent run in a
//     test, as one of its cases. suite.RunOptions do all that the
//     command's eval does: a traces file (Traces), agents run for the
//     cases (Target, Trials), picking cases by id (Filter, a glob or a
//     /regular expression/), resuming (Done), a graceful stop (Stop);
//     RunOptions.Load loads with the settings of a run, and Suite.Plan
//     says which cases a run will score, or why it cannot start. Each
//     [CaseResult] says where its trajectory came from (Trace), when its
//     case started and how long it took (StartedAt, DurationMS).
//   - Package trajevaltest fails a test with the explanation
//     (trajevaltest.Check) and makes every case of a suite a subtest
//     (trajevaltest.RunSuite).
//
// For example, in a test:
//
//	trajs, err := trace.ReadFile("testdata/run.json")
//	if err != nil {
//		t.Fatal(err)
//	}
//	s, err := suite.Load("testdata/research.yaml")
//	if err != nil {
//		t.Fatal(err)
//	}
//	r := check.Evaluate(ctx, trajs[0], s.Cases[0].Evaluators...)
//	if !r.Passed() {
//		t.Error(r.Explain())
//	}
//
// Errors are values to test with errors.Is and errors.As: [ErrNoTrace],
// [ErrEmptyTrace], [ErrUnknownFormat], [ErrCorruptTrace] and [ErrConfig];
// a *[TraceError] places a trace's problem at its file, line and column, a
// *[SpecError] a suite's. Nothing panics on bad input, and nothing is
// printed: warnings go to the caller's Warn function.
//
// # The canonical trajectory
//
// A [Trajectory] has turns, steps and metrics. Its rules:
//  1. Steps are tool calls in the order the model issued them (position in
//     the message, span start time, request order), never completion
//     order; Index is 1-based.
//  2. Results are paired to calls by id, never by position.
//  3. Calls issued together in one model response share a ParallelGroup.
//  4. Calls repeated with identical content are separate steps; the same
//     call seen twice in one file (same id) is one step.
//  5. Arguments that arrive as a JSON string are parsed; integers stay
//     exact (2^53+1 stays 2^53+1) as json.Number.
//  6. Error is nil when the format cannot say; durations come from explicit
//     fields or end − start, never invented.
//  7. A user message starts a new turn; steps before the first belong to
//     turn 1.
//  8. In a multi-agent run, a step's Agent is the agent that made the call,
//     and the trajectory's Agents say which agent called which ([Agent]).
//  9. A reader asked to (Input.KeepText; a run asks, trace.Read never
//     does) may keep an object or array of arguments or results as its
//     JSON text, a *json.RawMessage, decoded where it is looked at:
//     [Decoded] and [Trajectory.DecodeText] give the value, which the JSON
//     form always holds, and [KeptText] the text; a json.RawMessage put
//     in a step by hand is the same text (see Decoded for the rules).
//
// # Matching one expected call against one step
//
// An [ExpectedCall] matches a [Step] when:
//  1. the names are equal (case-sensitive);
//  2. the arguments match under the call's [ArgsMatch]: partial (the
//     default; expected ⊆ actual recursively), exact, subset (actual ⊆
//     expected), ignore, or a list of dot-paths; no arguments means any;
//  3. values compare by JSON type: numbers by value (1 = 1.0), strings
//     exactly, null is not a missing key, a bool is never a number;
//  4. an object whose only key starts with "$" is an operator: $regex,
//     $contains, $gt, $gte, $lt, $lte, $approx, $type, $any, $oneOf, $not,
//     and $from (a value an earlier call returned).
//
// # Scoring
//
// The tool_trajectory evaluator aligns expected calls with steps optimally,
// never greedily: exact (position by position), in_order (the largest
// order-preserving matching: an LCS under the match rule), any_order (the
// largest one-to-one matching: maximum bipartite matching) and subset (an
// allow-list); in exact and in_order, expected may hold groups (any_order,
// one_of, optional, repeat) and the best list they allow is scored. Steps
// of one parallel group are unordered among themselves. Other evaluators
// check temporal rules over the calls (tool_rules), where argument values
// came from (grounding), budgets, and BFCL's and τ²-bench's own checks.
// Each [Result] explains itself: the alignment, what is missing (with the
// argument paths that differ and close tool names), what is extra, and each
// check (latency, budgets, minimums).
//
// Any evaluator can be limited to the steps of some agents (agent: and
// include_subagents: in a suite, check.ForAgent in Go): it then scores
// only those agents' steps, renumbered from 1, with every turn kept and no
// run-level metrics, and its Details.Scope says what was kept. An agent
// the trace does not name makes the evaluator an error ([ErrNoAgent]).
//
// An evaluator passes when its score reaches its threshold (1.0 for
// deterministic evaluators unless set otherwise). A case is scored by
// these rules, which check.Evaluate applies to several evaluators too:
//  1. its score is the mean of its evaluators' scores, weighted by their
//     weights;
//  2. it passes iff every evaluator not marked required: false (in Go:
//     check.Settings.Optional) passes;
//  3. a case with no trace, an unreadable trace or an evaluator that
//     cannot run has [StatusError], never a silent 0 or a silent pass;
//  4. a trace cut off or broken by a syntax error is unreadable, unless
//     read leniently (see [Input.Damage]): then the case is scored from
//     what came before the damage and marked partial.
//
// A case with no recorded trace may run the agent instead: its suite's
// target (a command, codex or claude-code, run headless) produces the trace,
// which is read like a recorded one; an agent that fails, hangs or writes no
// readable trace makes the case an error.
//
// # From Go values
//
// A run of an agent written in Go need not pass through a trace file.
// [Builder] builds a [Trajectory] from Go values: turns, the tool calls of
// each model response, their results paired by call id, final answers and
// metrics. It reports misuse (a result for a call never added, arguments
// that are not JSON) as an error from Build. A Trajectory may also be
// written as a struct literal (see [Builder]). The nested modules
// github.com/trajeval/trajeval/convert/openaigo, .../convert/adkgo and
// .../convert/anthropicgo convert the message types of the OpenAI, ADK-Go
// and Anthropic Go SDKs into the trajectory that the trace reader of the
// same format gives.
//
// The command trajeval (cmd/trajeval) runs suites: exit code 0 when every
// case passed, 1 when some case failed or errored, 2 when the command or a
// file was wrong, 130 when interrupted before every case ran.
//
// The same rules, with examples and the reasons behind them, are in the
// repository's docs folder: docs/scoring.md (matching and scoring),
// docs/dialects.md (AgentV, ADK, UiPath and Dokimos suites),
// docs/formats.md (trace formats, damaged files), docs/judges.md (LLM
// judges and code graders), docs/running.md (targets, trials,
// resuming), docs/bfcl.md (BFCL's AST checker and files) and docs/tau2.md
// (τ²-bench tasks and results).
package trajeval
