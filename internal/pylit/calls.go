package pylit

import (
	"fmt"
	"slices"
	"strings"
)

// A Tuple is a Python tuple among a call's arguments. BFCL's decoder
// keeps tuples as tuples, and its checker tells them from lists (a tuple
// is not an array), so [ParseCalls] gives them this type; [JSON] makes
// them lists.
type Tuple []any

// JSON returns v with every [Tuple] in it made a list, a value of the
// JSON data model; v itself is not changed.
func JSON(v any) any {
	switch x := v.(type) {
	case Tuple:
		return JSON([]any(x))
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = JSON(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = JSON(e)
		}
		return out
	}
	return v
}

// HasTuple reports whether v holds a [Tuple], at any depth.
func HasTuple(v any) bool {
	switch x := v.(type) {
	case Tuple:
		return true
	case []any:
		for _, e := range x {
			if HasTuple(e) {
				return true
			}
		}
	case map[string]any:
		for _, e := range x {
			if HasTuple(e) {
				return true
			}
		}
	}
	return false
}

// A Call is one function call of a call list.
type Call struct {
	// Name is the function's name, dotted when it is an attribute path
	// (math.hypot).
	Name string
	// Args are the keyword arguments.
	Args map[string]any
	// Positional counts the positional arguments, which BFCL's decoder
	// drops and so does [ParseCalls].
	Positional int
	// Repeated are the keywords given more than once, in the order of
	// their second use; each keeps its last value.
	Repeated []string
	// Line and Col place the call's name in the text; Offset is its byte
	// offset.
	Line, Col, Offset int
}

// ParseCalls reads a list of Python calls, as the Berkeley Function
// Calling Leaderboard's default decoder (Python's ast on the text) reads
// them:
//  1. the text is a list [f(a=1), mod.g(b=2)], a tuple of calls (with or
//     without its parentheses) or one bare call f(a=1); [] is no call; an
//     element that is not a call is an error;
//  2. a call's name is a name or a dotted path of names;
//  3. keyword arguments are read as values: the literals of
//     [ParseValue], except that a tuple is a [Tuple], not a list, and, as
//     BFCL reads them, a bare name (celsius) as its text, ... as the
//     string "...", a call with keyword arguments as {name: {arguments}},
//     and a call without any as its text as written (BFCL writes it back
//     with ast.unparse, which can differ in spaces and quotes);
//  4. a keyword given twice keeps its last value, as BFCL's decoder does
//     (Python's ast.parse accepts the call; only compiling it would
//     refuse it);
//  5. positional arguments are counted in [Call].Positional and otherwise
//     dropped, as BFCL drops them; **kwargs and *args, or a positional
//     argument after a keyword one are errors;
//  6. operators are not evaluated (BFCL runs eval on 2*3; a reader of
//     untrusted text does not): an expression with one is an error, and
//     so is a unary + (BFCL reads +5 as -5).
func ParseCalls(src string) ([]Call, error) {
	p, err := newParser(src, true)
	if err != nil {
		return nil, err
	}
	p.space()
	var out []Call
	switch c := p.peek(); {
	case c == '[' || c == '(':
		end := byte(']')
		if c == '(' {
			end = ')'
		}
		p.i++
		err = p.seq(end, "call", func() error {
			call, err := p.call(0)
			out = append(out, call)
			return err
		})
	default:
		// A bare call, or several separated by commas (a tuple).
		for {
			call, err := p.call(0)
			if err != nil {
				return nil, err
			}
			out = append(out, call)
			p.space()
			if p.peek() != ',' {
				break
			}
			p.i++
			p.space()
			if p.i == len(p.s) {
				break
			}
		}
	}
	if err != nil {
		return nil, err
	}
	if err := p.end(); err != nil {
		return nil, err
	}
	if out == nil {
		out = []Call{}
	}
	locate(src, out)
	return out, nil
}

// call reads name(arguments) where an element of a call list must be.
func (p *parser) call(depth int) (Call, error) {
	p.space()
	start := p.i
	name, ok := p.dotted()
	if !ok {
		return Call{}, p.errAt(start, "expected a function call here, found "+p.describe(), "each element of the list is a call such as get_weather(city=\"Paris\")")
	}
	p.space()
	if p.peek() != '(' {
		return Call{}, p.errAt(start, fmt.Sprintf("%s is not called: expected '(' after it, found %s", name, p.describe()), "each element is a call such as get_weather(city=\"Paris\")")
	}
	return p.arguments(name, start, depth)
}

// arguments reads the parenthesised arguments of the call name, the
// opening parenthesis at p.i.
func (p *parser) arguments(name string, start, depth int) (Call, error) {
	if depth > maxDepth {
		return Call{}, p.errAt(p.i, "nested too deep", "")
	}
	// Placed at its line and column by ParseCalls, all calls in one pass.
	c := Call{Name: name, Args: map[string]any{}, Offset: start}
	p.i++ // (
	err := p.seq(')', "argument", func() error {
		at := p.i
		switch {
		case strings.HasPrefix(p.s[p.i:], "**"):
			return p.errAt(at, "**kwargs is not read", "give each argument as name=value")
		case p.peek() == '*':
			return p.errAt(at, "*args is not read", "give each argument as name=value")
		}
		if kw, ok := p.keyword(); ok {
			if _, dup := c.Args[kw]; dup && !slices.Contains(c.Repeated, kw) {
				c.Repeated = append(c.Repeated, kw)
			}
			v, err := p.value(depth + 1)
			if err != nil {
				return err
			}
			c.Args[kw] = v
			return nil
		}
		if len(c.Args) > 0 {
			return p.errAt(at, "positional argument follows keyword argument", "")
		}
		if _, err := p.value(depth + 1); err != nil {
			return err
		}
		c.Positional++
		return nil
	})
	return c, err
}

// keyword reads "name =" (not "=="), or leaves p.i where it was.
func (p *parser) keyword() (string, bool) {
	start := p.i
	name, ok := p.ident()
	if ok {
		p.space()
		if p.peek() == '=' && !strings.HasPrefix(p.s[p.i:], "==") {
			p.i++
			return name, true
		}
	}
	p.i = start
	return "", false
}
