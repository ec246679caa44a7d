package trajectory

import (
	"fmt"
	"sort"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/align"
	"github.com/trajeval/trajeval/internal/suggest"
)

// nearLimit bounds the near misses listed for one missing call.
const nearLimit = 3

// Explain fills the alignment, the missing calls with their near misses
// and the extra steps of d. inOrder says whether order mattered, so that a
// step that matches but sits out of order is said to.
func (p *Plan) Explain(d *trajeval.Details, steps []trajeval.Step, a align.Alignment, how string) {
	usedItem := make([]bool, len(p.Calls))
	usedStep := make([]bool, len(steps))
	for _, pr := range a.Pairs {
		usedItem[pr.Item], usedStep[pr.Step] = true, true
		d.Matched = append(d.Matched, trajeval.Pair{Item: pr.Item + 1, Step: pr.Step + 1, Tool: p.Calls[pr.Item].Tool})
	}
	var names []string
	seen := map[string]bool{}
	for _, s := range steps {
		if !seen[s.Name] {
			seen[s.Name] = true
			names = append(names, s.Name)
		}
	}
	sort.Strings(names)
	for i, c := range p.Calls {
		if usedItem[i] {
			continue
		}
		m := trajeval.Missing{Item: i + 1, Tool: c.Tool}
		m.Near = p.near(i, steps, usedStep, names, how)
		d.Missing = append(d.Missing, m)
	}
	for j, s := range steps {
		if !usedStep[j] && len(p.Calls) > 0 {
			d.Extra = append(d.Extra, trajeval.Extra{Step: j + 1, Tool: s.Name})
		}
	}
}

func (p *Plan) near(i int, steps []trajeval.Step, usedStep []bool, names []string, how string) []trajeval.NearMiss {
	c := p.Calls[i]
	var out []trajeval.NearMiss
	if how == "exact" && i < len(steps) {
		s := &steps[i]
		nm := trajeval.NearMiss{Step: i + 1, Tool: s.Name}
		if s.Name == c.Tool {
			nm.Diffs = p.Matchers[i].Diff(s.Args)
		} else {
			nm.Why = fmt.Sprintf("position %d holds %s", i+1, s.Name)
		}
		out = append(out, nm)
	}
	for j := range steps {
		if len(out) >= nearLimit {
			return out
		}
		s := &steps[j]
		if s.Name != c.Tool || (how == "exact" && j == i) {
			continue
		}
		nm := trajeval.NearMiss{Step: j + 1, Tool: s.Name, Diffs: p.Matchers[i].Diff(s.Args)}
		switch {
		case len(nm.Diffs) > 0:
		case usedStep[j]:
			nm.Why = "matches, but that step is taken by another expected call"
		case how == "exact":
			nm.Why = fmt.Sprintf("matches, but at position %d", j+1)
		case how == "in_order":
			nm.Why = "matches, but out of order"
		default:
			nm.Why = "matches"
		}
		out = append(out, nm)
	}
	if len(out) == 0 {
		for _, n := range suggest.Near(c.Tool, names) {
			for j := range steps {
				if steps[j].Name == n {
					out = append(out, trajeval.NearMiss{Step: j + 1, Tool: n, Why: fmt.Sprintf("close name: %s for %s", n, c.Tool)})
					break
				}
			}
			if len(out) >= nearLimit {
				break
			}
		}
	}
	return out
}
