package adk_test

import (
	"fmt"

	"github.com/trajeval/trajeval/internal/format/adk"
	"github.com/trajeval/trajeval/internal/jsonv"
)

func ExampleDecodeEvalSet() {
	set, err := adk.DecodeEvalSet([]byte(`{
  "eval_set_id": "weather",
  "eval_cases": [{
    "eval_id": "paris",
    "conversation": [{
      "user_content": {"parts": [{"text": "Weather in Paris?"}]},
      "final_response": {"parts": [{"text": "Sunny."}]},
      "intermediate_data": {"tool_uses": [{"name": "get_weather", "args": {"city": "Paris"}}]}
    }]
  }]
}`), "weather.evalset.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range set.Cases {
		for i, inv := range c.Invocations {
			fmt.Printf("%s turn %d: %q -> %q\n", c.ID, i+1, *inv.User, *inv.FinalResponse)
			for _, call := range inv.Calls {
				fmt.Printf("  expects %s %s\n", call.Name, jsonv.Marshal(call.Args))
			}
		}
		t := c.Trajectory()
		fmt.Println(t.ID, len(t.Turns), t.Names())
	}
	// Output:
	// paris turn 1: "Weather in Paris?" -> "Sunny."
	//   expects get_weather {"city":"Paris"}
	// paris 1 [get_weather]
}
