package trace_test

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/trace"
)

var update = flag.Bool("update", false, "rewrite the hostile corpus in testdata/hostile")

// hostileDir holds the small files of the hostile corpus; the big ones
// (deep nesting, huge strings) are made at test time.
const hostileDir = "../../testdata/hostile"

// hostileSamples names, for every format, the valid file the hostile
// corpus damages. A stream with a closing event ends with it.
var hostileSamples = map[string]string{
	"adk-evalset":      "adk/testdata/adk-evalset/weather.evalset.json",
	"adk-session":      "adk/testdata/adk-session/weather.session.json",
	"agentv":           "agentv/testdata/agentv/turns.json",
	"anthropic":        "anthropic/testdata/anthropic/conversation.json",
	"trajeval":         "canonical/testdata/trajeval/lines.jsonl",
	"claude-code":      "claudecode/testdata/claude-code/multi_turn.jsonl",
	"codex":            "codex/testdata/codex/run.jsonl",
	"codex-session":    "codex/testdata/codex-session/drift.jsonl",
	"gemini-cli":       "gemini/testdata/gemini-cli/session.jsonl",
	"gemini-chat":      "gemini/testdata/gemini-chat/session.json",
	"langchain":        "langchain/testdata/langchain/state.json",
	"langsmith":        "langchain/testdata/langsmith/repr.jsonl",
	"mcp":              "mcp/testdata/mcp/session.jsonl",
	"bfcl":             "bfcl/testdata/bfcl/results.jsonl",
	"openai-agents":    "openai/testdata/openai-agents/spans.jsonl",
	"openai-chat":      "openai/testdata/openai-chat/multi_turn.json",
	"vertex-dataset":   "vertex/testdata/vertex-dataset/rows.jsonl",
	"openai-responses": "openai/testdata/openai-responses/conversation.json",
	"otlp":             "otlp/testdata/otlp/duplicates.jsonl",
	"otlp-proto":       "otlp/testdata/otlp-proto/conversation-framed.pb",
	"tau2":             "tau2/testdata/tau2/airline.json",
}

// linesOnly are the formats read as JSON Lines only, where a value never
// spans lines.
var linesOnly = map[string]bool{"codex": true, "codex-session": true, "gemini-cli": true, "claude-code": true, "mcp": true, "bfcl": true, "vertex-dataset": true}

// closing names the event that ends each run, in the formats that have
// one.
var closing = map[string]string{"codex": "turn.completed", "gemini-cli": "result", "claude-code": "result"}

// hostile is what a reader must make of a damaged or hostile file.
type hostile int

const (
	// refused: an error read strictly; read leniently, an error or a
	// warning (junk skipped, damage read past).
	refused hostile = iota
	// tooDeep: an error wrapping jsonv.ErrTooDeep, read strictly or not.
	tooDeep
	// cut: read, with a warning, the last trajectory partial.
	cut
	// kept: read without error; the hostile text survives as it was:
	// escaping it is the job of what shows it.
	kept
)

// A hostileFile is one file of the corpus.
type hostileFile struct {
	format, kind string
	data         []byte
	want         hostile
	texts        []string // for kept: what some string of the trajectories holds, one of these
}

// hostileText is control and bidirectional characters as a trace may
// carry them in its JSON: OSC 0 (set the window title), CSI 2J (clear the
// screen), OSC 52 (write the clipboard), a right-to-left override and the
// C1 control NEL.
const hostileText = "\x1b]0;pwned\x07\x1b[2J\x1b]52;c;cm0gLXJmIH4=\x07\u202egnp.exe\u0085"

// jsonEscaped is hostileText as JSON string content.
var jsonEscaped = strings.NewReplacer("\x1b", `\u001b`, "\x07", `\u0007`).Replace(hostileText)

// smallHostile returns the small files of the corpus, made from each
// format's sample:
//  1. junk-id, junk-empty, junk-null: a record with none of the format's
//     fields (`{"id":"case-a","foo":1}`, `{}`, `null`) after the sample,
//     or after the first line of a JSON Lines sample;
//  2. cut-mid: the file cut off two thirds in, inside a record;
//  3. cut-end: for the streams with a closing event, the file without its
//     last line, that event;
//  4. utf8: a byte 0xff in the first string value; syntax-no-value and
//     syntax-nul: that value's place taken by a comma (`"key":,"text"`),
//     a raw NUL at its start (in the first line of JSON Lines);
//  5. control: the first step's name, the first trajectory's id and a
//     string argument with control and bidi characters added.
//
// otlp-proto is binary: only its junk, cut-mid and utf8 files are made,
// its utf8 file with a byte of the first tool name changed.
func smallHostile(t *testing.T) []hostileFile {
	var files []hostileFile
	for _, name := range trace.Names() {
		rel, ok := hostileSamples[name]
		if !ok {
			t.Fatalf("format %s has no sample in hostileSamples", name)
		}
		data, err := os.ReadFile(filepath.Join("..", "format", rel))
		if err != nil {
			t.Fatal(err)
		}
		ext := filepath.Ext(rel)
		add := func(kind string, data []byte, want hostile, texts ...string) {
			files = append(files, hostileFile{name, kind + ext, data, want, texts})
		}
		body := bytes.TrimRight(data, "\n")
		valid := body // the junk follows a valid record: the first line of JSON Lines
		if i := bytes.IndexByte(body, '\n'); ext == ".jsonl" && i > 0 {
			valid = body[:i]
		}
		for kind, junk := range map[string]string{"junk-id": `{"id":"case-a","foo":1}`, "junk-empty": `{}`, "junk-null": `null`} {
			add(kind, slices.Concat(valid, []byte("\n"+junk+"\n")), refused)
		}
		at := len(body) * 2 / 3
		for at > 0 && (body[at-1] == '\n' || body[at-1] == ' ') {
			at--
		}
		add("cut-mid", slices.Clone(body[:at]), refused)
		if name == "otlp-proto" {
			// A byte of the first tool name made invalid: the same length,
			// so that the message stays whole.
			stepName, _, _ := firstNames(t, name, data)
			i := bytes.Index(data, []byte(stepName))
			if i < 0 {
				t.Fatalf("%s: the step name %q is not in the file", rel, stepName)
			}
			bad := slices.Clone(data)
			bad[i+1] = 0xff
			add("utf8", bad, refused)
			continue
		}
		if ev, ok := closing[name]; ok {
			last := bytes.LastIndexByte(body, '\n')
			if !bytes.Contains(body[last:], []byte(`"type":"`+ev+`"`)) {
				t.Fatalf("%s: the sample's last line is not its closing %s event", rel, ev)
			}
			add("cut-end", slices.Clone(body[:last+1]), cut)
		}
		loc := stringValue.FindIndex(body)
		if loc == nil {
			t.Fatalf("%s: no string value", rel)
		}
		bad := slices.Concat(body[:loc[1]], []byte{0xff}, body[loc[1]:], []byte("\n"))
		add("utf8", bad, refused)
		// Invalid JSON a lenient decoder might take: a value left out, a
		// raw NUL in a string.
		if loc := stringValue.FindIndex(valid); loc != nil {
			add("syntax-no-value", slices.Concat(valid[:loc[1]-1], []byte(","), valid[loc[1]-1:], []byte("\n")), refused)
			add("syntax-nul", slices.Concat(valid[:loc[1]], []byte{0}, valid[loc[1]:], []byte("\n")), refused)
		}
		stepName, id, arg := firstNames(t, name, data)
		ctl := bytes.ReplaceAll(data, []byte(`"`+stepName+`"`), []byte(`"`+stepName+jsonEscaped+`"`))
		for _, s := range []string{id, arg} {
			if s != "" && s != stepName {
				ctl = bytes.ReplaceAll(ctl, []byte(`"`+s+`"`), []byte(`"`+s+jsonEscaped+`"`))
			}
		}
		if bytes.Equal(ctl, data) {
			t.Fatalf("%s: the step name %q is nowhere as a JSON string", rel, stepName)
		}
		add("control", ctl, kept, stepName+hostileText, id+hostileText, arg+hostileText)
	}
	return files
}

// stringValue is the start of a string value in an object.
var stringValue = regexp.MustCompile(`":\s*"`)

// firstNames reads data as format and returns its first step's name and
// first trajectory's id.
func firstNames(t *testing.T, format string, data []byte) (step, id, arg string) {
	err := trace.ReadFrom(context.Background(), format, bytes.NewReader(data), trace.Options{From: format}, func(tr *trajeval.Trajectory) error {
		if id == "" {
			id = tr.ID
		}
		for _, s := range tr.Steps {
			if step == "" {
				step = s.Name
			}
			if args, ok := s.Args.(map[string]any); ok && arg == "" {
				for _, k := range slices.Sorted(maps.Keys(args)) {
					if v, ok := args[k].(string); ok && len(v) > 2 && arg == "" {
						arg = v
					}
				}
			}
		}
		return nil
	})
	if err != nil || step == "" {
		t.Fatalf("%s sample: %v, first step %q: it must read, with a step", format, err, step)
	}
	return step, id, arg
}

// bigHostile returns the files too big to keep: deep nesting (one level
// beyond the limit, and a hundred thousand levels, which the decoders
// would recurse through), on one line and pretty-printed, and a string
// of over a MiB, longer than the head that detection sees.
func bigHostile(t *testing.T) []hostileFile {
	var files []hostileFile
	for _, name := range trace.Names() {
		if name == "otlp-proto" {
			continue // protobuf nesting is bounded where protobuf is decoded
		}
		data, err := os.ReadFile(filepath.Join("..", "format", hostileSamples[name]))
		if err != nil {
			t.Fatal(err)
		}
		open := bytes.IndexByte(data, '{')
		for _, n := range []int{jsonv.MaxDepth + 1, 100000} {
			deep := slices.Concat(data[:open+1], []byte(`"deep":`+strings.Repeat("[", n)+strings.Repeat("]", n)+","), data[open+1:])
			files = append(files, hostileFile{name, fmt.Sprintf("deep-%d", n), deep, tooDeep, nil})
			// Pretty-printed, a bracket a line: no line is deep, the
			// document is. A reader of JSON Lines only sees broken lines.
			n := min(n, 10001) // beyond encoding/json's limit, and quick to read
			pretty := slices.Concat(data[:open+1], []byte("\n\"deep\":"+strings.Repeat("[\n", n)+strings.Repeat("]\n", n)+","), data[open+1:])
			want := tooDeep
			if linesOnly[name] {
				want = refused
			}
			files = append(files, hostileFile{name, fmt.Sprintf("deep-%d-pretty", n), pretty, want, nil})
		}
		// A string argument (else the tool name) of over a MiB.
		stepName, _, arg := firstNames(t, name, data)
		long := strings.Repeat("x", 1<<20+1)
		s := cmp.Or(arg, stepName)
		huge := bytes.ReplaceAll(data, []byte(`"`+s+`"`), []byte(`"`+s+long+`"`))
		if bytes.Equal(huge, data) { // the argument is inside JSON text
			s = stepName
			huge = bytes.ReplaceAll(data, []byte(`"`+s+`"`), []byte(`"`+s+long+`"`))
		}
		files = append(files, hostileFile{name, "huge-string", huge, kept, []string{s + long}})
	}
	return files
}

// TestReadFrom_hostile reads every file of the hostile corpus with every reader,
// strictly and leniently: no reader panics, and none passes junk or
// damage in silence.
func TestReadFrom_hostile(t *testing.T) {
	small := smallHostile(t)
	if *update {
		if err := os.RemoveAll(hostileDir); err != nil {
			t.Fatal(err)
		}
		for _, f := range small {
			path := filepath.Join(hostileDir, f.format, f.kind)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, f.data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	var kept []string
	for _, f := range small {
		kept = append(kept, filepath.Join(f.format, f.kind))
		onDisk, err := os.ReadFile(filepath.Join(hostileDir, f.format, f.kind))
		if err != nil || !bytes.Equal(onDisk, f.data) {
			t.Errorf("testdata/hostile/%s/%s is not what the generator makes (run go test ./internal/trace -run TestReadFrom_hostile -update)", f.format, f.kind)
		}
	}
	if err := filepath.WalkDir(hostileDir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(hostileDir, path)
		if !slices.Contains(kept, rel) {
			t.Errorf("testdata/hostile/%s is not made by the generator (run with -update)", rel)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for _, f := range slices.Concat(small, bigHostile(t)) {
		t.Run(f.format+"/"+f.kind, func(t *testing.T) {
			for _, lenient := range []bool{false, true} {
				checkHostile(t, f, lenient)
			}
		})
	}
}

func checkHostile(t *testing.T, f hostileFile, lenient bool) {
	t.Helper()
	mode := "strictly"
	if lenient {
		mode = "leniently"
	}
	var warns []string
	var got []*trajeval.Trajectory
	opts := trace.Options{From: f.format, Lenient: lenient, Warn: func(w trajeval.Warning) { warns = append(warns, w.String()) }}
	var err error
	func() {
		defer func() {
			if p := recover(); p != nil {
				t.Fatalf("read %s: panic: %v", mode, p)
			}
		}()
		err = trace.ReadFrom(context.Background(), f.kind, bytes.NewReader(f.data), opts, func(tr *trajeval.Trajectory) error {
			got = append(got, tr)
			return nil
		})
	}()
	for _, tr := range got {
		if tr.ID == "case-a" {
			t.Errorf("read %s: the junk record became trajectory case-a", mode)
		}
	}
	switch f.want {
	case refused:
		switch {
		case err != nil:
			var te *trajeval.TraceError
			if !errors.As(err, &te) {
				t.Errorf("read %s: %v, want a *trajeval.TraceError, placed in the file", mode, err)
			}
		case !lenient:
			t.Errorf("read strictly: no error, %d trajectories, warnings %q: junk or damage passed", len(got), warns)
		case len(warns) == 0:
			t.Errorf("read leniently: no error and no warning: junk or damage passed in silence")
		}
	case tooDeep:
		if !errors.Is(err, jsonv.ErrTooDeep) {
			t.Errorf("read %s: %v, want an error wrapping jsonv.ErrTooDeep", mode, err)
		}
	case cut:
		if err != nil {
			t.Fatalf("read %s: %v, want the cut run read", mode, err)
		}
		if len(got) == 0 || !got[len(got)-1].Partial || len(warns) == 0 {
			t.Errorf("read %s: %d trajectories, last partial %v, warnings %q: want the cut run partial, with a warning", mode, len(got), len(got) > 0 && got[len(got)-1].Partial, warns)
		}
	case kept:
		if err != nil {
			t.Fatalf("read %s: %v, want it read", mode, err)
		}
		found := false
		for _, tr := range got {
			found = found || slices.ContainsFunc(f.texts, func(text string) bool { return holds(t, tr, text) })
		}
		if !found {
			t.Errorf("read %s: no string of the trajectories is the hostile text as it was", mode)
		}
	}
}

// holds reports whether a string of tr (an id, a name, arguments, a
// result) is text.
func holds(t *testing.T, tr *trajeval.Trajectory, text string) bool {
	data, err := trajeval.AppendJSON(nil, tr)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	var walk func(v any) bool
	walk = func(v any) bool {
		switch x := v.(type) {
		case string:
			return x == text
		case []any:
			return slices.ContainsFunc(x, walk)
		case map[string]any:
			for k, e := range x {
				if k == text || walk(e) {
					return true
				}
			}
		}
		return false
	}
	return walk(v)
}
