package report

import (
	"strings"
)

// ANSI styles of the text report.
const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiDim    = "\x1b[2m"
	ansiRed    = "\x1b[31m"
	ansiGreen  = "\x1b[32m"
	ansiYellow = "\x1b[33m"
)

// verdictStyle is the colour of each verdict, by the word or symbol the
// text report writes for it.
var verdictStyle = map[string]string{
	"PASS": ansiGreen, "FAIL": ansiRed, "ERROR": ansiYellow,
	"✓": ansiGreen, "✗": ansiRed, "!": ansiYellow,
}

// paintCase colours one case of the text report, line by line, from the
// shapes trajeval.WriteCase writes:
//  1. the heading (PASS, FAIL or ERROR first): the verdict in bold colour;
//  2. an evaluator's line (✓, ✗ or ! after the indent): the symbol in
//     colour, the rest as it is;
//  3. an error or a warning: yellow;
//  4. every other line (alignment, near misses, checks, notes): dimmed,
//     with "✗ missing" and "✗ near miss" in red.
//
// The words are left as they are, so that the report reads the same
// without colour.
func paintCase(s string) string {
	var b strings.Builder
	b.Grow(len(s) + len(s)/4)
	for line := range strings.Lines(s) {
		body, nl := strings.CutSuffix(line, "\n")
		paintLine(&b, body)
		if nl {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func paintLine(b *strings.Builder, line string) {
	if line == "" {
		return
	}
	rest := strings.TrimLeft(line, " ")
	indent := line[:len(line)-len(rest)]
	word, after, _ := strings.Cut(rest, " ")
	b.WriteString(indent)
	switch {
	case indent == "" && verdictStyle[word] != "":
		b.WriteString(ansiBold + verdictStyle[word] + word + ansiReset)
		if len(rest) > len(word) {
			b.WriteString(" " + after)
		}
	case indent != "" && verdictStyle[word] != "":
		b.WriteString(verdictStyle[word] + word + ansiReset + " " + after)
	case strings.HasPrefix(rest, "error:") || strings.HasPrefix(rest, "warning:"):
		b.WriteString(ansiYellow + rest + ansiReset)
	default:
		for _, mark := range []string{"✗ missing", "✗ near miss"} {
			if before, after, found := strings.Cut(rest, mark); found {
				b.WriteString(ansiDim + before + ansiReset + ansiRed + mark + ansiReset)
				if after != "" {
					b.WriteString(ansiDim + after + ansiReset)
				}
				return
			}
		}
		b.WriteString(ansiDim + rest + ansiReset)
	}
}
