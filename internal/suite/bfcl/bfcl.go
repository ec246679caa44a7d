// Package bfcl loads the Berkeley Function Calling Leaderboard's files as
// a suite: a possible-answer file, its question file, and the model's
// results as the traces.
//
// A file is a BFCL possible-answer file when its first line is a JSON
// object with "ground_truth" (BFCL names them
// possible_answer/BFCL_v4_simple_python.json; the content decides, not
// the name):
//
//	{"id": "simple_python_0", "ground_truth": [{"calculate_triangle_area": {"base": [10], "height": [5], "unit": ["units", ""]}}]}
//
// Loading follows these rules:
//  1. The questions come from --questions FILE (Options.Questions), else
//     from the file beside the answers whose name has "question" for
//     "answer" (answers.jsonl → questions.jsonl), else, in BFCL's own
//     layout, from the file of the same name in the folder above
//     possible_answer/. Each question line is {"id", "question",
//     "function"}: the function documents the model was shown.
//  2. Each answer line is a case, in file order, with the line's id; its
//     input is the question's first user message. It is scored by one
//     evaluator, bfcl_ast (package eval/bfcl), with the question's
//     function documents and the line's ground_truth. Its category comes
//     from the id (simple_python_0 → simple_python, live_parallel_3-1-0 →
//     live_parallel) unless the line gives "category"; its matching is
//     official unless the line gives "matching": "optimal", and
//     "underscore_to_dot": true compares dotted names with underscores
//     (these keys are trajeval's, not BFCL's).
//  3. The model's results are the traces, matched to cases by id: --traces
//     FILE (BFCL's result file, {"id", "result"} per line, or a trace in
//     any format whose trajectories carry the ids), else the file beside
//     the answers whose name has "result" for "answer", else the usual
//     traces.jsonl beside the suite.
//  4. An answer whose id has no question is a case with status error, as
//     is one whose id has no result (the run's rule): never a pass.
//  5. A line that is not JSON, an answer without an id or with a
//     malformed ground_truth, a question with malformed function
//     documents, an id used twice, a category that is not one of BFCL's
//     AST categories, a document type that is not its category's
//     language's: each is a configuration error at its file and
//     line, reported before anything runs.
package bfcl

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval"
	evalbfcl "github.com/trajeval/trajeval/internal/eval/bfcl"
	"github.com/trajeval/trajeval/internal/jsonl"
	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/sniff"
	"github.com/trajeval/trajeval/internal/suite"
)

// Dialect is the BFCL possible-answer dialect, for the loader's list of
// dialects (package dialects).
var Dialect = suite.Dialect{Name: "bfcl", Claims: claimsNone, Sniff: Sniff, LoadData: Load}

// A parsed file is never BFCL's: possible-answer files are JSON Lines,
// claimed by their bytes.
func claimsNone(string, *config.Node) bool { return false }

// Sniff reports whether head starts a BFCL possible-answer file.
func Sniff(_ string, head []byte) bool {
	if sniff.First(head) != '{' {
		return false
	}
	keys := sniff.Keys(sniff.FirstLine(head))
	return sniff.HasKey(keys, "ground_truth")
}

// An Answer is one line of a possible-answer file.
type Answer struct {
	ID          string
	Line        int
	GroundTruth []evalbfcl.Call
	Category    string // the line's category, "" to take it from the id
	Matching    evalbfcl.Matching
	// UnderscoreToDot is the line's "underscore_to_dot" (see eval/bfcl).
	UnderscoreToDot bool
}

// A Question is one line of a question file.
type Question struct {
	ID        string
	Line      int
	User      string // the first user message
	Functions []evalbfcl.Function
}

// ParseAnswers reads a possible-answer file. It returns every line's
// error, each a *trajeval.SpecError at the line.
func ParseAnswers(name string, data []byte) ([]Answer, []error) {
	var out []Answer
	var errs []error
	seen := map[string]int{}
	each(name, data, &errs, func(m map[string]any, n int, fail func(string, string)) {
		id, ok := m["id"].(string)
		if !ok || id == "" {
			fail("the answer has no id", `each line is {"id": "simple_0", "ground_truth": [...]}`)
			return
		}
		if prev, dup := seen[id]; dup {
			fail(fmt.Sprintf("id %q is used twice (also line %d)", id, prev), "each entry needs its own id")
			return
		}
		seen[id] = n
		gt, err := evalbfcl.ParseGroundTruth(m["ground_truth"])
		if err != nil {
			fail(fmt.Sprintf("%s: %v", id, err), `ground_truth is [{function: {parameter: [allowed values]}}]`)
			return
		}
		a := Answer{ID: id, Line: n, GroundTruth: gt}
		if c, ok := m["category"]; ok {
			if a.Category, ok = c.(string); !ok {
				fail(fmt.Sprintf("%s: category must be a string", id), "")
				return
			}
		}
		if mt, ok := m["matching"]; ok {
			s, _ := mt.(string)
			if a.Matching, err = evalbfcl.ParseMatching(s); err != nil {
				fail(fmt.Sprintf("%s: %v", id, err), "")
				return
			}
		}
		if u, ok := m["underscore_to_dot"]; ok {
			if a.UnderscoreToDot, ok = u.(bool); !ok {
				fail(fmt.Sprintf("%s: underscore_to_dot must be true or false", id), "")
				return
			}
		}
		out = append(out, a)
	})
	if len(out) == 0 && len(errs) == 0 {
		errs = append(errs, &trajeval.SpecError{File: name, Line: 1, Col: 1, Msg: "no possible answers in the file"})
	}
	return out, errs
}

// ParseQuestions reads a question file, keyed by id. It returns every
// line's error, each a *trajeval.SpecError at the line.
func ParseQuestions(name string, data []byte) (map[string]*Question, []error) {
	out := map[string]*Question{}
	var errs []error
	each(name, data, &errs, func(m map[string]any, n int, fail func(string, string)) {
		id, ok := m["id"].(string)
		if !ok || id == "" {
			fail("the question has no id", `each line is {"id": "simple_0", "question": [[...]], "function": [...]}`)
			return
		}
		if q, dup := out[id]; dup {
			fail(fmt.Sprintf("id %q is used twice (also line %d)", id, q.Line), "each question needs its own id")
			return
		}
		fns, err := evalbfcl.ParseFunctions(m["function"])
		if err != nil {
			fail(fmt.Sprintf("%s: %v", id, err), "")
			return
		}
		out[id] = &Question{ID: id, Line: n, User: firstUser(m["question"]), Functions: fns}
	})
	return out, errs
}

// each calls fn with every line of data that is a JSON object; other
// lines are errors. A byte order mark at the start of data is dropped.
func each(name string, data []byte, errs *[]error, fn func(m map[string]any, n int, fail func(msg, hint string))) {
	err := jsonl.Each(bytes.NewReader(sniff.TrimBOM(data)), func(line []byte, n int) error {
		v, err := jsonl.Decode(line)
		if err != nil {
			msg, l, c := jsonl.Describe(line, err, n)
			*errs = append(*errs, &trajeval.SpecError{File: name, Line: l, Col: c, Msg: msg})
			return nil
		}
		fail := func(msg, hint string) {
			*errs = append(*errs, &trajeval.SpecError{File: name, Line: n, Col: 1, Msg: msg, Hint: hint})
		}
		m, ok := v.(map[string]any)
		if !ok {
			fail(fmt.Sprintf("a line is a JSON object, got a %s", jsonv.Kind(v)), "")
			return nil
		}
		fn(m, n, fail)
		return nil
	})
	if err != nil {
		*errs = append(*errs, &trajeval.SpecError{File: name, Msg: err.Error()})
	}
}

// firstUser returns the first user message of a question: BFCL's
// [[{role, content}, ...], ...], one list per turn.
func firstUser(q any) string {
	turns, _ := q.([]any)
	for _, t := range turns {
		msgs, ok := t.([]any)
		if !ok {
			msgs = []any{t}
		}
		for _, m := range msgs {
			mm, _ := m.(map[string]any)
			if mm["role"] == "user" {
				s, _ := mm["content"].(string)
				return s
			}
		}
	}
	return ""
}

// Load reads a possible-answer file, its question file, and builds the
// suite.
func Load(path string, data []byte, opts suite.Options) (*suite.Suite, []error) {
	answers, errs := ParseAnswers(path, data)
	qpath := opts.Questions
	if qpath == "" {
		qpath = questionsBeside(path)
	}
	if qpath == "" {
		return nil, append(errs, &trajeval.SpecError{File: path, Line: 1, Col: 1, Msg: "no question file for these possible answers",
			Hint: "give --questions FILE (BFCL's question file, {id, question, function} per line), or put it beside as questions.jsonl"})
	}
	qdata, err := config.ReadFile(qpath)
	if err != nil {
		return nil, append(errs, &trajeval.SpecError{File: path, Line: 1, Col: 1, Msg: fmt.Sprintf("question file %s cannot be read: %v", qpath, unwrapPath(err))})
	}
	questions, qerrs := ParseQuestions(qpath, qdata)
	errs = append(errs, qerrs...)
	s := &suite.Suite{File: path, Name: strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)), Traces: beside(path, "answer", "result")}
	threshold := 1.0
	if opts.Threshold != nil {
		threshold = *opts.Threshold
	}
	for _, a := range answers {
		c := &suite.Case{ID: a.ID, Place: config.PlaceOf(&config.Node{File: path, Line: a.Line, Col: 1})}
		ev, err := checker(a, questions[a.ID], qpath)
		if err != nil {
			errs = append(errs, &trajeval.SpecError{File: path, Line: a.Line, Col: 1, Msg: fmt.Sprintf("%s: %v", a.ID, err)})
			continue
		}
		if q := questions[a.ID]; q != nil {
			c.Input = q.User
		}
		c.Evaluators = []*eval.Configured{{Name: "bfcl_ast", Type: "bfcl_ast", Weight: 1, Required: true, Threshold: threshold, Eval: ev}}
		s.Cases = append(s.Cases, c)
	}
	return s, errs
}

// checker builds the evaluator of one answer: an error evaluator when the
// question is missing (the case is then an error, never a pass).
func checker(a Answer, q *Question, qpath string) (trajeval.Evaluator, error) {
	cat := a.Category
	if cat == "" {
		var ok bool
		if cat, ok = evalbfcl.Category(a.ID); !ok {
			return nil, fmt.Errorf(`the id does not say the category (as simple_0 or parallel_multiple_12 do): give the line "category": "simple" (or multiple, parallel, parallel_multiple)`)
		}
	}
	if q == nil {
		return failing{fmt.Errorf("%w: no question with id %q in %s", ErrNoQuestion, a.ID, qpath)}, nil
	}
	return evalbfcl.New(evalbfcl.Options{Category: cat, Functions: q.Functions, GroundTruth: a.GroundTruth, Matching: a.Matching, UnderscoreToDot: a.UnderscoreToDot})
}

// ErrNoQuestion is the error of a case whose question is missing.
var ErrNoQuestion = errors.New("no question for the answer")

// failing is an evaluator that cannot run.
type failing struct{ err error }

func (f failing) Evaluate(context.Context, *trajeval.Trajectory) (trajeval.Outcome, error) {
	return trajeval.Outcome{}, f.err
}

// questionsBeside finds the question file of a possible-answer file.
func questionsBeside(path string) string {
	if p := beside(path, "answer", "question"); p != "" {
		return p
	}
	// BFCL's layout: data/possible_answer/X.json answers data/X.json.
	dir := filepath.Dir(path)
	if filepath.Base(dir) == "possible_answer" {
		p := filepath.Join(filepath.Dir(dir), filepath.Base(path))
		if isFile(p) {
			return p
		}
	}
	return ""
}

// beside returns the file beside path whose name has to for from, when
// it exists.
func beside(path, from, to string) string {
	base := filepath.Base(path)
	i := strings.Index(strings.ToLower(base), from)
	if i < 0 {
		return ""
	}
	p := filepath.Join(filepath.Dir(path), base[:i]+to+base[i+len(from):])
	if isFile(p) {
		return p
	}
	return ""
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
