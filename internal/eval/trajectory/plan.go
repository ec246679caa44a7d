package trajectory

import (
	"fmt"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/align"
	"github.com/trajeval/trajeval/internal/argmatch"
)

// A Plan is a list of expected calls compiled for matching: each call's
// argument matcher, and the classes of interchangeable calls that let the
// alignments run on a compressed relation.
type Plan struct {
	Calls    []trajeval.ExpectedCall
	Matchers []*argmatch.Matcher
	class    []int32
	classes  []class
	byName   map[string][]int32
}

type class struct {
	tool  string
	match *argmatch.Matcher
	max   *float64
}

// NewPlan compiles calls. def is the argument rule for calls that set none
// (zero: partial). An error is a *argmatch.CompileError, for the caller to
// place; its index is the call's.
func NewPlan(calls []trajeval.ExpectedCall, def trajeval.ArgsMatch, opt argmatch.Options) (*Plan, int, error) {
	p := &Plan{Calls: calls, byName: map[string][]int32{}}
	ids := map[string]int32{}
	for i, c := range calls {
		mode := c.ArgsMatch
		if mode.IsZero() {
			mode = def
		}
		m, err := argmatch.New(c.Args, mode, opt)
		if err != nil {
			return nil, i, err
		}
		p.Matchers = append(p.Matchers, m)
		key := c.Tool + "\x00" + m.Key()
		if c.MaxDurationMS != nil {
			key += fmt.Sprintf("\x00%v", *c.MaxDurationMS)
		}
		id, ok := ids[key]
		if !ok {
			id = int32(len(p.classes))
			ids[key] = id
			p.classes = append(p.classes, class{c.Tool, m, c.MaxDurationMS})
			p.byName[c.Tool] = append(p.byName[c.Tool], id)
		}
		p.class = append(p.class, id)
	}
	return p, -1, nil
}

// Relation returns the match relation of the plan's calls against steps.
// With latency, a matched step whose duration is within its call's
// max_duration_ms earns a bonus, so alignments prefer it.
func (p *Plan) Relation(steps []trajeval.Step, latency bool) *align.Relation {
	r := &align.Relation{ItemClass: p.class, Steps: make([][]int32, len(steps)), Group: make([]int32, len(steps))}
	// Matching results are shared across steps with the same name, so
	// each step costs one map look-up plus its candidate classes.
	for j := range steps {
		s := &steps[j]
		r.Group[j] = int32(s.ParallelGroup)
		for _, c := range p.byName[s.Name] {
			if p.classes[c].match.Match(s.Args) {
				r.Steps[j] = append(r.Steps[j], c)
			}
		}
	}
	if latency && p.HasLatency() {
		r.Bonus = func(c int32, j int) bool {
			max := p.classes[c].max
			if max == nil {
				return false
			}
			d, ok := steps[j].Duration()
			return ok && d <= *max
		}
	}
	return r
}

// HasLatency reports whether any call carries max_duration_ms.
func (p *Plan) HasLatency() bool {
	for _, c := range p.Calls {
		if c.MaxDurationMS != nil {
			return true
		}
	}
	return false
}

// Matches reports whether call i matches step s.
func (p *Plan) Matches(i int, s *trajeval.Step) bool {
	return p.Calls[i].Tool == s.Name && p.Matchers[i].Match(s.Args)
}
