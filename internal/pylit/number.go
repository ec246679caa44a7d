package pylit

import (
	"encoding/json"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// numberPatterns are the spellings of Python's number literals, compiled
// on first use: at start-up they cost every run a fifth of a million
// instructions.
var numberPatterns = sync.OnceValue(func() *numberSpellings {
	return &numberSpellings{
		decInt: regexp.MustCompile(`^(?:[1-9](?:_?[0-9])*|0(?:_?0)*)$`),
		zeroes: regexp.MustCompile(`^[0-9](?:_?[0-9])*$`),
		based: map[string]*regexp.Regexp{
			"x": regexp.MustCompile(`^(?:_?[0-9a-fA-F])+$`),
			"o": regexp.MustCompile(`^(?:_?[0-7])+$`),
			"b": regexp.MustCompile(`^(?:_?[01])+$`),
		},
		float: regexp.MustCompile(strings.ReplaceAll(`^(?:(?:D)?\.D|D\.)(?:[eE][+-]?D)?$|^D[eE][+-]?D$`, "D", `[0-9](?:_?[0-9])*`)),
	}
})

// numberSpellings are the patterns of numberPatterns.
type numberSpellings struct {
	decInt, zeroes *regexp.Regexp
	based          map[string]*regexp.Regexp // by the prefix's letter
	// float is D.D, .D, D. with an optional exponent, or D with one; D
	// is digits with _ between them.
	float *regexp.Regexp
}

// number reads the number at p.i, sign being "" or "-".
func (p *parser) number(sign string) (any, error) {
	start := p.i
	decimal := !(p.peek() == '0' && p.i+1 < len(p.s) && strings.IndexByte("xXoObB", p.s[p.i+1]) >= 0)
	for p.i < len(p.s) {
		c := p.s[p.i]
		if isDigit(c) || c == '_' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' ||
			decimal && (c == '+' || c == '-') && (p.s[p.i-1] == 'e' || p.s[p.i-1] == 'E') {
			p.i++
			continue
		}
		break
	}
	tok := p.s[start:p.i]
	bad := func(msg, hint string) (any, error) { return nil, p.errAt(start, msg, hint) }
	pat := numberPatterns()
	switch {
	case !decimal:
		digits := tok[2:]
		if !pat.based[strings.ToLower(tok[1:2])].MatchString(digits) {
			return bad("invalid number "+tok, "")
		}
		n, ok := new(big.Int).SetString(strings.ReplaceAll(digits, "_", ""), map[byte]int{'x': 16, 'o': 8, 'b': 2}[tok[1]|0x20])
		if !ok {
			return bad("invalid number "+tok, "")
		}
		if sign == "-" {
			n.Neg(n)
		}
		return json.Number(n.String()), nil
	case strings.HasSuffix(tok, "j") || strings.HasSuffix(tok, "J"):
		return bad("an imaginary number ("+tok+") has no JSON form", "")
	case pat.decInt.MatchString(tok):
		t := strings.TrimLeft(strings.ReplaceAll(tok, "_", ""), "0")
		if t == "" {
			return json.Number("0"), nil
		}
		return json.Number(sign + t), nil
	case pat.zeroes.MatchString(tok):
		return bad("leading zeros in a decimal integer are not allowed", "write 0o for an octal number, or drop the zeros")
	case pat.float.MatchString(tok):
		f, err := strconv.ParseFloat(sign+strings.ReplaceAll(tok, "_", ""), 64)
		if err != nil && math.IsInf(f, 0) {
			return bad(tok+" is too large for a float (Python reads it as inf)", "")
		}
		return json.Number(Repr(f)), nil
	}
	return bad("invalid number "+tok, "")
}

// Repr writes a float as Python's repr does: the shortest digits that
// read back to it, with a point (1.0, 100000.0), in exponent form from
// 1e+16 up and below 1e-4 (1e-05), and inf, -inf or nan for those.
func Repr(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		return "nan"
	}
	e := strconv.FormatFloat(f, 'e', -1, 64)
	exp, _ := strconv.Atoi(e[strings.IndexByte(e, 'e')+1:])
	if decpt := exp + 1; decpt > 16 || decpt < -3 {
		return e
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}
