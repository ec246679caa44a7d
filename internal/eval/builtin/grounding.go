package builtin

import (
	"errors"
	"reflect"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval/grounding"
	"github.com/trajeval/trajeval/internal/eval/spec"
)

// groundingSettings are grounding's keys in a suite file.
type groundingSettings struct {
	MinLength       int          `config:"min_length,nonnegative"`
	CaseInsensitive bool         `config:"case_insensitive"`
	Numbers         *bool        `config:"numbers"`
	Only            *config.Node `config:"only"`
	Ignore          *config.Node `config:"ignore"`
}

var groundingSpec = spec.Spec{
	Type:      "grounding",
	Keys:      config.Keys(reflect.TypeFor[groundingSettings]()),
	Threshold: 1,
	Build:     buildGrounding,
}

// buildGrounding reads grounding's settings; the case's input is one of
// its sources (the suite's own evaluators are built before any case, so
// they see the trace's user messages only).
func buildGrounding(n *config.Node, env *spec.Env) (trajeval.Evaluator, error) {
	var s groundingSettings
	if err := config.Decode(n, &s, spec.CommonKeys...); err != nil {
		return nil, err
	}
	o := grounding.Options{MinLength: s.MinLength, CaseInsensitive: s.CaseInsensitive, Input: env.Case.Input, Shared: env.ForCases}
	if s.Numbers != nil {
		o.SkipNumbers = !*s.Numbers
	}
	var err error
	for _, l := range []struct {
		key  string
		node *config.Node
		out  *[]string
	}{{"only", s.Only, &o.Only}, {"ignore", s.Ignore, &o.Ignore}} {
		if l.node == nil {
			continue
		}
		if *l.out, err = l.node.Strings(); err != nil {
			return nil, err
		}
		if len(*l.out) == 0 && l.key == "only" {
			return nil, l.node.Errorf("only is empty: nothing would be checked").With("list argument paths such as search.query or *.id, or remove only")
		}
	}
	e, err := grounding.New(o)
	var oe *grounding.OptionError
	if errors.As(err, &oe) {
		at := n.Get(oe.Key)
		if at == nil {
			at = n
		} else if oe.Index >= 0 && oe.Index < len(at.Items) {
			at = at.Items[oe.Index]
		}
		e := at.Errorf("%s", oe.Err)
		e.Hint = "a path is TOOL then the argument's keys: search.query, *.id, book.passengers[*].name"
		return nil, e
	}
	return e, err
}
