package openaigo_test

import (
	"encoding/json"
	"fmt"

	"github.com/openai/openai-go/v3"
	"github.com/trajeval/trajeval/convert/openaigo"
)

func ExampleMessages() {
	// The conversation an agent loop holds: the model's tool calls (here
	// written out; in a loop, resp.Choices[0].Message.ToParam()) and the
	// tools' outputs, which pair with the calls by tool_call_id.
	msgs := []openai.ChatCompletionMessageParamUnion{
		openai.UserMessage("Find Go tutorials and open the first."),
		{OfAssistant: &openai.ChatCompletionAssistantMessageParam{ToolCalls: []openai.ChatCompletionMessageToolCallUnionParam{
			{OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{ID: "call_1", Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{
				Name: "search", Arguments: `{"query": "golang tutorial", "limit": 3}`,
			}}},
		}}},
		openai.ToolMessage(`["go.dev/tour"]`, "call_1"),
		{OfAssistant: &openai.ChatCompletionAssistantMessageParam{ToolCalls: []openai.ChatCompletionMessageToolCallUnionParam{
			{OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{ID: "call_2", Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{
				Name: "read_document", Arguments: `{"url": "go.dev/tour"}`,
			}}},
		}}},
		openai.ToolMessage("A Tour of Go ...", "call_2"),
		openai.AssistantMessage("The Tour of Go is a good start."),
	}
	t, err := openaigo.Messages(msgs)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range t.Steps {
		args, _ := json.Marshal(s.Args)
		fmt.Printf("%d %s %s → %q\n", s.Index, s.Name, args, s.Result)
	}
	fmt.Println("final:", *t.Turns[0].FinalResponse)
	fmt.Println("llm calls:", *t.Metrics.LLMCalls)
	// Output:
	// 1 search {"limit":3,"query":"golang tutorial"} → "[\"go.dev/tour\"]"
	// 2 read_document {"url":"go.dev/tour"} → "A Tour of Go ..."
	// final: The Tour of Go is a good start.
	// llm calls: 3
}
