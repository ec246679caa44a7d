package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/check"
	"github.com/trajeval/trajeval/internal/jsonv"
)

// maxGradeInput bounds what grade reads from standard input before decoding:
// the payload comes from another tool and carries the agent's output.
const maxGradeInput = 64 << 20

// errGradeInput matches every mistake in a grader payload, for errors.Is.
var errGradeInput = errors.New("invalid grader input")

func gradeCmd() *cobra.Command {
	var agentv bool
	c := &cobra.Command{
		Use:   "grade --agentv",
		Short: "Score one agent answer read from standard input, as an outside grader (AgentV's code-grader)",
		Long: `Score one agent answer read from standard input and write the verdict on
standard output, for tools that call an outside grader.

With --agentv, the input is the JSON that AgentV's code-grader gives its
script and the answer is the JSON it expects back:
  - the actual calls are the tool_calls of messages (or output_messages,
    or output when it is a list of messages);
  - the expected calls are config.expected of the grader (each {tool, args}),
    else the tool_calls of expected_messages (or expected_output);
  - config.mode is in_order (default), any_order, exact or subset, as in
    AgentV's tool_trajectory, scored by trajeval's optimal matching;
  - the answer is {score, hits, misses, reasoning, assertions}.

A payload without actual messages or without expected calls is an error
(exit 2), never a score.`,
		Args: noArgs("trajeval grade"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !agentv {
				return usageError{fmt.Errorf("trajeval grade: say which grader protocol: --agentv")}
			}
			in, err := io.ReadAll(io.LimitReader(cmd.InOrStdin(), maxGradeInput+1))
			if err != nil {
				return fmt.Errorf("trajeval grade: reading standard input: %w", err)
			}
			if len(in) > maxGradeInput {
				return usageError{fmt.Errorf("trajeval grade: %w: standard input is over %d MiB", errGradeInput, maxGradeInput>>20)}
			}
			out, err := gradeAgentV(cmd, in)
			if err != nil {
				return usageError{fmt.Errorf("trajeval grade: %w", err)}
			}
			enc := json.NewEncoder(jsonv.NewWriter(cmd.OutOrStdout()))
			enc.SetEscapeHTML(false)
			return enc.Encode(out)
		},
	}
	c.Flags().BoolVar(&agentv, "agentv", false, "read AgentV's code-grader input, answer in its grader output")
	return c
}

// agentvInput is the part of AgentV's code-grader payload that grade reads;
// AgentV sends more (question, files, trace summary), which is not scored.
type agentvInput struct {
	OutputMessages []agentvMessage `json:"output_messages"`
	Messages       []agentvMessage `json:"messages"`
	// Output is the messages in older payloads, the final text in newer
	// ones (which carry the messages as messages).
	Output           json.RawMessage `json:"output"`
	ExpectedMessages []agentvMessage `json:"expected_messages"`
	ExpectedOutput   []agentvMessage `json:"expected_output"`
	Config           struct {
		Mode     string       `json:"mode"`
		Expected []agentvCall `json:"expected"`
	} `json:"config"`
}

type agentvMessage struct {
	Role      string       `json:"role"`
	ToolCalls []agentvCall `json:"tool_calls"`
}

// agentvCall is a tool call in AgentV's messages ({tool, input}) or in
// a tool_trajectory's expected list ({tool, args}).
type agentvCall struct {
	Tool  string          `json:"tool"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
	Args  json.RawMessage `json:"args"`
}

func (c agentvCall) name() string {
	if c.Tool != "" {
		return c.Tool
	}
	return c.Name
}

// agentvOutput is AgentV's code-grader answer.
type agentvOutput struct {
	Score      float64           `json:"score"`
	Hits       []string          `json:"hits"`
	Misses     []string          `json:"misses"`
	Reasoning  string            `json:"reasoning"`
	Assertions []agentvAssertion `json:"assertions"`
}

type agentvAssertion struct {
	Text   string `json:"text"`
	Passed bool   `json:"passed"`
}

func gradeAgentV(cmd *cobra.Command, in []byte) (agentvOutput, error) {
	var p agentvInput
	dec := json.NewDecoder(bytes.NewReader(in))
	if err := dec.Decode(&p); err != nil {
		return agentvOutput{}, fmt.Errorf("%w: standard input: %v (hint: pipe AgentV's code-grader payload, a JSON object)", errGradeInput, err)
	}
	actual := p.OutputMessages
	if actual == nil {
		actual = p.Messages
	}
	if actual == nil && bytes.HasPrefix(bytes.TrimSpace(p.Output), []byte("[")) {
		if err := json.Unmarshal(p.Output, &actual); err != nil {
			return agentvOutput{}, fmt.Errorf("%w: output: %v", errGradeInput, err)
		}
	}
	if actual == nil {
		return agentvOutput{}, fmt.Errorf("%w: no messages or output_messages (hint: grade --agentv reads AgentV's code-grader payload)", errGradeInput)
	}
	want := p.Config.Expected
	if len(want) == 0 {
		for _, m := range append(p.ExpectedMessages, p.ExpectedOutput...) {
			want = append(want, m.ToolCalls...)
		}
	}
	if len(want) == 0 {
		return agentvOutput{}, fmt.Errorf("%w: no expected tool calls (hint: set config.expected on the code-grader, or tool_calls in expected_output)", errGradeInput)
	}
	b := trajeval.NewBuilder("agentv")
	for i, m := range actual {
		for j, c := range m.ToolCalls {
			if c.name() == "" {
				return agentvOutput{}, fmt.Errorf("%w: output_messages[%d].tool_calls[%d]: no tool name", errGradeInput, i, j)
			}
			b.Call(trajeval.ToolCall{Name: c.name(), Args: rawArgs(c.Input)})
		}
	}
	t, err := b.Build()
	if err != nil {
		return agentvOutput{}, fmt.Errorf("%w: %v", errGradeInput, err)
	}
	var opts []check.Option
	for i, c := range want {
		if c.name() == "" {
			return agentvOutput{}, fmt.Errorf("%w: expected call %d: no tool name", errGradeInput, i+1)
		}
		args := c.Args
		if args == nil {
			args = c.Input
		}
		if args == nil {
			opts = append(opts, check.Call(c.name()))
			continue
		}
		var v map[string]any
		if err := json.Unmarshal(args, &v); err != nil {
			return agentvOutput{}, fmt.Errorf("%w: expected call %d (%s): args are not a JSON object: %v", errGradeInput, i+1, c.name(), err)
		}
		opts = append(opts, check.Call(c.name(), check.Args(v)))
	}
	var ev trajeval.Evaluator
	switch p.Config.Mode {
	case "", "in_order", "in-order":
		ev = check.InOrder(opts...)
	case "any_order", "any-order":
		ev = check.AnyOrder(opts...)
	case "exact":
		ev = check.Exact(opts...)
	case "subset":
		ev = check.Subset(opts...)
	default:
		return agentvOutput{}, fmt.Errorf("%w: config.mode %q: want in_order, any_order, exact or subset", errGradeInput, p.Config.Mode)
	}
	r := check.Evaluate(cmd.Context(), t, ev)
	if r.Status == trajeval.StatusError {
		return agentvOutput{}, fmt.Errorf("%w: %s", errGradeInput, r.Error)
	}
	return agentvVerdict(r), nil
}

// rawArgs keeps a call's input as JSON text, or nil when there is none.
func rawArgs(in json.RawMessage) any {
	if len(in) == 0 || string(in) == "null" {
		return nil
	}
	return in
}

// agentvVerdict turns trajeval's result into AgentV's answer: each
// explanation line is a miss when the result failed, and the passed
// expectations are hits.
func agentvVerdict(r trajeval.Result) agentvOutput {
	out := agentvOutput{Score: r.Score, Hits: []string{}, Misses: []string{}, Assertions: []agentvAssertion{}}
	if d := r.Details; d != nil {
		for _, p := range d.Matched {
			out.Hits = append(out.Hits, fmt.Sprintf("expected call %d (%s) matched step %d", p.Item, p.Tool, p.Step))
		}
	}
	exp := strings.TrimSpace(r.Explain())
	if !r.Passed() && exp != "" {
		for _, line := range strings.Split(exp, "\n") {
			// The evaluator's heading and its matched items are not misses.
			// The columns' padding goes: the graders show a miss on one line.
			if line = strings.Join(strings.Fields(line), " "); line != "" && !strings.Contains(line, "✓") && !strings.HasPrefix(line, "✗ evaluator") {
				out.Misses = append(out.Misses, line)
			}
		}
	}
	for _, h := range out.Hits {
		out.Assertions = append(out.Assertions, agentvAssertion{Text: h, Passed: true})
	}
	for _, m := range out.Misses {
		out.Assertions = append(out.Assertions, agentvAssertion{Text: m, Passed: false})
	}
	out.Reasoning = fmt.Sprintf("trajeval %s: score %.2f (%s)", r.Type, r.Score, r.Status)
	if len(out.Misses) > 0 {
		out.Reasoning += "; " + strings.Join(out.Misses, "; ")
	}
	return out
}
