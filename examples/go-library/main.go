// Command agent-evals reads a recorded OpenAI chat trace, checks its tool
// calls with trajeval's check package and prints the score and the
// explanation: what a Go program scoring its agent's runs looks like.
//
//	go run . testdata/research.json
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/trajeval/trajeval/check"
	"github.com/trajeval/trajeval/trace"
)

func main() {
	path := "testdata/research.json"
	if len(os.Args) > 1 {
		path = os.Args[1]
	}
	runs, err := trace.ReadFile(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	workflow := Workflow()
	for _, run := range runs {
		r := workflow.Run(context.Background(), run)
		fmt.Printf("score %.2f, passed %v\n%s", r.Score, r.Passed(), r.Explain())
		if !r.Passed() {
			defer os.Exit(1)
		}
	}
}

// Workflow is what a good research run does: search for Python, read
// documents, then synthesize, in that order (other calls may come between).
// Its settings are literals, so MustCompile: a mistake in them (a pattern
// that does not compile) stops the program at once, before it reads a run.
func Workflow() *check.Check {
	return check.MustCompile(check.InOrder(
		check.Call("search", check.Args{"query": check.Regex("(?i)python")}),
		check.Call("read_document"),
		check.Call("synthesize"),
	))
}
