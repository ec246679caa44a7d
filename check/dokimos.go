package check

import (
	"encoding/json"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/eval/dokimos"
	"github.com/trajeval/trajeval/internal/jsonv"
)

// A Match says what [ToolCorrectness] compares. It is an [Option].
type Match string

// The matches of ToolCorrectness.
const (
	// MatchNames, the default: the F1 score of the set of expected tool
	// names against the set of called ones (repeats collapse).
	MatchNames Match = "names_only"
	// MatchOrder: |LCS of the names| / max(|expected|, |actual|), so
	// missing and extra calls both cost.
	MatchOrder Match = "names_and_order"
	// MatchArgs: the F1 score over calls, 2·M / (|expected| + |actual|),
	// M being the largest one-to-one matching of expected calls to calls
	// with the same name and matching arguments (exact unless an ArgsMode
	// says otherwise).
	MatchArgs Match = "names_and_args"
)

func (m Match) apply(o *options) {
	o.match = m
	o.given["Match"] = true
}

// ToolCorrectness is Dokimos's tool correctness. It takes calls and the
// options Match, ArgsMode, IgnoreCase and TrimSpace; both lists empty
// score 1, one empty scores 0. Args and ArgsMode count only with
// MatchArgs. An unknown Match is a setting error.
func ToolCorrectness(opts ...Option) trajeval.Evaluator {
	const typ = "tool_correctness"
	o := collect(opts)
	if err := firstErr(o.only("calls", "Match", "ArgsMode", "IgnoreCase", "TrimSpace"), o.callSettings(false, false, true)); err != nil {
		return build(typ, nil, err)
	}
	exp, err := o.expected()
	if err != nil {
		return build(typ, nil, err)
	}
	var def trajeval.ArgsMatch
	if o.args != nil {
		def = *o.args
	}
	ev, err := dokimos.NewCorrectness(string(o.match), exp, def, o.strings)
	return build(typ, ev, wrap(err))
}

// ToolErrors is Dokimos's tool error check: the share of calls that
// succeeded (1 with no calls). A call failed when:
//  1. the trace marks it failed (an error flag or message);
//  2. it has no result, unless the option BlankResultOK is given;
//  3. its result is an object (or a string holding one) with a non-null
//     "error" field;
//  4. its result, as text, matches the [ErrorPattern] option, if given.
//
// It takes the options BlankResultOK and ErrorPattern; an invalid pattern
// is a setting error.
func ToolErrors(opts ...Option) trajeval.Evaluator {
	const typ = "tool_error"
	o := collect(opts)
	if err := o.only("BlankResultOK", "ErrorPattern"); err != nil {
		return build(typ, nil, err)
	}
	pattern := ""
	if o.pattern != nil {
		if pattern = *o.pattern; pattern == "" {
			return build(typ, nil, errorf("ErrorPattern is empty"))
		}
	}
	ev, err := dokimos.NewToolError(!o.blankOK, pattern)
	return build(typ, ev, wrap(err))
}

// ErrorPattern is a regular expression (RE2) whose match in a call's
// result marks the call failed, for [ToolErrors].
func ErrorPattern(re string) Option { return errorPattern(re) }

type errorPattern string

func (p errorPattern) apply(o *options) {
	s := string(p)
	o.pattern = &s
	o.given["ErrorPattern"] = true
}

// Efficiency is Dokimos's tool efficiency: distinct calls over all calls
// (1 with no calls). Two calls are the same when the names are equal and
// the arguments are equal as JSON values; runs of identical consecutive
// calls are reported as loops. It takes no options.
func Efficiency(opts ...Option) trajeval.Evaluator {
	o := collect(opts)
	if err := o.only(); err != nil {
		return build("tool_efficiency", nil, err)
	}
	return build("tool_efficiency", dokimos.Efficiency{}, nil)
}

// A Tool is a tool definition for [ToolCallValidity]: its name, its
// description and the JSON Schema of its arguments (nil, or a nil
// *json.RawMessage: any arguments), as a Go value (a map, or a struct,
// json.RawMessage or *json.RawMessage holding the schema's JSON).
type Tool struct {
	Name        string
	Description string
	Parameters  any
}

// ToolCallValidity is Dokimos's validity check: the share of calls whose
// tool is defined and whose arguments (the empty object when there are
// none) validate against the tool's JSON Schema (2020-12 unless its
// $schema says otherwise; self-contained: no $ref to files or URLs). With
// the option Strict, a top-level argument not among the schema's
// properties is invalid too. 1 with no calls.
//
// No tools, two tools with one name, an empty name and a schema that does
// not compile are setting errors.
func ToolCallValidity(tools []Tool, opts ...Option) trajeval.Evaluator {
	const typ = "tool_call_validity"
	o := collect(opts)
	if err := o.only("Strict"); err != nil {
		return build(typ, nil, err)
	}
	defs, err := toolDefs(tools)
	if err != nil {
		return build(typ, nil, err)
	}
	ev, err := dokimos.NewValidity(defs, o.strict)
	return build(typ, ev, wrap(err))
}

// schemaValue turns a schema given as a Go value into a JSON object.
func schemaValue(v any) (map[string]any, error) {
	var data []byte
	switch x := v.(type) {
	case json.RawMessage, *json.RawMessage:
		data, _ = trajeval.KeptText(x)
	case []byte:
		data = x
	case string:
		data = []byte(x)
	default:
		var err error
		if data, err = json.Marshal(v); err != nil {
			return nil, errorf("the schema is not JSON: %w", err)
		}
	}
	d, err := jsonv.Decode(data)
	if err != nil {
		return nil, errorf("the schema is not JSON: %w", err)
	}
	m, ok := d.(map[string]any)
	if !ok {
		return nil, errorf("the schema must be a JSON object")
	}
	return m, nil
}

// ToolNameReliability is Dokimos's rule checks of tool names (the tools'
// definitions are checked; the trajectory is not looked at). For each
// tool, three checks:
//  1. snakecase_format: lower-case words joined by single underscores;
//  2. conciseness: at most 7 words;
//  3. intent_over_implementation: no word of the blocklist, and no
//     implementation named after with, via, using, through or by
//     ("search_with_llm").
//
// The score is the checks passed over all checks. Dokimos's judged checks
// are not run. No tools and an empty name are setting errors.
func ToolNameReliability(tools []Tool, blocklist ...string) trajeval.Evaluator {
	const typ = "tool_name_reliability"
	defs, err := toolDefs(tools)
	if err != nil {
		return build(typ, nil, err)
	}
	ev, err := dokimos.NewNameReliability(defs, dokimos.DefaultMaxSegments, blocklist, nil)
	return build(typ, ev, wrap(err))
}

// ToolDescriptionReliability is Dokimos's rule checks of tool parameters
// (the tools' definitions are checked; the trajectory is not looked at).
// For each tool, four checks:
//  1. input_arguments_clarity: every parameter has a description;
//  2. input_arguments_types: every parameter says its type (type, enum,
//     const, $ref, anyOf, oneOf or allOf);
//  3. max_num_input_arguments: at most 5 parameters;
//  4. max_optional_input_arguments: at most 3 optional ones.
//
// The score is the checks passed over all checks. Dokimos's judged checks
// are not run. No tools and an empty name are setting errors.
func ToolDescriptionReliability(tools []Tool) trajeval.Evaluator {
	const typ = "tool_description_reliability"
	defs, err := toolDefs(tools)
	if err != nil {
		return build(typ, nil, err)
	}
	ev, err := dokimos.NewDescriptionReliability(defs, dokimos.DefaultMaxInputArgs, dokimos.DefaultMaxOptionalArgs, nil)
	return build(typ, ev, wrap(err))
}

// toolDefs compiles tool definitions.
func toolDefs(tools []Tool) ([]*dokimos.Tool, error) {
	var defs []*dokimos.Tool
	for _, t := range tools {
		var schema any
		if t.Parameters != nil && t.Parameters != (*json.RawMessage)(nil) {
			v, err := schemaValue(t.Parameters)
			if err != nil {
				return nil, errorf("tool %s: %w", t.Name, err)
			}
			schema = v
		}
		d, err := dokimos.NewTool(t.Name, t.Description, schema)
		if err != nil {
			return nil, wrap(err)
		}
		defs = append(defs, d)
	}
	return defs, nil
}
