package scaffold

import (
	"strings"

	"github.com/trajeval/trajeval/internal/suite"
)

// StarterSuite is the path of the starter suite in the files of [Starter].
const StarterSuite = "suite.yaml"

// Starter returns the files of a small suite that passes: the suite, a
// recorded trace (an OpenAI Chat Completions conversation) and a README
// snippet that says how to run it and make it one's own.
func Starter() []File {
	return []File{
		{Path: StarterSuite, Data: []byte(strings.ReplaceAll(starterSuite, "SCHEMA", suite.SchemaURL))},
		{Path: "traces/forecast-by-sms.json", Data: []byte(starterTrace)},
		{Path: "TRAJEVAL.md", Data: []byte(strings.ReplaceAll(starterReadme, "SCHEMA", suite.SchemaURL))},
	}
}

const starterSuite = `# yaml-language-server: $schema=SCHEMA
#
# A first trajeval suite. Each case names a recorded trace; the evaluators say
# what the agent should have done. Run it with: trajeval eval suite.yaml
# Every evaluator type and its settings: trajeval evaluators [NAME]
name: first-suite
execution:
  evaluators:                 # run on every case
    - name: tool_calls
      type: tool_trajectory
      mode: in_order          # these calls in this order; others may come between
      expected:
        - tool: get_forecast
          args: {city: Paris} # partial: the call may have more arguments
        - tool: send_sms
          args:
            to: Ana
            text: {$regex: "(?i)rain"}   # an operator instead of a value
    - name: budget
      type: execution_metrics
      max_tool_calls: 4
evalcases:
  - id: forecast-by-sms
    input: What's the weather in Paris tomorrow? Text it to Ana.
    trace: traces/forecast-by-sms.json   # any format trajeval reads: trajeval formats
`

const starterTrace = `{
  "model": "gpt-4o-mini",
  "messages": [
    {"role": "system", "content": "You are a helpful assistant with weather and SMS tools."},
    {"role": "user", "content": "What's the weather in Paris tomorrow? Text it to Ana."},
    {"role": "assistant", "content": null, "tool_calls": [
      {"id": "call_1", "type": "function", "function": {"name": "get_forecast", "arguments": "{\"city\": \"Paris\", \"day\": \"tomorrow\"}"}}
    ]},
    {"role": "tool", "tool_call_id": "call_1", "content": "{\"summary\": \"light rain\", \"high_c\": 14, \"low_c\": 8}"},
    {"role": "assistant", "content": null, "tool_calls": [
      {"id": "call_2", "type": "function", "function": {"name": "send_sms", "arguments": "{\"to\": \"Ana\", \"text\": \"Paris tomorrow: light rain, 8 to 14°C. Take an umbrella!\"}"}}
    ]},
    {"role": "tool", "tool_call_id": "call_2", "content": "{\"status\": \"sent\"}"},
    {"role": "assistant", "content": "I texted Ana: light rain in Paris tomorrow, 8 to 14°C."}
  ]
}
`

const starterReadme = `## Agent evaluations (trajeval)

` + "```" + `sh
trajeval eval suite.yaml        # exit code 0: every case passed
` + "```" + `

- ` + "`suite.yaml`" + ` holds the cases and what the agent should do: which tools it
  calls, in which order, with which arguments (` + "`tool_trajectory`" + `), within which
  budget (` + "`execution_metrics`" + `). ` + "`trajeval evaluators`" + ` lists every evaluator type,
  ` + "`trajeval evaluators tool_trajectory`" + ` its settings with an example.
- ` + "`traces/`" + ` holds the recorded runs the cases score. Any format trajeval reads
  will do (` + "`trajeval formats`" + `): OpenTelemetry, OpenAI, Anthropic, LangChain, ADK,
  Claude Code, Codex, Gemini CLI, MCP.
- Turn a good run of your agent into a regression test:
  ` + "`trajeval init evals --from path/to/run.json`" + `, then ` + "`trajeval eval evals/run.yaml`" + `.
- Check a suite without running it: ` + "`trajeval validate suite.yaml`" + `. The first line of
  the suite gives editors that use yaml-language-server (VS Code's YAML extension)
  completion and checks from trajeval's JSON Schema:

  ` + "```" + `yaml
  # yaml-language-server: $schema=SCHEMA
  ` + "```" + `

In CI (GitHub Actions):

` + "```" + `yaml
- run: go install github.com/trajeval/trajeval/cmd/trajeval@latest
- run: trajeval eval suite.yaml --format junit > junit.xml
` + "```" + `
`
