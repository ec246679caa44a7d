package adk

import (
	"slices"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	adkeval "github.com/trajeval/trajeval/internal/eval/adk"
	"github.com/trajeval/trajeval/internal/suite"
)

// checkSetKeys checks the keys of an eval set of the current schema
// against [Keys], object by object; the legacy lists are read as they are.
// An unknown key is a warning, as ADK keeps it unread. Rubrics on a case
// or an invocation are a warning when no rubric metric runs.
func checkSetKeys(root *config.Node, crit []Criterion, warn func(trajeval.Warning)) error {
	if root.Kind != config.Map {
		return nil
	}
	kc := &suite.KeyChecker{Table: &Keys, Warn: warn, Lenient: true}
	rubricMetric := slices.ContainsFunc(crit, func(c Criterion) bool {
		return c.Metric == adkeval.RubricResponse || c.Metric == adkeval.RubricToolUse
	})
	cases := []*config.Node{root}
	if !root.Has("eval_id") {
		if err := kc.Check(root, "eval set"); err != nil {
			return err
		}
		cases = nil
		if list := root.Get("eval_cases"); list != nil && list.Kind == config.List {
			cases = list.Items
		}
	}
	for _, c := range cases {
		if err := checkCase(c, kc, rubricMetric); err != nil {
			return err
		}
	}
	return nil
}

func checkCase(c *config.Node, kc *suite.KeyChecker, rubricMetric bool) error {
	if c.Kind != config.Map {
		return nil
	}
	if err := kc.Check(c, "eval case"); err != nil {
		return err
	}
	if v := c.Get("conversation_scenario"); v != nil && v.Kind != config.Null && c.Get("conversation") == nil {
		return v.Errorf("a conversation_scenario needs a user simulator, which trajeval does not run").
			With("record the conversation, and give it as conversation")
	}
	if err := rubrics(c, rubricMetric, kc); err != nil {
		return err
	}
	conv := c.Get("conversation")
	if conv == nil || conv.Kind != config.List {
		return nil
	}
	for _, inv := range conv.Items {
		if inv.Kind != config.Map {
			continue
		}
		if err := kc.Check(inv, "invocation"); err != nil {
			return err
		}
		if err := rubrics(inv, rubricMetric, kc); err != nil {
			return err
		}
		data := inv.Get("intermediate_data")
		if data == nil || data.Kind != config.Map {
			continue
		}
		if err := kc.Check(data, "intermediate data"); err != nil {
			return err
		}
		if evs := data.Get("invocation_events"); evs != nil && evs.Kind == config.List {
			for _, ev := range evs.Items {
				if err := kc.Check(ev, "invocation event"); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// rubrics warns about the rubrics of a case or an invocation when no
// rubric metric runs: nothing reads them then.
func rubrics(n *config.Node, rubricMetric bool, kc *suite.KeyChecker) error {
	v := n.Get("rubrics")
	if rubricMetric || v == nil || v.Kind == config.Null || (v.Kind == config.List && len(v.Items) == 0) {
		return nil
	}
	if kc.Warn != nil {
		kc.Warn(trajeval.Warning{File: v.File, Line: v.Line, Col: v.Col, Msg: "rubrics have no effect here: no rubric metric runs"})
	}
	return nil
}
