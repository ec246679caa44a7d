package adkgo_test

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/trajeval/trajeval/convert/adkgo"
	"google.golang.org/adk/v2/model"
	"google.golang.org/adk/v2/session"
	"google.golang.org/genai"
)

func ExampleEvents() {
	// The events of one invocation, as ADK's session service keeps them
	// (in a test: svc.Get(...).Session, converted with adkgo.Session).
	events := []*session.Event{
		{InvocationID: "e-1", Author: "user", LLMResponse: modelText("user", "Find Go tutorials.")},
		{InvocationID: "e-1", Author: "researcher", LLMResponse: modelParts(&genai.Part{FunctionCall: &genai.FunctionCall{
			ID: "adk-1", Name: "search", Args: map[string]any{"query": "golang tutorial", "limit": 3},
		}})},
		{InvocationID: "e-1", Author: "researcher", LLMResponse: modelParts(&genai.Part{FunctionResponse: &genai.FunctionResponse{
			ID: "adk-1", Name: "search", Response: map[string]any{"result": []string{"go.dev/tour"}},
		}})},
		{InvocationID: "e-1", Author: "researcher", LLMResponse: modelText("model", "Start with go.dev/tour.")},
	}
	t, err := adkgo.Events("session-1", slices.Values(events))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range t.Steps {
		args, _ := json.Marshal(s.Args)
		res, _ := json.Marshal(s.Result)
		fmt.Printf("%d %s by %s %s → %s\n", s.Index, s.Name, s.Agent, args, res)
	}
	fmt.Printf("turn 1: %q → %q\n", *t.Turns[0].User, *t.Turns[0].FinalResponse)
	// Output:
	// 1 search by researcher {"limit":3,"query":"golang tutorial"} → {"result":["go.dev/tour"]}
	// turn 1: "Find Go tutorials." → "Start with go.dev/tour."
}

func modelText(role, s string) model.LLMResponse {
	return model.LLMResponse{Content: genai.NewContentFromText(s, genai.Role(role))}
}

func modelParts(parts ...*genai.Part) model.LLMResponse {
	return model.LLMResponse{Content: &genai.Content{Role: "model", Parts: parts}}
}
