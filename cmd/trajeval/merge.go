package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/escape"
	"github.com/trajeval/trajeval/internal/mine"
	"github.com/trajeval/trajeval/internal/plural"
	"github.com/trajeval/trajeval/internal/scaffold"
	"github.com/trajeval/trajeval/internal/trace"
)

// The files init --merge writes.
const (
	minedSuite  = "mined.yaml"
	minedTraces = "mined.traces.jsonl"
)

// initMerge mines one expectation from the runs of the files patterns
// name, checks it, writes it with the runs it came from, and scores the
// runs held back.
func initMerge(cmd *cobra.Command, dir string, patterns []string, holdout float64, seed uint64) error {
	const usage = "trajeval init DIR --merge --from RUNS... [--holdout F]"
	if len(patterns) == 0 {
		return usageError{fmt.Errorf("--merge needs runs to mine: %s", usage)}
	}
	if !(holdout >= 0 && holdout < 1) {
		return usageError{fmt.Errorf("--holdout is a share of the runs from 0 to below 1, got %v", holdout)}
	}
	files, err := expand(patterns)
	if err != nil {
		return err
	}
	var runs []*trajeval.Trajectory
	var sources []string
	for _, f := range files {
		before := len(runs)
		err := trace.Read(cmd.Context(), f, trace.Options{Warn: func(w trajeval.Warning) {
			fmt.Fprintln(cmd.ErrOrStderr(), "warning:", w)
		}}, func(t *trajeval.Trajectory) error {
			runs = append(runs, t)
			return nil
		})
		if err != nil {
			return err
		}
		if len(runs) == before {
			return fmt.Errorf("%s holds no trajectory: every file given to --merge must hold a run", f)
		}
		sources = append(sources, filepath.Base(f))
	}
	keep, held := mine.Holdout(len(runs), holdout, seed)
	train := pick(runs, keep)
	res, err := mine.Mine(cmd.Context(), train, mine.Options{Sources: sources})
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for _, t := range train {
		if err := enc.Encode(t); err != nil {
			return err
		}
	}
	out := []scaffold.File{{Path: minedSuite, Data: res.YAML}, {Path: minedTraces, Data: buf.Bytes()}}
	if err := scaffold.Write(dir, out); err != nil {
		return err
	}
	for _, n := range res.Notes {
		fmt.Fprintln(cmd.ErrOrStderr(), "note:", n)
	}
	w := cmd.OutOrStdout()
	fmt.Fprintf(w, "mined %s: every one passes\n", plural.Count(len(train), "run", "runs"))
	if len(held) > 0 {
		c, err := mine.Check(cmd.Context(), res.YAML, pick(runs, held))
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "held back %s (--holdout %v, --seed %d): %d of them pass\n", plural.Count(len(held), "run", "runs"), holdout, seed, c.Passed)
		if c.First != "" {
			// It quotes the run's id and tool names: escaped, as a report.
			fmt.Fprintf(w, "  the first that does not: held-back %s\n", escape.Line(c.First))
		}
	}
	written := []string{filepath.Join(dir, minedSuite), filepath.Join(dir, minedTraces)}
	if err := printNext(cmd, written, written[0]); err != nil {
		return err
	}
	fmt.Fprintf(w, "score a new run against it:\n  trajeval eval %s --traces NEW.jsonl\n", shellQuote(written[0]))
	return nil
}

// expand returns the files of --from: each pattern with glob characters
// is expanded (sorted), and must match a file.
func expand(patterns []string) ([]string, error) {
	var files []string
	for _, p := range patterns {
		if p == "-" {
			return nil, usageError{fmt.Errorf("--from needs trace files, not standard input")}
		}
		if !strings.ContainsAny(p, "*?[") {
			files = append(files, p)
			continue
		}
		m, err := filepath.Glob(p)
		if err != nil {
			return nil, usageError{fmt.Errorf("--from %s: %v", p, err)}
		}
		if len(m) == 0 {
			return nil, usageError{fmt.Errorf("--from %s matches no file", p)}
		}
		files = append(files, m...)
	}
	return files, nil
}

func pick(runs []*trajeval.Trajectory, idx []int) []*trajeval.Trajectory {
	out := make([]*trajeval.Trajectory, len(idx))
	for i, j := range idx {
		out[i] = runs[j]
	}
	return out
}
