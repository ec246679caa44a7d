// Package canonical reads trajeval's own canonical trajectories ("trajeval"):
// the JSON that `trajeval convert` writes (docs/scoring.md §1), so that a
// converted, stored or hand-written trajectory can be scored like any trace.
//
// A file holds canonical trajectories as JSON Lines, one object per line as
// convert writes them; as one pretty-printed object; as a JSON array of
// them; or as pretty-printed objects one after another (what jq prints for
// JSON Lines).
//
// The rules:
//  1. The fields are exactly those of the canonical form. A field that is
//     not one of them is an error, placed at its line and column and naming
//     the fields allowed there, and so is a field given twice: a misspelt
//     field must never be dropped silently.
//  2. A trajectory needs "id" and "steps" (write "steps": [] for a run that
//     made no calls), a step needs "index" and "name", a turn needs "turn".
//     Every other field may be null or left out, which means the same: the
//     trace does not say.
//  3. Steps are numbered 1, 2, 3… in the order they are listed, and so are
//     turns; a number out of sequence is an error.
//  4. Numbers stay exact: "args" and "result" keep every number as written
//     (9007199254740993 stays itself, 1.0 stays 1.0); index, turn,
//     parallel_group, token counts and llm_calls must be whole numbers.
//  5. Times are RFC 3339 at any precision; they are kept to the nanosecond
//     and written back in UTC.
//  6. What the canonical form derives is derived again: a step's
//     duration_ms from its start_time and end_time when it gives none, a
//     token total from input and output. So reading what convert wrote and
//     writing it again gives the same bytes.
//  7. "agents", when given, lists the agents of a multi-agent run, each
//     {"name", "parent"} with parent the agent that called it (null for a
//     top-level agent); every step's "agent" is listed there too, with no
//     parent, when the file does not list it.
//  8. "partial": true, which convert writes for a trajectory read leniently
//     from a damaged trace, is kept: a case scored from it is marked partial.
//  9. Nothing is repaired: JSON that is broken or cut off is an error at its
//     line and column, and so is a file holding no trajectory. Read
//     leniently, the trajectory the damage falls in is dropped with a
//     warning (it is never scored half-read): in JSON Lines the next lines
//     are read on, in any other layout the trajectories before it are kept.
//
// Detection claims a file when its first trajectory with a call lists a
// step with "index", "name" and at least one more step field ("args" in
// what convert writes), or, when the first trajectories made no calls,
// when the first has exactly "id", "turns", "steps" and "metrics".
// Detection tries this format before every other, so no other format takes
// a canonical file; no other format has a top-level "steps" list, so this
// one takes no other format's file. A claimed file with a misspelt field
// is then an error naming the field at its line and column.
//
// Cost: JSON Lines are streamed, a few batches of lines in memory at a
// time, decoded on every core and handed on in the file's order; any other
// layout is read whole. Trajectories are read by a hand-written fast path
// (no reflection, tool names interned); on anything it does not read
// exactly as the strict reader would (an error, damage, a doubt) the strict
// reader reads the same bytes, and its trajectories, error or warning are
// the answer. Asked to keep text (trajeval.Input.KeepText, as a run asks),
// the fast path leaves each args and result that is an object or an array
// as its JSON text, checked and copied, for the evaluators to decode where
// they look (see trajeval.Decoded); the strict reader never does.
package canonical

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/msglog"
	"github.com/trajeval/trajeval/internal/jsonl"
	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/sniff"
	"github.com/trajeval/trajeval/internal/suggest"
)

// Format is trajeval's canonical trajectory.
var Format trajeval.Format = format{}

type format struct{}

func (format) Name() string { return "trajeval" }

// The fields of each object of the canonical form, in the order the
// writer gives them.
var (
	trajectoryFields = []string{"id", "turns", "steps", "metrics", "agents", "partial"}
	agentFields      = []string{"name", "parent"}
	turnFields       = []string{"turn", "user", "final_response"}
	stepFields       = []string{"index", "turn", "id", "name", "args", "result", "error", "error_message",
		"duration_ms", "start_time", "end_time", "parallel_group", "agent"}
	metricsFields = []string{"duration_ms", "cost_usd", "tokens", "llm_calls"}
	tokensFields  = []string{"input", "output", "total"}
)

func (format) Read(ctx context.Context, in trajeval.Input, yield func(*trajeval.Trajectory) error) error {
	br := bufio.NewReaderSize(in.R, 1<<20)
	n := 0
	each := func(t *trajeval.Trajectory) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		n++
		return yield(t)
	}
	// The first line decides: a whole JSON value means JSON Lines (a
	// one-line file is both); otherwise the file is read whole.
	first, lineNo, err := firstLine(in.Name, br)
	if err != nil {
		return jsonl.ReadError(in.Name, err) // a TraceError (invalid UTF-8) as it is
	}
	f := &fast{keepText: in.KeepText}
	if jsonv.Valid(first) {
		if err := f.read(in, first, lineNo, each); err != nil {
			return err
		}
		// The other lines decode on every core; what each gives is handed
		// on in the file's order, as a reading line by line would.
		newDecoder := func() jsonl.Decoder[lineResult] {
			f := &fast{keepText: in.KeepText}
			return func(line []byte, k int, _ func(trajeval.Warning)) (lineResult, error) {
				var r lineResult
				in := in
				in.Warn = func(w trajeval.Warning) { r.warns = append(r.warns, w) }
				r.err = f.read(in, line, lineNo+k, func(t *trajeval.Trajectory) error {
					r.ts = append(r.ts, t)
					return nil
				})
				return r, nil
			}
		}
		err = jsonl.Parallel(ctx, br, runtime.GOMAXPROCS(0), newDecoder, in.Warn, func(r lineResult) error {
			for _, t := range r.ts {
				if err := each(t); err != nil {
					return err
				}
			}
			for _, w := range r.warns {
				in.Warn(w)
			}
			if errors.Is(r.err, errDamaged) {
				return nil
			}
			return r.err
		})
	} else {
		data := append(bytes.Repeat([]byte{'\n'}, lineNo-1), first...)
		if data, err = jsonl.ReadDocument(in.Name, br, jsonl.SizeOf(in.R), data); err != nil {
			return err
		}
		if err = f.read(in, data, 1, each); errors.Is(err, errDamaged) {
			err = nil
		}
	}
	if err == nil && n == 0 {
		return &trajeval.TraceError{File: in.Name, Msg: "no trajectories in the file", Hint: `a canonical trajectory is an object {"id", "turns", "steps", "metrics"}`, Err: trajeval.ErrEmptyTrace}
	}
	return err
}

// A lineResult is what one line of JSON Lines gives: its trajectories,
// then the warnings and the error met after them (a damaged value ends the
// line's reading, so nothing follows them).
type lineResult struct {
	ts    []*trajeval.Trajectory
	warns []trajeval.Warning
	err   error
}

// read reads the trajectories of data, whose first line is line0: with f
// when it can, and with the parser, whose answer it then is, from the
// first thing f does not read; the trajectories f yielded before it are
// not yielded again.
func (f *fast) read(in trajeval.Input, data []byte, line0 int, yield func(*trajeval.Trajectory) error) error {
	n, ok, err := f.values(data, yield)
	if ok || err != nil {
		return err
	}
	if err := jsonl.CheckDepth(in.Name, data, line0); err != nil {
		return err
	}
	skip := n
	return newParser(in, data, line0).values(func(t *trajeval.Trajectory) error {
		if skip > 0 {
			skip--
			return nil
		}
		return yield(t)
	})
}

// firstLine returns the first non-blank line of the file name, with its
// line ending, and its 1-based number; nil at the end of the file. The
// line is at most jsonl.MaxLine bytes, and the blank lines before it at
// most jsonl.MaxDocument.
func firstLine(name string, br *bufio.Reader) ([]byte, int, error) {
	var blank int64
	for n := 1; ; n++ {
		line, err := jsonl.ReadLine(br, n)
		if len(bytes.TrimSpace(line)) > 0 || err != nil {
			return line, n, err
		}
		if len(line) == 0 {
			return nil, n, nil
		}
		blank += int64(len(line))
		if err := jsonl.CheckDocument(name, blank); err != nil {
			return nil, n, err
		}
	}
}

// A parser reads canonical trajectories from data token by token, so that
// every mistake is placed at its line and column.
type parser struct {
	in    trajeval.Input
	data  []byte
	line0 int // the line number of data's first line
	d     *json.Decoder
}

func newParser(in trajeval.Input, data []byte, line0 int) *parser {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	return &parser{in: in, data: data, line0: line0, d: d}
}

// values reads every top-level value of data: trajectories, or lists of
// them.
func (p *parser) values(yield func(*trajeval.Trajectory) error) error {
	for {
		at := p.next()
		if at == int64(len(p.data)) {
			return nil
		}
		if p.data[at] == '[' {
			if _, _, err := p.token(); err != nil {
				return err
			}
			for p.d.More() {
				if err := p.trajectory(yield); err != nil {
					return err
				}
			}
			if _, _, err := p.token(); err != nil {
				return err
			}
			continue
		}
		if err := p.trajectory(yield); err != nil {
			return err
		}
	}
}

// next returns the offset at which the next token starts.
func (p *parser) next() int64 {
	off := p.d.InputOffset()
	for off < int64(len(p.data)) && bytes.IndexByte([]byte(" \t\r\n,:"), p.data[off]) >= 0 {
		off++
	}
	return off
}

// token reads the next token and returns the offset it starts at.
func (p *parser) token() (json.Token, int64, error) {
	at := p.next()
	t, err := p.d.Token()
	if err != nil {
		return nil, at, p.syntax(err)
	}
	return t, at, nil
}

// syntax reports broken JSON as damage to the input: read strictly, the
// error; read leniently, errDamaged, once the warning is given, so that the
// value being read is dropped.
func (p *parser) syntax(err error) error {
	if derr := jsonl.Damaged(p.in, p.data, err, p.line0); derr != nil {
		return derr
	}
	return errDamaged
}

// errDamaged ends the reading of a damaged value when the input is read
// leniently: a JSON Lines file goes on with its next line, a whole document
// stops there.
var errDamaged = errors.New("damaged value dropped")

// fail returns an error placed at offset at.
func (p *parser) fail(at int64, path, msg, hint string) error {
	line, col := jsonl.Position(p.data, at)
	if path != "" {
		msg = path + ": " + msg
	}
	return &trajeval.TraceError{File: p.in.Name, Line: line + p.line0 - 1, Col: col, Msg: msg, Hint: hint}
}

// object reads an object (or null, when it returns ok false), calling
// field with each key; a key given twice, or not among fields, is an
// error. what names the object in messages ("a step").
func (p *parser) object(path, what string, fields []string, field func(key string) error) (at int64, seen map[string]bool, ok bool, err error) {
	t, at, err := p.token()
	if err != nil || t == nil {
		return at, nil, false, err
	}
	if t != json.Delim('{') {
		return at, nil, false, p.fail(at, path, "want "+what+" (an object), got "+kind(t), "")
	}
	seen = map[string]bool{}
	for p.d.More() {
		t, kat, err := p.token()
		if err != nil {
			return at, nil, false, err
		}
		key := t.(string) // the decoder returns object keys as strings
		switch {
		case !contains(fields, key):
			hint := fmt.Sprintf("the fields of %s are %s", what, strings.Join(fields, ", "))
			if s := suggest.Closest(key, fields); s != "" {
				hint = fmt.Sprintf("did you mean %q? %s", s, hint)
			}
			return at, nil, false, p.fail(kat, path, fmt.Sprintf("unknown field %q", key), hint)
		case seen[key]:
			return at, nil, false, p.fail(kat, path, fmt.Sprintf("field %q given twice", key), "keep one")
		}
		seen[key] = true
		if err := field(key); err != nil {
			return at, nil, false, err
		}
	}
	_, _, err = p.token()
	return at, seen, err == nil, err
}

// list reads a list (or null), calling elem with each index.
func (p *parser) list(path string, elem func(i int) error) error {
	t, at, err := p.token()
	if err != nil || t == nil {
		return err
	}
	if t != json.Delim('[') {
		return p.fail(at, path, "want a list, got "+kind(t), "")
	}
	for i := 0; p.d.More(); i++ {
		if err := elem(i); err != nil {
			return err
		}
	}
	_, _, err = p.token()
	return err
}

// scalar reads one value that must be null or one convert accepts; convert
// returns what is wrong with the token, or "".
func scalar[T any](p *parser, path string, convert func(json.Token) (T, string)) (*T, error) {
	t, at, err := p.token()
	if err != nil || t == nil {
		return nil, err
	}
	v, why := convert(t)
	if why != "" {
		return nil, p.fail(at, path, why+", got "+kind(t), "")
	}
	return &v, nil
}

func (p *parser) str(path string) (*string, error) {
	return scalar(p, path, func(t json.Token) (string, string) {
		s, ok := t.(string)
		if !ok {
			return "", "want a string"
		}
		return s, ""
	})
}

func (p *parser) boolean(path string) (*bool, error) {
	return scalar(p, path, func(t json.Token) (bool, string) {
		b, ok := t.(bool)
		if !ok {
			return false, "want true or false"
		}
		return b, ""
	})
}

// integer reads a whole number exactly.
func (p *parser) integer(path string) (*int64, error) {
	return scalar(p, path, func(t json.Token) (int64, string) {
		n, ok := t.(json.Number)
		if !ok {
			return 0, "want a whole number"
		}
		i, err := strconv.ParseInt(string(n), 10, 64)
		if errors.Is(err, strconv.ErrRange) {
			return 0, "want a whole number up to 2^63-1"
		}
		if err != nil {
			return 0, "want a whole number"
		}
		return i, ""
	})
}

func (p *parser) float(path string) (*float64, error) {
	return scalar(p, path, func(t json.Token) (float64, string) {
		n, ok := t.(json.Number)
		if !ok {
			return 0, "want a number"
		}
		f, err := strconv.ParseFloat(string(n), 64)
		if err != nil {
			return 0, "want a number within the range of a float64"
		}
		return f, ""
	})
}

// time reads an RFC 3339 time, as strictly as the writer writes it.
func (p *parser) time(path string) (time.Time, error) {
	tm, err := scalar(p, path, func(t json.Token) (time.Time, string) {
		s, ok := t.(string)
		if !ok {
			return time.Time{}, "want an RFC 3339 time"
		}
		var tm time.Time
		if err := tm.UnmarshalJSON(strconv.AppendQuote(nil, s)); err != nil {
			return time.Time{}, "want an RFC 3339 time such as 2025-01-02T15:04:05.123Z"
		}
		if _, err := tm.UTC().MarshalJSON(); err != nil {
			return time.Time{}, "want a time between the years 0 and 9999 in UTC"
		}
		return tm, ""
	})
	if err != nil || tm == nil {
		return time.Time{}, err
	}
	return *tm, nil
}

// value reads any JSON value, numbers exact.
func (p *parser) value() (any, error) {
	var v any
	if err := p.d.Decode(&v); err != nil {
		return nil, p.syntax(err)
	}
	return v, nil
}

// kind names the JSON type of a token for messages.
func kind(t json.Token) string {
	switch x := t.(type) {
	case nil:
		return "null"
	case json.Delim:
		if x == '[' {
			return "a list"
		}
		return "an object"
	case string:
		return "a string"
	case bool:
		return strconv.FormatBool(x)
	case json.Number:
		if len(x) > 30 {
			return "a number"
		}
		return string(x)
	}
	return fmt.Sprint(t)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// trajectory reads one canonical trajectory and yields it.
func (p *parser) trajectory(yield func(*trajeval.Trajectory) error) error {
	t := &trajeval.Trajectory{}
	at, seen, ok, err := p.object("", "a trajectory", trajectoryFields, func(key string) error {
		var err error
		switch key {
		case "id":
			at := p.next()
			var id *string
			if id, err = p.str("id"); err == nil && id == nil {
				return p.fail(at, "id", "want a string, got null", `write "id": "" for a run without an id`)
			}
			t.ID = deref(id)
		case "turns":
			err = p.list("turns", func(i int) error { return p.turn(t, i) })
		case "steps":
			err = p.list("steps", func(i int) error { return p.step(t, i) })
		case "metrics":
			err = p.metrics(&t.Metrics)
		case "agents":
			err = p.list("agents", func(i int) error { return p.agent(t, i) })
		case "partial":
			var b *bool
			b, err = p.boolean("partial")
			t.Partial = b != nil && *b
		}
		return err
	})
	switch {
	case err != nil:
		return err
	case !ok:
		return p.fail(at, "", "want a trajectory (an object), got null", "")
	case !seen["steps"]:
		return p.fail(at, "", `a trajectory needs "steps"`, `list its tool calls, or write "steps": [] for a run that made none`)
	case !seen["id"]:
		return p.fail(at, "", `a trajectory needs "id"`, `cases are matched to trajectories by id; write "id": "" for a run without one`)
	}
	t.Finish()
	return yield(t)
}

// number reads a field that numbers its object from 1 and checks that it
// is want.
func (p *parser) number(path string, want int) error {
	at := p.next()
	n, err := p.integer(path)
	switch {
	case err != nil:
		return err
	case n == nil:
		return p.fail(at, path, fmt.Sprintf("want %d, got null", want), "")
	case *n != int64(want):
		return p.fail(at, path, fmt.Sprintf("is %d, want %d", *n, want), "number them 1, 2, 3… in the order they are listed")
	}
	return nil
}

func (p *parser) turn(t *trajeval.Trajectory, i int) error {
	path := fmt.Sprintf("turns[%d]", i)
	var tn trajeval.Turn
	at, seen, ok, err := p.object(path, "a turn", turnFields, func(key string) error {
		var err error
		switch key {
		case "turn":
			err = p.number(path+".turn", i+1)
		case "user":
			tn.User, err = p.str(path + ".user")
		case "final_response":
			tn.FinalResponse, err = p.str(path + ".final_response")
		}
		return err
	})
	switch {
	case err != nil:
		return err
	case !ok:
		return p.fail(at, path, "want a turn (an object), got null", "")
	case !seen["turn"]:
		return p.fail(at, path, `a turn needs "turn", its number`, fmt.Sprintf(`write "turn": %d`, i+1))
	}
	t.Turns = append(t.Turns, tn)
	return nil
}

func (p *parser) step(t *trajeval.Trajectory, i int) error {
	path := fmt.Sprintf("steps[%d]", i)
	var s trajeval.Step
	at, seen, ok, err := p.object(path, "a step", stepFields, func(key string) error {
		var err error
		var str *string
		var n *int64
		field := path + "." + key
		switch key {
		case "index":
			err = p.number(field, i+1)
		case "turn":
			n, err = p.positive(field)
			s.Turn = int(deref(n))
		case "id":
			str, err = p.str(field)
			s.ID = deref(str)
		case "name":
			str, err = p.str(field)
			s.Name = deref(str)
		case "args":
			s.Args, err = p.value()
		case "result":
			s.Result, err = p.value()
		case "error":
			s.Error, err = p.boolean(field)
		case "error_message":
			str, err = p.str(field)
			s.ErrorMessage = deref(str)
		case "duration_ms":
			s.DurationMS, err = p.float(field)
		case "start_time":
			s.StartTime, err = p.time(field)
		case "end_time":
			s.EndTime, err = p.time(field)
		case "parallel_group":
			n, err = p.positive(field)
			s.ParallelGroup = int(deref(n))
		case "agent":
			str, err = p.str(field)
			s.Agent = deref(str)
		}
		return err
	})
	switch {
	case err != nil:
		return err
	case !ok:
		return p.fail(at, path, "want a step (an object), got null", "")
	case !seen["index"]:
		return p.fail(at, path, `a step needs "index", its position`, fmt.Sprintf(`write "index": %d`, i+1))
	case !seen["name"]:
		return p.fail(at, path, `a step needs "name", the tool called`, "")
	}
	t.Steps = append(t.Steps, s)
	return nil
}

func (p *parser) agent(t *trajeval.Trajectory, i int) error {
	path := fmt.Sprintf("agents[%d]", i)
	var a trajeval.Agent
	at, _, ok, err := p.object(path, "an agent", agentFields, func(key string) error {
		var err error
		var str *string
		switch key {
		case "name":
			str, err = p.str(path + ".name")
			a.Name = deref(str)
		case "parent":
			str, err = p.str(path + ".parent")
			a.Parent = deref(str)
		}
		return err
	})
	switch {
	case err != nil:
		return err
	case !ok:
		return p.fail(at, path, "want an agent (an object), got null", "")
	case a.Name == "":
		return p.fail(at, path, `an agent needs "name"`, `write {"name": "billing", "parent": "support"}; parent is the agent that called it, or null`)
	}
	t.Agents = append(t.Agents, a)
	return nil
}

// positive reads a whole number of at least 1 that fits an int, or null.
func (p *parser) positive(path string) (*int64, error) {
	at := p.next()
	n, err := p.integer(path)
	if err == nil && n != nil && (*n < 1 || *n > 1<<31-1) {
		return nil, p.fail(at, path, fmt.Sprintf("want a number from 1, got %d", *n), "write null when it is not known")
	}
	return n, err
}

func (p *parser) metrics(m *trajeval.Metrics) error {
	_, _, _, err := p.object("metrics", "metrics", metricsFields, func(key string) error {
		var err error
		field := "metrics." + key
		switch key {
		case "duration_ms":
			m.DurationMS, err = p.float(field)
		case "cost_usd":
			m.CostUSD, err = p.float(field)
		case "llm_calls":
			m.LLMCalls, err = p.integer(field)
		case "tokens":
			_, _, _, err = p.object(field, "tokens", tokensFields, func(key string) error {
				var err error
				switch key {
				case "input":
					m.Tokens.Input, err = p.integer(field + ".input")
				case "output":
					m.Tokens.Output, err = p.integer(field + ".output")
				case "total":
					m.Tokens.Total, err = p.integer(field + ".total")
				}
				return err
			})
		}
		return err
	})
	return err
}

func deref[T any](p *T) T {
	var v T
	if p != nil {
		v = *p
	}
	return v
}

// Sniff claims a file whose first trajectory lists a step with "index",
// "name" and at least one more canonical step field, or has exactly the
// canonical fields when its steps are empty. A field that is not canonical
// does not stop the claim once such a step is seen, so that Read can name
// the field at its line and column. It
// reads the head token by token: a head cut off in mid-value is judged on
// what came before the cut.
func (format) Sniff(head []byte) error {
	head = bytes.TrimLeft(sniff.TrimBOM(head), " \t\r\n")
	if c := sniff.First(head); c != '{' && c != '[' {
		return &trajeval.SniffError{Why: "not JSON"}
	}
	d := sniff.NewDecoder(head)
	var first *shape
	for n, depth := 0, 0; n < 100; {
		t, err := d.Token()
		if err != nil {
			break
		}
		switch t {
		case json.Delim('['):
			if depth > 0 {
				return &trajeval.SniffError{Closeness: 5, Why: "a list of lists, not trajectories"}
			}
			depth++
			continue
		case json.Delim(']'):
			depth--
			continue
		case json.Delim('{'):
		default:
			return &trajeval.SniffError{Closeness: 5, Why: "JSON that is not a trajectory object"}
		}
		sh := sniffTrajectory(d)
		if first == nil {
			first = &sh
		}
		switch {
		case sh.stepOK:
			return nil
		case sh.notList:
			return &trajeval.SniffError{Closeness: 30, Why: `"steps" is not a list of step objects`}
		case sh.stepBad != "":
			return &trajeval.SniffError{Closeness: 50, Why: fmt.Sprintf("a step with %q, which is not a canonical field (%s)", sh.stepBad, strings.Join(stepFields, ", "))}
		case sh.step:
			return &trajeval.SniffError{Closeness: 50, Why: `steps without "index", "name" and "args"`}
		}
		n++
	}
	switch {
	case first == nil:
		return &trajeval.SniffError{Why: "no JSON object"}
	case first.bad == "" && first.has["id"] && first.has["turns"] && first.has["steps"] && first.has["metrics"]:
		return nil // runs without calls, in the canonical shape
	case first.bad != "" && first.has["steps"]:
		return &trajeval.SniffError{Closeness: 50, Why: fmt.Sprintf("no step, and %q is not a field of a canonical trajectory (%s)", first.bad, strings.Join(trajectoryFields, ", "))}
	case first.has["steps"]:
		return &trajeval.SniffError{Closeness: 40, Why: `"steps", but no step with "index", "name" and "args"`}
	}
	return &trajeval.SniffError{Closeness: 10, Why: `no canonical trajectory ("steps" with "index", "name" and "args")`}
}

// Disclaims reports that the head holds no "steps" key, which every
// claim needs (see msglog.Disclaimer), nor a \u escape, which could spell
// one: detection need not read its objects.
func (format) Disclaims(h *msglog.Head) bool {
	head := h.Bytes()
	return !sniff.Contains(head, "steps") && !bytes.Contains(head, []byte(`\u`))
}

// A shape is what the head shows of one trajectory object.
type shape struct {
	has     map[string]bool // its canonical fields
	bad     string          // a field that is not canonical
	step    bool            // it has a first step
	stepOK  bool            // the first step has index, name and a third canonical field
	stepBad string          // a field of the first step that is not canonical
	notList bool            // "steps" is not a list of objects
}

// sniffTrajectory walks one object whose '{' was read, as far as the
// head goes.
func sniffTrajectory(d *sniff.Decoder) shape {
	sh := shape{has: map[string]bool{}}
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return sh
		}
		key, _ := t.(string)
		switch {
		case !contains(trajectoryFields, key):
			if sh.bad == "" {
				sh.bad = key
			}
		case key == "steps" && !sh.has[key]:
			sh.has[key] = true
			if !sniffSteps(d, &sh) {
				return sh
			}
			continue
		default:
			sh.has[key] = true
		}
		if d.Skip() != nil {
			return sh
		}
	}
	d.Token() // the closing brace
	return sh
}

// sniffSteps reads the value of "steps", noting the fields of the first
// step; it returns false when the head ends or the value is not a list.
func sniffSteps(d *sniff.Decoder, sh *shape) bool {
	if t, err := d.Token(); err != nil || t != json.Delim('[') {
		sh.notList = err == nil && t != nil
		return false
	}
	if d.More() {
		if t, err := d.Token(); err != nil || t != json.Delim('{') {
			sh.notList = err == nil
			return false
		}
		sh.step = true
		var keys []string
		for d.More() {
			t, err := d.Token()
			if err != nil {
				return false
			}
			key, _ := t.(string)
			if contains(stepFields, key) {
				keys = append(keys, key)
			} else if sh.stepBad == "" {
				sh.stepBad = key
			}
			sh.stepOK = contains(keys, "index") && contains(keys, "name") && len(keys) >= 3
			if d.Skip() != nil {
				return false
			}
		}
		if _, err := d.Token(); err != nil {
			return false
		}
	}
	for d.More() {
		if d.Skip() != nil {
			return false
		}
	}
	_, err := d.Token()
	return err == nil
}
