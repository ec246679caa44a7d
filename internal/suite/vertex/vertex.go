// Package vertex loads Vertex AI Gen AI evaluation datasets for agents as
// suites, so that a Vertex user's dataset runs unchanged:
//
//	trajeval eval dataset.jsonl
//
// A dataset is JSON Lines, one row per line (package format/vertex reads
// the same file as traces). Loading follows these rules:
//  1. A .jsonl file whose first row has a reference_trajectory column is a
//     dataset; in a folder, other .jsonl files are traces and skipped.
//  2. Each row is one case. Its id is the row's id column (text or a
//     number), else "row-N" with N its line number; two rows with one id
//     are an error. Its input is the prompt column, if any.
//  3. Every row needs a reference_trajectory: a list of calls
//     {tool_name, tool_input} (or text holding one); [] expects no calls.
//     A row without one, or with one of the wrong shape, is a
//     configuration error at its line, reported before anything runs.
//  4. Each case is scored by Vertex's five reference metrics, in this
//     order: trajectory_exact_match, trajectory_in_order_match,
//     trajectory_any_order_match, trajectory_precision, trajectory_recall
//     (package eval/vertex), each required with threshold 1 (or
//     --threshold). So a row passes when its trajectory is exactly the
//     reference, and the scores show how far off the others are.
//     trajectory_single_tool_use names a tool, which a dataset row does
//     not: use it from a YAML suite.
//  5. The predicted trajectory is the row's predicted_trajectory: the
//     suite's traces file is the dataset itself, matched by id (a run's
//     --traces wins, so recorded traces can replace it). A row with no
//     predicted_trajectory, or one of the wrong shape, gets a warning at
//     its line when the dataset is read and its case is an error (no
//     trace), never a pass.
package vertex

import (
	"path/filepath"
	"strings"

	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval"
	evalvertex "github.com/trajeval/trajeval/internal/eval/vertex"
	format "github.com/trajeval/trajeval/internal/format/vertex"
	"github.com/trajeval/trajeval/internal/suite"
)

// Dialect reads Vertex AI evaluation datasets.
var Dialect = suite.Dialect{Name: "vertex", Claims: claims, Load: load}

// Metrics are the metrics every row is scored by.
var Metrics = []string{evalvertex.ExactMatch, evalvertex.InOrderMatch, evalvertex.AnyOrderMatch, evalvertex.Precision, evalvertex.Recall}

func claims(path string, root *config.Node) bool {
	return root != nil && root.Kind == config.List && len(root.Items) > 0 &&
		root.Items[0].Kind == config.Map && root.Items[0].Get(format.Reference) != nil
}

func load(path string, root *config.Node, opts suite.Options) (*suite.Suite, []error) {
	name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	s := &suite.Suite{Name: name, File: path, Traces: path}
	var errs []error
	seen := map[string]int{}
	for _, row := range root.Items {
		c, err := loadRow(row, opts)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if prev, dup := seen[c.ID]; dup {
			errs = append(errs, row.Errorf("row id %q is used twice", c.ID).With("also on line %d; ids match rows to their trajectories, so each must be unique", prev))
			continue
		}
		seen[c.ID] = row.Line
		s.Cases = append(s.Cases, c)
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return s, nil
}

func loadRow(row *config.Node, opts suite.Options) (*suite.Case, error) {
	if row.Kind != config.Map {
		return nil, row.Errorf("a row is a JSON object, got %s", row.Kind)
	}
	values, _ := row.Value().(map[string]any)
	c := &suite.Case{ID: format.ID(values, row.Line), Node: row}
	if p, ok := values["prompt"].(string); ok {
		c.Input = p
	}
	ref := row.Get(format.Reference)
	if ref == nil || ref.Kind == config.Null {
		return nil, row.Errorf("row %s has no reference_trajectory", c.ID).With(`give the calls expected: "reference_trajectory": [{"tool_name": ..., "tool_input": {...}}], or [] for none`)
	}
	calls, err := format.Trajectory(ref.Value())
	if err != nil {
		return nil, ref.Errorf("row %s: %v", c.ID, err)
	}
	reference := make([]evalvertex.Call, len(calls))
	for i, k := range calls {
		reference[i] = evalvertex.Call{ToolName: k.ToolName, ToolInput: k.ToolInput}
	}
	threshold := 1.0
	if opts.Threshold != nil {
		threshold = *opts.Threshold
	}
	for _, m := range Metrics {
		e, err := evalvertex.New(evalvertex.Options{Metric: m, Reference: reference})
		if err != nil {
			return nil, ref.Errorf("row %s: %v", c.ID, err)
		}
		c.Evaluators = append(c.Evaluators, &eval.Configured{Name: m, Type: m, Weight: 1, Required: true, Threshold: threshold, Eval: e})
	}
	return c, nil
}
