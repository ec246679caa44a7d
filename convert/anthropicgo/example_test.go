package anthropicgo_test

import (
	"encoding/json"
	"fmt"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/trajeval/trajeval/convert/anthropicgo"
)

func ExampleMessages() {
	// The conversation an agent loop holds: the model's tool_use blocks
	// (in a loop, resp.ToParam()) and the tools' results, which pair with
	// the calls by tool_use_id.
	msgs := []anthropic.MessageParam{
		anthropic.NewUserMessage(anthropic.NewTextBlock("Find Go tutorials and open the first.")),
		anthropic.NewAssistantMessage(anthropic.NewToolUseBlock("toolu_1", map[string]any{"query": "golang tutorial", "limit": 3}, "search")),
		anthropic.NewUserMessage(anthropic.NewToolResultBlock("toolu_1", `["go.dev/tour"]`, false)),
		anthropic.NewAssistantMessage(anthropic.NewToolUseBlock("toolu_2", map[string]any{"url": "go.dev/tour"}, "read_document")),
		anthropic.NewUserMessage(anthropic.NewToolResultBlock("toolu_2", "404 not found", true)),
		anthropic.NewAssistantMessage(anthropic.NewTextBlock("The tour is at go.dev/tour, though it did not open.")),
	}
	t, err := anthropicgo.Messages(msgs)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range t.Steps {
		args, _ := json.Marshal(s.Args)
		fmt.Printf("%d %s %s → %q failed=%v\n", s.Index, s.Name, args, s.Result, s.Failed())
	}
	fmt.Println("final:", *t.Turns[0].FinalResponse)
	// Output:
	// 1 search {"limit":3,"query":"golang tutorial"} → "[\"go.dev/tour\"]" failed=false
	// 2 read_document {"url":"go.dev/tour"} → "404 not found" failed=true
	// final: The tour is at go.dev/tour, though it did not open.
}
