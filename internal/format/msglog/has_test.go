package msglog_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/format/msglog"
)

// TestHead_Has checks that a Head answers as all the facts of its head
// (SniffFacts) do, whether it reads only the asked keys' facts or, for
// another name or a key that could make another's name, all of them.
func TestHead_Has(t *testing.T) {
	agentv := `{"id":"case-1","output":[{"role":"user","content":"hi"},{"role":"assistant","tool_calls":[{"tool":"search","id":"c1","input":{"q":"x"},"output":{"ok":true},"status":"ok"}]}]}` + "\n"
	tests := []struct {
		name, head string
		all        bool // all the facts are read to answer
		reason     string
	}{
		{"agentv lines", strings.Repeat(agentv, 3), false, "a file no message-log format claims: the asked keys' facts only"},
		{"chat", `{"messages":[{"role":"user","content":"hi"},{"role":"assistant","tool_calls":[{"function":{"name":"f"}}]}]}`, false, "keys and values at every depth"},
		{"runs", `[{"run_type":"tool"},{"run_type":"llm","child_runs":[{"run_type":"chain"}]}]`, false, "records in a top-level array"},
		{"key with =", `{"content":{"type=tool_use":1}}`, true, `a key "type=tool_use" under "content" makes the fact content>type=tool_use`},
		{"key with >", `{"content>type":"tool_use"}`, true, `a key "content>type" makes a fact ^content>type=tool_use`},
		{"parent with =", `{"a=b":{"role":"user"}}`, true, "a parent holding '=' makes names of its own"},
		{"empty key", `{"":{"role":"user"},"messages":[{"":"x","role":"tool"}]}`, false, "an empty key is no parent"},
		{"escaped", `{"m\u0065ssages":[{"r\u006fle":"\u0075ser"}]}`, false, "keys and values unescaped"},
		{"cut", `{"messages":[{"role":"user"},{"role":"ass`, false, "a cut-off head"},
		{"broken", `{"messages":[{"role":"user",]},{"role":"tool"}]}`, false, "the first syntax error ends the reading"},
		{"bom and space", "\xef\xbb\xbf\u00a0" + `{"role":"user"}` + "\n" + `{"type":"ai"}`, false, "a first line is read as it stands in the head: after a byte order mark, a no-break space is no JSON"},
		{"key like another's fact", `{"output":[{"tool_calls=x":1}]}` + "\n" + `{"type=human":1}`, true, "a key holding = makes another key's names"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sameHas(t, []byte(tt.head), nil)
			h := msglog.NewHead([]byte(tt.head))
			h.Has(msglog.AskedFacts...)
			if got := msglog.FactsRead(h); got != tt.all {
				t.Errorf("all facts read: %v, want %v (%s)", got, tt.all, tt.reason)
			}
		})
	}
}

// FuzzHead_Has checks that Head.Has answers as SniffFacts's facts do, for
// the asked facts, those the head holds, and any name.
func FuzzHead_Has(f *testing.F) {
	for _, s := range []string{
		`{"messages":[{"role":"user","content":[{"type":"tool_use"}]}]}`,
		"{\"type\":\"human\"}\n{\"type\":\"ai\",\"data\":{\"content\":\"x\"}}\n",
		`[{"run_type":"tool","child_runs":[{"run_type":"llm"}]}]`,
		`{"id":"a","output":[{"role":"assistant","tool_calls":[{"tool":"t"}]}],"token_usage":{}}`,
		`{"content":{"type=tool_use":1}}`,
	} {
		f.Add([]byte(s), "content>type=tool_use")
	}
	f.Fuzz(func(t *testing.T, head []byte, name string) {
		sameHas(t, head, []string{name})
	})
}

// sameHas compares a fresh Head's answer with SniffFacts's for each asked
// fact, each fact of head, and names.
func sameHas(t *testing.T, head []byte, names []string) {
	t.Helper()
	all := msglog.SniffFacts(head)
	names = append(slices.Clone(names), msglog.AskedFacts...)
	for n := range all {
		names = append(names, n)
	}
	for _, n := range names {
		if got, want := msglog.NewHead(head).Has(n), all.Has(n); got != want {
			t.Errorf("head %.200q: Has(%q) = %v, want %v", head, n, got, want)
		}
	}
	// A fact of the first line is a fact of the head; a fact of a key
	// (read as isAsked reads a name) means the head may hold the key.
	first := msglog.NewHead(head)
	for _, n := range names {
		if first.FirstHas(n) && !all.Has(n) {
			t.Errorf("head %.200q: FirstHas(%q), and the head has no such fact", head, n)
		}
		if k := keyOf(n); all.Has(n) && k != "" && !msglog.NewHead(head).MayHold(k) {
			t.Errorf("head %.200q: has %q, and MayHold(%q) is false", head, n, k)
		}
	}
	// Asked together, as the formats ask, after other names.
	h := msglog.NewHead(head)
	for i, n := range names {
		if got, want := h.Has(n, names[len(names)-1-i]), all.Has(n, names[len(names)-1-i]); got != want {
			t.Errorf("head %.200q: Has(%q, %q) = %v, want %v", head, n, names[len(names)-1-i], got, want)
		}
	}
}

// keyOf returns the key of the fact called name, when it can be told
// as the formats' names are: after its "*" or "^", or its one ">", up to
// its first "=", of letters, digits and underscores. A name with more
// than one ">", or "*" or "^" and a ">", may be split otherwise.
func keyOf(name string) string {
	rest := name
	switch {
	case strings.Count(name, ">") > 1:
		return ""
	case strings.HasPrefix(name, "*"), strings.HasPrefix(name, "^"):
		if strings.Contains(name, ">") {
			return ""
		}
		rest = name[1:]
	default:
		_, r, ok := strings.Cut(name, ">")
		if !ok {
			return ""
		}
		rest = r
	}
	k, _, _ := strings.Cut(rest, "=")
	for _, c := range k {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_') {
			return ""
		}
	}
	return k
}
