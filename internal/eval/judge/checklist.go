package judge

import (
	"context"
	"fmt"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/judge"
)

// A Verdict is the judge's yes or no on one item of a checklist.
type Verdict struct {
	Yes    bool
	Reason string
}

// Checklist asks the judge a yes-or-no question about each item, in one
// call: question says what yes means (e.g. "completed"), items are the
// author's text (tasks, calls, checks), listed outside the data sections
// after user. The answer must give every item exactly once.
func Checklist(ctx context.Context, j *judge.Judge, role, user, field string, items []string) ([]Verdict, *trajeval.JudgeUsage, error) {
	schema := judge.Object(map[string]any{
		"items": judge.Array(judge.Object(map[string]any{
			"id":        judge.Typed("integer", "the item's number"),
			"reasoning": judge.Typed("string", "why, briefly"),
			field:       judge.Typed("boolean", "the verdict"),
		})),
	})
	var b strings.Builder
	b.WriteString(user)
	fmt.Fprintf(&b, "\n\nFor each item below (id: item), decide %q (true or false):\n", field)
	for i, it := range items {
		fmt.Fprintf(&b, "%d: %s\n", i+1, strings.TrimSpace(it))
	}
	req := judge.Request{SchemaName: "checklist", Schema: schema,
		Messages: []judge.Message{{Role: "system", Content: judge.System(role, schema)}, {Role: "user", Content: b.String()}}}
	out := make([]Verdict, len(items))
	_, usage, err := j.Ask(ctx, req, func(v map[string]any) error {
		return judge.EachItem(v, "items", len(items), func(k int, it map[string]any) (err error) {
			if out[k].Yes, err = judge.Bool(it, field); err != nil {
				return err
			}
			out[k].Reason = judge.Text(it, "reasoning")
			return nil
		})
	})
	if err != nil {
		return nil, &usage, err
	}
	return out, &usage, nil
}
