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
