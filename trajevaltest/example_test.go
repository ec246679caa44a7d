package trajevaltest_test

import (
	"fmt"
	"log"
	"testing"

	"github.com/trajeval/trajeval/suite"
	"github.com/trajeval/trajeval/trace"
	"github.com/trajeval/trajeval/trajevaltest"
)

// printed stands for the *testing.T of a test: it prints what the test
// would report.
type printed struct{ testing.TB }

func (printed) Helper() {}

func (printed) Errorf(format string, args ...any) { fmt.Printf(format+"\n", args...) }

// A failing check reports the alignment: which expected calls matched
// which steps, what is missing, and the argument paths that differ.
func ExampleCheck() {
	var t testing.TB = printed{} // in a test: the test's t

	trajs, err := trace.ReadFile("testdata/research.traces.jsonl")
	if err != nil {
		log.Fatal(err)
	}
	suite, err := suite.Load("testdata/research.yaml")
	if err != nil {
		log.Fatal(err)
	}
	trajevaltest.Check(t, trajs[1], suite.Cases[1].Evaluators...)
	// Output:
	// trajectory "research-rust" failed:
	// ✗ workflow  tool_trajectory in_order  0.00 < 1.00
	//     expected 3, actual 1, matched 0
	//        1 search                       ✗ near miss: step 1 search, args.query: expected {"$regex":"(?i)python"}, got "rust"
	//        2 read_document                ✗ missing
	//        3 synthesize                   ✗ missing
}

// RunSuite makes every case of a suite a subtest, so that go test -run
// 'TestEvals/research-python' runs one case. The cases' trajectories
// come from research.traces.jsonl beside the suite, matched by id.
func ExampleRunSuite() {
	// In a _test.go file: func TestEvals(t *testing.T) { ... }
	TestEvals := func(t *testing.T) {
		trajevaltest.RunSuite(t, "testdata/research.yaml", suite.RunOptions{Workers: 2})
	}
	_ = TestEvals
}
