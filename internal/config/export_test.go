package config

// ParseDepth is Parse reading at most depth levels, and refusing from the
// tokens, before the YAML parser, a document nested deeper than
// tokenDepth: a test compares the bound from the tokens with the
// converter's exact one.
func ParseDepth(file string, data []byte, depth, tokenDepth int) (*Node, error) {
	return parse(file, data, depth, tokenDepth)
}

// MaxDepth is the deepest nesting Parse reads, and MaxTokenDepth the
// deepest it gives the YAML parser.
const MaxDepth, MaxTokenDepth = maxDepth, maxParseDepth

// FlowLines reads the block list under key in data with the one-line
// reader alone (the whole list as one part), and reports false where that
// reader leaves the list to the YAML parser, or the list does not run to
// the end of data (what follows is the head's, parsed on its own).
func FlowLines(file string, data []byte, key string) ([]*Node, bool) {
	sp, ok := splitList(data, []string{key})
	if !ok || sp.end != len(data) {
		return nil, false
	}
	return flowLines(new(flowPart), file, data[sp.items[0].off:sp.end], sp.items[0].line-1, sp.indent, sp.key, 0, len(sp.items))
}

// LineLengths is lineLengths, for the test of lone carriage returns.
var LineLengths = lineLengths
