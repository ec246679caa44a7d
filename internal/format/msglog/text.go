package msglog

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/jsonl"
	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/sniff"
)

// EachText is EachValue for a reader that walks the text of each value
// itself (with a jsonv.Parser) rather than being handed it decoded: the
// same values, lines, damage, errors and warnings, in the same order.
//
// walk reads text, one whole JSON value with nothing but white space
// after it, into what the reader keeps of it; it says no (ok false)
// whenever it does not read the text exactly as encoding/json would
// decode it (a Parser's refusal: invalid UTF-8, a lone surrogate, broken
// or too deep JSON), and then must have kept nothing of it. What walk
// refuses is decoded by encoding/json as EachValue decodes it, and the
// value, or what damage left of it (partial), is written again as JSON,
// which a Parser reads, and walked; so walk is the reader's only reading
// of a value. walk is called by one goroutine at a time, not always fn's,
// and what it returns must not hold text's bytes.
//
// fn gets what walk returned, with the line where the value starts;
// partial as in EachValue, with the zero T when damage lost all of the
// value. A null is not a record (see jsonl.NotARecord), as in EachValue.
func EachText[T any](ctx context.Context, in trajeval.Input, walk func(text []byte) (T, bool), fn func(x T, line int, partial bool) error) error {
	br := bufio.NewReaderSize(in.R, BufferSize(in.R))
	head, _ := br.Peek(br.Size())
	if len(head) == br.Size() && br.Size() < 1<<20 {
		// As in EachValue: the head is the first MiB.
		br = bufio.NewReaderSize(br, 1<<20)
		head, _ = br.Peek(1 << 20)
	}
	values := 0
	// again walks a value encoding/json decoded, written again as JSON.
	again := func(v any, line int, partial bool) error {
		if v == nil && !partial {
			return jsonl.NotARecord(in, line, 0, "null")
		}
		var x T
		if v != nil {
			values++
			text, err := json.Marshal(v)
			var ok bool
			if err == nil {
				x, ok = walk(text)
			}
			if !ok {
				return &trajeval.TraceError{File: in.Name, Line: line, Msg: "a value read by encoding/json could not be read again",
					Err: trajeval.ErrCorruptTrace}
			}
		}
		return fn(x, line, partial)
	}
	// first walks a value's own text; ok false leaves it to again.
	first := func(text []byte, line int) (ok bool, err error) {
		if isNull(text) {
			return true, jsonl.NotARecord(in, line, 0, "null")
		}
		x, ok := walk(text)
		if !ok {
			return false, nil
		}
		values++
		return true, fn(x, line, false)
	}
	if jsonv.Valid(sniff.FirstLine(head)) {
		type lineText struct {
			x       T
			v       any
			n       int
			walked  bool
			null    bool
			partial bool
		}
		decode := func() jsonl.Decoder[lineText] {
			return func(b []byte, n int, _ func(trajeval.Warning)) (lineText, error) {
				if isNull(b) {
					return lineText{n: n, null: true}, nil
				}
				if x, ok := walk(b); ok {
					return lineText{x: x, n: n, walked: true}, nil
				}
				l, err := decodeLine(in)(b, n, nil)
				return lineText{v: l.v, n: l.n, partial: l.partial}, err
			}
		}
		err := jsonl.ParallelBounded(ctx, br, 1, decode, in.Warn, func(l lineText) error {
			switch {
			case l.null:
				return jsonl.NotARecord(in, l.n, 0, "null")
			case l.walked:
				values++
				return fn(l.x, l.n, false)
			}
			return again(l.v, l.n, l.partial)
		})
		if err != nil {
			return jsonl.ReadError(in.Name, err)
		}
	} else {
		data, err := jsonl.ReadDocument(in.Name, br, jsonl.SizeOf(in.R), nil)
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		// One value walked whole, as most documents are; anything else
		// (several values, damage, what a Parser refuses) value by value.
		start := int64(len(data) - len(bytes.TrimLeft(data, " \t\r\n")))
		ok, err := first(data, jsonl.NewLines(data).Line(start))
		if err != nil {
			return err
		}
		if !ok {
			if final, err := eachDocValue(ctx, in, data, again); final {
				return err
			}
		}
	}
	if values == 0 {
		return &trajeval.TraceError{File: in.Name, Msg: "no JSON values", Err: trajeval.ErrEmptyTrace}
	}
	return nil
}

// isNull reports whether text is null, white space around it.
func isNull(text []byte) bool {
	return string(bytes.Trim(text, " \t\r\n")) == "null"
}

// WalkStr reads a value with p as Str reads it decoded: a string's text,
// "" for any other value (read and dropped).
func WalkStr(p *jsonv.Parser) (string, bool) {
	if p.Peek() == '"' {
		return p.Str()
	}
	return "", p.Skip()
}

// WalkName is WalkStr for text that repeats from record to record
// (types, names, the ids of traces and parents), interned (see
// jsonv.Parser.Name).
func WalkName(p *jsonv.Parser) (string, bool) {
	if p.Peek() == '"' {
		return p.Name()
	}
	return "", p.Skip()
}

// WalkTimeText reads a string that may be a time with p: its bytes,
// valid until the next call on p. The usual shape is plain ASCII, read
// in place without a look for escapes past it or a check for UTF-8 (see
// ISOTime).
func WalkTimeText(p *jsonv.Parser) ([]byte, bool) {
	if b, ok := p.Plain(len("2006-01-02T15:04:05.999999999-07:00")); ok {
		return b, true
	}
	return p.Bytes()
}
