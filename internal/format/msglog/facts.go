package msglog

import (
	"bytes"
	"slices"
	"strings"

	"github.com/trajeval/trajeval/internal/sniff"
)

// Facts are what a cut head shows about its JSON: keys, and short string
// values, each with the nearest enclosing key ("" at the top of a record)
// as "parent>key" and "parent>key=value", and at the top of a record also
// as "^key" and "^key=value", and anywhere as "*key" and "*key=value".
// A record is a top-level value, or an element of a top-level array.
//
// They are read from a head as a JSON tokenizer sees it:
//  1. at most the first 256 KiB of the head (white space and a byte order
//     mark around it aside), and at most its first 100,000 tokens (a key,
//     a value, a bracket or a brace: enough for the first records);
//  2. JSON values one after another (JSON Lines) are read on;
//  3. the first syntax error, or the end of a cut-off head, ends the
//     reading: what came before it counts, nothing after;
//  4. keys and values are unescaped, and invalid UTF-8 in them is read as
//     U+FFFD, as encoding/json decodes them; a value counts when its
//     decoded text is at most 64 bytes;
//  5. a key longer than 64 bytes, decoded, is the parent of no fact: the
//     keys and values below it have their "*" and "^" facts alone. Each
//     "parent>key" fact holds a copy of its parent, and a head of one long
//     key over thousands of short ones took gigabytes.
type Facts map[string]bool

// Head is a file's head and what the formats sniff of it (its facts, its
// top-level keys), each read once, when first asked, however many formats
// sniff it.
type Head struct {
	b     []byte
	facts Facts
	// asked are the head's facts of the asked keys (see Head.Has), read
	// on first use when askedRead; odd says a key may make a fact of
	// another's name, and only all the facts tell.
	asked          Facts
	askedRead, odd bool
	// first are the asked keys' facts of the head's first line, read
	// when firstRead, odd as odd is; escape is 1 when the head holds no
	// \u escape, 2 when it does, 0 before it is known.
	first               Facts
	firstRead, firstOdd bool
	escape              uint8
	held                map[string]bool // MayHold's answer for a key
	// keys and firstKeys are sniff.Keys of the head and of its first
	// line, when read bit 0 and bit 1 are set.
	keys, firstKeys []string
	read            uint8
}

// NewHead returns the Head of b, a possibly cut-off start of a file.
func NewHead(b []byte) *Head { return &Head{b: b} }

// Bytes returns the head itself.
func (h *Head) Bytes() []byte { return h.b }

// Facts returns the head's facts (see SniffFacts), reading them on first
// use.
func (h *Head) Facts() Facts {
	if h.facts == nil {
		h.facts = SniffFacts(h.b)
	}
	return h.facts
}

// Has is h.Facts().Has(names...), reading fewer facts: only those of
// the keys the formats ask about (askedFacts) when every name is of
// one of them, and all of them otherwise. The sniffing of a file that
// no message-log format claims asks only about facts it does not hold,
// and must read its whole head to know: the facts of the other keys
// (most of a record's) are not made.
func (h *Head) Has(names ...string) bool {
	if h.facts != nil {
		return h.facts.Has(names...)
	}
	if !h.askedRead {
		h.asked, h.odd = sniffAsked(h.b)
		h.askedRead = true
	}
	if h.odd {
		return h.Facts().Has(names...)
	}
	for _, n := range names {
		if !isAsked(n) {
			return h.Facts().Has(names...)
		}
	}
	return h.asked.Has(names...)
}

// MayHold reports whether the part of the head whose facts are read may
// hold a key that starts with any of keys: false only when it holds none
// of them after a quote, nor a \u escape, which could spell one. The
// keys are of letters, digits and underscores, which no other escape
// gives; so without them the head has no fact of these keys, nor one of
// a key like "type=tool_use" that makes the same names, and a sniff that
// claims only with such a fact would not claim it.
func (h *Head) MayHold(keys ...string) bool {
	b := factsHead(h.b)
	if h.escape == 0 {
		h.escape = 1
		if bytes.Contains(b, []byte(`\u`)) {
			h.escape = 2
		}
	}
	if h.escape == 2 {
		return true
	}
	for _, k := range keys {
		held, ok := h.held[k]
		if !ok {
			held = sniff.ContainsStart(b, k)
			if h.held == nil {
				h.held = map[string]bool{}
			}
			h.held[k] = held
		}
		if held {
			return true
		}
	}
	return false
}

// FirstHas is Has for the facts of the head's first line (the first line
// of the part whose facts are read, as it is there). The head's facts
// hold every one of them: its tokens are the head's first tokens, read
// the same, but for one cut off at its end, which is no fact. So a sniff
// that refuses a head for holding a fact may refuse it for one of these,
// without reading the rest.
func (h *Head) FirstHas(names ...string) bool {
	b := factsHead(h.b)
	i := bytes.IndexByte(b, '\n')
	if i < 0 {
		return h.Has(names...) // one line: its facts are the head's
	}
	b = b[:i]
	if !h.firstRead {
		h.first, h.firstOdd = factsAsked(b)
		h.firstRead = true
	}
	if h.firstOdd {
		return factsOf(b).Has(names...)
	}
	for _, n := range names {
		if !isAsked(n) {
			return factsOf(b).Has(names...)
		}
	}
	return h.first.Has(names...)
}

// A Disclaimer is a format that can tell of some heads, more cheaply than
// its sniff, that its sniff would not claim them: Disclaims(h) is true
// only when SniffHead(h) (or Sniff(h.Bytes())) returns an error. Detection
// passes over a format that disclaims a head, and sniffs it only to say
// why no format claims the file, when none does.
type Disclaimer interface {
	Disclaims(h *Head) bool
}

// Keys returns sniff.Keys of the head: the top-level keys of the JSON
// object it starts with. The slice is shared: read it, do not change it.
func (h *Head) Keys() []string {
	if h.read&1 == 0 {
		h.keys, h.read = sniff.Keys(h.b), h.read|1
		if h.OneLine() {
			// The head is its first line: the keys are the same.
			h.firstKeys, h.read = h.keys, h.read|2
		}
	}
	return h.keys
}

// FirstLineKeys returns sniff.Keys of the head's first line (see
// sniff.FirstLine), shared as Keys's are.
func (h *Head) FirstLineKeys() []string {
	if h.read&2 == 0 {
		h.firstKeys, h.read = sniff.Keys(sniff.FirstLine(h.b)), h.read|2
		if h.OneLine() {
			h.keys, h.read = h.firstKeys, h.read|1
		}
	}
	return h.firstKeys
}

// OneLine reports whether the head, white space around it aside, is one
// line: its first line is then all of it, as in a small JSON Lines file of
// one record, and what is read of either is read of both.
func (h *Head) OneLine() bool {
	return bytes.IndexByte(bytes.TrimSpace(h.b), '\n') < 0
}

// A HeadSniffer is a format whose sniffing reads a Head, so that a head's
// facts are read once for all formats that want them: Sniff(b) is
// SniffHead(NewHead(b)).
type HeadSniffer interface {
	SniffHead(h *Head) error
}

// The limits of SniffFacts (see Facts).
const (
	factsBytes  = 256 << 10
	factsTokens = 100000
	factsValue  = 64 // the longest value, decoded, that is a fact
	factsParent = 64 // the longest key, decoded, that is a parent of facts
)

// SniffFacts reads the facts of head, a possibly cut-off start of a file
// (see Facts). It allocates only for facts, and keys, it has not met
// before.
func SniffFacts(head []byte) Facts {
	return factsOf(factsHead(head))
}

// factsOf reads the facts of b, the part of a head they are read from.
func factsOf(b []byte) Facts {
	// Sized for the facts of a small file, so that the map seldom grows;
	// records alike add few new facts.
	s := factScanner{
		d:      sniff.NewDecoder(b),
		facts:  make(Facts, min(len(b)/8, 512)),
		keys:   make(map[string]string, min(len(b)/32, 128)),
		frames: make([]factFrame, 0, 16),
	}
	s.run()
	return s.facts
}

// factsHead is the part of head whose facts are read.
func factsHead(head []byte) []byte {
	if len(head) > factsBytes {
		head = head[:factsBytes]
	}
	return sniff.TrimBOM(bytes.TrimSpace(head))
}

// sniffAsked reads the facts of head that askedFacts may ask: for every
// name of an asked key (isAsked), SniffFacts(head) holds it when they
// do. A key holding '=' or '>' could make, with its parent or its value,
// the name of a fact of another key: odd is true when one is met, and
// the facts read are then not to be used.
func sniffAsked(head []byte) (f Facts, odd bool) {
	return factsAsked(factsHead(head))
}

// factsAsked is sniffAsked of b, the part of a head the facts are read
// from.
func factsAsked(b []byte) (f Facts, odd bool) {
	s := factScanner{
		d:      sniff.NewDecoder(b),
		facts:  make(Facts, 16),
		frames: make([]factFrame, 0, 16),
		asked:  askedKeys,
	}
	s.run()
	return s.facts, s.odd
}

// askedFacts are the facts the formats that sniff a Head's facts ask
// about (Head.Has), by key and place: "*key", "^key" or "parent>key", a
// value aside. A name of another key or place is answered too, from
// all the facts: this list decides only how much is read.
var askedFacts = []string{
	// langsmith
	"*run_type", "^run_type", "runs>run_type", "child_runs>run_type", "post>run_type",
	// langchain
	"*lc", "*type", "*kwargs", "^type", "messages>type", "^content", "^data",
	"messages>content", "messages>data", "data>content",
	// openai-agents
	"*object", "*span_data", "*started_at", "*workflow_name",
	// openai-responses
	"^object", "^output", "input>type", "output>type", "items>type", "data>type",
	"content>type", "^input",
	// anthropic
	"^jsonrpc", "^message", "^messages", "*dotted_order", "^resourceSpans",
	"^resource_spans", "*traceId", "^role", "messages>role", "^stop_reason",
	// openai-chat
	"message>role", "tool_calls>tool", "tool_calls>function", "^choices",
	"*spanId", "^output_messages", "output>tool_calls", "output_messages>tool_calls",
	"^token_usage",
}

// An askedKey is where the facts of one key are asked about.
type askedKey struct {
	name        string
	star, caret bool     // as "*key", as "^key"
	parents     []string // as "parent>key"
	parent      bool     // it is the parent of an asked key
}

// askedKeys are askedFacts by key, with the keys that are the parents
// of others.
var askedKeys = func() map[string]*askedKey {
	m := map[string]*askedKey{}
	get := func(k string) *askedKey {
		if m[k] == nil {
			m[k] = &askedKey{name: k}
		}
		return m[k]
	}
	for _, n := range askedFacts {
		switch n[0] {
		case '*':
			get(n[1:]).star = true
		case '^':
			get(n[1:]).caret = true
		default:
			p, k, _ := strings.Cut(n, ">")
			a := get(k)
			a.parents = append(a.parents, p)
			get(p).parent = true
		}
	}
	return m
}()

// askedPlaces are askedFacts as a set.
var askedPlaces = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range askedFacts {
		m[n] = true
	}
	return m
}()

// isAsked reports whether the fact called name is of a key and place
// in askedFacts, its value aside: whether its name up to its first "="
// is one of them, which hold no "=".
func isAsked(name string) bool {
	if i := strings.IndexByte(name, '='); i >= 0 {
		name = name[:i]
	}
	return askedPlaces[name]
}

// A factFrame is an open array or object.
type factFrame struct {
	isObj  bool
	parent string // the nearest key enclosing its contents ("" if none)
	cur    string // in an object, the key whose value comes next
	// asked is cur's askedKey, when the scanner reads only those.
	asked *askedKey
}

type factScanner struct {
	d       *sniff.Decoder // encoding/json's tokens, undecoded
	facts   Facts
	keys    map[string]string // interned keys
	frames  []factFrame
	buf     []byte // a fact's name, being made
	scratch []byte // an unescaped string
	// asked, when set, are the only keys whose facts are read (see
	// sniffAsked); odd says a key held '=' or '>'.
	asked map[string]*askedKey
	odd   bool
}

// otherKey stands, as a parent, for every key not asked about: only
// its being no key ("") or some key matters.
const otherKey = "\x00"

// run reads tokens until the first error, the end of the head or the
// last token counted.
func (s *factScanner) run() {
	for range factsTokens {
		k, raw, plain, err := s.d.Next()
		if err != nil || s.odd {
			return
		}
		switch k {
		case sniff.Open:
			parent := s.valueKey()
			if parent == "" && len(s.frames) > 0 {
				parent = s.frames[len(s.frames)-1].parent
			}
			s.frames = append(s.frames, factFrame{isObj: raw[0] == '{', parent: parent})
		case sniff.Close:
			s.frames = s.frames[:len(s.frames)-1]
		case sniff.Key:
			s.key(raw, plain)
		case sniff.String:
			s.value(raw, plain)
		}
	}
}

// valueKey returns the key whose value starts now ("" outside an
// object).
func (s *factScanner) valueKey() string {
	if len(s.frames) == 0 {
		return ""
	}
	top := &s.frames[len(s.frames)-1]
	if !top.isObj {
		return ""
	}
	return top.cur
}

// atRecord reports whether the innermost object is a record.
func (s *factScanner) atRecord() bool {
	return len(s.frames) == 1 || (len(s.frames) == 2 && !s.frames[0].isObj)
}

func (s *factScanner) key(raw []byte, plain bool) {
	text := s.unquote(raw, plain)
	if s.asked != nil {
		s.askedKey(text)
		return
	}
	k, ok := s.keys[string(text)]
	if !ok {
		k = string(text)
		s.keys[k] = k
	}
	top := &s.frames[len(s.frames)-1]
	top.cur = k
	// "*key" is added with every "parent>key": when the second is there
	// already, so is the first. Records alike repeat most keys.
	if len(top.parent) > factsParent || s.add(top.parent, ">", k, nil, false) {
		s.add("", "*", k, nil, false)
	}
	if s.atRecord() {
		s.add("", "^", k, nil, false)
	}
}

// askedKey is key for a scanner that reads the asked keys only.
func (s *factScanner) askedKey(text []byte) {
	for _, c := range text {
		if c == '=' || c == '>' {
			s.odd = true
			return
		}
	}
	top := &s.frames[len(s.frames)-1]
	a := s.asked[string(text)]
	top.asked = a
	switch {
	case a != nil:
		top.cur = a.name
	case len(text) > 0:
		top.cur = otherKey
	default:
		top.cur = ""
	}
	if a != nil {
		s.addAsked(a, top.parent, nil, false)
	}
}

// addAsked adds the facts of the asked key a, and "="+value when
// hasValue, in the places they are asked about.
func (s *factScanner) addAsked(a *askedKey, parent string, value []byte, hasValue bool) {
	if a.star {
		s.add("", "*", a.name, value, hasValue)
	}
	if a.caret && s.atRecord() {
		s.add("", "^", a.name, value, hasValue)
	}
	if slices.Contains(a.parents, parent) {
		s.add(parent, ">", a.name, value, hasValue)
	}
}

func (s *factScanner) value(raw []byte, plain bool) {
	key := s.valueKey()
	if s.asked != nil {
		if key == "" || s.frames[len(s.frames)-1].asked == nil {
			return
		}
	}
	// A string decodes to at least one byte for every six of its text
	// (\u0041): a longer one is no fact, and is not unescaped.
	if key == "" || len(raw)-2 > 6*factsValue {
		return
	}
	text := s.unquote(raw, plain)
	if len(text) > factsValue {
		return
	}
	top := &s.frames[len(s.frames)-1]
	if s.asked != nil {
		s.addAsked(top.asked, top.parent, text, true)
		return
	}
	if len(top.parent) > factsParent || s.add(top.parent, ">", key, text, true) {
		s.add("", "*", key, text, true)
	}
	if s.atRecord() {
		s.add("", "^", key, text, true)
	}
}

// add records the fact prefix+sep+key, and "="+value when hasValue, and
// reports whether it is new.
func (s *factScanner) add(prefix, sep, key string, value []byte, hasValue bool) bool {
	b := append(s.buf[:0], prefix...)
	b = append(b, sep...)
	b = append(b, key...)
	if hasValue {
		b = append(b, '=')
		b = append(b, value...)
	}
	s.buf = b
	if s.facts[string(b)] {
		return false
	}
	s.facts[string(b)] = true
	return true
}

func (s *factScanner) unquote(raw []byte, plain bool) []byte {
	s.scratch = sniff.Unquote(s.scratch[:0], raw, plain)
	return s.scratch
}
