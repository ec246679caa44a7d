package uipath

import "github.com/trajeval/trajeval/internal/suite"

// Keys are the keys of UiPath's evaluation sets and evaluator files, from
// the pydantic models of uipath-python 2.14.6 (EvaluationSet,
// EvaluationItem, EvaluatorReference, the legacy LegacyEvaluationSet and
// LegacyEvaluationItem of eval/models/evaluation_set.py; BaseEvaluator,
// BaseEvaluatorConfig, OutputEvaluatorConfig, BaseLLMJudgeEvaluatorConfig
// and the tool-call evaluator configs of eval/evaluators/). UiPath's
// models ignore unknown keys, so an unknown key of a set or an evaluation
// is a warning; in an evaluator's config it is an error, with the closest
// key.
var Keys = suite.KeyTable{
	Dialect: "uipath",
	Peer:    "uipath-python 2.14.6 (UiPath/uipath-python, commit c8ca9d716735)",
	Keys: []suite.Key{
		{Object: "eval set", Name: "id", Use: suite.Used, Note: "the suite's name when it has none"},
		{Object: "eval set", Name: "name", Use: suite.Used, Note: "the suite's name"},
		{Object: "eval set", Name: "version", Use: suite.Descriptive, Note: ""},
		{Object: "eval set", Name: "evaluator_refs", Use: suite.Used, Note: "the evaluators the set uses: only these are loaded"},
		{Object: "eval set", Name: "evaluator_configs", Use: suite.Used, Note: "the evaluators the set uses, with their weights"},
		{Object: "eval set", Name: "evaluations", Use: suite.Used, Note: "the cases"},
		{Object: "eval set", Name: "model_settings", Use: suite.Inert, Note: "the judges ask the run's judge model"},
		{Object: "eval set", Name: "agent_memory_enabled", Use: suite.Inert, Note: "trajeval scores recorded runs and runs no agent memory"},
		{Object: "eval set", Name: "agent_memory_settings", Use: suite.Inert, Note: "trajeval scores recorded runs and runs no agent memory"},
		{Object: "eval set", Name: "file_name", Use: suite.Descriptive, Note: "legacy sets"},
		{Object: "eval set", Name: "batch_size", Use: suite.Inert, Note: "legacy sets; run with --workers N"},
		{Object: "eval set", Name: "timeout_minutes", Use: suite.Inert, Note: "legacy sets; trajeval scores recorded runs"},
		{Object: "eval set", Name: "created_at", Use: suite.Descriptive, Note: "legacy sets"},
		{Object: "eval set", Name: "updated_at", Use: suite.Descriptive, Note: "legacy sets"},

		{Object: "evaluation", Name: "id", Use: suite.Used, Note: "the case's id, matched to traces"},
		{Object: "evaluation", Name: "name", Use: suite.Descriptive, Note: ""},
		{Object: "evaluation", Name: "inputs", Use: suite.Used, Note: "the case's input, as JSON"},
		{Object: "evaluation", Name: "expected_output", Use: suite.Used, Note: "the output judges' expectedOutput, unless their criteria give one (as UiPath injects it)"},
		{Object: "evaluation", Name: "evaluation_criterias", Use: suite.Used, Note: "the criteria of each evaluator"},
		{Object: "evaluation", Name: "expected_agent_behavior", Use: suite.Inert, Note: "the trajectory judges take expectedAgentBehavior from their criteria, as UiPath's do"},
		{Object: "evaluation", Name: "mocking_strategy", Use: suite.Inert, Note: "trajeval scores recorded runs; nothing is mocked"},
		{Object: "evaluation", Name: "input_mocking_strategy", Use: suite.Inert, Note: "trajeval scores recorded runs; nothing is mocked"},
		{Object: "evaluation", Name: "eval_set_id", Use: suite.Descriptive, Note: "legacy evaluations"},
		{Object: "evaluation", Name: "created_at", Use: suite.Descriptive, Note: "legacy evaluations"},
		{Object: "evaluation", Name: "updated_at", Use: suite.Descriptive, Note: "legacy evaluations"},
		{Object: "evaluation", Name: "simulate_input", Use: suite.Inert, Note: "legacy evaluations; trajeval scores recorded runs"},
		{Object: "evaluation", Name: "input_generation_instructions", Use: suite.Inert, Note: "legacy evaluations; trajeval scores recorded runs"},
		{Object: "evaluation", Name: "simulate_tools", Use: suite.Inert, Note: "legacy evaluations; trajeval scores recorded runs"},
		{Object: "evaluation", Name: "simulation_instructions", Use: suite.Inert, Note: "legacy evaluations; give simulationInstructions in the simulation judge's criteria"},
		{Object: "evaluation", Name: "tools_to_simulate", Use: suite.Inert, Note: "legacy evaluations; trajeval scores recorded runs"},
		{Object: "evaluation", Name: "conversational_inputs", Use: suite.Inert, Note: "legacy evaluations; the recorded run holds the conversation"},
		{Object: "evaluation", Name: "conversational_expected_output", Use: suite.Inert, Note: "legacy evaluations; give expectedOutput in the criteria"},

		{Object: "evaluator config ref", Name: "ref", Use: suite.Used, Note: "the evaluator's id"},
		{Object: "evaluator config ref", Name: "weight", Use: suite.Used, Note: "the evaluator's weight in the case's score"},

		{Object: "evaluator", Name: "version", Use: suite.Descriptive, Note: ""},
		{Object: "evaluator", Name: "id", Use: suite.Used, Note: "what sets reference"},
		{Object: "evaluator", Name: "name", Use: suite.Descriptive, Note: ""},
		{Object: "evaluator", Name: "description", Use: suite.Descriptive, Note: ""},
		{Object: "evaluator", Name: "evaluator_type_id", Use: suite.Used, Note: "the evaluator type"},
		{Object: "evaluator", Name: "evaluator_config", Use: suite.Used, Note: "see evaluator config"},

		{Object: "evaluator config", Name: "name", Use: suite.Descriptive, Note: ""},
		{Object: "evaluator config", Name: "description", Use: suite.Descriptive, Note: ""},
		{Object: "evaluator config", Name: "default_evaluation_criteria", Use: suite.Used, Note: "the criteria of evaluations that give null"},
		{Object: "evaluator config", Name: "strict", Use: suite.Used, Note: "tool-call evaluators: all or nothing"},
		{Object: "evaluator config", Name: "subset", Use: suite.Used, Note: "uipath-tool-call-args: the call may carry extra arguments"},
		{Object: "evaluator config", Name: "prompt", Use: suite.Used, Note: "LLM judges: the prompt"},
		{Object: "evaluator config", Name: "model", Use: suite.Used, Note: "LLM judges: the judge model (same-as-agent: the run's)"},
		{Object: "evaluator config", Name: "temperature", Use: suite.Used, Note: "LLM judges: the judge's temperature"},
		{Object: "evaluator config", Name: "max_tokens", Use: suite.Inert, Note: "the judge's answer length is the run's judge setting"},
		{Object: "evaluator config", Name: "target_output_key", Use: suite.Used, Note: "output judges: the part of the output judged, of the agent's answer and of the expected output (* the whole; a dot-path; a list of them)"},
		{Object: "evaluator config", Name: "line_by_line_evaluator", Use: suite.Used, Note: "false; true is refused, as trajeval judges the output (or its targetOutputKey) whole"},
		{Object: "evaluator config", Name: "line_delimiter", Use: suite.Inert, Note: "trajeval judges the output (or its targetOutputKey) whole, not line by line"},
	},
}
