package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/lexer"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/jsonl"
	"github.com/trajeval/trajeval/internal/sniff"
)

// maxDepth bounds nesting, so a hostile file cannot exhaust the stack.
const maxDepth = 512

// maxNodes bounds the values a document expands to, aliases included,
// beyond one a byte of the document, so a small file of nested aliases
// ("billion laughs") cannot exhaust memory while a long file of plain
// values (a suite of a million cases) is read.
const maxNodes = 1_000_000

// Parse reads a YAML (or JSON) document into a node tree. Errors are
// *trajeval.SpecError placed at the offending line and column. Duplicate
// keys, anchors that are never defined and multi-document files are
// errors. A UTF-8 byte order mark at the start of data, which YAML 1.2
// allows there and Windows editors write, is dropped: line 1's columns
// count from the byte after it. A mark anywhere else is an error, or text
// in a quoted string.
func Parse(file string, data []byte) (*Node, error) {
	return parse(file, sniff.TrimBOM(data), maxDepth, maxParseDepth)
}

// parse is Parse reading at most depth levels, and refusing from the
// tokens a document nested deeper than tokenDepth.
func parse(file string, data []byte, depth, tokenDepth int) (n *Node, err error) {
	if len(strings.TrimSpace(string(data))) == 0 {
		return nil, &trajeval.SpecError{File: file, Line: 1, Col: 1, Msg: "the file is empty"}
	}
	if i := strings.IndexByte(string(data), 0); i >= 0 {
		return nil, &trajeval.SpecError{File: file, Line: 1, Col: 1, Msg: "binary file: not YAML or JSON"}
	}
	defer func() {
		// The YAML parser is third-party code: a panic on hostile input must
		// not take the run down with it.
		if r := recover(); r != nil {
			n, err = nil, &trajeval.SpecError{File: file, Line: 1, Col: 1, Msg: fmt.Sprintf("cannot parse: %v", r)}
		}
	}()
	f, perr := parseYAML(data, tokenDepth, depth)
	if perr != nil {
		// A bound passed is the error, even in a file meant as JSON.
		var le *loadError
		if jerr := jsonError(file, data); jerr != nil && !errors.As(perr, &le) {
			return nil, jerr
		}
		return nil, yamlError(file, data, perr)
	}
	var docs []ast.Node
	for _, d := range f.Docs {
		if d != nil && d.Body != nil {
			docs = append(docs, d.Body)
		}
	}
	c := converter{file: file, anchors: map[string]*Node{}, lineLen: lineLengths(data), data: data, maxDepth: depth}
	switch len(docs) {
	case 0:
		return nil, &trajeval.SpecError{File: file, Line: 1, Col: 1, Msg: "the file holds no document"}
	case 1:
	default:
		line, col := c.at(docs[1].GetToken().Position)
		return nil, &trajeval.SpecError{File: file, Line: line, Col: col, Msg: "more than one YAML document in the file"}
	}
	c.limit = maxNodes + len(data)
	n, err = c.convert(docs[0], "", 0)
	if err == nil && n.size > c.limit {
		return nil, n.Errorf("the document expands to more than %d values (aliases included)", c.limit)
	}
	return n, err
}

// jsonError reports a file that is meant as JSON (a .json name, or a
// first character that opens an object or array) and is not valid JSON in
// JSON's terms: a cut-off eval set is "unexpected end of JSON", not a YAML
// quoting complaint. It returns nil for anything else.
func jsonError(file string, data []byte) error {
	t := bytes.TrimLeft(data, " \t\r\n\ufeff")
	if !strings.EqualFold(filepath.Ext(file), ".json") && (len(t) == 0 || (t[0] != '{' && t[0] != '[')) {
		return nil
	}
	var v any
	err := json.Unmarshal(data, &v)
	if err == nil {
		return nil
	}
	// Positions follow YAML's lines, as every other error of this package:
	// a lone CR ends a line there, while JSON reads it as white space. The
	// swap keeps every offset.
	yamlLines := bytes.Clone(data)
	for i, c := range yamlLines {
		if c == '\r' && (i+1 == len(yamlLines) || yamlLines[i+1] != '\n') {
			yamlLines[i] = '\n'
		}
	}
	msg, line, col := jsonl.Describe(yamlLines, err, 1)
	return &trajeval.SpecError{File: file, Line: line, Col: col, Msg: msg}
}

// maxParseDepth bounds the nesting the YAML parser is given: its time
// grows with the square of the depth (32 KB of "[" took a second, 100 KB
// a minute and a half), so a deeper document is refused from its tokens,
// which take linear time. It is maxDepth + 1: the tokens count a
// collection one level, where the converter counts its values one deeper
// (an empty "[]" at the top is a level from the tokens, at depth 0), so
// a document refused from its tokens is refused by the converter too
// (TestParse_tokenDepth checks it on generated documents, FuzzTokenDepth
// on any input). A bound any looser lets through chunks the converter
// then refuses, each costing the parser the square of their depth.
const maxParseDepth = maxDepth + 1

// maxBlockKeys bounds the keys of one block map (a key a line) the YAML
// parser is given: it reads each key of such a map one call deeper than
// the last and copies the keys after it, so its time grows with the
// square of a map's keys (10,000 keys, 80 KB, took two seconds; 40,000
// half a minute). A document of maps this large is read in linear time,
// about as fast as an ordinary one; a map of more keys is refused. Flow
// maps ({…}, JSON) are read in linear time and are not bounded. The bound
// is on each map, not on the document, so a case list read in parts
// (ParseList) meets the same maps as the whole document.
const maxBlockKeys = 1024

// parseYAML is the YAML parser's ParseBytes, refusing a document that
// would take it too long (see maxParseDepth and maxBlockKeys) before
// parsing it.
func parseYAML(data []byte, tokenDepth, depth int) (*ast.File, error) {
	tokens := lexer.Tokenize(string(data))
	if err := tooHard(tokens, tokenDepth, depth); err != nil {
		return nil, err
	}
	return parser.Parse(tokens, 0)
}

// tooHard returns an error at the first token nested deeper than
// tokenDepth levels (its message says depth, the converter's bound), or at the first key past maxBlockKeys in its block map;
// else nil. Flow collections nest by their brackets; block collections by
// their indicators' columns: a dash or a key further right than the
// collection it is in opens one more, and a key at a sequence's column
// (a sequence under a key may stand at the key's column) closes it.
func tooHard(tokens token.Tokens, tokenDepth, depth int) error {
	type level struct {
		col  int
		seq  bool
		keys int
	}
	var block []level
	flow := 0
	for i, tk := range tokens {
		if tk.Position == nil {
			continue
		}
		col := tk.Position.Column
		switch tk.Type {
		case token.SequenceStartType, token.MappingStartType:
			flow++
		case token.SequenceEndType, token.MappingEndType:
			flow = max(flow-1, 0)
		case token.SequenceEntryType:
			if flow > 0 {
				continue
			}
			for len(block) > 0 && block[len(block)-1].col > col {
				block = block[:len(block)-1]
			}
			if len(block) == 0 || block[len(block)-1].col < col || !block[len(block)-1].seq {
				block = append(block, level{col: col, seq: true})
			}
		case token.MappingKeyType, token.MappingValueType:
			if flow > 0 {
				continue
			}
			at := tk
			if tk.Type == token.MappingValueType && i > 0 && tokens[i-1].Position != nil {
				at = tokens[i-1] // the key
				col = at.Position.Column
			}
			for len(block) > 0 && (block[len(block)-1].col > col || block[len(block)-1].col == col && block[len(block)-1].seq) {
				block = block[:len(block)-1]
			}
			if len(block) == 0 || block[len(block)-1].col < col {
				block = append(block, level{col: col})
			}
			top := &block[len(block)-1]
			if top.keys++; top.keys > maxBlockKeys {
				return &loadError{at, fmt.Sprintf("a block map of more than %d keys: write a map this large in flow style, {key: value, ...}, or as JSON", maxBlockKeys)}
			}
		}
		if flow+len(block) > tokenDepth {
			return &loadError{tk, fmt.Sprintf("nested more than %d levels deep", depth)}
		}
	}
	return nil
}

// A loadError is a document the YAML parser would take too long to read,
// at the token that tips it over; it reads as the parser's errors do.
type loadError struct {
	tk  *token.Token
	msg string
}

func (e *loadError) Error() string          { return e.msg }
func (e *loadError) GetToken() *token.Token { return e.tk }
func (e *loadError) GetMessage() string     { return e.msg }

func yamlError(file string, data []byte, err error) error {
	var ye interface {
		GetToken() *token.Token
		GetMessage() string
	}
	if errors.As(err, &ye) && ye.GetToken() != nil {
		p := ye.GetToken().Position
		// The parser may place an unclosed token past the end of its line
		// (or of the file): point just after the line's last byte instead.
		line, col := p.Line, p.Column
		if lens := lineLengths(data); line >= 1 && line <= len(lens) {
			col = min(max(col, 1), lens[line-1]+1)
		} else if line > len(lens) {
			line, col = len(lens), lens[len(lens)-1]+1
		}
		if le, ok := ye.(*loadError); ok {
			// The document is valid YAML, too costly to read.
			return &trajeval.SpecError{File: file, Line: line, Col: col, Msg: le.msg}
		}
		if l := teach(data, line, col, ye.GetMessage()); l != nil {
			return &trajeval.SpecError{File: file, Line: l.line, Col: l.col, Msg: "invalid YAML: " + l.msg, Hint: l.hint}
		}
		return &trajeval.SpecError{File: file, Line: line, Col: col, Msg: "invalid YAML: " + ye.GetMessage()}
	}
	return &trajeval.SpecError{File: file, Line: 1, Col: 1, Msg: "invalid YAML: " + err.Error()}
}

type converter struct {
	file     string
	anchors  map[string]*Node
	lineLen  []int // bytes of each line, newline excluded
	base     int   // lines before the input in its file, when it is a part of one
	limit    int   // the most values the input may expand to
	maxDepth int   // the deepest a value may be
	data     []byte
	starts   []int // the offset of each line of data, made when a null asks
}

func (c *converter) place(n *Node, tk *token.Token, path string) *Node {
	n.File, n.Path, n.size = c.file, path, 1
	if tk != nil && tk.Position != nil {
		n.Line, n.Col = c.at(tk.Position)
	}
	return n
}

// at returns the line and column of p inside the input. The YAML parser
// places an empty value ("a:" at the end of a line) past the line's end,
// and may count a line more than the input has (after a comment ending in
// CRLF): the place is then just after the last byte of the line, or of
// the input.
func (c *converter) at(p *token.Position) (line, col int) {
	line, col = max(p.Line, 1), max(p.Column, 1)
	if line > len(c.lineLen) {
		line, col = len(c.lineLen), c.lineLen[len(c.lineLen)-1]+1
	}
	return c.base + line, min(col, c.lineLen[line-1]+1)
}

// placeNull places a null written as nothing (a key or dash with only
// blanks and a comment after it on its line) just after the last byte
// before the blanks. The YAML parser places it there, unless the input
// ends after it, where it places it a column further: a part of a
// document must place it as the whole document does.
func (c *converter) placeNull(n *Node) *Node {
	line := n.Line - c.base
	if line < 1 || line > len(c.lineLen) || c.data == nil {
		return n
	}
	if c.starts == nil {
		off := 0
		for _, l := range c.lineLen {
			c.starts = append(c.starts, off)
			off += l
			if off < len(c.data) && c.data[off] == '\r' {
				off++
			}
			if off < len(c.data) && c.data[off] == '\n' {
				off++
			}
		}
	}
	text := c.data[c.starts[line-1] : c.starts[line-1]+c.lineLen[line-1]]
	col := max(1, min(n.Col, len(text)+1))
	if rest := bytes.TrimLeft(text[col-1:], " \t"); len(rest) > 0 && rest[0] != '#' {
		return n // written: ~, null
	}
	for col > 1 && (text[col-2] == ' ' || text[col-2] == '\t') {
		col--
	}
	n.Col = col
	return n
}

// lineLengths returns the bytes of each line of data, line breaks
// excluded; as in YAML, a line ends at \n, \r\n or a lone \r.
func lineLengths(data []byte) []int {
	var out []int
	cr := bytes.IndexByte(data, '\r') >= 0
	for {
		i := lineEnd(data, cr)
		if i == len(data) {
			return append(out, len(data))
		}
		out = append(out, i)
		if data[i] == '\r' && i+1 < len(data) && data[i+1] == '\n' {
			i++
		}
		data = data[i+1:]
	}
}

func (c *converter) convert(an ast.Node, path string, depth int) (*Node, error) {
	if depth > c.maxDepth {
		tk := an.GetToken()
		return nil, c.place(&Node{}, tk, path).Errorf("nested more than %d levels deep", c.maxDepth)
	}
	tk := an.GetToken()
	switch x := an.(type) {
	case *ast.NullNode:
		return c.placeNull(c.place(&Node{Kind: Null}, tk, path)), nil
	case *ast.BoolNode:
		return c.place(&Node{Kind: Bool, Text: strconv.FormatBool(x.Value)}, tk, path), nil
	case *ast.IntegerNode:
		return c.place(&Node{Kind: Number, Text: fmt.Sprint(x.Value)}, tk, path), nil
	case *ast.FloatNode:
		if math.IsInf(x.Value, 0) || math.IsNaN(x.Value) {
			return nil, c.place(&Node{}, tk, path).Errorf("%s is not a JSON number", tk.Value)
		}
		return c.place(&Node{Kind: Number, Text: jsonNumber(tk.Value, x.Value)}, tk, path), nil
	case *ast.InfinityNode, *ast.NanNode:
		return nil, c.place(&Node{}, tk, path).Errorf("%s is not a JSON number", tk.Value)
	case *ast.StringNode:
		// The YAML parser leaves plain scalars it cannot hold (1e3, 2^64) as
		// strings; in JSON and YAML 1.2 they are numbers.
		if tk != nil && tk.Type == token.StringType && json.Valid([]byte(x.Value)) && strings.ContainsAny(x.Value[:1], "-0123456789") {
			return c.place(&Node{Kind: Number, Text: x.Value}, tk, path), nil
		}
		n := c.place(&Node{Kind: String, Text: x.Value}, tk, path)
		n.TextCol = textCol(n, tk)
		return n, nil
	case *ast.LiteralNode:
		return c.place(&Node{Kind: String, Text: x.Value.Value}, tk, path), nil
	case *ast.AnchorNode:
		v, err := c.convert(x.Value, path, depth+1)
		if err != nil {
			return nil, err
		}
		c.anchors[x.Name.String()] = v
		return v, nil
	case *ast.AliasNode:
		v, ok := c.anchors[x.Value.String()]
		if !ok {
			return nil, c.place(&Node{}, tk, path).Errorf("alias *%s has no anchor before it", x.Value.String())
		}
		return v, nil
	case *ast.TagNode:
		if tk != nil && tk.Value == string(token.StringTag) {
			if sc, ok := x.Value.(ast.ScalarNode); ok {
				if vt := sc.GetToken(); vt != nil {
					return c.place(&Node{Kind: String, Text: vt.Value}, vt, path), nil
				}
			}
		}
		return c.convert(x.Value, path, depth+1)
	case *ast.SequenceNode:
		n := c.place(&Node{Kind: List}, tk, path)
		for i, v := range x.Values {
			item, err := c.convert(v, fmt.Sprintf("%s[%d]", path, i), depth+1)
			if err != nil {
				return nil, err
			}
			if n.size += item.size; n.size > c.limit {
				return nil, n.Errorf("the document expands to more than %d values (aliases included)", c.limit)
			}
			n.Items = append(n.Items, item)
		}
		return n, nil
	case *ast.MappingNode:
		return c.mapping(x.Values, tk, path, depth)
	case *ast.MappingValueNode:
		return c.mapping([]*ast.MappingValueNode{x}, tk, path, depth)
	}
	return nil, c.place(&Node{}, tk, path).Errorf("unsupported YAML construct %s", an.Type())
}

// textCol returns the column of the first character of a string's text
// when the text is written on one line as it is (plain, or quoted without
// escapes), else 0.
func textCol(n *Node, tk *token.Token) int {
	if tk == nil || n.Col == 0 {
		return 0
	}
	raw := strings.TrimSpace(tk.Origin)
	switch {
	case tk.Type == token.DoubleQuoteType && raw == `"`+n.Text+`"`,
		tk.Type == token.SingleQuoteType && raw == "'"+n.Text+"'":
		return n.Col + 1
	case tk.Type == token.StringType && raw == n.Text && !strings.ContainsAny(raw, "\r\n"):
		return n.Col
	}
	return 0
}

// jsonNumber returns the YAML float spelled text (value v) as a JSON
// number, keeping its digits where it can: YAML also writes 0., .5, +1.5,
// 1.e3 and 1_000.5, which JSON does not.
func jsonNumber(text string, v float64) string {
	t := strings.TrimPrefix(text, "+")
	if strings.HasPrefix(t, ".") || strings.HasPrefix(t, "-.") {
		t = strings.Replace(t, ".", "0.", 1)
	}
	if i := strings.IndexByte(t, '.'); i >= 0 && (i+1 == len(t) || t[i+1] == 'e' || t[i+1] == 'E') {
		t = t[:i] + t[i+1:]
	}
	if !json.Valid([]byte(t)) || !strings.ContainsAny(t[:1], "-0123456789") {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return t
}

func (c *converter) mapping(values []*ast.MappingValueNode, tk *token.Token, path string, depth int) (*Node, error) {
	n := c.place(&Node{Kind: Map}, tk, path)
	if len(values) > 0 {
		if ktk := values[0].Key.GetToken(); ktk != nil && ktk.Position != nil {
			n.Line, n.Col = c.at(ktk.Position)
		}
	}
	seen := map[string]bool{}
	merged := map[string]bool{} // keys taken from a merge, which a key of n's own overrides
	for _, mv := range values {
		ktk := mv.Key.GetToken()
		if mv.Key.IsMergeKey() {
			v, err := c.convert(mv.Value, path, depth+1)
			if err != nil {
				return nil, err
			}
			maps := []*Node{v}
			if v.Kind == List {
				maps = v.Items // <<: [*a, *b]: earlier maps win
			}
			for _, m := range maps {
				if m.Kind != Map {
					return nil, m.Errorf("a merge key (<<) needs a map or a list of maps")
				}
				if n.size += m.size; n.size > c.limit {
					return nil, n.Errorf("the document expands to more than %d values (aliases included)", c.limit)
				}
				for _, e := range m.Entries {
					if !seen[e.Key] {
						seen[e.Key], merged[e.Key] = true, true
						n.Entries = append(n.Entries, e)
					}
				}
			}
			continue
		}
		key, err := c.key(mv.Key, path)
		if err != nil {
			return nil, err
		}
		v, err := c.convert(mv.Value, join(path, key), depth+1)
		if err != nil {
			return nil, err
		}
		if n.size += v.size; n.size > c.limit {
			return nil, n.Errorf("the document expands to more than %d values (aliases included)", c.limit)
		}
		e := Entry{Key: key, Value: v}
		if ktk != nil && ktk.Position != nil {
			e.KeyLine, e.KeyCol = c.at(ktk.Position)
		}
		if merged[key] {
			delete(merged, key)
			for i := range n.Entries {
				if n.Entries[i].Key == key {
					n.Entries[i] = e
				}
			}
			continue
		}
		if seen[key] {
			err := n.Errorf("key %q is given twice", key)
			err.Line, err.Col, err.Path = e.KeyLine, e.KeyCol, join(path, key)
			return nil, err
		}
		seen[key] = true
		n.Entries = append(n.Entries, e)
	}
	return n, nil
}

func (c *converter) key(k ast.MapKeyNode, path string) (string, error) {
	switch x := k.(type) {
	case *ast.StringNode:
		return x.Value, nil
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode:
		return x.GetToken().Value, nil
	case *ast.NullNode:
		return "null", nil
	}
	tk := k.GetToken()
	return "", c.place(&Node{}, tk, path).Errorf("a map key must be a plain scalar")
}
