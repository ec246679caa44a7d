package check_test

import (
	"context"
	"fmt"

	"github.com/trajeval/trajeval/check"
)

func ExampleUnordered() {
	// Search, then both documents in either order, then the answer.
	ev := check.InOrder(
		check.Call("search"),
		check.Unordered(
			check.Call("read_document", check.Args{"id": "doc-2"}),
			check.Call("read_document", check.Args{"id": "doc-1"}),
		),
		check.Call("save_answer"),
	)
	out, _ := ev.Evaluate(context.Background(), research())
	fmt.Printf("score %.2f\n", out.Score)
	fmt.Println(out.Details.Notes["chosen"])
	// Output:
	// score 1.00
	// [1 search: expected[0] 2 read_document: expected[1].any_order[1] 3 read_document: expected[1].any_order[0] 4 save_answer: expected[2]]
}

func ExampleSequence() {
	// Either a search followed by a read, or a cached answer.
	ev := check.InOrder(
		check.Either(
			check.Sequence(check.Call("search"), check.Call("read_document")),
			check.Call("cached_answer"),
		),
		check.Call("save_answer"),
	)
	out, _ := ev.Evaluate(context.Background(), research())
	fmt.Printf("score %.2f\n", out.Score)
	// Output: score 1.00
}

func ExampleEither() {
	// The best alternative counts: publish alone is missing, but
	// save_answer completes the other one.
	ev := check.InOrder(
		check.Call("search"),
		check.Either(check.Call("publish"), check.Call("save_answer")),
	)
	out, _ := ev.Evaluate(context.Background(), research())
	fmt.Printf("score %.2f, %d calls chosen\n", out.Score, out.Details.Expected)
	// Output: score 1.00, 2 calls chosen
}

func ExampleOptional() {
	// ask_user was not called: an absent optional call costs nothing.
	ev := check.InOrder(
		check.Call("search"),
		check.Optional(check.Call("ask_user")),
		check.Call("save_answer"),
	)
	out, _ := ev.Evaluate(context.Background(), research())
	fmt.Printf("score %.2f, missing %d\n", out.Score, len(out.Details.Missing))
	// Output: score 1.00, missing 0
}

func ExampleRepeat() {
	// At least three documents read: the run read two.
	ev := check.InOrder(
		check.Call("search"),
		check.Repeat(check.Call("read_document"), 3, check.Unbounded),
		check.Call("save_answer"),
	)
	out, _ := ev.Evaluate(context.Background(), research())
	fmt.Printf("score %.2f\n", out.Score)
	for _, m := range out.Details.Missing {
		fmt.Printf("missing call %d: %s\n", m.Item, m.Tool)
	}
	// Output:
	// score 0.80
	// missing call 2: read_document
}

func ExampleGroup_exact() {
	// Exact compares positions: the documents in either order, and
	// nothing else.
	ev := check.Exact(
		check.Call("search"),
		check.Repeat(check.Call("read_document"), 1, 3),
		check.Optional(check.Call("ask_user")),
		check.Call("save_answer"),
	)
	out, _ := ev.Evaluate(context.Background(), research())
	fmt.Printf("score %.2f\n", out.Score)
	// Output: score 1.00
}

func ExampleGroup_refused() {
	// AnyOrder has no order to group: a group there is a setting error.
	ev := check.AnyOrder(check.Optional(check.Call("search")))
	fmt.Println(check.Validate(ev))
	// Output: tool_trajectory: expected: groups are only scored in in_order and exact modes, not any_order (in_order with the list inside one any_order group scores any order)
}
