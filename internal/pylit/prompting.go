package pylit

import (
	"errors"
	"strings"
)

// DecodePrompting reads a prompting model's answer as the Berkeley
// Function Calling Leaderboard's default decoder
// (default_decode_ast_prompting) does, and no more:
//  1. backticks, line breaks and spaces are trimmed from both ends (so a
//     ``` fence without a language goes; one with a language leaves the
//     language's name in front, and the text does not decode, as in
//     BFCL);
//  2. [ is added in front unless the text starts with it, ] at the end
//     unless it ends with it;
//  3. the result is read by [ParseCalls].
//
// An error is placed in text as given, not in the bracketed text.
func DecodePrompting(text string) ([]Call, error) {
	s := strings.TrimLeft(text, "`\n ")
	lead := len(text) - len(s)
	s = strings.TrimRight(s, "`\n ")
	shift := lead
	if !strings.HasPrefix(s, "[") {
		s = "[" + s
		shift--
	}
	if !strings.HasSuffix(s, "]") {
		s += "]"
	}
	calls, err := ParseCalls(s)
	var se *SyntaxError
	if errors.As(err, &se) {
		off := min(max(se.Offset+shift, lead), len(text))
		line, col := Locate(text, off)
		return nil, &SyntaxError{Line: line, Col: col, Offset: off, Msg: se.Msg, Hint: se.Hint}
	}
	if err != nil {
		return nil, err
	}
	for i := range calls {
		calls[i].Offset = min(max(calls[i].Offset+shift, lead), len(text))
	}
	locate(text, calls)
	return calls, nil
}
