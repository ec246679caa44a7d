package judge

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/eval"
	"github.com/trajeval/trajeval/internal/judge"
	"github.com/trajeval/trajeval/internal/suggest"
)

var variable = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}`) })

// A Var renders one template variable from the case and the trajectory.
type Var func(c eval.Case, t *trajeval.Trajectory) any

// vars are llm_judge's template variables.
var vars = map[string]Var{
	"candidate_answer": func(_ eval.Case, t *trajeval.Trajectory) any { return judge.FinalAnswer(t) },
	"output_messages":  func(_ eval.Case, t *trajeval.Trajectory) any { return judge.Messages(t) },
	"input": func(c eval.Case, t *trajeval.Trajectory) any {
		if c.Input != "" {
			return c.Input
		}
		return strings.Join(judge.UserInput(t), "\n")
	},
	"expected_outcome": func(c eval.Case, _ *trajeval.Trajectory) any { return c.ExpectedOutcome },
	"expected_output":  func(c eval.Case, _ *trajeval.Trajectory) any { return c.ExpectedOutput },
	"trajectory":       func(_ eval.Case, t *trajeval.Trajectory) any { return t },
	"tool_calls":       func(_ eval.Case, t *trajeval.Trajectory) any { return judge.ToolCalls(t) },
}

// aliases are AgentV's other names of the same variables.
var aliases = map[string]string{"question": "input", "reference_answer": "expected_outcome", "answer": "candidate_answer"}

// defaultSections are appended to a prompt that names no variable, so the
// judge always sees the work.
var defaultSections = []string{"input", "expected_outcome", "expected_output", "tool_calls", "candidate_answer"}

// A Template is a prompt with {{variables}}.
type Template struct {
	text string
	vars map[string]Var
	uses bool // names at least one variable
}

// ParsePrompt parses an llm_judge prompt: its variables are llm_judge's
// (see the package doc) and AgentV's aliases of them.
func ParsePrompt(text string) (Template, error) {
	tp, err := ParseTemplate(text, vars)
	if err != nil {
		return tp, err
	}
	for _, m := range variable().FindAllStringSubmatch(text, -1) {
		if _, ok := aliases[m[1]]; ok {
			tp.uses = true
		}
	}
	return tp, nil
}

// ParseTemplate checks that every variable of text is one of vars (or,
// when vars has input, one of AgentV's aliases). An unknown variable is
// an unplaced *trajeval.SpecError, with the closest name as a hint: the
// caller places it at the prompt.
func ParseTemplate(text string, vars map[string]Var) (Template, error) {
	tp := Template{text: text, vars: vars}
	for _, m := range variable().FindAllStringSubmatch(text, -1) {
		name := m[1]
		if _, ok := vars[name]; ok {
			tp.uses = true
			continue
		}
		if _, ok := aliases[name]; ok && vars["input"] != nil {
			continue
		}
		known := make([]string, 0, len(vars))
		for k := range vars {
			known = append(known, k)
		}
		sort.Strings(known)
		e := &trajeval.SpecError{Msg: fmt.Sprintf("unknown template variable {{%s}}", name)}
		if s := suggest.Closest(name, known); s != "" {
			e.Hint = "did you mean {{" + s + "}}?"
		} else {
			e.Hint = "variables: {{" + strings.Join(known, "}}, {{") + "}}"
		}
		return tp, e
	}
	return tp, nil
}

// Uses reports whether the template names at least one variable.
func (tp Template) Uses() bool { return tp.uses }

// Render fills the variables with data sections, in one pass: a value
// that holds {{…}} is never expanded again.
func (tp Template) Render(c eval.Case, t *trajeval.Trajectory) string {
	return variable().ReplaceAllStringFunc(tp.text, func(m string) string {
		name := variable().FindStringSubmatch(m)[1]
		if a, ok := aliases[name]; ok && tp.vars[name] == nil {
			name = a
		}
		return judge.Data(suggest.Canon(name), tp.vars[name](c, t))
	})
}

// render is llm_judge's Render: a prompt that names no variable gets the
// default sections appended.
func (tp Template) render(c eval.Case, t *trajeval.Trajectory) string {
	out := tp.Render(c, t)
	if tp.uses {
		return out
	}
	var b strings.Builder
	b.WriteString(strings.TrimSpace(out))
	for _, name := range defaultSections {
		v := vars[name](c, t)
		if s, ok := v.(string); ok && s == "" && (name == "expected_outcome" || name == "expected_output") {
			continue
		}
		b.WriteString("\n\n")
		b.WriteString(judge.Data(name, v))
	}
	return b.String()
}
