package suite

//go:generate go test -run TestSchema_file -update .

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	"github.com/trajeval/trajeval/internal/eval/builtin"
	"github.com/trajeval/trajeval/internal/eval/spec"
	"github.com/trajeval/trajeval/internal/judge"
	"github.com/trajeval/trajeval/internal/shape"
)

// SchemaURL is where editors find the suite schema: the file
// schema/trajeval-suite.schema.json of the repository, as Schema writes it.
const SchemaURL = "https://raw.githubusercontent.com/trajeval/trajeval/main/schema/trajeval-suite.schema.json"

// Schema returns the JSON Schema (draft 2020-12) of an AgentV YAML suite,
// built from the keys the loader reads and the evaluator types' own
// definitions (see package shape for how spellings are accepted).
//
// The rules:
//  1. every key the loader takes is described, under its snake_case
//     spelling, and every other key is refused; the kebab-case and
//     camelCase spellings are accepted too;
//  2. an evaluator's keys depend on its type: each built-in type (in any
//     spelling, or by an alias) adds its own settings to the common ones
//     (types a program registers are not in it);
//  3. a key AgentV has and trajeval refuses (vars, conversation_id) is
//     described, and refused;
//  4. the entries of targets: are open: only the target a suite runs is
//     checked in full, so they may hold keys of providers trajeval does not
//     run.
//
// The schema checks shapes, not every rule: a suite it accepts may still
// have a configuration error (a case without evaluators, a threshold set
// twice); `trajeval validate` reports those.
//
// Schema returns an error when a key the loader takes is not documented,
// or the reverse: the documentation cannot drift from the loader.
func Schema() ([]byte, error) {
	d := schemaDocs()
	suiteFields, caseFields, turnFields := peerFields("suite", d.suite), peerFields("case", d.cases), peerFields("turn", d.turn)
	targetFields, judgeFields := d.target, d.judge
	checks := []struct {
		what   string
		fields [][]shape.Field
		keys   []string
	}{
		{"suite", [][]shape.Field{suiteFields}, peerKeys("suite", suiteKeys)},
		{"execution", [][]shape.Field{executionFields(levelSuite), executionFields(levelCase), executionFields(levelTurn)}, peerKeys("execution", executionKeys)},
		{"case", [][]shape.Field{caseFields}, peerKeys("case", caseKeys)},
		{"turn", [][]shape.Field{turnFields}, peerKeys("turn", turnKeys)},
		{"target", [][]shape.Field{targetFields}, targetKeys},
		{"judge", [][]shape.Field{judgeFields}, judge.Keys},
	}
	for _, c := range checks {
		if err := sameKeys(c.what, c.fields, c.keys); err != nil {
			return nil, err
		}
	}
	defs := map[string]any{
		"evaluator":       evaluatorSchema(builtin.Specs()),
		"judge":           shape.ObjectSchema(judgeFields, false),
		"expected_entry":  builtin.ExpectedEntrySchema(),
		"target":          shape.ObjectSchema(targetFields, true),
		"case":            shape.ObjectSchema(caseFields, false),
		"turn":            shape.ObjectSchema(turnFields, false),
		"suite_execution": shape.ObjectSchema(executionFields(levelSuite), false),
		"case_execution":  shape.ObjectSchema(executionFields(levelCase), false),
		"turn_execution":  shape.ObjectSchema(executionFields(levelTurn), false),
	}
	root := shape.ObjectSchema(suiteFields, false)
	root["$schema"] = "https://json-schema.org/draft/2020-12/schema"
	root["$id"] = SchemaURL
	root["title"] = "trajeval suite (AgentV YAML)"
	root["description"] = "A suite of evaluation cases: each case's trace scored by evaluators. `trajeval evaluators NAME` describes each evaluator type; `trajeval validate` checks what a schema cannot."
	var need []any
	for _, k := range shape.Spellings("evalcases", "eval_cases", "tests") {
		need = append(need, map[string]any{"required": []any{k}})
	}
	// A suite with no cases scores every trajectory of --traces with
	// its execution's evaluators.
	var evaluators []any
	for _, k := range shape.Spellings("evaluators", "assertions") {
		evaluators = append(evaluators, map[string]any{"required": []any{k}})
	}
	for _, k := range shape.Spellings("execution") {
		need = append(need, map[string]any{"required": []any{k}, "properties": map[string]any{k: map[string]any{"anyOf": evaluators}}})
	}
	root["anyOf"] = need
	root["$defs"] = defs
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(root); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// sameKeys returns an error when the fields do not document exactly keys.
func sameKeys(what string, groups [][]shape.Field, keys []string) error {
	var documented []string
	for _, g := range groups {
		for _, f := range g {
			if !slices.Contains(documented, f.Key) {
				documented = append(documented, f.Key)
			}
		}
	}
	for _, k := range keys {
		if !slices.Contains(documented, k) {
			return fmt.Errorf("schema: the %s key %s is not documented", what, k)
		}
	}
	for _, k := range documented {
		if !slices.Contains(keys, k) {
			return fmt.Errorf("schema: the %s key %s is documented, but the loader refuses it", what, k)
		}
	}
	return nil
}

// evaluatorSchema is an evaluator: a type, and the settings of that type.
func evaluatorSchema(specs []spec.Spec) map[string]any {
	var canonical, others []any
	var branches []any
	for _, s := range specs {
		names := shape.Spellings(append([]string{s.Type}, s.Aliases...)...)
		canonical = append(canonical, s.Type)
		for _, n := range names {
			if n != s.Type {
				others = append(others, n)
			}
		}
		then := shape.ObjectSchema(append(slices.Clone(spec.CommonSettings), s.Settings...), false)
		props := then["properties"].(map[string]any)
		props["type"] = map[string]any{"description": "The evaluator type."}
		then["description"] = s.Type + ": " + s.Summary
		branches = append(branches, map[string]any{
			"if":   map[string]any{"properties": map[string]any{"type": map[string]any{"enum": toAnyStrings(names)}}, "required": []any{"type"}},
			"then": then,
		})
	}
	typeDoc := "The evaluator type (`trajeval evaluators` lists them), in any spelling, or one of its aliases."
	return map[string]any{
		"type":     "object",
		"required": []any{"type"},
		"properties": map[string]any{
			"type": map[string]any{"description": typeDoc, "anyOf": []any{
				map[string]any{"enum": canonical},
				map[string]any{"enum": others},
			}},
		},
		"allOf": branches,
	}
}

func toAnyStrings(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// The loader's helpers for documenting keys (used by the peers' key tables too).
var (
	refused = func(why string) shape.Shape {
		return shape.Shape{Text: "refused", Schema: map[string]any{"not": map[string]any{}, "description": why}}
	}
	descriptive = func(key string) shape.Field {
		return shape.Field{Key: key, Shape: shape.Any(), Doc: "Descriptive only: not scored."}
	}
)

// schemaDoc is the documentation of the loader's keys, checked against them
// by Schema.
type schemaDoc struct {
	evaluatorList                     shape.Shape
	suite, cases, turn, target, judge []shape.Field
}

// schemaDocs makes the documentation on first use (Schema): its shapes took
// 400 allocations in every command's start-up.
var schemaDocs = sync.OnceValue(func() schemaDoc {
	var (
		evaluatorList = shape.List(shape.Ref("evaluator", "evaluator"))
		nullShape     = shape.Shape{Text: "null", Schema: map[string]any{"type": "null"}}
		anyMap        = shape.Shape{Text: "map", Schema: map[string]any{"type": "object"}}
		inputShape    = shape.OneOf("text, or a list of messages {role, content}", shape.Text(), nullShape, shape.List(shape.Object("message",
			shape.Field{Key: "role", Shape: shape.Text(), Required: true, Doc: "user, assistant, system or tool; the text of user messages is the input."},
			shape.Field{Key: "content", Shape: shape.Any(), Doc: "The message's text."},
			shape.Field{Key: "name", Shape: shape.Any(), Doc: "Descriptive."},
		)))
		outputShape = shape.OneOf("text, a list of messages {role, content}, or any map", shape.Text(), nullShape, anyMap, shape.List(shape.Object("message",
			shape.Field{Key: "role", Shape: shape.Text(), Required: true, Doc: "The text of assistant messages is the expected output."},
			shape.Field{Key: "content", Shape: shape.Any(), Doc: "The message's text."},
			shape.Field{Key: "name", Shape: shape.Any(), Doc: "Descriptive."},
			shape.Field{Key: "tool_calls", Shape: shape.Any(), Doc: "Descriptive."},
		)))

		suiteFields = []shape.Field{
			{Key: "name", Shape: shape.Name(), Default: "the file's name", Doc: "The suite's name, in reports."},
			descriptive("version"), descriptive("description"), descriptive("category"), descriptive("author"),
			descriptive("tags"), descriptive("license"), descriptive("requires"), descriptive("metadata"),
			{Key: "execution", Shape: shape.Ref("suite_execution", "execution block"), Doc: "The suite's evaluators (run on every case), threshold, workers and target."},
			{Key: "evalcases", Shape: shape.List(shape.Ref("case", "case")), Doc: "The cases."},
			{Key: "eval_cases", Shape: shape.List(shape.Ref("case", "case")), Doc: "Same as evalcases."},
			{Key: "tests", Shape: shape.List(shape.Ref("case", "case")), Doc: "Same as evalcases."},
			{Key: "input", Shape: inputShape, Doc: "Comes before every case's input."},
			{Key: "evaluators", Shape: evaluatorList, Doc: "The suite's evaluators, run on every case (or under execution)."},
			{Key: "assertions", Shape: evaluatorList, Doc: "Same as evaluators (AgentV's name)."},
			{Key: "threshold", Shape: shape.Fraction(), Doc: "The default threshold of evaluators that set none (or execution.threshold)."},
			{Key: "traces", Shape: shape.Text(), Doc: "A traces file (JSON Lines), its trajectories matched to cases by id; relative to the suite."},
			{Key: "judge", Shape: shape.Ref("judge", "judge block"), Doc: "The judge model of judged evaluators."},
			{Key: "targets", Shape: shape.List(shape.Ref("target", "target")), Doc: "The agents that can run the cases that have no recorded trace."},
		}

		caseFields = []shape.Field{
			{Key: "id", Shape: shape.Name(), Required: true, Doc: "Unique in the suite; matches the trajectory of the same id."},
			{Key: "expected_outcome", Shape: shape.Text(), Doc: "What the answer should achieve, in words (for judges)."},
			{Key: "criteria", Shape: shape.Text(), Doc: "Same as expected_outcome."},
			{Key: "input", Shape: inputShape, Doc: "The user's input."},
			{Key: "input_messages", Shape: inputShape, Doc: "Same as input."},
			{Key: "expected_output", Shape: outputShape, Doc: "The reference answer."},
			{Key: "expected_messages", Shape: outputShape, Doc: "Same as expected_output."},
			{Key: "execution", Shape: shape.Ref("case_execution", "execution block"), Doc: "The case's evaluators, threshold and skip_defaults."},
			{Key: "evaluators", Shape: evaluatorList, Doc: "The case's evaluators (or under execution)."},
			{Key: "assertions", Shape: evaluatorList, Doc: "Same as evaluators (AgentV's name)."},
			{Key: "trace", Shape: shape.Text(), Doc: "The case's recorded trace, in any format trajeval reads; relative to the suite."},
			{Key: "skip_defaults", Shape: shape.Bool(), Default: "false", Doc: "Do not run the suite's evaluators on this case."},
			descriptive("metadata"), descriptive("tags"), descriptive("description"),
			{Key: "vars", Shape: refused("vars are not supported: trajeval fills prompts from the case and its trace"), Doc: "Not supported."},
			{Key: "conversation_id", Shape: refused("conversation_id is not supported: give a multi-turn case its turns"), Doc: "Not supported."},
			{Key: "turns", Shape: shape.List(shape.Ref("turn", "turn")), Doc: "A multi-turn case: each turn's evaluators score that turn's steps."},
			{Key: "mode", Shape: shape.Enum("conversation"), Doc: "conversation, with turns."},
		}

		turnFields = []shape.Field{
			{Key: "input", Shape: inputShape, Doc: "The turn's user input."},
			{Key: "input_messages", Shape: inputShape, Doc: "Same as input."},
			{Key: "expected_output", Shape: outputShape, Doc: "The turn's reference answer."},
			{Key: "expected_outcome", Shape: shape.Text(), Doc: "What the turn's answer should achieve, in words."},
			{Key: "criteria", Shape: shape.Text(), Doc: "Same as expected_outcome."},
			{Key: "evaluators", Shape: evaluatorList, Doc: "The turn's evaluators."},
			{Key: "assertions", Shape: evaluatorList, Doc: "Same as evaluators."},
			{Key: "execution", Shape: shape.Ref("turn_execution", "execution block"), Doc: "The turn's evaluators and threshold."},
		}

		targetFields = []shape.Field{
			{Key: "name", Shape: shape.Name(), Required: true, Doc: "The name execution.target or --target uses."},
			{Key: "provider", Shape: shape.Text(), Doc: "cli, codex or claude-code (other providers are AgentV's, not run by trajeval)."},
			{Key: "command", Shape: shape.OneOf("text or list of arguments", shape.Text(), shape.List(shape.Text())), Doc: "cli: the command, with {PROMPT_FILE}, {OUTPUT_FILE}, {EVAL_ID} ..."},
			{Key: "cwd", Shape: shape.Text(), Doc: "Where the command runs, relative to the file that defines the target."},
			{Key: "timeout_seconds", Shape: shape.NonNegative(), Doc: "How long one run may take."},
			{Key: "max_output", Shape: shape.Count(1), Default: "268435456 (256 MiB)", Doc: "Bytes the command may write to each of standard output, standard error and {OUTPUT_FILE}; beyond, it is killed and its case is an error (--max-output wins)."},
			{Key: "env", Shape: shape.Map(shape.Any()), Doc: "Environment variables for the command."},
			{Key: "format", Shape: shape.Text(), Doc: "Force the trace format of the output (`trajeval formats`)."},
			{Key: "binary", Shape: shape.Text(), Doc: "codex, claude-code: the program to run."},
			{Key: "executable", Shape: shape.Text(), Doc: "Same as binary."},
			{Key: "model", Shape: shape.Text(), Doc: "codex, claude-code: the model."},
			{Key: "args", Shape: shape.List(shape.Text()), Doc: "codex, claude-code: more arguments."},
		}

		judgeFields = []shape.Field{
			{Key: "base_url", Shape: shape.Text(), Default: "OPENAI_BASE_URL, else OpenAI's", Doc: "An OpenAI-compatible chat completions endpoint."},
			{Key: "model", Shape: shape.Text(), Doc: "The judge model (TRAJEVAL_JUDGE_MODEL wins)."},
			{Key: "api_key_env", Shape: shape.Text(), Default: "OPENAI_API_KEY", Doc: "The environment variable holding the key; never the key itself."},
			{Key: "api_version", Shape: shape.Text(), Doc: "Azure OpenAI's api-version."},
			{Key: "temperature", Shape: shape.OneOf("number ≥ 0, or null", shape.NonNegative(), nullShape), Default: "0", Doc: "null sends none."},
			{Key: "max_tokens", Shape: shape.Count(0), Doc: "The longest answer; 0 is the server's default."},
			{Key: "timeout", Shape: shape.Duration(), Default: "60s", Doc: "Per request."},
			{Key: "max_retries", Shape: shape.Count(0), Default: "3", Doc: "Retries after 429, 5xx and timeouts."},
			{Key: "requests_per_minute", Shape: shape.NonNegative(), Default: "unlimited", Doc: "Spaces the requests to this endpoint."},
			{Key: "output", Shape: shape.Enum(judge.OutputAuto, judge.OutputJSONSchema, judge.OutputJSONObject, judge.OutputText), Default: "auto", Doc: "How the judge is asked for JSON."},
			{Key: "price", Shape: shape.Object("{input, output}",
				shape.Field{Key: "input", Shape: shape.NonNegative(), Doc: "USD per million input tokens."},
				shape.Field{Key: "output", Shape: shape.NonNegative(), Doc: "USD per million output tokens."}), Doc: "For a cost when the server reports none."},
		}
	)
	return schemaDoc{evaluatorList: evaluatorList, suite: suiteFields, cases: caseFields, turn: turnFields, target: targetFields, judge: judgeFields}
})

// executionFields are the keys of an execution block at a level.
func executionFields(level string) []shape.Field {
	evaluatorList := schemaDocs().evaluatorList
	out := []shape.Field{
		{Key: "evaluators", Shape: evaluatorList, Doc: "The evaluators."},
		{Key: "assertions", Shape: evaluatorList, Doc: "Same as evaluators (AgentV's name)."},
		{Key: "threshold", Shape: shape.Fraction(), Doc: "The default threshold of these evaluators, and of the suite's on this " + level + "."},
	}
	switch level {
	case levelSuite:
		out = append(out,
			shape.Field{Key: "target", Shape: shape.Name(), Doc: "The target that runs cases without a recorded trace (--target wins)."},
			shape.Field{Key: "targets", Shape: shape.OneOf("name, or a list of one name", shape.Name(), shape.List(shape.Name())), Doc: "Same as target; one name only."},
			shape.Field{Key: "workers", Shape: shape.Count(1), Doc: "Score up to this many cases at once (--workers wins)."})
	case levelCase:
		out = append(out, shape.Field{Key: "skip_defaults", Shape: shape.Bool(), Default: "false", Doc: "Do not run the suite's evaluators on this case."})
	}
	return peerFields("execution", out)
}

// peerKeys returns keys and the keys of AgentV's object that they lack:
// the keys the loader accepts.
func peerKeys(object string, keys []string) []string {
	out := slices.Clone(keys)
	for _, k := range AgentVKeys.Keys {
		if k.Object == object && !slices.Contains(out, k.Name) {
			out = append(out, k.Name)
		}
	}
	return out
}

// peerFields returns fields and a field for each key of AgentV's object
// that they lack, described by what trajeval does with it.
func peerFields(object string, fields []shape.Field) []shape.Field {
	out := slices.Clone(fields)
	for _, k := range AgentVKeys.Keys {
		if k.Object != object || slices.ContainsFunc(out, func(f shape.Field) bool { return f.Key == k.Name }) {
			continue
		}
		switch k.Use {
		case Inert:
			out = append(out, shape.Field{Key: k.Name, Shape: shape.Any(), Doc: "AgentV's; accepted with a warning, no effect here: " + k.Note + "."})
		case Refused:
			out = append(out, shape.Field{Key: k.Name, Shape: refused(k.Note), Doc: "Not supported."})
		case Descriptive:
			out = append(out, descriptive(k.Name))
		default:
			out = append(out, shape.Field{Key: k.Name, Shape: shape.Any(), Doc: "AgentV's: " + k.Note + "."})
		}
	}
	return out
}
