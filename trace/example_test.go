package trace_test

import (
	"fmt"
	"log"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/trace"
)

func ExampleReadFile() {
	trajs, err := trace.ReadFile("../testdata/research.openai.json")
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range trajs {
		fmt.Println(t.ID, t.Names())
	}
	// Output:
	// research-python [search read_document]
}

// Read leniently: a trace cut off in the middle is read up to the damage,
// marked partial, and the warning goes to the caller.
func ExampleReadOptions() {
	cut := `{"id": "r", "messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "search", "arguments": "{}"}}]}, {"role": "to`
	_, err := trace.Read(strings.NewReader(cut), "openai-chat")
	fmt.Println("strict:", err != nil)

	var warnings []trajeval.Warning
	opts := trace.ReadOptions{Format: "openai-chat", Lenient: true, Name: "cut.json",
		Warn: func(w trajeval.Warning) { warnings = append(warnings, w) }}
	trajs, err := opts.Read(strings.NewReader(cut))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("lenient:", len(trajs), trajs[0].Partial, len(warnings) > 0)
	// Output:
	// strict: true
	// lenient: 1 true true
}

func ExampleFormats() {
	fmt.Println(strings.Join(trace.Formats(), " "))
	// Output:
	// trajeval otlp otlp-proto codex-session langsmith langchain openai-agents openai-responses anthropic gemini-chat openai-chat vertex-dataset agentv adk-evalset adk-session tau2 codex claude-code gemini-cli mcp bfcl
}
