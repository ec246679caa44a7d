package bfcl_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/suite"
	"github.com/trajeval/trajeval/internal/suite/bfcl"
)

const question = `{"id": "simple_0", "question": [[{"role": "user", "content": "Weather in Paris?"}]], "function": [{"name": "get_weather", "parameters": {"type": "dict", "properties": {"city": {"type": "string"}}, "required": ["city"]}}]}` + "\n"

const answer = `{"id": "simple_0", "ground_truth": [{"get_weather": {"city": ["Paris"]}}]}` + "\n"

// write makes a folder with the given files.
func write(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func load(path string, opts suite.Options) (*suite.Suite, []error) {
	opts.Dialects = []suite.Dialect{bfcl.Dialect}
	return suite.LoadFile(path, opts, true)
}

func TestLoad(t *testing.T) {
	s, errs := load("../../../examples/bfcl/answers.jsonl", suite.Options{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if s.Dialect != "bfcl" || len(s.Cases) != 9 || !strings.HasSuffix(s.Traces, "results.jsonl") {
		t.Fatalf("suite %s with %d cases, traces %q; want the bfcl dialect, 9 cases and results.jsonl beside", s.Dialect, len(s.Cases), s.Traces)
	}
	c := s.Cases[0]
	if c.ID != "simple_0" || !strings.HasPrefix(c.Input, "Find the area") || len(c.Evaluators) != 1 || c.Evaluators[0].Type != "bfcl_ast" {
		t.Errorf("case 1: %q input %q evaluators %d; want simple_0 with its question and one bfcl_ast", c.ID, c.Input, len(c.Evaluators))
	}
	// simple_9 has no question: its evaluator cannot run.
	last := s.Cases[len(s.Cases)-1]
	r := last.Evaluators[0].Run(context.Background(), &trajeval.Trajectory{})
	if last.ID != "simple_9" || r.Status != trajeval.StatusError || !strings.Contains(r.Error, "no question") {
		t.Errorf("case %s: %s %q; want simple_9 an error for its missing question, never a pass", last.ID, r.Status, r.Error)
	}
}

func TestLoad_questions(t *testing.T) {
	tests := []struct {
		name   string
		files  map[string]string
		answer string // the answers file, relative
		flag   string // --questions, relative; "" for none
		reason string
	}{
		{"beside", map[string]string{"answers.jsonl": answer, "questions.jsonl": question}, "answers.jsonl", "", "answers → questions"},
		{"flag", map[string]string{"a.jsonl": answer, "q/x.jsonl": question}, "a.jsonl", "q/x.jsonl", "--questions wins"},
		{"bfcl layout", map[string]string{"possible_answer/BFCL_v4_simple.json": answer, "BFCL_v4_simple.json": question}, "possible_answer/BFCL_v4_simple.json", "", "BFCL's data folder"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := write(t, tt.files)
			opts := suite.Options{}
			if tt.flag != "" {
				opts.Questions = filepath.Join(dir, tt.flag)
			}
			s, errs := load(filepath.Join(dir, tt.answer), opts)
			if len(errs) > 0 || len(s.Cases) != 1 || s.Cases[0].Input != "Weather in Paris?" {
				t.Fatalf("errors %v; want one case with its question: %s", errs, tt.reason)
			}
		})
	}
}

func TestLoad_errors(t *testing.T) {
	tests := []struct {
		name      string
		answers   string
		questions string // "" for no question file
		want      string // file:line and words of the first error
		reason    string
	}{
		{"not json", answer + "{\"id\": \"simple_1\", \"ground\n", question, "answers.jsonl:2:", "the broken line is placed"},
		{"ground truth not a list", answer + `{"id": "simple_1", "ground_truth": {"f": {}}}` + "\n", question, "answers.jsonl:2:1: simple_1: ground_truth must be a list", "a malformed ground_truth names its line"},
		{"allowed not a list", `{"id": "simple_0", "ground_truth": [{"get_weather": {"city": "Paris"}}]}` + "\n", question, "answers.jsonl:1:1: simple_0: ground_truth[0].get_weather.city", "allowed values are a list"},
		{"no id", `{"ground_truth": []}` + "\n", question, "answers.jsonl:1:1: the answer has no id", "ids pair answers, questions and results"},
		{"duplicate id", answer + answer, question, "answers.jsonl:2:1: id \"simple_0\" is used twice", "results could not be told apart"},
		{"java", `{"id": "simple_java_0", "ground_truth": [{"get_weather": {"city": ["Paris"]}}]}` + "\n", strings.Replace(question, "simple_0", "simple_java_0", 1), "answers.jsonl:1:1: simple_java_0: functions: get_weather: parameter city has type \"string\", which is not a Java type", "a Python document under a Java category: an error, not a silent pass"},
		{"irrelevance", `{"id": "irrelevance_0", "ground_truth": []}` + "\n", strings.Replace(question, "simple_0", "irrelevance_0", 1), "not an AST category", "not a category the checker knows"},
		{"bad question", answer, `{"id": "simple_0", "function": [{"name": "f", "parameters": {"properties": {"a": {"type": "object"}}}}]}` + "\n", "questions.jsonl:1:1: simple_0: function[0]: f: parameter a has type \"object\"", "a malformed question names its file and line"},
		{"question not json", answer, "{\n", "questions.jsonl:1:", "the question file is checked too"},
		{"no question file", answer, "", "no question file", "the function documents are needed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{"answers.jsonl": tt.answers}
			if tt.questions != "" {
				files["questions.jsonl"] = tt.questions
			}
			dir := write(t, files)
			_, errs := load(filepath.Join(dir, "answers.jsonl"), suite.Options{})
			if len(errs) == 0 {
				t.Fatalf("no error: %s", tt.reason)
			}
			suite.SortErrors(errs)
			got := errors.Join(errs...).Error()
			if !strings.Contains(got, tt.want) {
				t.Errorf("errors:\n%s\nwant %q: %s", got, tt.want, tt.reason)
			}
			var se *trajeval.SpecError
			if !errors.As(errs[0], &se) || se.File == "" {
				t.Errorf("error %v has no file", errs[0])
			}
		})
	}
}

func TestSniff(t *testing.T) {
	tests := []struct {
		head string
		want bool
	}{
		{answer, true},
		{question, false},
		{`{"id": "simple_0", "result": []}`, false},
		{"evalcases: []", false},
	}
	for _, tt := range tests {
		if got := bfcl.Sniff("x.json", []byte(tt.head)); got != tt.want {
			t.Errorf("Sniff(%.40q) = %v, want %v", tt.head, got, tt.want)
		}
	}
}

// FuzzParse feeds any bytes to both file parsers: they return values or
// placed errors, never panic, and an accepted answer has an id.
func FuzzParse(f *testing.F) {
	for _, p := range []string{"../../../examples/bfcl/answers.jsonl", "../../../examples/bfcl/questions.jsonl"} {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(answer + "{\"id\": 1}\n[]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		answers, errs := bfcl.ParseAnswers("a.jsonl", data)
		for _, a := range answers {
			if a.ID == "" || a.Line < 1 {
				t.Errorf("answer %+v accepted without an id or a line", a)
			}
		}
		for _, err := range errs {
			var se *trajeval.SpecError
			if !errors.As(err, &se) || se.File != "a.jsonl" {
				t.Errorf("error %v is not placed in its file", err)
			}
		}
		qs, qerrs := bfcl.ParseQuestions("q.jsonl", data)
		for id, q := range qs {
			if id == "" || len(q.Functions) == 0 {
				t.Errorf("question %q accepted without an id or functions", id)
			}
		}
		for _, err := range qerrs {
			var se *trajeval.SpecError
			if !errors.As(err, &se) || se.File != "q.jsonl" {
				t.Errorf("error %v is not placed in its file", err)
			}
		}
	})
}
