// Package judge is the llm_judge evaluator (AgentV's llm_judge, also
// called llm_grader): a judge model scores the agent's work from 0 to 1.
//
// Keys:
//  1. prompt: the instructions, inline or a file: a one-line value that
//     starts with ./ or ../, or ends in .md, .txt, .prompt or .tmpl, read
//     relative to the suite's folder (a missing file is a configuration
//     error at the prompt key);
//  2. criteria (or AgentV's rubrics): a list of texts, or of maps with
//     description, name and weight, scored in one judge call; the score is
//     their weighted mean and each criterion's score and reasoning is a
//     check of the result;
//  3. judge: a block overriding the suite's judge: block (base_url, model,
//     api_key_env, timeout …), and model, temperature as shortcuts.
//
// A prompt may name these variables, each rendered as a data section:
// {{candidate_answer}} (the agent's final answer), {{output_messages}}
// (its tool calls, the tools' results and its answers), {{input}} (the
// case's input, else the trace's user messages), {{expected_outcome}},
// {{expected_output}} (the case's reference answer), {{trajectory}} (the canonical trajectory as JSON) and {{tool_calls}}.
// AgentV's {{question}}, {{reference_answer}} and {{answer}} are accepted
// too; an unknown variable is a configuration error. A prompt that names
// none gets the input, the expected outcome and output (when given), the
// tool calls and the answer appended. A criterion marked required: true
// must score at least 0.5 for the evaluator to pass, whatever the
// weighted score.
//
// The agent's text is data, not instructions: every value is JSON-encoded
// inside <data> … </data>, with < and > escaped so it cannot close its
// section, and the judge is told to disregard instructions found in data.
//
// The default threshold is 0.5. The judge's reasoning is kept in
// Details.Notes["reasoning"]. A judge that cannot be reached, or that
// answers twice with something other than the JSON asked for, makes the
// evaluator an error, never a score.
//
// This package knows nothing of suite files: [New] builds an llm_judge
// from [Options] (a prompt parsed by [ParsePrompt], criteria, and the
// judge as a judge.Handle), and package builtin reads the keys above into
// them. The other judged evaluators share its parts: [Checklist] (dokimos,
// adk), [ParseTemplate] and [Template] (uipath's prompts).
package judge
