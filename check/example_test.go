package check_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/check"
)

// research is a recorded run: a search, two documents read, an answer
// saved. Arguments are JSON values, as the trace readers make them.
func research() *trajeval.Trajectory {
	t := &trajeval.Trajectory{Steps: []trajeval.Step{
		{Name: "search", Args: map[string]any{"query": "Python tutorials", "limit": json.Number("5")}, DurationMS: new(120.0)},
		{Name: "read_document", Args: map[string]any{"id": "doc-1"}, DurationMS: new(40.0)},
		{Name: "read_document", Args: map[string]any{"id": "doc-2"}, DurationMS: new(900.0)},
		{Name: "save_answer", Args: map[string]any{"text": "Start with the official tutorial."}},
	}}
	t.Finish()
	return t
}

func Example() {
	c, err := check.Compile(check.InOrder(
		check.Call("search", check.Args{"query": check.Regex("(?i)python")}),
		check.Call("read_document"),
		check.Call("publish"),
	))
	if err != nil {
		fmt.Println("bad setting:", err)
		return
	}
	r := c.Run(context.Background(), research())
	fmt.Printf("passed %v, score %.2f\n", r.Passed(), r.Score)
	fmt.Print(r.Explain())
	// Output:
	// passed false, score 0.67
	// ✗ evaluator  tool_trajectory in_order  0.67 < 1.00
	//     expected 3, actual 4, matched 2
	//        1 search                       ✓ step 1 search
	//        2 read_document                ✓ step 2 read_document
	//        3 publish                      ✗ missing
	//     extra steps: 3 read_document, 4 save_answer
}

func ExampleCompile() {
	// The pattern does not compile: the error comes when the evaluator is
	// built, not when it first runs.
	_, err := check.Compile(check.InOrder(check.Call("search", check.Args{"query": check.Regex("(?i)python(")})))
	fmt.Println(err)
	fmt.Println(errors.Is(err, check.ErrSetting))
	// Output:
	// tool_trajectory: expected call 1: args.query.$regex: invalid regular expression: error parsing regexp: missing closing ): `(?i)python(`
	// true
}

func ExampleMustCompile() {
	workflow := check.MustCompile(check.InOrder(check.Call("search"), check.Call("save_answer")))
	r := workflow.Run(context.Background(), research())
	fmt.Printf("passed %v, score %.2f\n", r.Passed(), r.Score)
	// Output: passed true, score 1.00
}

func ExampleInOrder() {
	// publish never happened: one expected call of three is missing.
	ev := check.InOrder(check.Call("search"), check.Call("read_document"), check.Call("publish"))
	out, _ := ev.Evaluate(context.Background(), research())
	fmt.Printf("score %.2f\n", out.Score)
	for _, m := range out.Details.Missing {
		fmt.Printf("missing call %d: %s\n", m.Item, m.Tool)
	}
	// Output:
	// score 0.67
	// missing call 3: publish
}

func ExampleAnyOrder() {
	ev := check.AnyOrder(
		check.Call("save_answer"),
		check.Call("search", check.Args{"limit": check.Lte(10)}),
		check.Minimum("read_document", 2),
	)
	out, _ := ev.Evaluate(context.Background(), research())
	fmt.Printf("score %.2f\n", out.Score)
	// Output: score 1.00
}

func ExampleExact() {
	// Exact counts position by position: the fourth call is extra.
	ev := check.Exact(check.Call("search"), check.Call("read_document"), check.Call("read_document"))
	out, _ := ev.Evaluate(context.Background(), research())
	fmt.Printf("score %.2f\n", out.Score)
	// Output: score 0.75
}

func ExampleSubset() {
	// Only searching and reading are allowed: save_answer is not.
	ev := check.Subset(check.Call("search"), check.Call("read_document"))
	out, _ := ev.Evaluate(context.Background(), research())
	fmt.Printf("score %.2f\n", out.Score)
	// Output: score 0.75
}

func ExampleMaxDuration() {
	// The second read took 900ms: its latency check fails.
	ev := check.InOrder(
		check.Call("read_document", check.Args{"id": "doc-1"}, check.MaxDuration(100*time.Millisecond)),
		check.Call("read_document", check.Args{"id": "doc-2"}, check.MaxDuration(500*time.Millisecond)),
	)
	out, _ := ev.Evaluate(context.Background(), research())
	for _, c := range out.Details.Checks {
		fmt.Println(c.Name, c.Status)
	}
	fmt.Printf("score %.2f\n", out.Score)
	// Output:
	// latency read_document (call 1) ≤ 100ms pass
	// latency read_document (call 2) ≤ 500ms fail
	// score 0.75
}

func ExampleArgs() {
	ev := check.InOrder(check.Call("search", check.Args{
		"query": check.OneOf(check.Contains("Python"), check.Contains("Go")),
		"limit": check.Not(check.Gt(10)),
	}))
	out, _ := ev.Evaluate(context.Background(), research())
	fmt.Printf("score %.2f\n", out.Score)
	// Output: score 1.00
}

func ExampleScore() {
	// Precision: of the four calls made, one was expected.
	ev := check.AnyOrder(check.Call("search"), check.Call("publish"), check.ScorePrecision)
	out, _ := ev.Evaluate(context.Background(), research())
	fmt.Printf("score %.2f\n", out.Score)
	// Output: score 0.25
}

func ExampleValidate() {
	ev := check.InOrder(check.Call("search", check.Args{"query": check.Regex("(")}))
	fmt.Println(check.Validate(ev))
	_, err := ev.Evaluate(context.Background(), research())
	fmt.Println(err != nil)
	// Output:
	// tool_trajectory: expected call 1: args.query.$regex: invalid regular expression: error parsing regexp: missing closing ): `(`
	// true
}

func ExampleExecutionMetrics() {
	t := research()
	t.Metrics.DurationMS = new(2500.0)
	ev := check.ExecutionMetrics(check.Limits{MaxToolCalls: new(5), MaxDuration: new(2 * time.Second)})
	out, _ := ev.Evaluate(context.Background(), t)
	for _, c := range out.Details.Checks {
		fmt.Println(c.Name, c.Status, c.Message)
	}
	fmt.Printf("score %.2f\n", out.Score)
	// Output:
	// tool calls ≤ 5 pass got 4
	// duration ≤ 2000ms fail got 2500ms
	// score 0.50
}

func ExampleToolCallOrder() {
	ev := check.ToolCallOrder(check.Call("search"), check.Call("save_answer"), check.Call("read_document"))
	out, _ := ev.Evaluate(context.Background(), research())
	fmt.Printf("score %.2f\n", out.Score)
	// Output: score 0.67
}

func ExampleToolCallCount() {
	ev := check.ToolCallCount(check.CountOf("read_document", ">=", 2), check.CountOf("search", "==", 2))
	out, _ := ev.Evaluate(context.Background(), research())
	for _, c := range out.Details.Checks {
		fmt.Println(c.Name, c.Status, c.Message)
	}
	// Output:
	// count(read_document) >= 2 pass called 2 times
	// count(search) == 2 fail called 1 time
}

func ExampleToolCorrectness() {
	ev := check.ToolCorrectness(check.MatchArgs,
		check.Call("search", check.Args{"query": "Python tutorials", "limit": 5}),
		check.Call("read_document", check.Args{"id": "doc-1"}),
	)
	out, _ := ev.Evaluate(context.Background(), research())
	fmt.Printf("score %.2f\n", out.Score) // 2·2 / (2 + 4)
	// Output: score 0.67
}

func ExampleToolCallValidity() {
	tools := []check.Tool{
		{Name: "search", Parameters: `{"type": "object", "properties": {"query": {"type": "string"}, "limit": {"type": "integer"}}, "required": ["query"]}`},
		{Name: "read_document", Parameters: map[string]any{"type": "object", "required": []string{"id"}}},
	}
	out, _ := check.ToolCallValidity(tools).Evaluate(context.Background(), research())
	for _, c := range out.Details.Checks {
		fmt.Println(c.Name, c.Status, c.Message)
	}
	// Output: step 4 save_answer fail unknown tool
}

func ExampleToolErrors() {
	t := research()
	t.Steps[0].Result = `{"hits": 12}`
	t.Steps[1].Result = `{"error": "not found"}`
	t.Steps[2].Result = "Chapter 1"
	t.Steps[3].Error, t.Steps[3].ErrorMessage = new(true), "disk full"
	out, _ := check.ToolErrors().Evaluate(context.Background(), t)
	for _, c := range out.Details.Checks {
		fmt.Println(c.Name, c.Message)
	}
	fmt.Printf("score %.2f\n", out.Score)
	// Output:
	// step 2 read_document result has an error field: "not found"
	// step 4 save_answer error: disk full
	// score 0.50
}

func ExampleArgPaths() {
	// Only the query is compared; limit may be anything.
	ev := check.InOrder(check.Call("search",
		check.Args{"query": "Python tutorials", "limit": 50},
		check.ArgPaths("query"),
	))
	out, _ := ev.Evaluate(context.Background(), research())
	fmt.Printf("score %.2f\n", out.Score)
	// Output: score 1.00
}

func ExampleToolCallArgs() {
	ev := check.ToolCallArgs(
		check.Call("read_document", check.Args{"id": "doc-2"}),
		check.Call("search", check.Args{"query": "Go tutorials"}),
		check.SubsetArgs,
	)
	out, _ := ev.Evaluate(context.Background(), research())
	for _, m := range out.Details.Missing {
		for _, n := range m.Near {
			for _, d := range n.Diffs {
				fmt.Printf("call %d (%s): %s\n", m.Item, m.Tool, d)
			}
		}
	}
	fmt.Printf("score %.2f\n", out.Score)
	// Output:
	// call 2 (search): args.query: expected "Go tutorials", got "Python tutorials"
	// score 0.50
}

func ExampleRules() {
	ev := check.Rules(
		check.Never("delete", check.Args{"force": true}),
		check.AtMost("search", 1),
		check.Before(check.Call("search"), check.Call("read_document")),
		check.Within(check.Call("read_document"), check.Call("save_answer"), 1).Named("answer promptly"),
	)
	out, _ := ev.Evaluate(context.Background(), research())
	fmt.Printf("score %.2f\n", out.Score)
	for _, c := range out.Details.Checks {
		fmt.Println(c.Status, c.Name)
		if c.Message != "" {
			fmt.Println("   ", c.Message)
		}
	}
	// Output:
	// score 0.75
	// pass never delete {"force":true}
	// pass at_most 1 search
	// pass before [search, read_document]
	// fail answer promptly
	//     step 2 read_document {"id":"doc-1"}: no call of save_answer in the 1 step after it (the next is step 4 save_answer {"text":"Start with the official tutorial."}, 2 steps after)
}

func ExamplePattern() {
	ev := check.Rules(check.Pattern("search+ short{2,} save_answer",
		check.Where("short", check.Call("read_document", check.Args{"id": check.Regex("^doc-")}))))
	out, _ := ev.Evaluate(context.Background(), research())
	fmt.Println(out.Details.Checks[0].Status)

	ev = check.Rules(check.Pattern("search+ read_document{3,} save_answer"))
	out, _ = ev.Evaluate(context.Background(), research())
	fmt.Println(out.Details.Checks[0].Message)

	fmt.Println(check.Validate(check.Rules(check.Pattern("search+ (read"))))
	// Output:
	// pass
	// steps 1–3 (search read_document read_document) fit; step 4 save_answer {"text":"Start with the official tutorial."} does not: expected read_document
	// tool_rules: rule 1: pattern: unclosed '(' at column 9
}

func ExampleGrounding() {
	t := research()
	user := "Find Python tutorials and cite the best one."
	t.Turns = []trajeval.Turn{{Turn: 1, User: &user}}
	t.Steps[0].Result = map[string]any{"hits": []any{map[string]any{"id": "doc-1"}, map[string]any{"id": "doc-2"}}}
	t.Steps[3].Args = map[string]any{"text": "See doc-7."}
	// limit is the agent's own choice, not a fact it could invent.
	out, _ := check.Grounding(check.GroundingSettings{Ignore: []string{"search.limit"}}).Evaluate(context.Background(), t)
	for _, c := range out.Details.Checks {
		fmt.Printf("%s: %s\n", c.Name, c.Message)
	}
	fmt.Printf("score %.2f (%d of %d values grounded)\n", out.Score, out.Details.Hits, out.Details.Expected)
	// Output:
	// step 4 save_answer args.text = "See doc-7.": not in the user's messages (turn 1) or the result of step 1
	// score 0.75 (3 of 4 values grounded)
}

func ExampleFrom() {
	t := research()
	t.Steps[0].Result = `{"hits": [{"id": "doc-1"}, {"id": "doc-3"}]}`
	// Each document read must be one the search returned.
	ev := check.AnyOrder(
		check.Call("read_document", check.Args{"id": check.From("search.result.hits[*].id")}),
		check.Call("read_document", check.Args{"id": check.From("search.result.hits[*].id")}),
	)
	out, _ := ev.Evaluate(context.Background(), t)
	for _, m := range out.Details.Missing {
		for _, n := range m.Near {
			for _, d := range n.Diffs {
				fmt.Printf("step %d: %s\n", n.Step, d)
			}
		}
	}
	fmt.Printf("score %.2f\n", out.Score)
	// Output:
	// step 3: args.id: expected {"$from":"search.result.hits[*].id"}: one of "doc-1", "doc-3" (step 1), got "doc-2"
	// score 0.50
}

// team is a support agent that called a billing agent as a tool; billing
// called a ledger agent.
func team() *trajeval.Trajectory {
	t := &trajeval.Trajectory{
		Steps: []trajeval.Step{
			{Name: "lookup_customer", Agent: "support"},
			{Name: "create_invoice", Agent: "billing"},
			{Name: "post_entry", Agent: "ledger"},
			{Name: "reply", Agent: "support"},
		},
		Agents: []trajeval.Agent{{Name: "billing", Parent: "support"}, {Name: "ledger", Parent: "billing"}},
	}
	t.Finish()
	return t
}

func ExampleForAgent() {
	// billing's own calls, exactly: the support agent's calls around them
	// are not billing's extras.
	ev := check.ForAgent(check.Exact(check.Call("create_invoice")), "billing")
	out, _ := ev.Evaluate(context.Background(), team())
	fmt.Printf("score %.2f, %s\n", out.Score, out.Details.Scope)

	// billing and the agents it called.
	ev = check.ForAgentTree(check.Exact(check.Call("create_invoice"), check.Call("post_entry")), "billing")
	out, _ = ev.Evaluate(context.Background(), team())
	fmt.Printf("score %.2f, %s\n", out.Score, out.Details.Scope)

	// An agent the trace does not name cannot be scored.
	_, err := check.ForAgent(check.Exact(), "refunds").Evaluate(context.Background(), team())
	fmt.Println(err)
	// Output:
	// score 1.00, agent "billing": 1 of 4 steps (billing)
	// score 1.00, agents "billing" and the agents it called: 2 of 4 steps (billing, ledger)
	// no step was made by agent "refunds" (agents in this trace: support, billing, ledger)
}
