package suite

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/jsonl"
	"github.com/trajeval/trajeval/internal/sniff"
)

// Load reads the suites at paths: suite files, or folders searched
// recursively for suite files (YAML files, JSON files of a known
// dialect, and JSON Lines or CSV datasets with a reference_trajectory column;
// trace files and other JSON are skipped). It returns every
// configuration error it finds, not only the first.
func Load(paths []string, opts Options) ([]*Suite, []error) {
	var suites []*Suite
	var errs []error
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			errs = append(errs, &trajeval.SpecError{File: p, Msg: "cannot read: " + pathErr(err)})
			continue
		}
		if !st.IsDir() {
			s, es := LoadFile(p, opts, true)
			errs = append(errs, es...)
			if s != nil {
				suites = append(suites, s)
			}
			continue
		}
		found := 0
		var skipped []string // JSON files that are not suites: traces, maybe
		werr := filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				errs = append(errs, &trajeval.SpecError{File: path, Msg: "cannot read: " + pathErr(err)})
				return nil
			}
			if d.IsDir() {
				if path != p && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules") {
					return filepath.SkipDir
				}
				return nil
			}
			if !candidate(path, opts.Dialects) {
				if len(skipped) < 20 && (strings.HasSuffix(path, ".json") || strings.HasSuffix(path, ".jsonl")) {
					skipped = append(skipped, path)
				}
				return nil
			}
			s, es := LoadFile(path, opts, false)
			errs = append(errs, es...)
			if s != nil {
				found++
				suites = append(suites, s)
			}
			return nil
		})
		if werr != nil {
			errs = append(errs, werr)
		}
		if found == 0 && len(errs) == 0 {
			hint := "suites are YAML files with evalcases or tests (or with execution.evaluators alone and the traces they score beside them), ADK *.evalset.json / *.test.json files, UiPath evaluation sets, τ²-bench task files, BFCL possible-answer files, or Vertex AI datasets (*.jsonl or *.csv with reference_trajectory)"
			if t := firstTrace(skipped); t != "" {
				hint += fmt.Sprintf("; %s looks like a trace: pass it with --traces %s, or write a suite from it with trajeval init --from %s", t, t, t)
			}
			errs = append(errs, &trajeval.SpecError{File: p, Msg: "no suite files in this folder", Hint: hint})
		}
	}
	if len(errs) == 0 {
		errs = append(errs, duplicateIDs(suites, opts)...)
	}
	return suites, errs
}

// candidate reports whether a file met in a folder may be a suite.
func candidate(path string, dialects []Dialect) bool {
	base := strings.ToLower(filepath.Base(path))
	switch filepath.Ext(base) {
	case ".yaml", ".yml":
		return true
	case ".json", ".jsonl", ".csv":
		if strings.HasSuffix(base, ".evalset.json") || strings.HasSuffix(base, ".test.json") {
			return true
		}
		f, err := os.Open(path)
		if err != nil {
			return false
		}
		defer f.Close()
		head := make([]byte, 64<<10)
		n, _ := f.Read(head)
		if sniffed(path, head[:n], dialects) != nil {
			return true
		}
		keys := sniff.Keys(head[:n])
		if filepath.Ext(base) == ".jsonl" {
			// A dataset with references is a suite; other JSON Lines are
			// traces. Its first row may be long: look at the first MiB.
			head, err := readHead(path)
			return err == nil && sniff.HasKey(sniff.Keys(sniff.FirstLine(head)), "reference_trajectory")
		}
		return filepath.Ext(base) == ".json" && (sniff.HasKey(keys, "evaluations", "evaluatorRefs", "evaluatorConfigs", "eval_set_id", "evalSetId", "eval_cases", "evalCases") ||
			sniff.HasKey(sniff.FirstElementKeys(head[:n]), "evaluation_criteria", "user_scenario")) // τ²-bench tasks
	}
	return false
}

// sniffed returns the first dialect that claims a file by its bytes.
func sniffed(path string, head []byte, dialects []Dialect) *Dialect {
	for i := range dialects {
		if d := &dialects[i]; d.Sniff != nil && d.LoadData != nil && d.Sniff(path, head) {
			return d
		}
	}
	return nil
}

// readHead returns the first MiB of a file: a dataset's first row may be
// long, and its reference_trajectory may come after a long prediction.
func readHead(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	head := make([]byte, 1<<20)
	n, _ := io.ReadFull(f, head)
	return head[:n], nil
}

// readFile reads the suite file path whole, as a trace read whole is
// read: at most jsonl.MaxDocument bytes, so that a device or a file that
// never ends (eval /dev/zero) is an error, not all of memory.
func readFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &trajeval.SpecError{File: path, Msg: "cannot read: " + pathErr(err)}
	}
	defer f.Close()
	size := int64(-1)
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		size = st.Size()
	}
	data, err := jsonl.ReadDocument(path, f, size, nil)
	var de *jsonl.DocumentTooLargeError
	switch {
	case errors.As(err, &de):
		return nil, &trajeval.SpecError{File: path, Msg: strings.Replace(de.Error(), "JSON document", "suite", 1),
			Hint: "is it the file meant? Split its cases into several files in a folder"}
	case err != nil:
		var te *trajeval.TraceError
		if errors.As(err, &te) && te.Err != nil {
			err = te.Err
		}
		return nil, &trajeval.SpecError{File: path, Msg: "cannot read: " + pathErr(err)}
	}
	return data, nil
}

// LoadFile reads one suite file. explicit says whether the user named the
// file (a file that no dialect claims is then an error) or it was found in
// a folder (it is then skipped: a folder may hold targets or configs).
func LoadFile(path string, opts Options, explicit bool) (*Suite, []error) {
	data, err := readFile(path)
	if err != nil {
		return nil, []error{err}
	}
	if bytes.IndexByte(data, 0) >= 0 {
		if !explicit {
			return nil, nil
		}
		return nil, []error{&trajeval.SpecError{File: path, Line: 1, Col: 1, Msg: "binary file: not a suite", Hint: "a suite is YAML or JSON"}}
	}
	if d := sniffed(path, data, opts.Dialects); d != nil {
		s, errs := d.LoadData(path, data, opts)
		if s != nil {
			s.Dialect = d.Name
		}
		return finish(s, errs, path, opts)
	}
	if strings.EqualFold(filepath.Ext(path), ".csv") {
		// CSV is a suite only as a dataset some dialect sniffs.
		if !explicit {
			return nil, nil
		}
		if terr := notASuite(path, data); terr != nil {
			return nil, []error{terr}
		}
		return nil, []error{&trajeval.SpecError{File: path, Line: 1, Col: 1, Msg: "this CSV file is not a Vertex AI dataset: its header row has no reference_trajectory column",
			Hint: "a CSV suite is a Vertex AI evaluation dataset as pandas' to_csv writes it, a row per case with the calls expected in reference_trajectory"}}
	}
	parse := func(path string, data []byte) (*config.Node, error) {
		// The cases are read one part at a time: a suite of a million
		// cases never sits in memory as a tree.
		return config.ParseList(path, data, caseListKeys...)
	}
	if strings.EqualFold(filepath.Ext(path), ".jsonl") {
		parse = config.ParseLines // a dataset: one row per line
	}
	root, err := parse(path, data)
	if err != nil {
		if !explicit && !strings.HasSuffix(path, ".yaml") && !strings.HasSuffix(path, ".yml") {
			return nil, nil
		}
		if terr := notASuite(path, data); explicit && terr != nil {
			return nil, []error{terr}
		}
		return nil, []error{err}
	}
	var s *Suite
	var errs []error
	for _, d := range opts.Dialects {
		if d.Claims(path, root) {
			if err := root.Materialize(); err != nil {
				return nil, []error{err}
			}
			s, errs = d.Load(path, root, opts)
			if s != nil {
				s.Dialect = d.Name
			}
			break
		}
	}
	if s == nil && errs == nil {
		if !agentvClaims(root) && !explicit && !openBeside(path, root) {
			return nil, nil
		}
		s, errs = loadAgentV(path, root, opts)
		if s != nil {
			s.Dialect = "agentv"
		}
		if len(errs) > 0 && !agentvClaims(root) {
			if terr := notASuite(path, data); terr != nil {
				return nil, []error{terr}
			}
		}
	}
	return finish(s, errs, path, opts)
}

// finish gives a loaded suite its traces file beside it and its target.
func finish(s *Suite, errs []error, path string, opts Options) (*Suite, []error) {
	if s != nil && s.Traces == "" {
		s.Traces = sidecar(path)
	}
	if s != nil {
		errs = append(errs, resolveTarget(s, s.choice, opts)...)
	}
	return s, errs
}

// sidecar returns the traces file beside a suite file, if there is one:
// NAME.traces.jsonl for NAME.yaml (or NAME.evalset.json), else traces.jsonl.
func sidecar(path string) string {
	dir, base := filepath.Dir(path), filepath.Base(path)
	name := base
	for _, ext := range []string{".evalset.json", ".test.json", ".json", ".yaml", ".yml"} {
		if strings.HasSuffix(strings.ToLower(name), ext) {
			name = name[:len(name)-len(ext)]
			break
		}
	}
	for _, c := range []string{name + ".traces.jsonl", "traces.jsonl"} {
		p := filepath.Join(dir, c)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p
		}
	}
	return ""
}

// duplicateIDs returns an error for each case id two suites share where
// it is ambiguous: results are keyed by suite name and case id, and traces
// files are matched to cases by id alone. So the same id is an error when
// the two suites have the same name, or when both cases take their trace
// from the same traces file; otherwise it is fine.
func duplicateIDs(suites []*Suite, opts Options) []error {
	if len(suites) == 1 && suites[0].uniqueIDs {
		return nil // its loader found every repeat, with a map of its own
	}
	type at struct {
		s *Suite
		c *Case
	}
	// The first case of each id, and the others only when an id repeats:
	// one map entry a case, no allocation each.
	cases := 0
	for _, s := range suites {
		cases += len(s.Cases)
	}
	first := make(map[string]at, cases)
	more := map[string][]at{}
	var errs []error
	for _, s := range suites {
		for _, c := range s.Cases {
			f, ok := first[c.ID]
			if !ok {
				first[c.ID] = at{s, c}
				continue
			}
			for _, prev := range append([]at{f}, more[c.ID]...) {
				why := ""
				switch {
				case prev.s == s && prev.c.Place.Line > 0:
					why = fmt.Sprintf("the other is at line %d", prev.c.Place.Line)
				case prev.s == s:
					why = "twice in this file: their results could not be told apart"
				case prev.s.Name == s.Name:
					why = fmt.Sprintf("also in %s, a suite of the same name: their results could not be told apart", prev.s.File)
				case tracesFile(prev.s, prev.c, opts) != "" && tracesFile(prev.s, prev.c, opts) == tracesFile(s, c, opts):
					why = fmt.Sprintf("also in %s, and both take their trace from %s, where traces are matched to cases by id", prev.s.File, tracesFile(s, c, opts))
				default:
					continue
				}
				e := &trajeval.SpecError{File: s.File, Msg: fmt.Sprintf("case id %q is used twice", c.ID), Hint: why}
				if c.Place.Line > 0 {
					e.Line, e.Col, e.Path = int(c.Place.Line), int(c.Place.Col), c.Place.Path()
				}
				errs = append(errs, e)
				break
			}
			more[c.ID] = append(more[c.ID], at{s, c})
		}
	}
	return errs
}

// tracesFile returns the traces file case c is matched in by id, "" when
// it is not.
func tracesFile(s *Suite, c *Case, opts Options) string {
	switch s.Source(c, opts.Traces) {
	case FromTraces:
		return opts.Traces
	case FromSuite:
		return s.Traces
	}
	return ""
}

func pathErr(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// SortErrors orders errors by file, line and column, for stable output.
func SortErrors(errs []error) { config.SortErrors(errs) }
