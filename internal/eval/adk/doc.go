// Package adk provides Google ADK's deterministic metrics,
// tool_trajectory_avg_score and response_match_score, and its judged
// metrics, on trajeval's engine (docs/dialects.md, Google ADK).
//
// The expected side is a list of invocations, as an ADK eval case holds
// them: each with the tool calls the agent should make and the final
// response it should give. Invocation i of the expected list is compared
// with turn i of the trajectory. A step whose turn is unknown belongs to
// turn 1; a trajectory with steps but no turns has one turn.
//
// # tool_trajectory_avg_score
//
// Keys (in a suite file): invocations: [{tool_uses: [{name, args}],
// final_response}], match_type (EXACT, the default | IN_ORDER |
// ANY_ORDER; any spelling), ignore_args.
//  1. An expected call matches a step when the names are equal and the
//     arguments are the same JSON value: the same keys at every depth,
//     numbers by value (1 = 1.0), a bool never a number (ADK's Python ==
//     takes True for 1), lists in order. ignore_args compares names only.
//  2. Each invocation scores 1 or 0. EXACT: the turn's calls are the
//     expected calls, position by position, nothing more (calls of one
//     parallel group may come in any order). IN_ORDER: the expected calls
//     appear in order, other calls may sit between them. ANY_ORDER: every
//     expected call is matched by a distinct step, in any order; extra
//     calls are allowed. Matchings are optimal (package align).
//  3. An invocation that expects no calls scores 1 under EXACT only when
//     the turn made none, and 1 under IN_ORDER and ANY_ORDER.
//  4. The score is the mean over the expected invocations; the metric
//     passes when the mean is at least the threshold (default 1.0).
//  5. When the trajectory's turn count differs from the expected
//     invocation count, Details.Warnings say so; an expected invocation
//     with no turn scores 0, and turns beyond the expected ones are not
//     scored. (ADK zips the two lists and silently drops the rest.)
//  6. Result.Members hold one result per invocation (Turn set), with its
//     alignment: matched, missing with near misses, extra.
//
// # response_match_score
//
// Keys: invocations (as above; only final_response is read).
//  1. Per invocation, the ROUGE-1 F-measure with Porter stemming of the
//     turn's final response against the expected final response (package
//     rouge reproduces Google's rouge_score figures).
//  2. Invocations without an expected final response are not scored; a
//     turn without a final response (or a missing turn) scores 0 with a
//     warning.
//  3. The score is the mean over the scored invocations; the default
//     threshold is 0.8. With no expected final response at all the metric
//     cannot run and the result is an error.
//
// # The judged metrics
//
// Keys: invocations, rubrics (the rubric metrics: [{rubric_id,
// rubric_content: {text_property}}] or texts), and the judge keys of
// llm_judge (judge, model, temperature). The default threshold is 0.8.
// Every value from the trace enters the prompt as a data section.
//  1. final_response_match_v2: for each invocation with an expected final
//     response, the judge decides whether the turn's response is valid
//     given the reference (same facts and conclusions; wording may
//     differ): 1 or 0. All invocations go in one judge call. A turn without
//     a response scores 0.
//  2. rubric_based_final_response_quality_v1 and
//     rubric_based_tool_use_quality_v1: per invocation, one judge call
//     decides for each rubric whether the turn's final response (or its
//     tool calls and results) meets it; the invocation scores the share of
//     rubrics met. A missing turn scores 0.
//  3. hallucinations_v1: per invocation with a final response, the judge
//     labels each sentence supported, unsupported, contradictory, disputed
//     or not_applicable against the user's prompt and the turn's tool
//     results; the invocation scores (supported + not_applicable) /
//     sentences.
//  4. The metric's score is the mean over the scored invocations;
//     Result.Members hold each invocation's score and the judge's
//     reasoning.
package adk
