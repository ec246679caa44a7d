package otlp

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/trajeval/trajeval/internal/jsonl"
)

// pdata decodes OTLP/JSON with jsoniter, whose errors read like
//
//	ReadArray: expect [ or , or ] or n, but found 5, error found in #10 byte of ...|eSpans": 5}|..., bigger context ...|{"resourceSpans": 5}|...
//
// with the name of a Go function and no line. explain turns one into a
// message in the user's terms and the line and column of data it points
// at (from firstLine).
var (
	iterError = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?s)^(\S+): (.*), error found in #(\d+) byte of \.\.\.\|(.*)\|\.\.\., bigger context \.\.\.\|(.*)\|\.\.\.$`)
	})
	lastKey = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"([^"\\]+)"\s*:\s*[^:,{\[]*$`) })
)

// what jsoniter's operations expect, in the user's terms.
var expects = []struct{ op, want string }{
	{"ReadArray", "an array"},
	{"ReadObject", "an object"},
	{"ReadString", "a string"},
	{"ReadBool", "true or false"},
	{"ReadUint", "a non-negative integer"},
	{"readUint", "a non-negative integer"},
	{"ReadInt", "an integer"},
	{"ReadFloat", "a number"},
	{"readNumber", "a number"},
}

func explain(data []byte, err error, firstLine int) (msg string, line, col int) {
	m := iterError().FindStringSubmatch(err.Error())
	if m == nil {
		return "not OTLP traces: " + strings.TrimPrefix(err.Error(), "json: "), firstLine, 0
	}
	op, detail, snippet, context := m[1], m[2], m[4], m[5]
	back, _ := strconv.Atoi(m[3])
	off := -1
	if c := bytes.Index(data, []byte(context)); c >= 0 {
		if p := strings.Index(context, snippet); p >= 0 {
			off = max(c+p+back-1, 0) // jsoniter stops just after what it found
		}
	}
	field := ""
	if off >= 0 {
		if k := lastKey().FindSubmatch(data[:off]); k != nil {
			field = " for " + strconv.Quote(string(k[1]))
		}
	}
	msg = "not OTLP traces: " + detail + field
	for _, e := range expects {
		if strings.HasPrefix(op, e.op) {
			got := "something else"
			if i := strings.LastIndex(detail, "but found "); i >= 0 && len(detail) > i+len("but found ") {
				got = kindOf(detail[i+len("but found "):])
			}
			msg = "expected " + e.want + field + ", got " + got
			break
		}
	}
	if strings.Contains(op, "ID.") && strings.Contains(detail, "length") {
		msg = "an id of the wrong length" + field + ": trace ids are 32 hex digits, span ids 16"
	}
	if off < 0 {
		return msg, firstLine, 0
	}
	line, col = jsonl.Position(data, int64(off))
	return msg, line + firstLine - 1, col
}

// kindOf names the kind of JSON value that starts with s.
func kindOf(s string) string {
	switch s[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "true or false"
	case 'n':
		return "null"
	}
	return "a number"
}
