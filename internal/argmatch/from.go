package argmatch

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/jsonv"
)

// A source is where a $from operator looks: the results (or arguments)
// of a tool's earlier calls, at a path.
type source struct {
	tool string // "" for every tool (*)
	args bool   // the calls' arguments, else their results
	path Path   // below the result or arguments
}

// parseSource reads TOOL.result…, TOOL.args… or *.result….
func parseSource(s string) (source, error) {
	p, err := ParsePath(s)
	if err != nil {
		return source{}, err
	}
	if p[0].Index >= 0 {
		return source{}, &PathError{Path: s, Col: 1, Msg: "a $from path starts with a tool name, not an index"}
	}
	if len(p) < 2 || p[1].Index >= 0 || p[1].Any || (p[1].Key != "result" && p[1].Key != "args") {
		col := len([]rune(p[:1].String())) + 1
		if p[0].Any {
			col = 2
		}
		return source{}, &PathError{Path: s, Col: col, Msg: "after the tool name comes .result or .args (e.g. search.result.items[*].id)"}
	}
	src := source{args: p[1].Key == "args", path: p[2:]}
	if !p[0].Any {
		src.tool = p[0].Key
	}
	return src, nil
}

// A Trail is the steps of one trajectory as the $from operator looks back
// along them. A step's earlier steps are those issued before it, except
// those of its own parallel group: calls issued together cannot use each
// other's results. NewTrail is cheap; a Trail decodes each result it
// looks into once, and is not safe for concurrent use.
//
// A trail made by [ScopedTrail] matches some of a trajectory's steps
// but looks back along all of them.
type Trail struct {
	steps   []trajeval.Step  // the steps matched
	whole   []trajeval.Step  // the steps looked back along: steps, or the whole trajectory's
	pos     []int            // the place in whole of each of steps; nil: the same place
	byTool  map[string][]int // built on first use
	results []any            // decoded results, built on first use
	decoded []bool
}

// NewTrail returns the trail of steps.
func NewTrail(steps []trajeval.Step) *Trail { return &Trail{steps: steps, whole: steps} }

// TrailOf returns the trail of steps as a value, which a caller scoring
// case after case keeps on its stack ([NewTrail] allocates one a case).
func TrailOf(steps []trajeval.Step) Trail { return Trail{steps: steps, whole: steps} }

// ScopedTrail returns the trail of the steps of whole at the positions
// in (ascending), as an agent scope keeps them: its Steps are those
// steps, numbered from 1 in order, while a $from looks back along every
// step of whole issued before the one matched, whichever agent made it.
// The near misses of a $from then name the steps looked in as trace
// steps, by their place in whole.
func ScopedTrail(whole []trajeval.Step, in []int) *Trail {
	steps := make([]trajeval.Step, len(in))
	for n, j := range in {
		steps[n] = whole[j]
		steps[n].Index = n + 1
	}
	return &Trail{steps: steps, whole: whole, pos: in}
}

// Steps returns the steps of the trail.
func (t *Trail) Steps() []trajeval.Step { return t.steps }

// Earlier reports whether step k counts as earlier than step j: issued
// before it and not in its parallel group.
func Earlier(steps []trajeval.Step, k, j int) bool {
	if k >= j {
		return false
	}
	g := steps[j].ParallelGroup
	return g == 0 || steps[k].ParallelGroup != g
}

// place returns the position in whole of step j of the trail.
func (t *Trail) place(j int) int {
	if t.pos == nil {
		return j
	}
	return t.pos[j]
}

// earlier calls f with the position in whole of each step of tool (""
// any) earlier than step j of the trail, in order (latest first when
// back), until f returns false.
func (t *Trail) earlier(j int, tool string, back bool, f func(k int) bool) {
	j = t.place(j)
	n, at := j, func(i int) int { return i }
	if tool != "" {
		if t.byTool == nil {
			t.byTool = map[string][]int{}
			for k := range t.whole {
				name := t.whole[k].Name
				t.byTool[name] = append(t.byTool[name], k)
			}
		}
		ks := t.byTool[tool]
		n, at = sort.SearchInts(ks, j), func(i int) int { return ks[i] }
	}
	for i := range n {
		if back {
			i = n - 1 - i
		}
		if k := at(i); Earlier(t.whole, k, j) && !f(k) {
			return
		}
	}
}

// stepNo numbers step k of whole as a near miss shows it: its own
// number in the whole trajectory, which under a scope is a trace step's
// (see [Trail.words]), the scope numbering its own steps apart.
func (t *Trail) stepNo(k int) string {
	n := t.whole[k].Index
	if n <= 0 {
		n = k + 1
	}
	return strconv.Itoa(n)
}

// root is the value a source's path starts from in step k of whole: its arguments,
// or its result with a string holding JSON decoded.
func (t *Trail) root(k int, args bool) any {
	if args {
		// Text that cannot be decoded (see Matcher.run) has no value to
		// find: the $from finds nothing there.
		v, _ := trajeval.Decoded(t.whole[k].Args)
		return v
	}
	if t.results == nil {
		t.results = make([]any, len(t.whole))
		t.decoded = make([]bool, len(t.whole))
	}
	if !t.decoded[k] {
		r, _ := trajeval.Decoded(t.whole[k].Result)
		if s, ok := r.(string); ok {
			r, _ = jsonv.ParseMaybeJSON(s)
		}
		t.results[k], t.decoded[k] = r, true
	}
	return t.results[k]
}

// from reports whether got equals a value at the pattern's source in an
// earlier step than the trail's current one.
func (c cmp) from(p *pattern, got any) bool {
	if c.trail == nil {
		return false
	}
	// The latest calls first: an agent usually uses what it just saw.
	found := false
	c.trail.earlier(c.at, p.src.tool, true, func(k int) bool {
		p.src.path.Values(c.trail.root(k, p.src.args), func(v any) bool {
			found = c.equal(v, got)
			return !found
		})
		return !found
	})
	return found
}

// equal compares a found value with an actual one as a literal, the
// string options applying to strings.
func (c cmp) equal(want, got any) bool {
	switch want.(type) {
	case map[string]any, []any:
		return jsonv.Equal(want, got)
	}
	return c.literal(want, got)
}

// siblings says which calls of tool ("" any) were left out because they
// were issued with the current step, in its parallel group; "" when none.
func (c cmp) siblings(tool string) string {
	var ns []string
	j := c.trail.place(c.at)
	g := c.trail.whole[j].ParallelGroup
	for k := range j {
		s := &c.trail.whole[k]
		if g != 0 && s.ParallelGroup == g && (tool == "" || s.Name == tool) {
			ns = append(ns, c.trail.stepNo(k))
		}
	}
	step, steps := c.trail.words()
	switch len(ns) {
	case 0:
		return ""
	case 1:
		return step + " " + ns[0] + " was issued together with this call"
	}
	return steps + " " + strings.Join(ns, ", ") + " were issued together with this call"
}

// words returns the words for one step and several of whole: "step",
// "steps", or under a scope "trace step", "trace steps".
func (t *Trail) words() (one, many string) {
	if t.pos != nil {
		return "trace step", "trace steps"
	}
	return "step", "steps"
}

// maxShown bounds the values a $from near miss lists.
const maxShown = 5

// fromWant says what a $from pattern looked for and found, for a near
// miss: `{"$from":"search.result.items[*].id"}: one of "A", "B" (steps 1, 3)`.
func (c cmp) fromWant(p *pattern) string {
	what := "calls"
	if p.src.tool != "" {
		what = "calls of " + p.src.tool
	}
	if c.trail == nil {
		return p.text + ": no earlier " + what
	}
	var steps []string
	var shown []string
	seen := map[string]bool{}
	more := 0
	c.trail.earlier(c.at, p.src.tool, false, func(k int) bool {
		steps = append(steps, c.trail.stepNo(k))
		p.src.path.Values(c.trail.root(k, p.src.args), func(v any) bool {
			s := jsonv.Marshal(v)
			switch {
			case seen[s]:
			case len(shown) < maxShown:
				seen[s] = true
				shown = append(shown, s)
			default:
				seen[s] = true
				more++
			}
			return true
		})
		return true
	})
	at, many := c.trail.words()
	if len(steps) > 1 {
		at = many
	}
	switch {
	case len(steps) == 0:
		if s := c.siblings(p.src.tool); s != "" {
			return p.text + ": no earlier " + what + " (" + s + ")"
		}
		return p.text + ": no earlier " + what
	case len(shown) == 0:
		return fmt.Sprintf("%s: nothing at the path in %s %s", p.text, at, strings.Join(steps, ", "))
	}
	list := strings.Join(shown, ", ")
	if more > 0 {
		list += fmt.Sprintf(" and %d more", more)
	}
	return fmt.Sprintf("%s: one of %s (%s %s)", p.text, list, at, strings.Join(steps, ", "))
}
