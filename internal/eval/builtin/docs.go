package builtin

import (
	"sync"

	"github.com/trajeval/trajeval/internal/argmatch"
	"github.com/trajeval/trajeval/internal/eval/composite"
	"github.com/trajeval/trajeval/internal/eval/spec"
	"github.com/trajeval/trajeval/internal/eval/uipath"
	"github.com/trajeval/trajeval/internal/score"
	"github.com/trajeval/trajeval/internal/shape"
)

// The documentation of every built-in type, in one place: its summary,
// its settings and an example. Specs attaches it to the specs, so the
// settings listed by `trajeval evaluators NAME` and the suite's JSON
// Schema come from the definitions the loader uses; a test checks that
// every type documents exactly the keys it takes.

type typeDoc struct {
	summary  string
	example  string
	settings []shape.Field
}

func fields(groups ...[]shape.Field) []shape.Field {
	var out []shape.Field
	for _, g := range groups {
		out = append(out, g...)
	}
	return out
}

// documentation is what docs makes: every built-in type's, by name, and
// the shape of an expected call (for ExpectedEntrySchema).
type documentation struct {
	types    map[string]typeDoc
	expected shape.Shape
}

// docs is the documentation, made on first use (Specs, Documented,
// ExpectedEntrySchema; not Types, which the loader uses): its shapes took
// 2,600 allocations in every command's start-up, and 1.2 M instructions of
// every eval's.
var docs = sync.OnceValue(func() documentation {
	// The shapes several types share.
	var (
		argsShape = shape.OneOf("map of argument values (operators such as {$regex: ...} allowed), or the word any",
			shape.Shape{Text: "map", Schema: map[string]any{"type": "object"}},
			shape.Shape{Text: "any", Schema: map[string]any{"const": "any"}},
			shape.Shape{Text: "null", Schema: map[string]any{"type": "null"}})
		argsMatchShape = shape.OneOf("one of "+joinWords(argmatch.Modes)+", or a list of argument paths",
			shape.Enum(argmatch.Modes...), shape.List(shape.Text()))
		expectedShape = shape.List(shape.OneOf("tool name, or {tool, args, args_match, max_duration_ms, output}",
			shape.Name(),
			shape.Object("expected call",
				shape.Field{Key: "tool", Shape: shape.Name(), Doc: "The tool's name."},
				shape.Field{Key: "name", Shape: shape.Name(), Doc: "Same as tool."},
				shape.Field{Key: "args", Shape: argsShape, Default: "any", Doc: "The arguments expected."},
				shape.Field{Key: "input", Shape: argsShape, Doc: "Same as args (AgentV's name)."},
				shape.Field{Key: "output", Shape: shape.Any(), Doc: "The result expected (tool_trajectory only): the keys written must be in the result, a list's elements in order among the result's; operators allowed."},
				shape.Field{Key: "args_match", Shape: argsMatchShape, Doc: "How this call's arguments compare, over the evaluator's args_match."},
				shape.Field{Key: "max_duration_ms", Shape: shape.NonNegative(), Doc: "The longest the call may take."},
			)))
		toolsShape = shape.List(shape.Shape{Text: "tool definition {name, description, parameters}",
			Schema: map[string]any{"type": "object"}})
		judgeShape = shape.OneOf("judge block (as the suite's judge:), or true or false",
			shape.Ref("judge", "judge block"), shape.Bool())
		invocationsShape = shape.List(shape.Object("invocation {tool_uses, final_response}",
			shape.Field{Key: "tool_uses", Shape: shape.OneOf("list of calls {name, args}, or null", shape.List(shape.Object("call",
				shape.Field{Key: "name", Shape: shape.Name(), Doc: "The tool's name."},
				shape.Field{Key: "tool", Shape: shape.Name(), Doc: "Same as name."},
				shape.Field{Key: "args", Shape: shape.OneOf("map or null", shape.Shape{Text: "map", Schema: map[string]any{"type": "object"}}, shape.Shape{Text: "null", Schema: map[string]any{"type": "null"}}), Doc: "The arguments expected."},
			)), shape.Shape{Text: "null", Schema: map[string]any{"type": "null"}}), Doc: "The calls expected in this turn."},
			shape.Field{Key: "final_response", Shape: shape.OneOf("text or null", shape.Text(), shape.Shape{Text: "null", Schema: map[string]any{"type": "null"}}), Doc: "The answer expected at the end of this turn."},
			shape.Field{Key: "user", Shape: shape.Any(), Doc: "The user's message (descriptive)."},
		))
		criteriaShape = shape.List(shape.OneOf("text, or {name, description, weight, required}", shape.Text(), shape.Object("criterion",
			shape.Field{Key: "name", Shape: shape.Name(), Doc: "The criterion's name."},
			shape.Field{Key: "id", Shape: shape.Name(), Doc: "Same as name."},
			shape.Field{Key: "description", Shape: shape.Text(), Doc: "What the judge checks."},
			shape.Field{Key: "criterion", Shape: shape.Text(), Doc: "Same as description."},
			shape.Field{Key: "outcome", Shape: shape.Text(), Doc: "Same as description."},
			shape.Field{Key: "weight", Shape: shape.NonNegative(), Default: "1", Doc: "Its share of the score."},
			shape.Field{Key: "required", Shape: shape.Bool(), Default: "false", Doc: "It must score at least 0.5 for the evaluator to pass."},
		)))
		rubricsShape = shape.List(shape.OneOf("text, or {rubric_id, rubric_content: {text_property}}", shape.Text(),
			shape.Object("rubric",
				shape.Field{Key: "rubric_id", Shape: shape.Name(), Doc: "The rubric's name."},
				shape.Field{Key: "rubric_content", Shape: shape.Object("{text_property}",
					shape.Field{Key: "text_property", Shape: shape.Text(), Required: true, Doc: "What the rubric asks."}), Required: true, Doc: "The rubric's text."},
				shape.Field{Key: "type", Shape: shape.Any(), Doc: "Descriptive."},
				shape.Field{Key: "description", Shape: shape.Any(), Doc: "Descriptive."},
			)))
	)

	// The shapes of tool_rules.
	var (
		ruleToolShape = shape.OneOf("tool name, or {tool, args, args_match}", shape.Name(), shape.Object("tool",
			shape.Field{Key: "tool", Shape: shape.Name(), Required: true, Doc: "The tool's name."},
			shape.Field{Key: "args", Shape: argsShape, Default: "any", Doc: "The arguments that make a call of it."},
			shape.Field{Key: "args_match", Shape: argsMatchShape, Doc: "How the arguments compare, over the evaluator's args_match."}))
		ruleCountShape = shape.OneOf("{TOOL: n}, or {tool, args, args_match, n}", shape.Map(shape.Count(0)), shape.Object("count",
			shape.Field{Key: "tool", Shape: shape.Name(), Required: true, Doc: "The tool's name."},
			shape.Field{Key: "args", Shape: argsShape, Default: "any", Doc: "The arguments that make a call of it."},
			shape.Field{Key: "args_match", Shape: argsMatchShape, Doc: "How the arguments compare."},
			shape.Field{Key: "n", Shape: shape.Count(0), Required: true, Doc: "The count."}))
		rulePairShape = shape.Shape{Text: "[A, B], two tools", Schema: map[string]any{"type": "array", "items": ruleToolShape.Schema, "minItems": 2, "maxItems": 2}}
		ruleShape     = shape.Object("rule: one of never, at_most, at_least, exactly, before, after, immediately_after, within, first, last, no_repeat, pattern",
			shape.Field{Key: "name", Shape: shape.Name(), Default: "the rule as written", Doc: "Names the rule in reports."},
			shape.Field{Key: "never", Shape: ruleToolShape, Doc: "The tool is never called."},
			shape.Field{Key: "at_most", Shape: ruleCountShape, Doc: "The tool is called at most n times."},
			shape.Field{Key: "at_least", Shape: ruleCountShape, Doc: "The tool is called at least n times."},
			shape.Field{Key: "exactly", Shape: ruleCountShape, Doc: "The tool is called exactly n times."},
			shape.Field{Key: "before", Shape: rulePairShape, Doc: "Every call of B has a call of A earlier."},
			shape.Field{Key: "after", Shape: rulePairShape, Doc: "Every call of A has a call of B later."},
			shape.Field{Key: "immediately_after", Shape: rulePairShape, Doc: "Every call of B comes right after a call of A."},
			shape.Field{Key: "within", Shape: shape.Object("{after, then, steps}",
				shape.Field{Key: "after", Shape: ruleToolShape, Required: true, Doc: "A."},
				shape.Field{Key: "then", Shape: ruleToolShape, Required: true, Doc: "B."},
				shape.Field{Key: "steps", Shape: shape.Count(1), Required: true, Doc: "At most this many steps after A."}),
				Doc: "Every call of A has a call of B at most steps later."},
			shape.Field{Key: "first", Shape: ruleToolShape, Doc: "The first call (or response) calls the tool."},
			shape.Field{Key: "last", Shape: ruleToolShape, Doc: "The last call (or response) calls the tool."},
			shape.Field{Key: "no_repeat", Shape: ruleToolShape, Doc: "No call of the tool is the very next step (whatever its tool) after a call of the tool with equal arguments: T(x) T(x) breaks it, T(x) U T(x) does not."},
			shape.Field{Key: "pattern", Shape: shape.Text(), Doc: "A regular expression over tool names (. | ( ) * + ? {m,n}) the whole call sequence matches."},
			shape.Field{Key: "where", Shape: shape.Map(shape.OneOf("tool name, or {tool, args, args_match}", shape.Name(), shape.Object("item",
				shape.Field{Key: "tool", Shape: shape.Name(), Default: "the item's name", Doc: "The tool's name."},
				shape.Field{Key: "args", Shape: argsShape, Default: "any", Doc: "The arguments that make a call of it."},
				shape.Field{Key: "args_match", Shape: argsMatchShape, Doc: "How the arguments compare."}))), Doc: "The pattern's items: their tool (default: the item's name) and arguments."},
		)
	)

	// Fields several types share.
	var (
		toolsFields = []shape.Field{
			{Key: "tools", Shape: toolsShape, Doc: "The tool definitions, with JSON Schemas of their arguments (or give tools_file)."},
			{Key: "tools_file", Shape: shape.Text(), Doc: "A JSON or YAML file of tool definitions, relative to the suite."},
		}
		judgeFields = []shape.Field{
			{Key: "judge", Shape: judgeShape, Default: "the suite's judge:", Doc: "The judge to ask, over the suite's judge: block."},
			{Key: "model", Shape: shape.Text(), Doc: "The judge's model, a shortcut for judge: {model: ...}."},
			{Key: "temperature", Shape: shape.NonNegative(), Default: "0", Doc: "The judge's temperature."},
		}
		matchFields = []shape.Field{
			{Key: "trim", Shape: shape.Bool(), Default: "false", Doc: "Compare strings with surrounding white space removed."},
			{Key: "case_insensitive", Shape: shape.Bool(), Default: "false", Doc: "Compare strings ignoring case."},
		}
		invocationsField = shape.Field{Key: "invocations", Shape: invocationsShape, Required: true, Doc: "The expected turns, as an ADK eval case lists them."}
		uipathPrompt     = []shape.Field{{Key: "prompt", Shape: shape.Text(), Default: "UiPath's", Doc: "The judge's prompt, inline or a file, with UiPath's {{placeholders}}."}}
		uipathTargetDoc  = []shape.Field{{Key: "target_output_key", Shape: shape.OneOf("* , a dot-path, or a list of dot-paths", shape.Text(), shape.List(shape.Text())), Default: "*", Doc: "The part of the output judged, of the agent's answer and of expected_output: * the whole, result, items[0].name, or a list of paths."}}
		strictField      = shape.Field{Key: "strict", Shape: shape.Bool(), Default: "false", Doc: "Score 1 when everything matches, else 0."}
	)

	return documentation{expected: expectedShape, types: map[string]typeDoc{
		"tool_trajectory": {
			summary: "The agent's tool calls against the expected ones: in order, in any order, exactly, or as an allow-list.",
			example: `- name: workflow
  type: tool_trajectory
  mode: in_order
  expected:
    - tool: search
      args: {query: {$regex: "(?i)python"}}
    - read_document
`,
			settings: fields([]shape.Field{
				{Key: "mode", Shape: shape.Enum("any_order", "in_order", "exact", "subset", "strict", "superset", "precision", "recall"), Default: "any_order",
					Doc: "How the expected calls must appear among the steps (strict, superset, precision, recall: Dokimos's names)."},
				{Key: "expected", Shape: trajectoryExpectedShape, Doc: "The expected calls (required, except any_order with minimums); in_order and exact also take groups: any_order, in_order, one_of, optional, repeat."},
				{Key: "minimums", Shape: shape.Map(shape.Count(0)), Doc: "Tools that must be called at least n times (any_order only)."},
				{Key: "args_match", Shape: argsMatchShape, Default: "partial; exact with Dokimos's modes", Doc: "How arguments compare."},
				{Key: "score", Shape: shape.Enum(score.Normalisations...), Default: "recall", Doc: "How matches become a score."},
			}, matchFields),
		},
		"tool_rules": {
			summary: "Temporal rules over the tool calls (never, at most, before, within, a pattern ...): the share of rules that hold.",
			example: `- name: safety
  type: tool_rules
  rules:
    - never: {tool: delete, args: {force: true}}
    - at_most: {search: 3}
    - before: [check_inventory, add_to_cart]
    - within: {after: error, then: retry, steps: 2}
    - name: research shape
      pattern: "search+ read_document{2,} synthesize"
`,
			settings: fields([]shape.Field{
				{Key: "rules", Shape: shape.List(ruleShape), Required: true, Doc: "The rules, each one check: one kind key, and name (and where, for a pattern)."},
				{Key: "per_turn", Shape: shape.Bool(), Default: "false", Doc: "Check each rule in every turn; it holds when it holds in each."},
				{Key: "args_match", Shape: argsMatchShape, Default: "partial", Doc: "How the rules' arguments compare, for tools that set none."},
			}, matchFields),
		},
		"execution_metrics": {
			summary: "Budgets on the whole run: tool calls, model calls, tokens, cost, duration, exploration.",
			example: `- name: budget
  type: execution_metrics
  max_tool_calls: 10
  max_duration_ms: 30000
`,
			settings: []shape.Field{
				{Key: "max_tool_calls", Shape: shape.NonNegative(), Doc: "At most this many tool calls."},
				{Key: "max_llm_calls", Shape: shape.NonNegative(), Doc: "At most this many model calls."},
				{Key: "max_tokens", Shape: shape.NonNegative(), Doc: "At most this many tokens in all."},
				{Key: "max_cost_usd", Shape: shape.NonNegative(), Doc: "At most this cost, in US dollars."},
				{Key: "max_duration_ms", Shape: shape.NonNegative(), Doc: "At most this long, in milliseconds."},
				{Key: "target_exploration_ratio", Shape: shape.Fraction(), Doc: "The share of calls to exploration tools aimed at."},
				{Key: "exploration_tolerance", Shape: shape.NonNegative(), Default: "0.2", Doc: "How far from the target ratio still passes."},
				{Key: "exploration_tools", Shape: shape.OneOf("name or list of names", shape.Name(), shape.List(shape.Name())), Default: "read grep glob search list Read Grep Glob WebSearch WebFetch", Doc: "The tools that count as exploration."},
			},
		},
		"composite": {
			summary: "Member evaluators scored as one: weighted average, minimum, or all must pass.",
			example: `- name: quality
  type: composite
  aggregator: min
  evaluators:
    - {name: flow, type: tool_trajectory, mode: in_order, expected: [search, answer]}
    - {name: budget, type: execution_metrics, max_tool_calls: 5}
`,
			settings: []shape.Field{
				{Key: "evaluators", Shape: shape.List(shape.Ref("evaluator", "evaluator")), Doc: "The members, with distinct names."},
				{Key: "assertions", Shape: shape.List(shape.Ref("evaluator", "evaluator")), Doc: "Same as evaluators (AgentV's name)."},
				{Key: "aggregator", Shape: shape.OneOf("one of "+joinWords(composite.Aggregators)+", or {type, weights}", shape.Enum(composite.Aggregators...),
					shape.Object("{type, weights}",
						shape.Field{Key: "type", Shape: shape.Enum(composite.Aggregators...), Default: "weighted_average", Doc: "How member scores combine."},
						shape.Field{Key: "weights", Shape: shape.Map(shape.NonNegative()), Doc: "Member weights by name (weighted_average only)."})),
					Default: "weighted_average", Doc: "How member scores combine."},
			},
		},
		"llm_judge": {
			summary: "A judge model scores the agent's work from 0 to 1, on a prompt or a list of criteria.",
			example: `- name: answer_quality
  type: llm_judge
  prompt: "Does {{candidate_answer}} answer {{input}} correctly and completely?"
`,
			settings: fields([]shape.Field{
				{Key: "prompt", Shape: shape.Text(), Doc: "The instructions, inline or a file (./x.md), with {{candidate_answer}}, {{input}}, {{tool_calls}} ..."},
				{Key: "criteria", Shape: criteriaShape, Doc: "Things to score in one judge call; the score is their weighted mean."},
				{Key: "rubrics", Shape: criteriaShape, Doc: "Same as criteria (AgentV's name)."},
			}, judgeFields),
		},
		"code": {
			summary: "A program of yours reads the case and the trajectory as JSON and prints a score.",
			example: `- name: few_calls
  type: code
  command: [sh, check.sh]
  timeout: 30s
`,
			settings: []shape.Field{
				{Key: "command", Shape: shape.OneOf("list of arguments, or one string split at spaces", shape.List(shape.Text()), shape.Text()), Doc: "The program and its arguments, run in the suite's folder."},
				{Key: "script", Shape: shape.OneOf("list of arguments, or one string split at spaces", shape.List(shape.Text()), shape.Text()), Doc: "Same as command."},
				{Key: "timeout", Shape: shape.Duration(), Default: "30s", Doc: "How long the program may run."},
			},
		},
		"grounding": {
			summary: "The share of argument values (strings, numbers) found in the user's messages, the case's input or an earlier call's result: no invented ids, names or amounts.",
			example: `- name: no_invented_values
  type: grounding
  ignore: [search.limit, "*.page"]
`,
			settings: []shape.Field{
				{Key: "min_length", Shape: shape.Count(0), Default: "3", Doc: "The shortest string checked, in characters."},
				{Key: "case_insensitive", Shape: shape.Bool(), Default: "false", Doc: "Find strings ignoring case (Unicode case folding)."},
				{Key: "numbers", Shape: shape.Bool(), Default: "true", Doc: "Check numbers too, by value (42 = 42.0, and the text 42)."},
				{Key: "only", Shape: shape.OneOf("a path, or a list of paths", shape.Text(), shape.List(shape.Text())), Doc: "Check only these places: TOOL.arg.path, * for any tool or key, [*] for any element."},
				{Key: "ignore", Shape: shape.OneOf("a path, or a list of paths", shape.Text(), shape.List(shape.Text())), Doc: "Do not check these places (same paths as only); a path covers what is below it."},
			},
		},
		"tau2_action": {
			summary: "τ²-bench's ACTION check: 1 when every expected action is matched by some call (name equal, arguments equal over compare_args), else 0.",
			example: `- type: tau2_action
  actions:
    - {name: cancel_reservation, arguments: {reservation_id: EHGLP3}}
    - {name: update_address, arguments: {user_id: sara_doe_496, address1: 12 Elm St}, compare_args: [user_id]}
`,
			settings: []shape.Field{
				{Key: "actions", Shape: shape.List(shape.Object("action {action_id, name, arguments, compare_args, requestor}",
					shape.Field{Key: "action_id", Shape: shape.Name(), Doc: "Names the action in reports."},
					shape.Field{Key: "name", Shape: shape.Name(), Required: true, Doc: "The tool's name."},
					shape.Field{Key: "arguments", Shape: shape.Shape{Text: "map", Schema: map[string]any{"type": "object"}}, Default: "{}", Doc: "The expected arguments, plain values (no operators)."},
					shape.Field{Key: "compare_args", Shape: shape.OneOf("list of argument names, or null", shape.List(shape.Text()), shape.Shape{Text: "null", Schema: map[string]any{"type": "null"}}), Default: "null: the call's own arguments", Doc: "The arguments compared; [] compares the name alone."},
					shape.Field{Key: "requestor", Shape: shape.Enum("assistant", "user"), Default: "assistant", Doc: "Who makes the call; user actions are not in the agent's trajectory (an error)."},
					shape.Field{Key: "info", Shape: shape.Text(), Doc: "A note; not scored."},
				)), Required: true, Doc: "The actions expected, each matched by some call anywhere (one call may match several)."},
			},
		},
		"tau2_communicate": {
			summary: "τ²-bench's COMMUNICATE check: 1 when every text is in some answer of the agent (case ignored, the agent's commas removed), else 0.",
			example: `- type: tau2_communicate
  communicate_info: ["1628", "refund"]
`,
			settings: []shape.Field{
				{Key: "communicate_info", Shape: shape.List(shape.Text()), Required: true, Doc: "The texts the agent must have said."},
			},
		},
		"tool_correctness": {
			summary: "Dokimos's F1 of the expected calls against the actual ones: by names, names and order, or names and arguments.",
			example: `- type: tool_correctness
  match: names_and_args
  expected: [{tool: search, args: {query: weather}}]
`,
			settings: fields([]shape.Field{
				{Key: "match", Shape: shape.Enum("names_only", "names_and_order", "names_and_args"), Default: "names_only", Doc: "What must match."},
				{Key: "expected", Shape: expectedShape, Required: true, Doc: "The expected calls."},
				{Key: "args_match", Shape: argsMatchShape, Default: "exact", Doc: "How arguments compare."},
			}, matchFields),
		},
		"tool_call_validity": {
			summary: "The share of calls whose tool is defined and whose arguments validate against its JSON Schema.",
			example: `- type: tool_call_validity
  tools:
    - name: search
      parameters: {type: object, properties: {query: {type: string}}, required: [query]}
`,
			settings: fields(toolsFields, []shape.Field{
				{Key: "strict", Shape: shape.Bool(), Default: "false", Doc: "An argument the schema does not list makes the call invalid."},
			}),
		},
		"tool_error": {
			summary: "The share of calls that did not fail (error flag, blank result, an error field, or a pattern).",
			example: `- type: tool_error
  pattern: "(?i)timeout|denied"
`,
			settings: []shape.Field{
				{Key: "treat_blank_as_error", Shape: shape.Bool(), Default: "true", Doc: "A null or blank result counts as a failure."},
				{Key: "pattern", Shape: shape.Text(), Doc: "An RE2 expression that marks a result as a failure."},
			},
		},
		"tool_efficiency": {
			summary: "The share of calls that are not repeats of an earlier call with the same arguments.",
			example: `- type: tool_efficiency
`,
		},
		"tool_name_reliability": {
			summary: "Dokimos's checks of the tool names in the definitions (and its judge's, when one is asked).",
			example: `- type: tool_name_reliability
  tools_file: tools.json
`,
			settings: fields([]shape.Field{
				{Key: "max_segments", Shape: shape.Count(0), Default: "7", Doc: "At most this many underscore-separated words in a name."},
				{Key: "blocklist", Shape: shape.OneOf("name or list of names", shape.Text(), shape.List(shape.Text())), Doc: "Words no name may contain."},
			}, toolsFields, judgeFields),
		},
		"tool_description_reliability": {
			summary: "Dokimos's checks of the tool descriptions and parameters (and its judge's, when one is asked).",
			example: `- type: tool_description_reliability
  tools_file: tools.json
  max_input_args: 4
`,
			settings: fields([]shape.Field{
				{Key: "max_input_args", Shape: shape.Count(0), Default: "5", Doc: "At most this many parameters per tool."},
				{Key: "max_optional_args", Shape: shape.Count(0), Default: "3", Doc: "At most this many optional parameters per tool."},
			}, toolsFields, judgeFields),
		},
		"task_completion": {
			summary: "A judge decides which of the tasks the agent completed, within the constraints.",
			example: `- type: task_completion
  tasks: [Find a flight, Book a hotel]
`,
			settings: fields([]shape.Field{
				{Key: "tasks", Shape: shape.OneOf("task or list of tasks", shape.Text(), shape.List(shape.Text())), Default: "the case's expected_outcome", Doc: "What the agent had to do."},
				{Key: "constraints", Shape: shape.Text(), Doc: "Rules the agent had to follow."},
			}, judgeFields),
		},
		"tool_argument_hallucination": {
			summary: "A judge checks that each call's arguments come from the input or earlier results, not invented.",
			example: `- type: tool_argument_hallucination
`,
			settings: judgeFields,
		},
		"tool_call_order": {
			summary: "UiPath's longest common subsequence of the expected tool names and the actual ones.",
			example: `- type: tool_call_order
  tool_calls_order: [search, read, answer]
`,
			settings: []shape.Field{
				{Key: "tool_calls_order", Shape: shape.List(shape.Name()), Required: true, Doc: "The tool names, in the expected order."},
				strictField,
			},
		},
		"tool_call_count": {
			summary: "UiPath's counts of calls per tool, each compared with an operator.",
			example: `- type: tool_call_count
  tool_calls_count: {search: [">=", 1], delete: 0}
`,
			settings: []shape.Field{
				{Key: "tool_calls_count", Required: true, Doc: "For each tool, [operator, n] or n (= n).",
					Shape: shape.Map(shape.OneOf("[operator, n] or n", shape.Count(0),
						shape.Shape{Text: "[operator, n]", Schema: map[string]any{"type": "array", "minItems": 2, "maxItems": 2,
							"prefixItems": []any{map[string]any{"enum": stringsToAny(uipath.Ops)}, map[string]any{"type": "integer", "minimum": 0}}}}))},
				strictField,
			},
		},
		"tool_call_args": {
			summary: "UiPath's expected calls matched with their arguments, in any order.",
			example: `- type: tool_call_args
  tool_calls: [{name: search, args: {query: weather}}]
  subset: true
`,
			settings: []shape.Field{
				{Key: "tool_calls", Required: true, Doc: "The expected calls.", Shape: shape.List(shape.Object("{name, args}",
					shape.Field{Key: "name", Shape: shape.Name(), Doc: "The tool's name."},
					shape.Field{Key: "tool", Shape: shape.Name(), Doc: "Same as name."},
					shape.Field{Key: "args", Shape: shape.Shape{Text: "map", Schema: map[string]any{"type": "object"}}, Default: "any", Doc: "The arguments expected."}))},
				strictField,
				{Key: "subset", Shape: shape.Bool(), Default: "false", Doc: "Extra actual arguments are allowed."},
			},
		},
		"tool_call_output": {
			summary: "UiPath's expected tool results matched with the actual ones, in any order.",
			example: `- type: tool_call_output
  tool_outputs: [{name: get_weather, output: {temp: 21}}]
`,
			settings: []shape.Field{
				{Key: "tool_outputs", Required: true, Doc: "The expected results.", Shape: shape.List(shape.Object("{name, output}",
					shape.Field{Key: "name", Shape: shape.Name(), Doc: "The tool's name."},
					shape.Field{Key: "tool", Shape: shape.Name(), Doc: "Same as name."},
					shape.Field{Key: "output", Shape: shape.Any(), Required: true, Doc: "The result expected."}))},
				strictField,
			},
		},
		"llm_judge_trajectory": {
			summary: "UiPath's judge of how closely the run follows the expected behaviour.",
			example: `- type: llm_judge_trajectory
  expected_agent_behavior: Searches once, then answers with the forecast.
`,
			settings: fields([]shape.Field{
				{Key: "expected_agent_behavior", Shape: shape.Any(), Required: true, Doc: "What the agent should do."},
			}, uipathPrompt, judgeFields),
		},
		"llm_judge_trajectory_simulation": {
			summary: "UiPath's judge of the run in a simulation, against the expected behaviour.",
			example: `- type: llm_judge_trajectory_simulation
  expected_agent_behavior: Retries once after the tool fails.
  simulation_instructions: The search tool fails on the first call.
`,
			settings: fields([]shape.Field{
				{Key: "expected_agent_behavior", Shape: shape.Any(), Required: true, Doc: "What the agent should do."},
				{Key: "simulation_instructions", Shape: shape.Any(), Doc: "How the tools answered in the simulation."},
			}, uipathPrompt, judgeFields),
		},
		"llm_judge_output": {
			summary: "UiPath's judge of how closely the output means the same as the expected output.",
			example: `- type: llm_judge_output
  expected_output: It will rain in Paris tomorrow.
`,
			settings: fields([]shape.Field{
				{Key: "expected_output", Shape: shape.Any(), Required: true, Doc: "The output expected."},
			}, uipathPrompt, uipathTargetDoc, judgeFields),
		},
		"llm_judge_output_strict_json": {
			summary: "UiPath's judge of the share of the expected JSON output's fields the output has.",
			example: `- type: llm_judge_output_strict_json
  expected_output: {city: Paris, rain: true}
`,
			settings: fields([]shape.Field{
				{Key: "expected_output", Shape: shape.Any(), Required: true, Doc: "The output expected."},
			}, uipathPrompt, uipathTargetDoc, judgeFields),
		},
		"tool_trajectory_avg_score": {
			summary: "ADK's per-turn match of the expected tool calls, averaged over the turns.",
			example: `- type: tool_trajectory_avg_score
  match_type: IN_ORDER
  invocations:
    - tool_uses: [{name: get_weather, args: {city: Paris}}]
`,
			settings: []shape.Field{
				invocationsField,
				{Key: "match_type", Shape: shape.Enum("EXACT", "IN_ORDER", "ANY_ORDER"), Default: "EXACT", Doc: "How each turn's calls must match."},
				{Key: "ignore_args", Shape: shape.Bool(), Default: "false", Doc: "Compare tool names only."},
			},
		},
		"response_match_score": {
			summary: "ADK's ROUGE-1 of each turn's final response against the expected one.",
			example: `- type: response_match_score
  invocations:
    - final_response: It will rain in Paris tomorrow.
`,
			settings: []shape.Field{invocationsField},
		},
		"final_response_match_v2": {
			summary: "ADK's judge of whether each turn's final response agrees with the expected one.",
			example: `- type: final_response_match_v2
  invocations:
    - final_response: It will rain in Paris tomorrow.
`,
			settings: fields([]shape.Field{invocationsField}, judgeFields),
		},
		"rubric_based_final_response_quality_v1": {
			summary: "ADK's judge of the final responses against rubrics.",
			example: `- type: rubric_based_final_response_quality_v1
  invocations: [{final_response: null}]
  rubrics: [The answer names the city.]
`,
			settings: fields([]shape.Field{invocationsField, {Key: "rubrics", Shape: rubricsShape, Doc: "What the judge checks."}}, judgeFields),
		},
		"rubric_based_tool_use_quality_v1": {
			summary: "ADK's judge of the tool use against rubrics.",
			example: `- type: rubric_based_tool_use_quality_v1
  invocations: [{tool_uses: null}]
  rubrics: [The agent looks the weather up before answering.]
`,
			settings: fields([]shape.Field{invocationsField, {Key: "rubrics", Shape: rubricsShape, Doc: "What the judge checks."}}, judgeFields),
		},
		"hallucinations_v1": {
			summary: "ADK's judge of whether each final response is supported by the turn's tool results.",
			example: `- type: hallucinations_v1
  invocations: [{final_response: null}]
`,
			settings: fields([]shape.Field{invocationsField}, judgeFields),
		},
		"bfcl_ast": {
			summary: "The Berkeley Function Calling Leaderboard's AST check of the calls against a possible answer (docs/bfcl.md).",
			example: `- type: bfcl_ast
  category: parallel
  matching: optimal
  functions:
    - name: get_weather
      parameters: {type: dict, properties: {city: {type: string}, unit: {type: string}}, required: [city]}
  ground_truth:
    - get_weather: {city: ["Paris"], unit: ["celsius", ""]}
    - get_weather: {city: ["Rome"], unit: ["celsius", ""]}
`,
			settings: []shape.Field{
				{Key: "functions", Required: true, Doc: "The question's function documents, as BFCL gives them: name, parameters.properties (types string integer float boolean array tuple dict any) and parameters.required.",
					Shape: shape.List(shape.Shape{Text: "function document {name, description, parameters}", Schema: map[string]any{"type": "object"}})},
				{Key: "ground_truth", Required: true, Doc: `The possible answer: the expected calls, each {function: {parameter: [allowed values]}}; "" among the values means the parameter may be left out.`,
					Shape: shape.List(shape.Shape{Text: "{function: {parameter: [allowed values]}}", Schema: map[string]any{"type": "object"}})},
				{Key: "category", Shape: shape.Enum("simple", "simple_python", "multiple", "parallel", "parallel_multiple", "live_simple", "live_multiple", "live_parallel", "live_parallel_multiple", "simple_java", "simple_javascript"), Default: "from the case id (simple_0 → simple)", Doc: "BFCL's test category: how many calls, whether in any order, and the language (simple_java, simple_javascript: values are source text)."},
				{Key: "matching", Shape: shape.Enum("official", "optimal"), Default: "official", Doc: "How the calls of a parallel category are paired: official first-fit as BFCL does, or optimal (a maximum matching; the result notes where BFCL's verdict differs). Other categories refuse optimal."},
				{Key: "underscore_to_dot", Shape: shape.Bool(), Default: "false", Doc: "Compare dotted function names with their dots made underscores, as BFCL does for models that cannot call dotted names."},
			},
		},
	}}
})

// document attaches its documentation to each spec.
func document(specs []spec.Spec) []spec.Spec {
	for i := range specs {
		if d, ok := docs().types[specs[i].Type]; ok {
			specs[i].Summary, specs[i].Example, specs[i].Settings = d.summary, d.example, d.settings
		}
	}
	return specs
}

func joinWords(ws []string) string {
	out := ""
	for i, w := range ws {
		if i > 0 {
			out += ", "
		}
		out += w
	}
	return out
}

func stringsToAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}
