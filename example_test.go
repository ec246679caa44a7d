package trajeval_test

import (
	"context"
	"fmt"
	"log"
	"strings"

	"github.com/trajeval/trajeval"
)

// Read a recorded OpenAI chat trace and score it with an evaluator written
// in Go.
func ExampleEvaluate() {
	trajs, err := trajeval.ReadFile("testdata/research.openai.json")
	if err != nil {
		log.Fatal(err)
	}
	searched := trajeval.EvaluatorFunc(func(ctx context.Context, t *trajeval.Trajectory) (trajeval.Outcome, error) {
		for _, s := range t.Steps {
			if s.Name == "search" {
				return trajeval.Outcome{Score: 1}, nil
			}
		}
		return trajeval.Outcome{Score: 0}, nil
	})
	r := trajeval.Evaluate(context.Background(), trajs[0], trajeval.Configure(searched, trajeval.Settings{Name: "searched"}))
	fmt.Println(r.Passed(), r.Score)
	fmt.Print(r.Explain())
	// Output:
	// true 1
	// ✓ searched  1.00
}

// Score a trajectory with the evaluators of a case from a suite file: the
// explanation shows how the expected calls lined up with the steps.
func ExampleEvaluate_suite() {
	s, err := trajeval.LoadSuite("testdata/research.yaml")
	if err != nil {
		log.Fatal(err)
	}
	trajs, err := trajeval.ReadFile("testdata/research.openai.json")
	if err != nil {
		log.Fatal(err)
	}
	r := trajeval.Evaluate(context.Background(), trajs[0], s.Cases[0].Evaluators...)
	fmt.Println(r.Status)
	fmt.Print(r.Explain())
	// Output:
	// fail
	// ✗ workflow  tool_trajectory in_order  0.67 < 1.00
	//     expected 3, actual 2, matched 2
	//        1 search                       ✓ step 1 search
	//        2 read_document                ✓ step 2 read_document
	//        3 synthesize                   ✗ missing
}

func ExampleReadFile() {
	trajs, err := trajeval.ReadFile("testdata/research.openai.json")
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range trajs {
		fmt.Println(t.ID, t.Names())
	}
	// Output:
	// research-python [search read_document]
}

// Read leniently: a trace cut off in the middle is read up to the damage,
// marked partial, and the warning goes to the caller.
func ExampleReadOptions() {
	cut := `{"id": "r", "messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "search", "arguments": "{}"}}]}, {"role": "to`
	_, err := trajeval.Read(strings.NewReader(cut), "openai-chat")
	fmt.Println("strict:", err != nil)

	var warnings []trajeval.Warning
	opts := trajeval.ReadOptions{Format: "openai-chat", Lenient: true, Name: "cut.json",
		Warn: func(w trajeval.Warning) { warnings = append(warnings, w) }}
	trajs, err := opts.Read(strings.NewReader(cut))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("lenient:", len(trajs), trajs[0].Partial, len(warnings) > 0)
	// Output:
	// strict: true
	// lenient: 1 true true
}

func ExampleFormats() {
	fmt.Println(strings.Join(trajeval.Formats(), " "))
	// Output:
	// trajeval otlp otlp-proto codex-session langsmith langchain openai-agents openai-responses anthropic gemini-chat openai-chat vertex-dataset agentv adk-evalset adk-session tau2 codex claude-code gemini-cli mcp bfcl
}

// Run a suite and stream its results.
func ExampleSuite_Run() {
	s, err := trajeval.LoadSuite("testdata/research.yaml")
	if err != nil {
		log.Fatal(err)
	}
	for r, err := range s.Run(context.Background(), trajeval.RunOptions{}) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s %s %.2f\n", r.ID, r.Status, r.Score)
	}
	// Output:
	// research-python fail 0.67
	// research-nothing error 0.00
}

// Every configuration error of a suite, each at its file, line and column.
func ExampleLoadSuite_errors() {
	_, err := trajeval.LoadSuite("testdata/broken.yaml")
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		fmt.Println(e)
	}
	// Output:
	// testdata/broken.yaml:5:13: execution.evaluators[0].type: unknown evaluator type "tool_trajectroy" (did you mean "tool_trajectory"?)
	// testdata/broken.yaml:14:17: evalcases[0].execution.evaluators[0].mode: unknown value "sometimes" (one of: any_order, in_order, exact, subset, strict, superset, precision, recall)
}

// Several evaluators make one result, scored as a suite scores a case:
// the weighted mean of their scores, passing iff every required one
// passes.
func ExampleEvaluate_several() {
	trajs, err := trajeval.ReadFile("testdata/research.openai.json")
	if err != nil {
		log.Fatal(err)
	}
	calls := func(min int) trajeval.Evaluator {
		return trajeval.EvaluatorFunc(func(ctx context.Context, t *trajeval.Trajectory) (trajeval.Outcome, error) {
			return trajeval.Outcome{Score: min1(float64(len(t.Steps)) / float64(min))}, nil
		})
	}
	r := trajeval.Evaluate(context.Background(), trajs[0],
		trajeval.Configure(calls(2), trajeval.Settings{Name: "two calls"}),
		trajeval.Configure(calls(4), trajeval.Settings{Name: "four calls", Optional: true}),
	)
	fmt.Println(r.Passed())
	fmt.Print(r.Explain())
	// Output:
	// true
	// ✓ all  0.75
}

func min1(f float64) float64 { return min(f, 1) }

// Score a trajectory you have, e.g. from an agent run inside a test, as a
// case of a suite file.
func ExampleCase_Score() {
	s, err := trajeval.LoadSuite("testdata/research.yaml")
	if err != nil {
		log.Fatal(err)
	}
	t := &trajeval.Trajectory{ID: "run-1", Steps: []trajeval.Step{
		{Name: "search", Args: map[string]any{"query": "Python 3.13"}},
		{Name: "read_document", Args: map[string]any{"id": "doc-7"}},
		{Name: "synthesize"},
	}}
	r := s.Cases[0].Score(context.Background(), t)
	fmt.Print(r.Explain())
	// Output:
	// PASS  research-python  score 1.00  (research)
	//   ✓ workflow  tool_trajectory in_order  1.00
}
