package adk

import "github.com/trajeval/trajeval/internal/suite"

// Keys are the keys of ADK's eval config (EvalConfig and the criterion
// models of eval_metrics.py: BaseCriterion, LlmAsAJudgeCriterion,
// RubricsBasedCriterion, HallucinationsCriterion, ToolTrajectoryCriterion,
// JudgeModelOptions) and of its eval sets (EvalSet, EvalCase, Invocation,
// IntermediateData, InvocationEvents, InvocationEvent of eval_set.py and
// eval_case.py), as ADK's pydantic models write them: snake_case, or
// camelCase through their aliases. ADK's eval set models keep unknown keys
// (extra="allow") without reading them, so an unknown key of an eval set
// is a warning; in the eval config it is an error, with the closest key.
var Keys = suite.KeyTable{
	Dialect: "adk",
	Peer:    "google-adk 2.5 (google/adk-python: eval_case.py at 13b8219eb56d, eval_config.py at 1edb4bb7d26a, eval_set.py at f818d6b2cf44; BaseCriterion.include_intermediate_responses_in_final from the 2.x releases)",
	Keys: []suite.Key{
		{Object: "config", Name: "criteria", Use: suite.Used, Note: "the metrics and their criteria"},
		{Object: "config", Name: "custom_metrics", Use: suite.Refused, Note: "custom metrics run Python functions; an empty map is accepted"},
		{Object: "config", Name: "user_simulator_config", Use: suite.Inert, Note: "trajeval runs no user simulator; it scores recorded conversations"},

		{Object: "criterion", Name: "threshold", Use: suite.Used, Note: "the metric's threshold"},
		{Object: "criterion", Name: "include_intermediate_responses_in_final", Use: suite.Used, Note: "false is what trajeval does; true is a warning, as traces keep each turn's final response only"},
		{Object: "criterion", Name: "judge_model_options", Use: suite.Used, Note: "the judge's model and samples"},
		{Object: "criterion", Name: "rubrics", Use: suite.Used, Note: "the rubrics of the rubric-based metrics"},
		{Object: "criterion", Name: "evaluate_intermediate_nl_responses", Use: suite.Used, Note: "hallucinations_v1: false; true is refused, as traces keep each turn's final response only"},
		{Object: "criterion", Name: "match_type", Use: suite.Used, Note: "tool_trajectory_avg_score: EXACT, IN_ORDER or ANY_ORDER"},
		{Object: "criterion", Name: "stop_signal", Use: suite.Refused, Note: "a user simulator's setting; the user simulator metrics are refused"},

		{Object: "judge_model_options", Name: "judge_model", Use: suite.Used, Note: "the judge model (TRAJEVAL_JUDGE_MODEL wins)"},
		{Object: "judge_model_options", Name: "judge_model_config", Use: suite.Used, Note: "null; Gemini's generation config is refused, as trajeval asks at temperature 0"},
		{Object: "judge_model_options", Name: "num_samples", Use: suite.Used, Note: "above 1 is a warning: trajeval asks once, at temperature 0"},

		{Object: "eval set", Name: "eval_set_id", Use: suite.Used, Note: "the suite's name when it has none"},
		{Object: "eval set", Name: "name", Use: suite.Used, Note: "the suite's name"},
		{Object: "eval set", Name: "description", Use: suite.Descriptive, Note: ""},
		{Object: "eval set", Name: "eval_cases", Use: suite.Used, Note: "the cases"},
		{Object: "eval set", Name: "creation_timestamp", Use: suite.Descriptive, Note: ""},

		{Object: "eval case", Name: "eval_id", Use: suite.Used, Note: "the case's id, matched to traces"},
		{Object: "eval case", Name: "conversation", Use: suite.Used, Note: "the expected invocations"},
		{Object: "eval case", Name: "conversation_scenario", Use: suite.Refused, Note: "a scenario needs a user simulator; record the conversation instead"},
		{Object: "eval case", Name: "session_input", Use: suite.Inert, Note: "trajeval scores a recorded run, so it starts no session"},
		{Object: "eval case", Name: "creation_timestamp", Use: suite.Descriptive, Note: ""},
		{Object: "eval case", Name: "rubrics", Use: suite.Used, Note: "judged by the rubric metrics in every invocation, beside the criterion's; a warning when no rubric metric runs"},
		{Object: "eval case", Name: "final_session_state", Use: suite.Inert, Note: "trajeval checks no session state"},

		{Object: "invocation", Name: "invocation_id", Use: suite.Descriptive, Note: ""},
		{Object: "invocation", Name: "user_content", Use: suite.Used, Note: "the user's message"},
		{Object: "invocation", Name: "final_response", Use: suite.Used, Note: "the expected final response"},
		{Object: "invocation", Name: "intermediate_data", Use: suite.Used, Note: "the expected tool calls"},
		{Object: "invocation", Name: "creation_timestamp", Use: suite.Descriptive, Note: ""},
		{Object: "invocation", Name: "inference_call_count", Use: suite.Descriptive, Note: "a recorded figure of the expected run"},
		{Object: "invocation", Name: "duration", Use: suite.Descriptive, Note: "a recorded figure of the expected run"},
		{Object: "invocation", Name: "rubrics", Use: suite.Used, Note: "judged by the rubric metrics in this invocation, beside the criterion's and the case's; a warning when no rubric metric runs"},
		{Object: "invocation", Name: "app_details", Use: suite.Inert, Note: "the judges see the tool calls, not the agent's instructions and tool declarations"},

		{Object: "intermediate data", Name: "tool_uses", Use: suite.Used, Note: "the expected tool calls"},
		{Object: "intermediate data", Name: "tool_responses", Use: suite.Descriptive, Note: "the expected calls' results, which no metric compares"},
		{Object: "intermediate data", Name: "intermediate_responses", Use: suite.Descriptive, Note: "the expected intermediate text, which no metric compares"},
		{Object: "intermediate data", Name: "invocation_events", Use: suite.Used, Note: "the expected calls, from the events' function_call parts"},

		{Object: "invocation event", Name: "author", Use: suite.Used, Note: "the agent that made the event's calls"},
		{Object: "invocation event", Name: "content", Use: suite.Used, Note: "the event's function calls"},
		{Object: "invocation event", Name: "grounding_metadata", Use: suite.Descriptive, Note: ""},
		{Object: "invocation event", Name: "usage_metadata", Use: suite.Descriptive, Note: ""},
		{Object: "invocation event", Name: "model_version", Use: suite.Descriptive, Note: ""},
		{Object: "invocation event", Name: "invocation_index", Use: suite.Descriptive, Note: "written by ADK's web editor, ignored by ADK too"},
		{Object: "invocation event", Name: "tool_use_index", Use: suite.Descriptive, Note: "written by ADK's web editor, ignored by ADK too"},
	},
}
