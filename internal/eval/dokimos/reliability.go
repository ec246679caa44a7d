package dokimos

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval"
)

func init() {
	eval.Register(eval.Spec{
		Type:      "tool_name_reliability",
		Aliases:   []string{"dokimos-tool-name-reliability"},
		Keys:      append([]string{"max_segments", "blocklist"}, toolKeys...),
		Threshold: 0.8,
		Build:     buildNameReliability,
	})
	eval.Register(eval.Spec{
		Type:      "tool_description_reliability",
		Aliases:   []string{"dokimos-tool-description-reliability"},
		Keys:      append([]string{"max_input_args", "max_optional_args"}, toolKeys...),
		Threshold: 0.8,
		Build:     buildDescriptionReliability,
	})
}

// Definitions scores tool definitions with rule checks; the trajectory is
// not looked at.
type Definitions struct {
	mode   string
	checks []trajeval.Check
	passed int
}

// Evaluate returns the fraction of checks passed.
func (r *Definitions) Evaluate(context.Context, *trajeval.Trajectory) (trajeval.Outcome, error) {
	d := &trajeval.Details{Mode: r.mode, Hits: r.passed, Expected: len(r.checks), Checks: r.checks}
	return trajeval.Outcome{Score: eval.Ratio(r.passed, len(r.checks), 1), Details: d}, nil
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

var snakeCase = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

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

func intKey(n *config.Node, key string, def int64) (int64, error) {
	v := n.Get(key)
	if v == nil {
		return def, nil
	}
	i, err := v.Int()
	if err == nil && i < 0 {
		return 0, v.Errorf("%s must not be negative", key)
	}
	return i, err
}

func buildNameReliability(n *config.Node, env *eval.Env) (trajeval.Evaluator, error) {
	tools, err := loadTools(n, env)
	if err != nil {
		return nil, err
	}
	maxSeg, err := intKey(n, "max_segments", 7)
	if err != nil {
		return nil, err
	}
	var block []string
	if v := n.Get("blocklist"); v != nil {
		if block, err = v.Strings(); err != nil {
			return nil, err
		}
	}
	r := &Definitions{mode: "names"}
	for _, t := range tools {
		r.add(t.Name, "snakecase_format", snakeCase.MatchString(t.Name), "not snake_case (lower-case words joined by single underscores)")
		segs := len(strings.Split(t.Name, "_"))
		r.add(t.Name, "conciseness", int64(segs) <= maxSeg, fmt.Sprintf("%d segments, more than %d", segs, maxSeg))
		why := intentProblem(t.Name, block)
		r.add(t.Name, "intent_over_implementation", why == "", why)
	}
	return r, nil
}

func buildDescriptionReliability(n *config.Node, env *eval.Env) (trajeval.Evaluator, error) {
	tools, err := loadTools(n, env)
	if err != nil {
		return nil, err
	}
	maxIn, err := intKey(n, "max_input_args", 5)
	if err != nil {
		return nil, err
	}
	maxOpt, err := intKey(n, "max_optional_args", 3)
	if err != nil {
		return nil, err
	}
	r := &Definitions{mode: "descriptions"}
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
		r.add(t.Name, "max_num_input_arguments", int64(len(names)) <= maxIn, fmt.Sprintf("%d parameters, more than %d", len(names), maxIn))
		r.add(t.Name, "max_optional_input_arguments", int64(optional) <= maxOpt, fmt.Sprintf("%d optional parameters, more than %d", optional, maxOpt))
	}
	return r, nil
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
