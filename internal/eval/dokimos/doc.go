// Package dokimos provides Dokimos's agent evaluators on trajeval's
// engine (docs/dialects.md, Dokimos). Dokimos's trajectory modes are
// tool_trajectory's modes and live there.
//
// Every evaluator looks at all the trajectory's steps, in issue order,
// across turns. Keys may be written in snake_case, kebab-case or
// camelCase. Thresholds default to 1.0, except task_completion (0.5),
// tool_argument_hallucination and the two reliability evaluators (0.8).
//
// # tool_correctness
//
// Keys: expected (items as tool_trajectory takes them: {tool, args,
// args_match}), match (names_only, the default | names_and_order |
// names_and_args), args_match (default exact), trim, case_insensitive.
//  1. names_only: the F1 score of the set of expected names against the
//     set of actual names (repeats collapse).
//  2. names_and_order: |LCS of the names| / max(|expected|, |actual|), so
//     both missing and extra calls cost.
//  3. names_and_args: the F1 score over calls, 2·M / (|expected| +
//     |actual|), where M is the size of a maximum one-to-one matching of
//     expected calls to steps with the same name and matching arguments.
//     Arguments compare exactly by default, numbers by value (Dokimos's
//     tolerant EXACT matcher); args_match per item or per evaluator
//     overrides it. (Dokimos pairs greedily here; trajeval does not.)
//  4. Both lists empty score 1; one empty scores 0.
//
// # tool_call_validity
//
// Keys: tools: [{name, description, parameters | input_schema |
// inputSchema}] or tools_file: path (relative to the suite file; JSON or
// YAML; a list of tools or {tools: [...]}); strict. OpenAI's
// {type: function, function: {...}} wrapper is accepted too.
//  1. Each schema is a JSON Schema, 2020-12 unless its $schema says
//     otherwise, compiled once when the suite loads; an invalid schema is a
//     configuration error at its place. Schemas must be self-contained:
//     $ref to other files or URLs is refused.
//  2. A call is valid when its tool is defined and its arguments (the
//     empty object when it has none) validate against the whole schema,
//     nested schemas, $defs and $ref included.
//  3. strict: a top-level argument not listed in the schema's properties
//     makes the call invalid (as additionalProperties: false would).
//  4. A tool without a schema accepts any arguments (strict: none).
//  5. The score is valid / total; no calls score 1. Details.Checks list
//     each invalid call with every failing instance path and message.
//
// # tool_error
//
// Keys: treat_blank_as_error (default true), pattern (an RE2 expression).
//  1. A call failed when the step's error flag is true; when its result is
//     null or blank text (unless treat_blank_as_error is false); when the
//     result is a JSON object (or text holding one) with a top-level
//     "error" field that is not null; or when pattern matches the result's
//     text (JSON results are matched in their compact JSON form).
//  2. The score is succeeded / total; no calls score 1.
//  3. Details.Checks list each failed call and why; when no step of the
//     trace carries a result a warning says so, since every call then
//     counts as failed.
//
// # tool_efficiency
//
// No keys of its own.
//  1. Two calls are duplicates when their names are equal and their
//     arguments are equal JSON values (numbers by value, key order
//     irrelevant).
//  2. The score is distinct / total; no calls score 1.
//  3. Details.Extra lists every repeat of an earlier call; runs of
//     consecutive duplicates are reported in Details.Notes["loops"] and
//     as warnings, a sign the agent is stuck.
//
// # tool_name_reliability and tool_description_reliability
//
// They read the same tool definitions as tool_call_validity (tools or
// tools_file) and score the definitions, not the calls, with Dokimos's
// rule-based checks, and its judge's checks when a judge is asked for: the
// evaluator's judge: key is a block or true, or the suite has a judge:
// block (judge: false turns them off). Without one, the rule checks alone
// score and Details.Notes["judge_checks"] says so. The judge is asked once
// per tool, all checks in one call, the first time the evaluator runs.
// The score is the fraction of checks passed over all tools; the default
// threshold is 0.8.
//
// Name checks, per tool:
//  1. snakecase_format: lower-case letters and digits in words joined by
//     single underscores, starting with a letter;
//  2. conciseness: at most max_segments (default 7) underscore-separated
//     segments;
//  3. intent_over_implementation: the name does not say how the tool works
//     rather than what it does: no segment with, via, using, through or by
//     followed by an implementation word (llm, gpt, api, http, sql, regex,
//     json …), and none of the extra blocklist entries (substrings) given.
//
// The judge's name checks: clarity (the purpose is clear from the name),
// name_order (operation_system_entity_data order) and
// semantic_intent_over_implementation.
//
// Description checks, per tool:
//  1. input_arguments_clarity: every parameter has a description;
//  2. input_arguments_types: every parameter has a type (type, enum,
//     const, $ref or a combinator);
//  3. max_num_input_arguments: at most max_input_args (default 5)
//     parameters;
//  4. max_optional_input_arguments: at most max_optional_args (default 3)
//     parameters outside required.
//
// The judge's description checks: general_structure, has_examples,
// has_usage_notes, intent_over_implementation, clarity, redundancy,
// input_arguments_enum, input_arguments_format, return_statement_quality.
//
// Details.Checks name each check as tool/check.
//
// # task_completion
//
// Keys: tasks (a list; default: the case's expected_outcome as the one
// task), constraints, and the judge keys of llm_judge (judge, model,
// temperature). A judge always runs.
//  1. The judge sees the user's input and the agent's work (tool calls,
//     results, answers) as data, and decides for each task whether it was
//     completed; a task done in breach of the constraints is not.
//  2. The score is completed / tasks; Details.Checks give each task's
//     verdict and the judge's reasons. All tasks go in one call.
//
// # tool_argument_hallucination
//
// Keys: the judge keys. A judge always runs.
//  1. The judge sees what the user said and every call with its result,
//     and decides for each call whether its argument values can be derived
//     from the user's words or from earlier calls' results.
//  2. The score is grounded calls / calls; no calls score 1 without a
//     judge call. All calls go in one judge call.
package dokimos
