package bfcl

import (
	"encoding/json"
	"errors"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// A language is the language of a category: its document types and how a
// value is read before it is checked.
type language int

const (
	python language = iota
	java
	javascript
)

func (l language) String() string {
	return [...]string{"Python", "Java", "JavaScript"}[l]
}

// The document types of each language (BFCL's PYTHON_TYPE_MAPPING,
// JAVA_TYPE_CONVERSION and JS_TYPE_CONVERSION), and the Python type the
// value of each becomes.
var (
	pythonTypes = map[string]pyType{"string": tStr, "integer": tInt, "float": tFloat, "boolean": tBool, "array": tList, "tuple": tList, "dict": tDict, "any": tStr}
	javaTypes   = map[string]pyType{"byte": tInt, "short": tInt, "integer": tInt, "float": tFloat, "double": tFloat, "long": tInt, "boolean": tBool, "char": tStr, "Array": tList, "ArrayList": tList, "Set": tSet, "HashMap": tDict, "Hashtable": tDict, "Queue": tList, "Stack": tList, "String": tStr, "any": tStr}
	jsTypes     = map[string]pyType{"String": tStr, "integer": tInt, "float": tFloat, "Bigint": tInt, "Boolean": tBool, "dict": tDict, "array": tList, "any": tStr}
)

func (l language) types() map[string]pyType {
	switch l {
	case java:
		return javaTypes
	case javascript:
		return jsTypes
	}
	return pythonTypes
}

// nests reports whether a document type's elements are checked (and, in
// Java and JavaScript, converted) by items.type.
func (l language) nests(t string) bool {
	switch l {
	case python:
		return t == "array" || t == "tuple"
	}
	return t == "Array" || t == "ArrayList" || t == "array"
}

// errUnconvertible is a Java value BFCL's converter cannot convert: it
// raises, and BFCL's run stops.
var errUnconvertible = errors.New("BFCL's Java type converter does not implement this type (it raises NotImplementedError)")

// Python's regular expression classes on str, which Go's \d, \w and \s
// (ASCII only) are not.
const (
	pyD = `\p{Nd}`
	pyW = `[\p{L}\p{N}_]`
	pyS = `[\t-\r\x{1c}-\x{20}\x{85}\p{Z}]`
)

// py compiles a Python pattern written with \d \w \s; $ is Python's: the
// end, or before a final line break.
func py(expr string) *regexp.Regexp {
	r := strings.NewReplacer(`\d`, pyD, `\w`, pyW, `\s`, pyS, `$`, `\n?\z`)
	return regexp.MustCompile(r.Replace(expr))
}

// converterPatterns are the converters' patterns, Java's and JavaScript's.
type converterPatterns struct {
	javaInt, javaFloat, javaDouble, javaLong              *regexp.Regexp
	javaAsList, javaAdds, javaAdd, javaEmptyAL, javaArray *regexp.Regexp
	javaHashMap, javaPut, javaEmptyMap                    *regexp.Regexp
	jsFloat, jsBigint, js2D, js1D, jsInner, jsDict        *regexp.Regexp
}

// patterns returns the converters' patterns, compiled on first use: a run
// that converts no Java or JavaScript value never pays for them (they
// were most of the package's initialisation).
var patterns = sync.OnceValue(func() *converterPatterns {
	return &converterPatterns{
		javaInt:      py(`^-?\d+$`),
		javaFloat:    py(`^-?\d+(\.\d+)?([eE][+-]?\d+)?[fF]$`),
		javaDouble:   py(`^-?\d+(\.\d+)?([eE][+-]?\d+)?$`),
		javaLong:     py(`^-?\d+[lL]$`),
		javaAsList:   py(`new\s+ArrayList<\w*>\(Arrays\.asList\((.+?)\)\)`),
		javaAdds:     py(`(?s)new\s+ArrayList<\w*>\(\)\s*\{\{\s*(.+?)\s*\}\}`),
		javaAdd:      py(`add\((.+?)\)`),
		javaEmptyAL:  py(`new\s+ArrayList<\w*>\(\)`),
		javaArray:    py(`new\s+\w+\[\]\s*\{(.*?)\}`),
		javaHashMap:  py(`(?s)new\s+HashMap<.*?>\s*\(\)\s*\{\s*\{?\s*(.*?)\s*\}?\s*\}`),
		javaPut:      py(`put\("(.*?)",\s*(.*?)\)`),
		javaEmptyMap: py(`new\s+HashMap<.*?>\s*\(\)`),
		jsFloat:      py(`^-?\d+(\.\d+)?$`),
		jsBigint:     py(`^-?\d+n$`),
		js2D:         py(`^(?:\[\s*\[.*?\]\s*(,\s*\[.*?\]\s*)*\]|\bnew\s+Array\(\s*\[.*?\]\s*(,\s*\[.*?\]\s*)*\))`),
		js1D:         py(`^(?:\[(.*?)\]|\bnew\s+Array\((.*?)\))`),
		jsInner:      py(`\[(.*?)\]`),
		jsDict:       py(`^\{(.*?)\}`),
	}
})

// javaConvert is BFCL's java_type_converter: a Java source text made the
// value it stands for, or left the text when it does not parse as the
// type.
func javaConvert(value, typ, nested string) (any, error) {
	switch typ {
	case "byte", "short", "integer":
		if !patterns().javaInt.MatchString(value) {
			return value, nil
		}
		return pyInt(value), nil
	case "float":
		if !patterns().javaFloat.MatchString(value) {
			return value, nil
		}
		v := strings.TrimSuffix(value, "\n")
		return pyFloat(v[:len(v)-1]), nil
	case "double":
		if !patterns().javaDouble.MatchString(value) {
			return value, nil
		}
		return pyFloat(value), nil
	case "long":
		if !patterns().javaLong.MatchString(value) {
			return value, nil
		}
		v := strings.TrimSuffix(value, "\n")
		return pyInt(v[:len(v)-1]), nil
	case "boolean":
		if value != "true" && value != "false" {
			return value, nil
		}
		return value == "true", nil
	case "Array":
		m := patterns().javaArray.FindStringSubmatch(value)
		if m == nil {
			return value, nil
		}
		out := []any{}
		for _, x := range strings.Split(m[1], ",") {
			x = pyStrip(x)
			if x == "" {
				continue
			}
			v, err := javaElement(x, nested)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case "ArrayList":
		return javaArrayList(value, nested)
	case "HashMap":
		return javaMap(value), nil
	case "Set", "Hashtable", "Queue", "Stack":
		return nil, errUnconvertible
	}
	// char (whose pattern ^\'.$\' never matches), String, any: the text.
	return value, nil
}

// javaElement converts one element of a collection: by its nested type
// when there is one, else as parse_java_value guesses.
func javaElement(x, nested string) (any, error) {
	if nested == "" {
		return javaValue(x), nil
	}
	return javaConvert(x, nested, "")
}

// javaArrayList is BFCL's parse_arraylist.
func javaArrayList(value, nested string) (any, error) {
	var parts []string
	if m := patterns().javaAsList.FindStringSubmatch(value); m != nil {
		for _, x := range strings.Split(m[1], ",") {
			parts = append(parts, pyStrip(x))
		}
	} else if m := patterns().javaAdds.FindStringSubmatch(value); m != nil {
		for _, a := range patterns().javaAdd.FindAllStringSubmatch(m[1], -1) {
			parts = append(parts, pyStrip(a[1]))
		}
	} else if patterns().javaEmptyAL.MatchString(value) {
		return []any{}, nil
	} else {
		return value, nil
	}
	out := []any{}
	for _, x := range parts {
		if nested == "char" || nested == "String" {
			out = append(out, pySlice(x, 1, -1)) // the quotes, or any two characters, go
			continue
		}
		v, err := javaElement(x, nested)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// javaMap is BFCL's parse_hashmap.
func javaMap(value string) any {
	m := patterns().javaHashMap.FindStringSubmatch(value)
	if m == nil {
		if patterns().javaEmptyMap.MatchString(value) {
			return map[string]any{}
		}
		return value
	}
	out := map[string]any{}
	if pyStrip(m[1]) != "" {
		for _, p := range patterns().javaPut.FindAllStringSubmatch(m[1], -1) {
			out[p[1]] = javaValue(pyStrip(p[2]))
		}
	}
	return out
}

// javaValue is BFCL's parse_java_value: a value guessed from its text.
func javaValue(s string) any {
	switch {
	case s == "true":
		return true
	case s == "false":
		return false
	case strings.HasPrefix(s, `"`) && strings.HasSuffix(s, `"`):
		return pySlice(s, 1, -1)
	case patterns().javaLong.MatchString(s):
		v := strings.TrimSuffix(s, "\n")
		return pyInt(v[:len(v)-1])
	case patterns().javaFloat.MatchString(s):
		v := strings.TrimSuffix(s, "\n")
		return pyFloat(v[:len(v)-1])
	}
	return pyNumber(s)
}

// jsConvert is BFCL's js_type_converter.
func jsConvert(value, typ, nested string) (any, error) {
	switch typ {
	case "String":
		if !(strings.HasPrefix(value, `"`) && strings.HasSuffix(value, `"`)) && !(strings.HasPrefix(value, "'") && strings.HasSuffix(value, "'")) {
			return value, nil
		}
		return pySlice(value, 1, -1), nil
	case "integer":
		if !patterns().javaInt.MatchString(value) {
			return value, nil
		}
		return pyInt(value), nil
	case "float":
		if !patterns().jsFloat.MatchString(value) {
			return value, nil
		}
		return pyFloat(value), nil
	case "Bigint":
		if !patterns().jsBigint.MatchString(value) {
			return value, nil
		}
		return pyInt(pySlice(value, 0, -1)), nil
	case "Boolean":
		if value != "true" && value != "false" {
			return value, nil
		}
		return value == "true", nil
	case "dict":
		return jsDictOf(value), nil
	case "array":
		return jsArray(value, nested), nil
	case "any":
		return value, nil
	}
	return nil, errors.New("BFCL's JavaScript type converter does not know type " + typ)
}

// jsArray is parse_js_collection for an array; whatever fails leaves the
// text, as BFCL's bare except does.
func jsArray(code, nested string) any {
	code = pyStrip(code)
	if m := patterns().js2D.FindString(code); m != "" {
		out := []any{}
		for idx, inner := range patterns().jsInner.FindAllStringSubmatch(m, -1) {
			s := pyStrip(inner[1])
			if idx == 0 && strings.HasPrefix(s, "[") {
				s = s[1:]
			}
			row := []any{}
			for _, e := range strings.Split(s, ",") {
				row = append(row, jsValue(pyStrip(e)))
			}
			out = append(out, row)
		}
		return out
	}
	m := patterns().js1D.FindStringSubmatchIndex(code)
	if m == nil {
		return code
	}
	var body string
	switch {
	case m[2] >= 0:
		body = code[m[2]:m[3]]
	case m[4] >= 0:
		body = code[m[4]:m[5]]
	}
	var elems []string
	if pyStrip(body) != "" {
		elems = strings.Split(pyStrip(body), ",")
	}
	out := []any{}
	for _, e := range elems {
		e = pyStrip(e)
		if nested == "" {
			out = append(out, jsValue(e))
			continue
		}
		v, err := jsConvert(e, nested, "String")
		if err != nil {
			return code
		}
		out = append(out, v)
	}
	return out
}

// jsDictOf is parse_js_collection for a dict.
func jsDictOf(code string) any {
	code = pyStrip(code)
	if code == "{}" {
		return map[string]any{}
	}
	m := patterns().jsDict.FindStringSubmatch(code)
	if m == nil {
		return code
	}
	out := map[string]any{}
	for _, kv := range jsPairs(m[1]) {
		key := strings.Trim(pyStrip(kv[0]), `'"`)
		v := pyStrip(kv[1])
		switch {
		case strings.HasPrefix(v, "[") && strings.HasSuffix(v, "]"):
			out[key] = jsArray(v, "")
		case strings.HasPrefix(v, "{") && strings.HasSuffix(v, "}"):
			out[key] = jsDictOf(v)
		default:
			out[key] = jsValue(strings.Trim(v, `'"`))
		}
	}
	return out
}

// jsPairs is re.findall(r"([^:]+):\s*(.*?)(?:,\s*(?=[^,]+:)|$)", s),
// written out: Go's regular expressions have no lookahead.
func jsPairs(s string) [][2]string {
	var out [][2]string
	for i := 0; i < len(s); {
		k, v, end, ok := jsPairAt(s, i)
		if !ok {
			i++
			continue
		}
		out = append(out, [2]string{k, v})
		i = end
	}
	return out
}

func jsPairAt(s string, i int) (key, value string, end int, ok bool) {
	c := strings.IndexByte(s[i:], ':')
	if c <= 0 {
		return "", "", 0, false // [^:]+ needs a character, then ':'
	}
	key = s[i : i+c]
	start := i + c + 1
	ws := start
	for ws < len(s) && isPySpaceAt(s, ws) {
		ws += pyRuneLen(s, ws)
	}
	// \s* gives back what the rest needs, from the most it took.
	for sp := ws; sp >= start; sp = prevRune(s, sp, start) {
		for k := sp; ; k += pyRuneLen(s, k) {
			// (?:,\s*(?=[^,]+:)|$) at k.
			if k < len(s) && s[k] == ',' {
				if e, ok := jsLookahead(s, k+1); ok {
					return key, s[sp:k], e, true
				}
			}
			if k == len(s) || k == len(s)-1 && s[k] == '\n' {
				return key, s[sp:k], k, true
			}
			if s[k] == '\n' {
				break // . stops at a line break
			}
		}
		if sp == start {
			break
		}
	}
	return "", "", 0, false
}

// jsLookahead is \s*(?=[^,]+:) from i: where the match ends.
func jsLookahead(s string, i int) (int, bool) {
	ws := i
	for ws < len(s) && isPySpaceAt(s, ws) {
		ws += pyRuneLen(s, ws)
	}
	for sp := ws; ; sp = prevRune(s, sp, i) {
		run := s[sp:]
		if k := strings.IndexByte(run, ','); k >= 0 {
			run = run[:k]
		}
		if strings.IndexByte(run[min(1, len(run)):], ':') >= 0 {
			return sp, true
		}
		if sp == i {
			return 0, false
		}
	}
}

// jsValue is BFCL's parse_js_value.
func jsValue(s string) any {
	s = pyStrip(s)
	switch {
	case s == "true":
		return true
	case s == "false":
		return false
	case strings.HasPrefix(s, `"`) && strings.HasSuffix(s, `"`) || strings.HasPrefix(s, "'") && strings.HasSuffix(s, "'"):
		return pySlice(s, 1, -1)
	}
	return pyNumber(s)
}

// pyNumber is int(s), else float(s), else s, as Python reads them.
func pyNumber(s string) any {
	t := strings.ReplaceAll(asciiDigits(pyStrip(s)), "_", "")
	if !underscoresOK(pyStrip(s)) {
		return s
	}
	if _, ok := new(big.Int).SetString(strings.TrimPrefix(t, "+"), 10); ok && t != "" && !strings.HasPrefix(t, "+-") {
		return pyInt(t)
	}
	switch strings.ToLower(strings.TrimLeft(t, "+-")) {
	case "inf", "infinity":
		if strings.HasPrefix(t, "-") {
			return floatValue(math.Inf(-1))
		}
		return floatValue(math.Inf(1))
	case "nan":
		return floatValue(math.NaN())
	}
	if strings.ContainsAny(t, "xXpP") {
		return s // Go reads hex floats; Python's float does not
	}
	if f, err := strconv.ParseFloat(t, 64); err == nil || errors.Is(err, strconv.ErrRange) {
		return floatValue(f)
	}
	return s
}

// underscoresOK is Python's rule for _ in a number: only between digits.
func underscoresOK(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '_' && (i == 0 || i == len(s)-1 || !isDigitByte(s[i-1]) || !isDigitByte(s[i+1])) {
			return false
		}
	}
	return true
}

func isDigitByte(c byte) bool { return c >= '0' && c <= '9' || c >= 0x80 }

// pyInt is int(s) for a text the patterns above accepted: a sign and
// digits, any Unicode decimal digits.
func pyInt(s string) any {
	t := strings.TrimPrefix(asciiDigits(pyStrip(s)), "+")
	n, ok := new(big.Int).SetString(t, 10)
	if !ok {
		return s
	}
	return json.Number(n.String())
}

// pyFloat is float(s) for a text the patterns accepted.
func pyFloat(s string) any {
	f, err := strconv.ParseFloat(asciiDigits(pyStrip(s)), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return s
	}
	return floatValue(f)
}

// floatValue writes a float64 as a JSON number that stays a float; NaN,
// which JSON cannot hold, stays a float64.
func floatValue(f float64) any {
	switch {
	case math.IsNaN(f):
		return f
	case math.IsInf(f, 1):
		return json.Number("1e999")
	case math.IsInf(f, -1):
		return json.Number("-1e999")
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return json.Number(s)
}

// asciiDigits writes Unicode decimal digits as ASCII ones, as Python's
// int and float read them.
func asciiDigits(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x80 || !unicode.Is(unicode.Nd, r) {
			return r
		}
		for _, t := range unicode.Nd.R16 {
			if rune(t.Lo) <= r && r <= rune(t.Hi) {
				return '0' + (r-rune(t.Lo))%10
			}
		}
		for _, t := range unicode.Nd.R32 {
			if rune(t.Lo) <= r && r <= rune(t.Hi) {
				return '0' + (r-rune(t.Lo))%10
			}
		}
		return r
	}, s)
}

// pyStrip is Python's str.strip(): Unicode white space.
func pyStrip(s string) string { return strings.TrimFunc(s, isPySpace) }

func isPySpace(r rune) bool {
	return r >= '\t' && r <= '\r' || r >= 0x1c && r <= ' ' || r == 0x85 || unicode.In(r, unicode.Z)
}

func isPySpaceAt(s string, i int) bool {
	r, _ := utf8.DecodeRuneInString(s[i:])
	return isPySpace(r)
}

// pyRuneLen is the length of the character at s[i] (1 past the end).
func pyRuneLen(s string, i int) int {
	_, n := utf8.DecodeRuneInString(s[i:])
	return max(n, 1)
}

func prevRune(s string, i, floor int) int {
	if i <= floor {
		return floor
	}
	j := i - 1
	for j > floor && s[j]&0xC0 == 0x80 {
		j--
	}
	return j
}

// pySlice is s[from:to] on characters, to < 0 counting from the end.
func pySlice(s string, from, to int) string {
	r := []rune(s)
	if to < 0 {
		to += len(r)
	}
	if from > len(r) || to <= from {
		return ""
	}
	return string(r[from:min(to, len(r))])
}
