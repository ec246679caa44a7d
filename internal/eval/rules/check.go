package rules

import (
	"fmt"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/eval/rules/pattern"
	"github.com/trajeval/trajeval/internal/jsonv"
)

// check tests the rule over the steps of one scope: "" and true when it
// holds, else why not.
func (c *rule) check(s []trajeval.Step) (string, bool) {
	switch c.Kind {
	case Never:
		return c.never(s)
	case AtMost, AtLeast, Exactly:
		return c.count(s)
	case Before:
		return c.before(s)
	case After:
		return c.after(s)
	case ImmediatelyAfter:
		return c.immediatelyAfter(s)
	case Within:
		return c.within(s)
	case First:
		return c.firstLast(s, true)
	case Last:
		return c.firstLast(s, false)
	case NoRepeat:
		return c.noRepeat(s)
	}
	return c.pattern(s)
}

// calls returns the positions of the calls of t.
func calls(t *tool, s []trajeval.Step) []int {
	var out []int
	for i := range s {
		if t.matches(&s[i]) {
			out = append(out, i)
		}
	}
	return out
}

// together reports whether two steps were issued in one response.
func together(a, b *trajeval.Step) bool {
	return a.ParallelGroup != 0 && a.ParallelGroup == b.ParallelGroup
}

func (c *rule) never(s []trajeval.Step) (string, bool) {
	at := calls(c.a, s)
	if len(at) == 0 {
		return "", true
	}
	msg := describe(s, at[0]) + ": " + c.a.name + " must never be called"
	if len(at) > 1 {
		msg += fmt.Sprintf(" (and %d more such calls)", len(at)-1)
	}
	return msg, false
}

func (c *rule) count(s []trajeval.Step) (string, bool) {
	at := calls(c.a, s)
	n := len(at)
	switch {
	case n > c.N && c.Kind != AtLeast:
		return fmt.Sprintf("%s: call %d of %s, at most %d allowed (%d in all)", describe(s, at[c.N]), c.N+1, c.a.text, c.N, n), false
	case n < c.N && c.Kind != AtMost:
		msg := fmt.Sprintf("%s called %d %s, at least %d wanted", c.a.text, n, times(n), c.N)
		if len(s) == 0 {
			msg += " (no calls at all)"
		}
		return msg + c.near(s), false
	}
	return "", true
}

func times(n int) string {
	if n == 1 {
		return "time"
	}
	return "times"
}

// near names the first step of the tool's name whose arguments did not
// match, with the paths that differ.
func (c *rule) near(s []trajeval.Step) string {
	return nearOf(c.a, s, -1)
}

func nearOf(t *tool, s []trajeval.Step, only int) string {
	if t == nil || t.args == nil {
		return ""
	}
	for i := range s {
		if (only >= 0 && i != only) || s[i].Name != t.name || t.matches(&s[i]) {
			continue
		}
		var parts []string
		for _, d := range t.args.Diff(s[i].Args) {
			parts = append(parts, d.String())
		}
		if only >= 0 {
			// The step is named already: only its differences.
			return "; " + strings.Join(parts, "; ")
		}
		return fmt.Sprintf("; %s differs: %s", describe(s, i), strings.Join(parts, "; "))
	}
	return ""
}

func (c *rule) before(s []trajeval.Step) (string, bool) {
	// Calls of A so far, in all and by parallel group, so a B sees
	// whether one of them lies outside its own group in O(1).
	total, byGroup := 0, map[int]int{}
	for j := range s {
		if c.b.matches(&s[j]) {
			earlier := total
			if g := s[j].ParallelGroup; g != 0 {
				earlier -= byGroup[g]
			}
			if earlier == 0 {
				why := "no call of " + c.a.text + " before it"
				if total > 0 {
					why = "the only earlier calls of " + c.a.text + " were issued together with it"
				}
				return describe(s, j) + ": " + why + nearOf(c.a, s[:j], -1), false
			}
		}
		if c.a.matches(&s[j]) {
			total++
			if g := s[j].ParallelGroup; g != 0 {
				byGroup[g]++
			}
		}
	}
	return "", true
}

func (c *rule) after(s []trajeval.Step) (string, bool) {
	total, byGroup := 0, map[int]int{}
	bad, first := 0, -1
	for i := len(s) - 1; i >= 0; i-- {
		if c.a.matches(&s[i]) {
			later := total
			if g := s[i].ParallelGroup; g != 0 {
				later -= byGroup[g]
			}
			if later == 0 {
				bad, first = bad+1, i
			}
		}
		if c.b.matches(&s[i]) {
			total++
			if g := s[i].ParallelGroup; g != 0 {
				byGroup[g]++
			}
		}
	}
	if first < 0 {
		return "", true
	}
	msg := describe(s, first) + ": no call of " + c.b.text + " after it"
	if bad > 1 {
		msg += fmt.Sprintf(" (%d calls of %s are not followed by one)", bad, c.a.name)
	}
	return msg + nearOf(c.b, s[first+1:], -1), false
}

func (c *rule) immediatelyAfter(s []trajeval.Step) (string, bool) {
	for j := range s {
		if !c.b.matches(&s[j]) {
			continue
		}
		switch {
		case j == 0:
			return describe(s, j) + ": the first call, not right after " + c.a.text, false
		case !c.a.matches(&s[j-1]):
			return describe(s, j) + ": right after " + describe(s, j-1) + ", not " + c.a.text + nearOf(c.a, s, j-1), false
		}
	}
	return "", true
}

func (c *rule) within(s []trajeval.Step) (string, bool) {
	// next[i] is the first call of B after position i, or len(s).
	next := make([]int, len(s)+1)
	next[len(s)] = len(s)
	for i := len(s) - 1; i >= 0; i-- {
		next[i] = next[i+1]
		if i+1 < len(s) && c.b.matches(&s[i+1]) {
			next[i] = i + 1
		}
	}
	for i := range s {
		if !c.a.matches(&s[i]) {
			continue
		}
		j := next[i]
		for j < len(s) && j <= i+c.N && together(&s[i], &s[j]) {
			j = next[j]
		}
		if j < len(s) && j <= i+c.N {
			continue
		}
		why := fmt.Sprintf("no call of %s in the %d %s after it", c.b.text, c.N, plural(c.N, "step", "steps"))
		switch {
		case j < len(s):
			why += fmt.Sprintf(" (the next is %s, %d steps after)", describe(s, j), j-i)
		case i+c.N >= len(s):
			why += fmt.Sprintf(" (the calls end %d %s after it)", len(s)-1-i, plural(len(s)-1-i, "step", "steps"))
		}
		return describe(s, i) + ": " + why, false
	}
	return "", true
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func (c *rule) firstLast(s []trajeval.Step, first bool) (string, bool) {
	which := "first"
	if !first {
		which = "last"
	}
	if len(s) == 0 {
		return fmt.Sprintf("no calls: the %s call should be %s", which, c.a.text), false
	}
	// The response: the end step and the steps issued together with it.
	end := 0
	if !first {
		end = len(s) - 1
	}
	var resp []int
	for i := range s {
		if i == end || together(&s[i], &s[end]) {
			if c.a.matches(&s[i]) {
				return "", true
			}
			resp = append(resp, i)
		}
	}
	if len(resp) == 1 {
		return fmt.Sprintf("%s: the %s call is not %s", describe(s, end), which, c.a.text) + nearOf(c.a, s, end), false
	}
	parts := make([]string, len(resp))
	for k, i := range resp {
		parts[k] = describe(s, i)
	}
	return fmt.Sprintf("the %s response (%s) does not call %s", which, strings.Join(parts, ", "), c.a.text), false
}

func (c *rule) noRepeat(s []trajeval.Step) (string, bool) {
	for j := 1; j < len(s); j++ {
		if c.a.matches(&s[j]) && c.a.matches(&s[j-1]) && sameArgs(&s[j], &s[j-1]) {
			return fmt.Sprintf("%s: repeats step %d with the same arguments", describe(s, j), index(s, j-1)), false
		}
	}
	return "", true
}

func args(a any) any {
	if a == nil {
		return map[string]any{}
	}
	return a
}

// sameArgs reports whether two steps' arguments are equal, decoding text
// a reader kept (see trajeval.Decoded): text that does not decode, put
// there by hand, equals nothing, as it matches no argument pattern.
func sameArgs(a, b *trajeval.Step) bool {
	x, errA := trajeval.Decoded(a.Args)
	y, errB := trajeval.Decoded(b.Args)
	return errA == nil && errB == nil && jsonv.Equal(args(x), args(y))
}

// shownArgs is the JSON text of a step's arguments as a message shows
// them: the value's, whether or not a reader kept the text.
func shownArgs(a any) string {
	v, err := trajeval.Decoded(a)
	if err != nil {
		return "(not JSON: " + err.Error() + ")"
	}
	return jsonv.Marshal(args(v))
}

func (c *rule) pattern(s []trajeval.Step) (string, bool) {
	r := c.pat.Match(len(s), func(item, i int) bool {
		t := c.items[item]
		return t == nil || t.matches(&s[i])
	})
	if r.Matched {
		return "", true
	}
	items := c.pat.Items()
	var next []string
	for _, i := range r.Next {
		it, t := items[i], c.items[i]
		switch {
		case it.Any:
			next = append(next, "any call")
		case t.text != it.Name:
			next = append(next, pattern.Quote(it.Name)+" ("+t.text+")")
		default:
			next = append(next, pattern.Quote(it.Name))
		}
	}
	if r.End {
		next = append(next, "the end")
	}
	want := "expected " + strings.Join(next, " or ")
	if len(next) == 0 {
		want = "the pattern allows nothing more"
	}
	fit := ""
	switch {
	case r.Fit == 0:
	case r.Fit == 1:
		fit = fmt.Sprintf("step %d (%s) fits; ", index(s, 0), s[0].Name)
	case r.Fit <= 8:
		names := make([]string, r.Fit)
		for i := range names {
			names[i] = s[i].Name
		}
		fit = fmt.Sprintf("steps %d–%d (%s) fit; ", index(s, 0), index(s, r.Fit-1), strings.Join(names, " "))
	default:
		fit = fmt.Sprintf("steps %d–%d fit; ", index(s, 0), index(s, r.Fit-1))
	}
	if r.Fit == len(s) {
		if len(s) == 0 {
			return "no calls: " + want, false
		}
		return fit + "then the calls end: " + want, false
	}
	verb := " does not: "
	if r.Fit == 0 {
		verb = " does not fit: "
	}
	msg := fit + describe(s, r.Fit) + verb + want
	for _, i := range r.Next {
		if t := c.items[i]; t != nil && t.name == s[r.Fit].Name {
			msg += nearOf(t, s, r.Fit)
			break
		}
	}
	return msg, false
}

// index returns the step's 1-based index in the trajectory.
func index(s []trajeval.Step, i int) int {
	if s[i].Index > 0 {
		return s[i].Index
	}
	return i + 1
}

// maxArgs bounds the arguments shown for a step.
const maxArgs = 120

// describe names a step: its index, turn, tool and arguments.
func describe(s []trajeval.Step, i int) string {
	st := &s[i]
	var b strings.Builder
	fmt.Fprintf(&b, "step %d", index(s, i))
	if st.Turn > 0 {
		fmt.Fprintf(&b, " (turn %d)", st.Turn)
	}
	a := shownArgs(st.Args)
	if len(a) > maxArgs {
		cut := maxArgs
		for cut > 0 && (a[cut]&0xC0) == 0x80 { // not inside a UTF-8 sequence
			cut--
		}
		a = a[:cut] + "…"
	}
	fmt.Fprintf(&b, " %s %s", st.Name, a)
	return b.String()
}
