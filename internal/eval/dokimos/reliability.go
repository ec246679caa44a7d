package dokimos

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/trajeval/trajeval"
	evaljudge "github.com/trajeval/trajeval/internal/eval/judge"
	"github.com/trajeval/trajeval/internal/judge"
	"github.com/trajeval/trajeval/internal/score"
)

// Definitions scores tool definitions with rule checks, and with a
// judge's checks when one is asked for; the trajectory is not looked at.
type Definitions struct {
	mode   string
	checks []trajeval.Check
	passed int

	// The judge's checks: asked once per tool, the first time the
	// evaluator runs, and kept for the cases after.
	judge    *judge.Handle
	judged   []judgedCheck
	tools    []*Tool
	mu       sync.Mutex
	asked    bool
	llm      []trajeval.Check
	llmPass  int
	llmUsage *trajeval.JudgeUsage
}

// A judgedCheck is one of Dokimos's LLM checks of a tool definition.
type judgedCheck struct{ name, passes string }

var nameChecks = []judgedCheck{
	{"clarity", "the tool's purpose is clear from its name alone"},
	{"name_order", "the name follows the operation_system_entity_data order (an operation verb first, then the system, the entity and the data, e.g. get_github_issue_comments), as far as those parts apply"},
	{"semantic_intent_over_implementation", "the name says what the tool achieves, not how it is implemented (no model, protocol, library or technique)"},
}

var descriptionChecks = []judgedCheck{
	{"general_structure", "the description opens with a one-sentence summary of what the tool does, then gives the details"},
	{"has_examples", "the description gives at least one example of a call or of its use"},
	{"has_usage_notes", "the description says when to use the tool, and when not to"},
	{"intent_over_implementation", "the description says what the tool achieves rather than how it is implemented"},
	{"clarity", "the description is clear and unambiguous: an agent knows what the tool does and what it needs"},
	{"redundancy", "the description is free of repetition and of text that restates the obvious"},
	{"input_arguments_enum", "every parameter that takes one of a fixed set of values declares them as an enum (true when no parameter needs one)"},
	{"input_arguments_format", "every parameter with a particular format (dates, ids, emails, units) states the format (true when none has one)"},
	{"return_statement_quality", "the description says what the tool returns"},
}

const definitionRole = `You are a strict, impartial reviewer of tool definitions written for AI agents. Check one tool definition
against each statement below.`

// ReadsText says that the evaluator may be handed arguments and results
// kept as JSON text (see eval.TextReader): it checks the tool
// definitions, never the trajectory.
func (*Definitions) ReadsText() bool { return true }

// Evaluate returns the fraction of checks passed: the rule checks, and
// the judge's when one is configured.
func (r *Definitions) Evaluate(ctx context.Context, _ *trajeval.Trajectory) (trajeval.Outcome, error) {
	d := &trajeval.Details{Mode: r.mode, Hits: r.passed, Expected: len(r.checks), Checks: r.checks}
	if r.judge == nil {
		if len(r.judged) > 0 {
			d.Notes = map[string]any{"judge_checks": "not run: no judge configured"}
		}
		return trajeval.Outcome{Score: score.Ratio(r.passed, len(r.checks), 1), Details: d}, nil
	}
	llm, pass, usage, err := r.askJudge(ctx)
	if err != nil {
		return trajeval.Outcome{Judge: usage}, err
	}
	d.Checks = append(append([]trajeval.Check{}, r.checks...), llm...)
	d.Hits, d.Expected = r.passed+pass, len(d.Checks)
	return trajeval.Outcome{Score: score.Ratio(d.Hits, d.Expected, 1), Details: d, Judge: usage}, nil
}

// askJudge runs the judge's checks once; later calls return them with no
// usage, since they cost nothing more.
func (r *Definitions) askJudge(ctx context.Context) ([]trajeval.Check, int, *trajeval.JudgeUsage, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.asked {
		return r.llm, r.llmPass, nil, nil
	}
	j, err := r.judge.Get()
	if err != nil {
		return nil, 0, nil, err
	}
	total := &trajeval.JudgeUsage{}
	var checks []trajeval.Check
	pass := 0
	items := make([]string, len(r.judged))
	for i, c := range r.judged {
		items[i] = c.passes
	}
	// One call per tool, asked together; the results keep the tools' order.
	verdicts := make([][]evaljudge.Verdict, len(r.tools))
	usages := make([]*trajeval.JudgeUsage, len(r.tools))
	err = judge.Each(len(r.tools), func(k int) error {
		t := r.tools[k]
		def := map[string]any{"name": t.Name, "description": t.Description, "parameters": t.Schema}
		user := "The tool definition:\n" + judge.Data("tool", def)
		vs, usage, err := evaljudge.Checklist(ctx, j, definitionRole, user, "passes", items)
		verdicts[k], usages[k] = vs, usage
		if err != nil {
			return fmt.Errorf("tool %s: %w", t.Name, err)
		}
		return nil
	})
	for _, u := range usages {
		total.Add(u)
	}
	if err != nil {
		return nil, 0, total, err
	}
	for k, t := range r.tools {
		for i, v := range verdicts[k] {
			if v.Yes {
				pass++
			}
			checks = append(checks, verdictCheck(t.Name+"/"+r.judged[i].name, v))
		}
	}
	r.asked, r.llm, r.llmPass = true, checks, pass
	return checks, pass, total, nil
}

func (r *Definitions) add(tool, check string, ok bool, why string) {
	c := trajeval.Check{Name: tool + "/" + check, Status: trajeval.CheckPass}
	if ok {
		r.passed++
	} else {
		c.Status, c.Message = trajeval.CheckFail, why
	}
	r.checks = append(r.checks, c)
}

var snakeCase = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`) })

// implWords are how a tool works, which its name should not say.
var implWords = map[string]bool{
	"llm": true, "gpt": true, "openai": true, "claude": true, "gemini": true, "ai": true, "model": true, "ml": true,
	"api": true, "http": true, "https": true, "rest": true, "graphql": true, "rpc": true, "grpc": true,
	"sql": true, "regex": true, "regexp": true, "json": true, "xml": true, "yaml": true,
	"python": true, "js": true, "javascript": true, "selenium": true, "curl": true, "requests": true,
}

var linkWords = map[string]bool{"with": true, "via": true, "using": true, "through": true, "by": true}

func intentProblem(name string, blocklist []string) string {
	lower := strings.ToLower(name)
	for _, b := range blocklist {
		if strings.Contains(lower, strings.ToLower(b)) {
			return fmt.Sprintf("contains %q", b)
		}
	}
	segs := splitName(lower)
	for i := 0; i+1 < len(segs); i++ {
		if linkWords[segs[i]] && implWords[segs[i+1]] {
			return fmt.Sprintf("names its implementation (%s_%s); name what it does", segs[i], segs[i+1])
		}
	}
	return ""
}

// splitName splits a tool name into words at _, - and lower-to-upper case
// changes.
func splitName(s string) []string {
	var out []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, cur.String())
			cur.Reset()
		}
	}
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case r == '_' || r == '-' || r == ' ' || r == '.':
			flush()
		case r >= 'A' && r <= 'Z' && i > 0 && rs[i-1] >= 'a' && rs[i-1] <= 'z':
			flush()
			cur.WriteRune(r)
		default:
			cur.WriteRune(r)
		}
	}
	flush()
	return out
}

// typed reports whether a parameter schema says what type its value has.
func typed(ps map[string]any) bool {
	for _, k := range []string{"type", "enum", "const", "$ref", "anyOf", "oneOf", "allOf"} {
		if _, ok := ps[k]; ok {
			return true
		}
	}
	return false
}

// The default limits of the reliability checks.
const (
	DefaultMaxSegments     = 7
	DefaultMaxInputArgs    = 5
	DefaultMaxOptionalArgs = 3
)

// NewNameReliability checks the tools' names: snake_case, at most
// maxSegments words (DefaultMaxSegments in Dokimos), no word of blocklist and no implementation
// named ("search_with_llm"). With a judge (nil: none), the judge's checks
// of each name count too. No tools is an error.
func NewNameReliability(tools []*Tool, maxSegments int, blocklist []string, j *judge.Handle) (*Definitions, error) {
	if len(tools) == 0 {
		return nil, errors.New("no tool definitions")
	}
	if maxSegments < 0 {
		return nil, fmt.Errorf("max_segments must not be negative")
	}
	r := &Definitions{mode: "names", judge: j, tools: tools, judged: nameChecks}
	for _, t := range tools {
		r.add(t.Name, "snakecase_format", snakeCase().MatchString(t.Name), "not snake_case (lower-case words joined by single underscores)")
		segs := len(strings.Split(t.Name, "_"))
		r.add(t.Name, "conciseness", segs <= maxSegments, fmt.Sprintf("%d segments, more than %d", segs, maxSegments))
		why := intentProblem(t.Name, blocklist)
		r.add(t.Name, "intent_over_implementation", why == "", why)
	}
	return r, nil
}

// NewDescriptionReliability checks the tools' parameters: each described
// and typed, at most maxInput parameters and maxOptional optional ones
// (DefaultMaxInputArgs and DefaultMaxOptionalArgs in Dokimos). With a judge (nil: none), the judge's
// checks of each description count too. No tools is an error.
func NewDescriptionReliability(tools []*Tool, maxInput, maxOptional int, j *judge.Handle) (*Definitions, error) {
	if len(tools) == 0 {
		return nil, errors.New("no tool definitions")
	}
	if maxInput < 0 {
		return nil, fmt.Errorf("max_input_args must not be negative")
	}
	if maxOptional < 0 {
		return nil, fmt.Errorf("max_optional_args must not be negative")
	}
	r := &Definitions{mode: "descriptions", judge: j, tools: tools, judged: descriptionChecks}
	for _, t := range tools {
		names, props, required := t.params()
		var noDesc, noType []string
		optional := 0
		for _, p := range names {
			ps, _ := props[p].(map[string]any)
			if d, _ := ps["description"].(string); strings.TrimSpace(d) == "" {
				noDesc = append(noDesc, p)
			}
			if !typed(ps) {
				noType = append(noType, p)
			}
			if !required[p] {
				optional++
			}
		}
		r.add(t.Name, "input_arguments_clarity", len(noDesc) == 0, "no description: "+strings.Join(noDesc, ", "))
		r.add(t.Name, "input_arguments_types", len(noType) == 0, "no type: "+strings.Join(noType, ", "))
		r.add(t.Name, "max_num_input_arguments", len(names) <= maxInput, fmt.Sprintf("%d parameters, more than %d", len(names), maxInput))
		r.add(t.Name, "max_optional_input_arguments", optional <= maxOptional, fmt.Sprintf("%d optional parameters, more than %d", optional, maxOptional))
	}
	return r, nil
}
