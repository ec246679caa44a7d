package settings

import (
	"fmt"
	"strings"

	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval/adk"
)

// Invocations reads ADK's expected turns: [{tool_uses: [{name, args}], final_response}].
func Invocations(n *config.Node) ([]adk.Invocation, error) {
	v := n.Get("invocations")
	if v == nil {
		return nil, n.Errorf("missing invocations").With("list the expected turns: invocations: [{tool_uses: [{name, args}], final_response: text}]")
	}
	items, err := v.List()
	if err != nil {
		return nil, err
	}
	if len(items) == 0 {
		return nil, v.Errorf("invocations is empty")
	}
	var out []adk.Invocation
	for _, it := range items {
		if err := it.Check("tool_uses", "final_response", "user"); err != nil {
			return nil, err
		}
		var inv adk.Invocation
		if tu := it.Get("tool_uses"); tu != nil && tu.Kind != config.Null {
			list, err := tu.List()
			if err != nil {
				return nil, err
			}
			for _, c := range list {
				if err := c.Check("name", "tool", "args"); err != nil {
					return nil, err
				}
				nm, _ := c.First("name", "tool")
				if nm == nil {
					return nil, c.Errorf("the call has no name")
				}
				name, err := nm.Name()
				if err != nil {
					return nil, err
				}
				var args any = map[string]any{}
				if a := c.Get("args"); a != nil && a.Kind != config.Null {
					if a.Kind != config.Map {
						return nil, a.Errorf("args must be an object, got %s", a.Kind)
					}
					args = a.Value()
				}
				inv.Calls = append(inv.Calls, adk.Call{Name: name, Args: args})
			}
		}
		if fr := it.Get("final_response"); fr != nil && fr.Kind != config.Null {
			s, err := fr.Str()
			if err != nil {
				return nil, err
			}
			inv.FinalResponse = &s
		}
		out = append(out, inv)
	}
	return out, nil
}

// Rubrics reads ADK's rubrics: [{rubric_id, rubric_content:
// {text_property}}]; plain texts are accepted too.
func Rubrics(n *config.Node) ([]adk.Rubric, error) {
	items, err := n.List()
	if err != nil {
		return nil, err
	}
	if len(items) == 0 {
		return nil, n.Errorf("rubrics is empty")
	}
	var out []adk.Rubric
	for i, it := range items {
		r := adk.Rubric{ID: fmt.Sprintf("rubric %d", i+1)}
		if it.Kind == config.String {
			r.Text = it.Text
			out = append(out, r)
			continue
		}
		if err := it.Check("rubric_id", "rubric_content", "type", "description"); err != nil {
			return nil, err
		}
		if v := it.Get("rubric_id"); v != nil {
			if r.ID, err = v.Name(); err != nil {
				return nil, err
			}
		}
		c := it.Get("rubric_content")
		if c == nil {
			return nil, it.Errorf("the rubric has no rubric_content").With(`e.g. {"rubric_content": {"text_property": "The answer is concise."}}`)
		}
		if err := c.Check("text_property"); err != nil {
			return nil, err
		}
		tp := c.Get("text_property")
		if tp == nil {
			return nil, c.Errorf("rubric_content has no text_property")
		}
		if r.Text, err = tp.Str(); err != nil {
			return nil, err
		}
		if strings.TrimSpace(r.Text) == "" {
			return nil, tp.Errorf("the rubric is empty")
		}
		out = append(out, r)
	}
	return out, nil
}
