// Package uipath provides UiPath's four tool-call evaluators on trajeval's
// engine, with the meaning UiPath documents and without the bugs of its
// implementation (docs/dialects.md, UiPath).
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
package uipath
