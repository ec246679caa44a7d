package config

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/sniff"
)

// ParseLines reads JSON Lines (a dataset, one object per line) into a
// list node whose items are the lines' values, each placed at its own
// line; blank lines are skipped. An error is placed at its line too. A
// byte order mark is dropped at the start of data, as Parse drops it, and
// nowhere else.
func ParseLines(file string, data []byte) (*Node, error) {
	data = sniff.TrimBOM(data)
	root := &Node{Kind: List, File: file, Line: 1, Col: 1}
	n := 0
	for rest := data; len(rest) > 0; {
		var line []byte
		line, rest, _ = bytes.Cut(rest, []byte{'\n'})
		n++
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		// A row is one line: a carriage return (of CRLF, or stray) is white
		// space in JSON, never the line break YAML would make of it.
		line = bytes.ReplaceAll(line, []byte{'\r'}, []byte{' '})
		v, err := whole(file, line)
		if err != nil {
			var se *trajeval.SpecError
			if errors.As(err, &se) {
				c := *se
				c.Line += n - 1
				return nil, &c
			}
			return nil, fmt.Errorf("%s:%d: %w", file, n, err)
		}
		if v.Kind != Map {
			return nil, &trajeval.SpecError{File: file, Line: n, Col: 1, Msg: fmt.Sprintf("line %d is %s, not a JSON object", n, v.describe())}
		}
		shift(v, n-1)
		root.Items = append(root.Items, v)
		root.size += v.size
	}
	if len(root.Items) == 0 {
		return nil, &trajeval.SpecError{File: file, Line: 1, Col: 1, Msg: "the file is empty"}
	}
	return root, nil
}

func shift(n *Node, by int) {
	n.Line += by
	for _, it := range n.Items {
		shift(it, by)
	}
	for i := range n.Entries {
		n.Entries[i].KeyLine += by
		shift(n.Entries[i].Value, by)
	}
}
