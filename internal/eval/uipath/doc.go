// Package uipath provides UiPath's four tool-call evaluators and its LLM
// judges on trajeval's engine, with the meaning UiPath documents and
// without the bugs of its implementation (docs/dialects.md, UiPath).
//
// Every evaluator looks at all the trajectory's steps, in issue order,
// across turns. Criteria keys may be written in snake_case, kebab-case or
// camelCase (tool_calls_order = toolCallsOrder). Each type is also
// registered as uipath-<type> (uipath-tool-call-order …), UiPath's own
// evaluatorTypeId. The default threshold is 1.0.
//
// # tool_call_order
//
// Keys: tool_calls_order: [names] (required, not empty), strict (default
// false).
//  1. Only names are compared, case-sensitively.
//  2. strict: the score is 1 when the actual names are exactly the
//     expected list, else 0.
//  3. Otherwise the score is |LCS(expected, actual)| / |expected|: the
//     longest common subsequence, so extra calls between expected ones cost
//     nothing and each expected call out of order or missing costs
//     1/|expected|. Calls of one parallel group may be taken in any order.
//  4. No actual calls score 0. An empty expected list is a configuration
//     error (UiPath calls it invalid criteria).
//  5. Details.Notes carry UiPath's justification: actual, expected and lcs
//     (lists of names).
//
// # tool_call_count
//
// Keys: tool_calls_count: {name: [op, n]} (required, not empty), strict.
//  1. op is one of = == != > < >= <= ("=" is "=="); n is a whole number
//     ≥ 0; a bare n means [=, n].
//  2. The count of a name is the number of steps with that exact name.
//  3. The score is the fraction of constraints met; strict: 1 when all
//     are met, else 0.
//  4. A trajectory with no calls is counted like any other: {t: [=, 0]}
//     holds. (UiPath scores it 0, a bug.)
//  5. Details.Checks hold one check per constraint, with the count seen.
//
// # tool_call_args
//
// Keys: tool_calls: [{name, args}] (required, not empty; no args: any
// arguments), strict, subset
// (default false).
//  1. An expected call matches a step with the same name whose arguments
//     match: subset: true means every expected key is present with an
//     equal value and extra actual keys are allowed (trajeval's partial);
//     subset: false means the same keys with equal values (exact). The
//     flag always has its documented effect (UiPath ignores it, a bug).
//  2. Values compare as JSON: numbers by value (1 = 1.0), strings exactly,
//     a bool is never a number; trajeval's operators ($regex, $gt …) may
//     be used in args.
//  3. Order does not matter. Expected calls are paired with steps by a
//     maximum matching, each step used once, so a loosely specified call
//     never takes the only step a stricter one could match (UiPath pairs
//     greedily, a bug).
//  4. The score is matched / |expected|; strict: 1 when every expected
//     call is matched, else 0.
//
// # tool_call_output
//
// Keys: tool_outputs: [{name, output}] (required, not empty), strict.
//  1. An expected output matches a step with the same name whose result
//     equals it: as JSON values when both parse as JSON (a string holding
//     JSON is parsed, so "8.0" equals the number 8), else as strings.
//  2. A result that is an object with a "content" field also matches by
//     that field, as UiPath keeps only "content" of a tool's output.
//  3. Pairing, score and strict are as for tool_call_args.
//
// All four explain themselves like tool_trajectory: the matched pairs, the
// missing expected calls with the steps that came closest, and the extra
// steps.
//
// # The LLM judges
//
// llm_judge_trajectory (uipath-llm-judge-trajectory-similarity),
// llm_judge_trajectory_simulation (uipath-llm-judge-trajectory-simulation),
// llm_judge_output (uipath-llm-judge-output-semantic-similarity) and
// llm_judge_output_strict_json (uipath-llm-judge-output-strict-json-similarity).
// Keys: expected_agent_behavior (the trajectory judges; the simulation
// judge also simulation_instructions) or expected_output (the output
// judges), and prompt, model, temperature, judge as in llm_judge.
//  1. The prompt (UiPath's own words by default, or prompt: text or a
//     file) may name UiPath's placeholders {{AgentRunHistory}} (the tool
//     calls, results and answers), {{ExpectedAgentBehavior}},
//     {{UserOrSyntheticInput}}, {{SimulationInstructions}},
//     {{ActualOutput}} (the last answer, as JSON when it is JSON) and
//     {{ExpectedOutput}}, each rendered as a data section; any other is a
//     configuration error, and so is a prompt that names none.
//  2. The judge answers {justification, score} with a score from 0 to
//     100; the result's score is round(score)/100 and Details.Notes keep
//     the justification. A score outside 0 to 100 is asked for again,
//     then an error.
//  3. The default threshold is 0.5. A model of "same-as-agent" in a
//     UiPath evaluator file means the run's judge model.
//  4. An output judge's target_output_key (UiPath's targetOutputKey)
//     picks the part of the answer and of the expected output judged: "*"
//     (the default) the whole, a dot-path the value there, a list of
//     paths an object of those values ([Target]). An answer without the
//     path is an error, never judged.
package uipath
