package mine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/argmatch"
	"github.com/trajeval/trajeval/internal/plural"
	"github.com/trajeval/trajeval/internal/scaffold"
	"github.com/trajeval/trajeval/internal/suite"
)

// A writer writes the suite's lines, each with its comment aligned.
type writer struct {
	lines [][2]string // text, comment
}

func (w *writer) line(text, why string) { w.lines = append(w.lines, [2]string{text, why}) }

func (w *writer) String() string {
	width := 0
	for _, l := range w.lines {
		if l[1] != "" {
			width = max(width, len(l[0]))
		}
	}
	width = min(width, 48)
	var b strings.Builder
	for _, l := range w.lines {
		b.WriteString(l[0])
		if l[1] != "" {
			b.WriteString(strings.Repeat(" ", max(1, width-len(l[0])+2)))
			b.WriteString("# ")
			b.WriteString(oneLine(l[1]))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// oneLine keeps a comment on its line: the text in it is the agent's.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == 0x85 || r == 0x2028 || r == 0x2029 {
			return ' '
		}
		return r
	}, s)
}

// render writes the suite at a level of detail.
func (m *miner) render(lv level, o Options) []byte {
	w := &writer{}
	w.line("# yaml-language-server: $schema="+suite.SchemaURL, "")
	w.line("#", "")
	src := ""
	if len(o.Sources) > 0 {
		src = " (" + strings.Join(o.Sources, ", ") + ")"
	}
	w.line(fmt.Sprintf("# Mined from %s%s by trajeval (init --merge): the most", plural.Count(m.n, "run", "runs"), oneLine(src)), "")
	w.line("# specific expectation found that accepts every one of them (docs/mining.md).", "")
	w.line("# The comment beside each entry says what in the runs it stands for. Score", "")
	w.line("# a new run:", "")
	w.line("#   trajeval eval THIS_FILE --traces NEW.jsonl", "")
	w.line("name: "+scaffold.Quote(o.Name), "")
	w.line("execution:", "")
	w.line("  evaluators:", "")
	w.line("    - name: trajectory", "")
	w.line("      type: tool_trajectory", "")
	switch {
	case lv == levelAllowList && m.inOrder:
		// subset would refuse the calls without a name.
		w.line("      mode: in_order", "calls without a tool name, and too many calls issued together for groups:")
		w.line("      expected: []", "no order is expected; tool_rules keeps what held")
		m.rules(w, lv)
		return []byte(w.String())
	case lv == levelAllowList:
		w.line("      mode: subset", "only the tools the runs called, in any order and number")
		w.line("      expected:", "")
		for _, t := range m.tools {
			w.line("        - "+name(t), "")
		}
		m.rules(w, lv)
		return []byte(w.String())
	case m.inOrder:
		w.line("      mode: in_order", "calls without a tool name were left out: other calls may sit between")
	default:
		w.line("      mode: exact", "every run made these calls and no others")
	}
	var plan []*node
	if lv == levelAnything {
		plan = m.anything()
	} else {
		plan = m.plan
	}
	if lv < levelNames && len(plan) > 0 {
		w.line("      args_match: exact", "arguments have the keys the runs had, unless a call says otherwise")
	}
	if len(plan) == 0 {
		w.line("      expected: []", "no run made a tool call")
	} else {
		w.line("      expected:", "")
		for _, e := range plan {
			m.entry(w, "        - ", "          ", e, lv)
		}
	}
	m.rules(w, lv)
	return []byte(w.String())
}

// anything is the plan of the last level: the tools seen, any number of
// times within the counts of calls seen.
func (m *miner) anything() []*node {
	if len(m.tools) == 0 {
		return nil
	}
	g := &node{kind: "loose", min: m.counts[0][0], max: m.counts[0][1],
		why: fmt.Sprintf("any of the tools the runs called, %d to %d calls", m.counts[0][0], m.counts[0][1])}
	for _, t := range m.tools {
		g.kids = append(g.kids, &node{kind: "call", item: &item{name: t}})
	}
	return []*node{g}
}

// entry writes one entry: first prefixes its first line, ind the others.
func (m *miner) entry(w *writer, first, ind string, e *node, lv level) {
	switch e.kind {
	case "call":
		w.line(first+"tool: "+name(e.item.name), e.why)
		if e.item.segs == nil {
			return
		}
		p, exact, note := m.args(e.item, lv)
		if note != "" {
			w.line(ind+"# "+oneLine(note), "")
			return
		}
		if p == nil {
			return
		}
		if !exact {
			w.line(ind+"args_match: subset", "the keys varied: no key the runs never had")
		}
		if p.isLit {
			why := p.why
			if a, ok := p.lit.(map[string]any); ok && len(a) == 0 {
				why = "no arguments in any call"
			}
			w.line(ind+"args: "+scaffold.Value(p.lit), why)
			return
		}
		w.line(ind+"args:", "")
		for _, k := range p.keys {
			q := p.obj[k]
			w.line(ind+"  "+key(k)+": "+flow(q), q.why)
		}
	case "any_order", "in_order", "one_of":
		w.line(first+e.kind+":", e.why)
		for _, k := range e.kids {
			m.entry(w, ind+"  - ", ind+"    ", k, lv)
		}
	case "optional":
		w.line(first+"optional:", e.why)
		m.entry(w, ind+"  ", ind+"  ", e.kids[0], lv)
	case "repeat":
		w.line(first+"repeat:", e.why)
		m.entry(w, ind+"  ", ind+"  ", e.kids[0], lv)
		w.line(fmt.Sprintf("%smin: %d", ind, e.min), "")
		w.line(fmt.Sprintf("%smax: %d", ind, e.max), "")
	case "loose":
		w.line(first+"repeat:", e.why)
		if len(e.kids) == 1 {
			w.line(ind+"  tool: "+name(e.kids[0].item.name), "")
		} else {
			w.line(ind+"  one_of:", "")
			for _, k := range e.kids {
				w.line(ind+"    - "+name(k.item.name), "")
			}
		}
		w.line(fmt.Sprintf("%smin: %d", ind, e.min), "")
		w.line(fmt.Sprintf("%smax: %d", ind, max(e.max, 1)), "")
	}
}

// name writes a tool or key name, bare when YAML reads it back as the
// same string, else quoted.
func name(s string) string {
	plain := s != "" && !(s[0] >= '0' && s[0] <= '9')
	for _, r := range s {
		plain = plain && (r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}
	switch strings.ToLower(s) {
	case "y", "n", "yes", "no", "on", "off", "true", "false", "null", "nan", "inf":
		plain = false
	}
	if plain && s[0] != '-' {
		return s
	}
	return scaffold.Quote(s)
}

// key writes an argument name: quoted, and doubled $ when it starts with
// one (a literal key, not an operator).
func key(k string) string {
	if strings.HasPrefix(k, "$") {
		return scaffold.Quote("$" + k)
	}
	return name(k)
}

// flow writes a pattern in YAML flow syntax.
func flow(p *pat) string {
	switch {
	case p.isLit:
		return scaffold.Value(p.lit)
	case p.op != "":
		arg := scaffold.Value(p.arg)
		if s, ok := p.arg.(string); ok && p.op == "$type" {
			arg = s
		}
		return "{" + p.op + ": " + arg + "}"
	}
	parts := make([]string, len(p.keys))
	for i, k := range p.keys {
		parts[i] = key(k) + ": " + flow(p.obj[k])
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// rules writes tool_rules for the tools whose order was not expected: for
// each pair, whether one always came before the other, and how many times
// each was called at most.
func (m *miner) rules(w *writer, lv level) {
	var tools []string
	if lv >= levelAnything {
		tools = m.tools
	} else {
		for _, g := range m.loose {
			for _, k := range g.kids {
				tools = append(tools, k.item.name)
			}
		}
		slices.Sort(tools)
		tools = slices.Compact(tools)
	}
	if len(tools) == 0 {
		return
	}
	w.line("    - name: rules", "what held in every run among the calls whose order is not expected")
	w.line("      type: tool_rules", "")
	w.line("      rules:", "")
	for _, a := range tools {
		for _, b := range tools {
			if a != b && m.alwaysBefore(a, b) {
				w.line(fmt.Sprintf("        - before: [%s, %s]", name(a), name(b)), "every call of "+b+" came after a call of "+a)
			}
		}
	}
	for _, t := range tools {
		most := 0
		for _, steps := range m.runs {
			c := 0
			for _, s := range steps {
				if s.Name == t {
					c++
				}
			}
			most = max(most, c)
		}
		w.line(fmt.Sprintf("        - at_most: {%s: %d}", name(t), most), "the most calls of it in one run")
	}
}

// alwaysBefore reports whether, in every run, every call of b had an
// earlier call of a, and some run called b.
func (m *miner) alwaysBefore(a, b string) bool {
	// The first call of b decides: a call of a earlier than it is earlier
	// than every later call of b too (parallel groups are contiguous).
	called := false
	for _, steps := range m.runs {
		j := slices.IndexFunc(steps, func(s trajeval.Step) bool { return s.Name == b })
		if j < 0 {
			continue
		}
		called = true
		ok := false
		for k := range j {
			if steps[k].Name == a && argmatch.Earlier(steps, k, j) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return called
}
