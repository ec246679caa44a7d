package scaffold

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/suite"
)

// FromTrace returns the files of a suite that expects what the
// trajectories read from the trace file at tracePath did, to be written
// into dir: the suite (named after the trace) and, unless the trace is
// inside dir already, a copy of it under traces/. It returns the suite's
// path in files and notes for the user (calls whose arguments cannot be
// expected, ids given). Trajectories given ids keep them (see rule 2).
func FromTrace(tracePath string, trajs []*trajeval.Trajectory, dir string) (files []File, suitePath string, notes []string, err error) {
	if len(trajs) == 0 {
		return nil, "", nil, fmt.Errorf("%s holds no trajectory", tracePath)
	}
	base := filepath.Base(tracePath)
	stem := strings.TrimSuffix(base, ".gz")
	stem = strings.TrimSuffix(stem, filepath.Ext(stem))
	if stem == "" || stem == "." {
		stem = "trace"
	}
	ids, renamed := caseIDs(trajs, stem)
	ref := "traces/" + base
	inside := false
	if absDir, err1 := filepath.Abs(dir); err1 == nil {
		if absTrace, err2 := filepath.Abs(tracePath); err2 == nil {
			if rel, err3 := filepath.Rel(absDir, absTrace); err3 == nil && !strings.HasPrefix(rel, "..") {
				inside = true
				if !renamed {
					ref = filepath.ToSlash(rel)
				}
			}
		}
	}
	// A folder named after the trace, or after one of its trajectories,
	// beside it holds files its reader reads too (Claude Code keeps a
	// session's sub-agents in <session>/subagents/, Gemini CLI in
	// <session id>/): a copy of the file alone would be read without them.
	companion := false
	for _, name := range append([]string{stem}, trajIDs(trajs)...) {
		if info, err := os.Stat(filepath.Join(filepath.Dir(tracePath), name)); err == nil && info.IsDir() && !inside {
			companion = true
			break
		}
	}
	var canonical []byte
	if renamed || companion {
		// A case finds its trajectory by id: the suite scores a copy of the
		// trajectories in trajeval's own form, with the ids given.
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		for i, t := range trajs {
			t.ID = ids[i]
			if err := enc.Encode(t); err != nil {
				return nil, "", nil, err
			}
		}
		canonical, ref = buf.Bytes(), "traces/"+stem+".trajeval.jsonl"
		if renamed {
			notes = append(notes, fmt.Sprintf("%s holds trajectories without distinct ids: %s holds them in trajeval's form, with ids %s to %s", base, ref, ids[0], ids[len(ids)-1]))
		} else {
			notes = append(notes, fmt.Sprintf("%s is read with the files of the folder %s beside it: %s holds its trajectories in trajeval's form", base, stem, ref))
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# yaml-language-server: $schema=%s\n", suite.SchemaURL)
	fmt.Fprintf(&b, "#\n# Made by trajeval init --from %s: each case expects the tool calls\n", base)
	b.WriteString(`# its trajectory made, in this order, with these arguments compared exactly.
# Loosen what may change from one good run to the next: args_match: partial
# (only the arguments listed are compared), an operator such as
# {$regex: "..."} or {$gt: 0} in place of a value, or remove a call.
`)
	fmt.Fprintf(&b, "name: %s\nevalcases:\n", quote(stem))
	for i, t := range trajs {
		fmt.Fprintf(&b, "  - id: %s\n", quote(ids[i]))
		if in := firstInput(t); in != "" {
			fmt.Fprintf(&b, "    input: %s\n", quote(in))
		}
		fmt.Fprintf(&b, "    trace: %s\n", quote(ref))
		b.WriteString("    execution:\n      evaluators:\n        - name: trajectory\n          type: tool_trajectory\n")
		if len(t.Steps) == 0 {
			b.WriteString("          mode: exact           # the run made no tool call\n          expected: []\n")
			continue
		}
		b.WriteString("          mode: in_order\n          args_match: exact\n          expected:\n")
		for _, s := range t.Steps {
			if s.Name == "" {
				// A suite cannot expect a call without a name; the calls
				// around it are still expected in order.
				notes = append(notes, fmt.Sprintf("case %s, call %d: the trace records no tool name, so the call is not expected", ids[i], s.Index))
				continue
			}
			fmt.Fprintf(&b, "            - tool: %s\n", quote(s.Name))
			switch a := s.Args.(type) {
			case nil:
				b.WriteString("              args: {}\n")
			case map[string]any:
				fmt.Fprintf(&b, "              args: %s\n", value(a))
			default:
				b.WriteString("              # its recorded arguments are not an object: only the name is expected\n")
				notes = append(notes, fmt.Sprintf("case %s, call %d (%s): the recorded arguments are not an object, so only the tool's name is expected", ids[i], s.Index, s.Name))
			}
		}
	}
	suitePath = stem + ".yaml"
	files = append(files, File{Path: suitePath, Data: []byte(b.String())})
	switch {
	case canonical != nil:
		files = append(files, File{Path: ref, Data: canonical})
	case !inside:
		files = append(files, File{Path: ref, From: tracePath})
	}
	return files, suitePath, notes, nil
}

// caseIDs returns the case id of each trajectory: its own id, or for the
// only trajectory of a file without one, the file's name. Trajectories of
// a file of several without an id, or with one another has too, are
// given ids (stem-N), and renamed says so.
func caseIDs(trajs []*trajeval.Trajectory, stem string) (ids []string, renamed bool) {
	if len(trajs) == 1 {
		id := trajs[0].ID
		if id == "" {
			id = stem
		}
		return []string{id}, false
	}
	count := map[string]int{}
	for _, t := range trajs {
		count[t.ID]++
	}
	taken := map[string]bool{}
	for _, t := range trajs {
		if t.ID != "" && count[t.ID] == 1 {
			taken[t.ID] = true
		}
	}
	n := 0
	for _, t := range trajs {
		id := t.ID
		if id == "" || count[id] > 1 {
			renamed = true
			for {
				n++
				id = fmt.Sprintf("%s-%d", stem, n)
				if !taken[id] {
					break
				}
			}
			taken[id] = true
		}
		ids = append(ids, id)
	}
	return ids, renamed
}

// firstInput returns the first user message the trajectory records.
func firstInput(t *trajeval.Trajectory) string {
	for _, turn := range t.Turns {
		if turn.User != nil && *turn.User != "" {
			return *turn.User
		}
	}
	return ""
}

// value writes a JSON value as YAML flow syntax that reads back as the
// same value (see the package rules).
func value(v any) string {
	var b strings.Builder
	writeValue(&b, v)
	return b.String()
}

func writeValue(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case json.Number:
		b.WriteString(x.String())
	case float64:
		b.WriteString(strconv.FormatFloat(x, 'g', -1, 64))
	case string:
		b.WriteString(quote(x))
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			writeValue(b, e)
		}
		b.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteString(", ")
			}
			lit := k
			if strings.HasPrefix(k, "$") {
				lit = "$" + k // a literal key, not an operator
			}
			b.WriteString(quote(lit))
			b.WriteString(": ")
			writeValue(b, x[k])
		}
		b.WriteByte('}')
	default:
		// Unreachable for trajectories read from traces (JSON values);
		// JSON is YAML.
		data, _ := json.Marshal(x)
		b.Write(data)
	}
}

// quote writes s as a YAML double-quoted scalar: every character YAML
// does not print as it is (controls, DEL, line and paragraph separators,
// byte order marks, non-characters) is escaped.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r >= 0x20 && r < 0x7f, r >= 0xa0 && r != 0x2028 && r != 0x2029 && r != 0xfeff && r != 0xfffe && r != 0xffff && r != utf8.RuneError:
			b.WriteRune(r)
		case r == utf8.RuneError && size == 3:
			b.WriteString(`\uFFFD`)
		default:
			fmt.Fprintf(&b, `\u%04X`, r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// trajIDs returns the ids of trajs that could name a folder: not empty,
// no path separator, no dot name.
func trajIDs(trajs []*trajeval.Trajectory) []string {
	var out []string
	for _, t := range trajs {
		if t.ID != "" && t.ID != "." && t.ID != ".." && !strings.ContainsAny(t.ID, `/\`) {
			out = append(out, t.ID)
		}
	}
	return out
}
