// Package bfcl reads the result files of the Berkeley Function Calling
// Leaderboard: JSON Lines, one entry per line, each the model's decoded
// calls for one question:
//
//	{"id": "parallel_0", "result": [{"spotify.play": {"artist": "Taylor Swift", "duration": 20}}, {"spotify.play": {"artist": "Maroon 5", "duration": 15}}]}
//	{"id": "simple_0", "result": "[{\"area\": {\"base\": 10}}]", "latency": 0.8, "input_token_count": 120, "output_token_count": 9}
//
// The rules:
//  1. Each line is a trajectory with the line's id, one turn, and a step
//     per call, in the order of the list. A call is an object with one
//     key, the function name, whose value is the arguments: an object, or
//     a JSON string holding one (as function-calling models give them).
//  2. result may be the list itself, or a string: a prompting model's
//     answer in Python call syntax, [get_weather(city="Paris"), f(a=[1,
//     2])], decoded as BFCL's default decoder does (see
//     pylit.DecodePrompting): keyword arguments, Python literals, ints
//     and floats kept apart, a keyword given twice keeping its last value
//     (with a warning). Positional arguments are dropped, as BFCL drops
//     them, with a warning. The calls of one result were issued
//     together: when there are several, they share parallel group 1.
//  3. A result that is not such a list has no steps: its text (or its
//     JSON) is the turn's final response, and a warning says why, with
//     the decoder's line and column; the bfcl_ast evaluator then fails it
//     as ast_decoder:decoder_failed. This includes, as in BFCL, the list
//     of calls written as a JSON string (no BFCL decoder reads it: its
//     prompting decoder finds dicts where calls must be). A Python
//     text whose arguments hold a tuple is kept as text too: BFCL keeps
//     the tuple, which is no JSON value, and the bfcl_ast evaluator
//     decodes the text itself to check it as BFCL does.
//     A text result of a Java or JavaScript entry (its id's category has
//     java or javascript in it) is kept as text: BFCL reads it with
//     tree-sitter parsers, which trajeval does not reproduce.
//  4. latency (seconds) becomes the run's duration; input_token_count and
//     output_token_count its tokens. Steps have no results, times or
//     errors: the file does not record them.
//  5. A line that is JSON but not an object with an id and a result is
//     skipped with a warning; a line that is not JSON is damage.
//  6. A key of an entry other than those BFCL v4 writes (id, result,
//     latency, input_token_count, output_token_count, inference_log,
//     reasoning_content, traceback) is drift: one warning per key, with a
//     count (see package drift).
package bfcl

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"maps"
	"slices"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/drift"
	"github.com/trajeval/trajeval/internal/format/eventlog"
	"github.com/trajeval/trajeval/internal/format/msglog"
	"github.com/trajeval/trajeval/internal/jsonl"
	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/plural"
	"github.com/trajeval/trajeval/internal/pylit"
	"github.com/trajeval/trajeval/internal/sniff"
)

// Format is BFCL's result files.
var Format trajeval.Format = format{}

type format struct{}

func (format) Name() string { return "bfcl" }

func (x format) Sniff(head []byte) error { return x.SniffHead(msglog.NewHead(head)) }

// SniffHead is Sniff reading the keys of a head that other formats
// read too (see msglog.HeadSniffer).
func (format) SniffHead(h *msglog.Head) error {
	head := h.Bytes()
	if sniff.First(head) != '{' {
		return &trajeval.SniffError{Why: "not JSON Lines of objects"}
	}
	keys := h.FirstLineKeys()
	if sniff.HasKey(keys, "id") && sniff.HasKey(keys, "result") && !sniff.HasKey(keys, "ground_truth") {
		return nil
	}
	return &trajeval.SniffError{Closeness: 10, Why: `the first line is not a BFCL result {"id", "result"}`}
}

func (format) Read(ctx context.Context, in trajeval.Input, yield func(*trajeval.Trajectory) error) error {
	skipped, seen := eventlog.Skipped{One: `a BFCL result {"id", "result"}`, Many: "BFCL results"}, false
	var unknown drift.Unknown
	err := jsonl.Each(in.R, func(line []byte, n int) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		v, damaged, err := eventlog.Decode(in, line, n)
		if err != nil || damaged {
			return err
		}
		m, ok := v.(map[string]any)
		id, hasID := m["id"].(string)
		res, hasResult := m["result"]
		if !ok || !hasID || !hasResult {
			return skipped.Line(in, n)
		}
		seen = true
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if !entryKeys[k] {
				unknown.Saw("entry key", k, n)
			}
		}
		return yield(entry(in, n, id, res, m))
	})
	if err != nil {
		return err
	}
	skipped.Report(in)
	unknown.Report(in, "bfcl")
	if !seen {
		return &trajeval.TraceError{File: in.Name, Line: 1, Msg: `no BFCL results: no line is an object with "id" and "result"`, Err: trajeval.ErrEmptyTrace}
	}
	return nil
}

// entryKeys are the keys of an entry BFCL v4 writes (its
// _llm_response_generation.py and model handlers).
var entryKeys = map[string]bool{"id": true, "result": true, "latency": true, "input_token_count": true,
	"output_token_count": true, "inference_log": true, "reasoning_content": true, "traceback": true}

// entry builds the trajectory of one line.
func entry(in trajeval.Input, n int, id string, res any, m map[string]any) *trajeval.Trajectory {
	t := &trajeval.Trajectory{ID: id, Line: n, Turns: []trajeval.Turn{{Turn: 1}}, Steps: []trajeval.Step{}}
	steps, notes, why := Calls(res)
	if _, isText := res.(string); isText && javaLike().MatchString(id) {
		// Not Python: BFCL reads these with its Java and JavaScript
		// parsers, which trajeval does not reproduce.
		steps, notes, why = nil, nil, "a Java or JavaScript model's text, which BFCL decodes with tree-sitter and trajeval does not"
	}
	for _, note := range notes {
		in.Warn(trajeval.Warning{File: in.Name, Line: n, Place: "id " + id, Msg: note})
	}
	if why != "" {
		text, isText := res.(string)
		if !isText {
			text = jsonv.Marshal(res)
		}
		t.Turns[0].FinalResponse = &text
		in.Warn(trajeval.Warning{File: in.Name, Line: n, Place: "id " + id, Msg: why + "; kept as the model's text answer, with no calls"})
	}
	for i := range steps {
		steps[i].Index, steps[i].Turn = i+1, 1
		if len(steps) > 1 {
			steps[i].ParallelGroup = 1
		}
	}
	t.Steps = append(t.Steps, steps...)
	if s, ok := number(m["latency"]); ok && s >= 0 {
		ms := s * 1000
		t.Metrics.DurationMS = &ms
	}
	t.Metrics.Tokens.Input = count(m["input_token_count"])
	t.Metrics.Tokens.Output = count(m["output_token_count"])
	if t.Metrics.Tokens.Input != nil && t.Metrics.Tokens.Output != nil {
		total := *t.Metrics.Tokens.Input + *t.Metrics.Tokens.Output
		if total >= 0 {
			t.Metrics.Tokens.Total = &total
		}
	}
	return t
}

// javaLike matches the ids of BFCL's Java and JavaScript categories
// (simple_java_3, simple_javascript_12).
var javaLike = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`java(script)?_[0-9]+(-[0-9]+)*$`) })

// Calls reads a result's decoded calls: a list of {name: args} or a
// prompting model's text of Python calls. notes are what a reader should
// be warned of (positional arguments dropped, a keyword given twice);
// why says, when the result is not calls, what it is instead.
func Calls(res any) (steps []trajeval.Step, notes []string, why string) {
	if s, ok := res.(string); ok {
		return pythonCalls(s)
	}
	list, ok := res.([]any)
	if !ok {
		return nil, nil, fmt.Sprintf("the result is a JSON %s, not a list of calls", jsonv.Kind(res))
	}
	for i, c := range list {
		m, ok := c.(map[string]any)
		if !ok || len(m) != 1 {
			return nil, nil, fmt.Sprintf("call %d is not an object {function: arguments}", i+1)
		}
		for name, args := range m {
			if s, isStr := args.(string); isStr {
				if v, err := jsonv.Decode([]byte(s)); err == nil {
					args = v
				}
			}
			if _, isObj := args.(map[string]any); !isObj {
				return nil, nil, fmt.Sprintf("the arguments of call %d (%s) are not an object", i+1, name)
			}
			steps = append(steps, trajeval.Step{Name: name, Args: args})
		}
	}
	return steps, nil, ""
}

// pythonCalls decodes a prompting model's text.
func pythonCalls(text string) (steps []trajeval.Step, notes []string, why string) {
	calls, err := pylit.DecodePrompting(text)
	if err != nil {
		if v, jerr := jsonv.Decode([]byte(strings.TrimSpace(text))); jerr == nil {
			if _, isList := v.([]any); isList {
				return nil, nil, "the result is a list written as a JSON string, which no BFCL decoder reads (its prompting decoder finds no call: " + err.Error() + "): give the list itself"
			}
		}
		return nil, nil, "the result does not decode as Python calls: " + err.Error()
	}
	steps = []trajeval.Step{}
	for i, c := range calls {
		at := fmt.Sprintf("call %d (%s, line %d, column %d)", i+1, c.Name, c.Line, c.Col)
		if pylit.HasTuple(c.Args) {
			return nil, nil, at + " has a Python tuple among its arguments, which BFCL's decoder keeps a tuple, not a list, and which has no JSON form"
		}
		if c.Positional > 0 {
			notes = append(notes, fmt.Sprintf("%s has %s, which BFCL's decoder drops, and so does trajeval: name each argument", at, plural.Count(c.Positional, "positional argument", "positional arguments")))
		}
		for _, kw := range c.Repeated {
			notes = append(notes, fmt.Sprintf("%s gives %s more than once: BFCL's decoder keeps the last value, and so does trajeval", at, kw))
		}
		steps = append(steps, trajeval.Step{Name: c.Name, Args: map[string]any(c.Args)})
	}
	return steps, notes, ""
}

func number(v any) (float64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	return jsonv.Float(n)
}

func count(v any) *int64 {
	n, ok := v.(json.Number)
	if !ok {
		return nil
	}
	i, err := n.Int64()
	if err != nil || i < 0 {
		return nil
	}
	return &i
}
