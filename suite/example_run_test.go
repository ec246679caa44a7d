package suite_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/suite"
)

// Filter picks cases by id: a glob, or a regular expression written
// /RE/, tried on the id and on SUITE/ID. A pattern that picks nothing is
// an error naming the nearest ids, never an empty run.
func ExampleRunOptions_filter() {
	s, err := suite.Load("../testdata/many.yaml")
	if err != nil {
		log.Fatal(err)
	}
	for _, filter := range [][]string{{"*-python"}, {"/^many/.*nothing$/"}, {"research-pyhton"}} {
		opts := suite.RunOptions{Traces: "../testdata/research.traces.jsonl", Filter: filter}
		for r, err := range s.Run(context.Background(), opts) {
			if err != nil {
				fmt.Println(err)
				continue
			}
			fmt.Printf("%v: %s %s, from %s\n", filter, r.ID, r.Status, r.Trace)
		}
	}
	// Output:
	// [*-python]: research-python pass, from ../testdata/research.traces.jsonl
	// [/^many/.*nothing$/]: research-nothing fail, from ../testdata/research.traces.jsonl
	// filter "research-pyhton" matches no case id (nearest: research-python, research-nothing)
}

// Done finishes a run that stopped midway: the rows it completed are
// yielded again, as they were, and only the other cases are scored.
func ExampleRunOptions_done() {
	s, err := suite.Load("../testdata/many.yaml")
	if err != nil {
		log.Fatal(err)
	}
	opts := suite.RunOptions{Traces: "../testdata/research.traces.jsonl"}
	var done []trajeval.CaseResult
	for r, err := range s.Run(context.Background(), opts) {
		if err != nil {
			log.Fatal(err)
		}
		done = append(done, r)
		break // the first run stops after one case
	}
	opts.Done = done
	for r, err := range s.Run(context.Background(), opts) {
		if err != nil {
			log.Fatal(err)
		}
		kept := r.StartedAt.Equal(done[0].StartedAt) && r.ID == done[0].ID
		fmt.Println(r.ID, r.Status, "kept:", kept)
	}
	// Output:
	// research-python pass kept: true
	// research-nothing fail kept: false
}

// Stop ends a run gracefully: the cases under way finish, no other
// starts, and the run's last yield is ErrStopped.
func ExampleRunOptions_stop() {
	s, err := suite.Load("../testdata/many.yaml")
	if err != nil {
		log.Fatal(err)
	}
	stop := make(chan struct{})
	close(stop) // as a first Ctrl-C would
	for r, err := range s.Run(context.Background(), suite.RunOptions{Traces: "../testdata/research.traces.jsonl", Stop: stop}) {
		if err != nil {
			fmt.Println("stopped:", errors.Is(err, suite.ErrStopped))
			continue
		}
		fmt.Println(r.ID)
	}
	// Output:
	// stopped: true
}

// Load loads suites with the settings of a run, which Run then does not
// load again; Plan says which cases the run will score, or why it cannot
// start.
func ExampleRunOptions_Load() {
	opts := suite.RunOptions{Traces: "../testdata/research.traces.jsonl", Threshold: 0.5, Filter: []string{"research-*"}}
	s, err := opts.Load("../testdata/many.yaml", "../testdata/research.yaml")
	if err != nil {
		log.Fatal(err)
	}
	cases, err := s.Plan(opts)
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range cases {
		fmt.Println(c.Suite + "/" + c.ID)
	}
	opts.Trials = 3
	_, err = s.Plan(opts)
	fmt.Println(err != nil)
	// Output:
	// many/research-python
	// many/research-nothing
	// research/research-python
	// research/research-nothing
	// true
}
