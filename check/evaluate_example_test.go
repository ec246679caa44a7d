package check_test

import (
	"context"
	"fmt"
	"log"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/check"
	"github.com/trajeval/trajeval/suite"
	"github.com/trajeval/trajeval/trace"
)

// Read a recorded OpenAI chat trace and score it with an evaluator written
// in Go.
func ExampleEvaluate() {
	trajs, err := trace.ReadFile("../testdata/research.openai.json")
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
	r := check.Evaluate(context.Background(), trajs[0], check.Configure(searched, check.Settings{Name: "searched"}))
	fmt.Println(r.Passed(), r.Score)
	fmt.Print(r.Explain())
	// Output:
	// true 1
	// ✓ searched  1.00
}

// Score a trajectory with the evaluators of a case from a suite file: the
// explanation shows how the expected calls lined up with the steps.
func ExampleEvaluate_suite() {
	s, err := suite.Load("../testdata/research.yaml")
	if err != nil {
		log.Fatal(err)
	}
	trajs, err := trace.ReadFile("../testdata/research.openai.json")
	if err != nil {
		log.Fatal(err)
	}
	r := check.Evaluate(context.Background(), trajs[0], s.Cases[0].Evaluators...)
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

// Several evaluators make one result, scored as a suite scores a case:
// the weighted mean of their scores, passing iff every required one
// passes.
func ExampleEvaluate_several() {
	trajs, err := trace.ReadFile("../testdata/research.openai.json")
	if err != nil {
		log.Fatal(err)
	}
	calls := func(min int) trajeval.Evaluator {
		return trajeval.EvaluatorFunc(func(ctx context.Context, t *trajeval.Trajectory) (trajeval.Outcome, error) {
			return trajeval.Outcome{Score: min1(float64(len(t.Steps)) / float64(min))}, nil
		})
	}
	r := check.Evaluate(context.Background(), trajs[0],
		check.Configure(calls(2), check.Settings{Name: "two calls"}),
		check.Configure(calls(4), check.Settings{Name: "four calls", Optional: true}),
	)
	fmt.Println(r.Passed())
	fmt.Print(r.Explain())
	// Output:
	// true
	// ✓ all  0.75
}

func min1(f float64) float64 { return min(f, 1) }
