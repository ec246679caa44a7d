package suite_test

import (
	"context"
	"fmt"
	"log"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/suite"
)

// Run a suite and stream its results.
func ExampleSuite_Run() {
	s, err := suite.Load("../testdata/research.yaml")
	if err != nil {
		log.Fatal(err)
	}
	for r, err := range s.Run(context.Background(), suite.RunOptions{}) {
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
func ExampleLoad_errors() {
	_, err := suite.Load("../testdata/broken.yaml")
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		fmt.Println(e)
	}
	// Output:
	// ../testdata/broken.yaml:5:13: execution.evaluators[0].type: unknown evaluator type "tool_trajectroy" (did you mean "tool_trajectory"?)
	// ../testdata/broken.yaml:14:17: evalcases[0].execution.evaluators[0].mode: unknown value "sometimes" (one of: any_order, in_order, exact, subset, strict, superset, precision, recall)
}

// Score a trajectory you have, e.g. from an agent run inside a test, as a
// case of a suite file.
func ExampleCase_Score() {
	s, err := suite.Load("../testdata/research.yaml")
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
