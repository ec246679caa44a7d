package eventlog

import "strings"

// Text returns the text of a list of content blocks, joined by newlines,
// when every block is a text block ({"type": "text", "text": ...}); false
// when one is not. An empty list gives "".
func Text(blocks []any) (string, bool) {
	texts := make([]string, 0, len(blocks))
	for _, b := range blocks {
		blk, _ := b.(map[string]any)
		t, ok := blk["text"].(string)
		if blk["type"] != "text" || !ok {
			return "", false
		}
		texts = append(texts, t)
	}
	return strings.Join(texts, "\n"), true
}
