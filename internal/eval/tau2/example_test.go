package tau2_test

import (
	"context"
	"fmt"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/eval/tau2"
)

// The reward of a task whose basis is ACTION and COMMUNICATE: the agent
// cancelled the right reservation but never said the refund.
func ExampleReward_Evaluate() {
	answer := "Your reservation is cancelled."
	t := &trajeval.Trajectory{ID: "0",
		Turns: []trajeval.Turn{{Turn: 1, FinalResponse: &answer}},
		Steps: []trajeval.Step{{Index: 1, Name: "cancel_reservation", Args: map[string]any{"reservation_id": "EHGLP3", "reason": "change of plan"}}},
	}
	reward := tau2.NewReward([]tau2.Part{
		{Component: tau2.Action, Eval: tau2.NewAction([]tau2.ExpectedAction{
			{Name: "cancel_reservation", Args: map[string]any{"reservation_id": "EHGLP3", "reason": "other"}, CompareArgs: []string{"reservation_id"}},
		})},
		{Component: tau2.Communicate, Eval: tau2.NewCommunicate([]string{"1628"})},
	})
	out, err := reward.Evaluate(context.Background(), t)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range out.Members {
		fmt.Printf("%s %s %.0f\n", m.Name, m.Status, m.Score)
	}
	fmt.Printf("reward %.0f\n", out.Score)
	// Output:
	// ACTION pass 1
	// COMMUNICATE fail 0
	// reward 0
}
