// Package vertex loads Vertex AI Gen AI evaluation datasets for agents as
// suites, so that a Vertex user's dataset runs unchanged:
//
//	trajeval eval dataset.jsonl
//
// A dataset is JSON Lines, one row per line, or CSV as pandas'
// DataFrame.to_csv writes it (package format/vertex reads the same file
// as traces). Loading follows these rules:
//  1. A .jsonl file whose first row has a reference_trajectory column is a
//     dataset, and so is a .csv file whose header row names one; in a
//     folder, other .jsonl and .csv files are traces, or not ours, and
//     skipped.
//  2. Each row is one case. Its id is the row's id column (text or a
//     number), else "row-N" with N its line number (in CSV, the line its
//     record starts on); two rows with one id are an error. Its input is
//     the prompt column, if any.
//  3. Every row needs a reference_trajectory (unless its only metric is
//     trajectory_single_tool_use): a list of calls {tool_name,
//     tool_input}, or text holding one in JSON or in Python's syntax (the
//     repr pandas writes in a CSV cell); [] expects no calls. A CSV cell
//     is placed at its line and column; an empty cell is a missing value.
//     A row without one, or with one of the wrong shape, is a
//     configuration error at its line, reported before anything runs.
//  4. Each case is scored by Vertex's five reference metrics, in this
//     order: trajectory_exact_match, trajectory_in_order_match,
//     trajectory_any_order_match, trajectory_precision, trajectory_recall
//     (package eval/vertex), each required with threshold 1 (or
//     --threshold). So a row passes when its trajectory is exactly the
//     reference, and the scores show how far off the others are.
//  5. A metrics file beside the dataset, NAME.metrics.yaml (or .yml,
//     .json) for NAME.jsonl or NAME.csv, chooses the metrics instead, as EvalTask's
//     metrics list does: {metrics: [name | {metric, tool_name, threshold}]},
//     tool_name for trajectory_single_tool_use (and only it), threshold
//     over --threshold. An unknown metric or key is an error at its place.
//  6. The predicted trajectory is the row's predicted_trajectory: the
//     suite's traces file is the dataset itself, matched by id (a run's
//     --traces wins, so recorded traces can replace it). A row with no
//     predicted_trajectory, or one of the wrong shape, gets a warning at
//     its line when the dataset is read and its case is an error (no
//     trace), never a pass.
package vertex

import (
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval"
	evalvertex "github.com/trajeval/trajeval/internal/eval/vertex"
	format "github.com/trajeval/trajeval/internal/format/vertex"
	"github.com/trajeval/trajeval/internal/suite"
)

// Dialect reads Vertex AI evaluation datasets.
var Dialect = suite.Dialect{Name: "vertex", Claims: claims, Load: load, Sniff: sniffCSV, LoadData: loadCSV}

// Metrics are the metrics every row is scored by when no metrics file
// chooses them.
var Metrics = []string{evalvertex.ExactMatch, evalvertex.InOrderMatch, evalvertex.AnyOrderMatch, evalvertex.Precision, evalvertex.Recall}

func claims(path string, root *config.Node) bool {
	return root != nil && root.Kind == config.List && len(root.Items) > 0 &&
		root.Items[0].Kind == config.Map && root.Items[0].Get(format.Reference) != nil
}

// A metric is one metric every row is scored by.
type metric struct {
	name, tool string
	threshold  *float64
}

func load(path string, root *config.Node, opts suite.Options) (*suite.Suite, []error) {
	name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	s := &suite.Suite{Name: name, File: path, Traces: path}
	metrics, err := loadMetrics(strings.TrimSuffix(path, filepath.Ext(path)) + ".metrics")
	if err != nil {
		return nil, []error{err}
	}
	var errs []error
	seen := map[string]int{}
	for _, row := range root.Items {
		c, err := loadRow(row, metrics, opts)
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

// loadMetrics reads the metrics file base.yaml, .yml or .json, if there
// is one; else every row gets the five reference metrics.
func loadMetrics(base string) ([]metric, error) {
	var out []metric
	for _, ext := range []string{".yaml", ".yml", ".json"} {
		data, err := config.ReadFile(base + ext)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, &trajeval.SpecError{File: base + ext, Msg: "cannot read: " + err.Error()}
		}
		root, err := config.Parse(base+ext, data)
		if err != nil {
			return nil, err
		}
		if err := root.Check("metrics"); err != nil {
			return nil, err
		}
		list := root.Get("metrics")
		if list == nil {
			return nil, root.Errorf("missing metrics").With("list the metrics every row is scored by, e.g. metrics: [trajectory_precision, trajectory_recall]")
		}
		items, err := list.List()
		if err != nil {
			return nil, err
		}
		if len(items) == 0 {
			return nil, list.Errorf("metrics is empty: nothing would be scored").With("list at least one of %s", strings.Join(evalvertex.Metrics, ", "))
		}
		seen := map[string]bool{}
		for _, it := range items {
			m, err := readMetric(it)
			if err != nil {
				return nil, err
			}
			if seen[m.name] {
				return nil, it.Errorf("metric %s is listed twice", m.name).With("each metric names its result, so it may appear once")
			}
			seen[m.name] = true
			out = append(out, m)
		}
		return out, nil
	}
	for _, m := range Metrics {
		out = append(out, metric{name: m})
	}
	return out, nil
}

func readMetric(it *config.Node) (metric, error) {
	var m metric
	nameNode := it
	if it.Kind == config.Map {
		if err := it.Check("metric", "tool_name", "threshold"); err != nil {
			return m, err
		}
		if nameNode = it.Get("metric"); nameNode == nil {
			return m, it.Errorf("the entry has no metric").With("give metric: NAME")
		}
	}
	name, err := nameNode.Enum(evalvertex.Metrics...)
	if err != nil {
		return m, err
	}
	m.name = name
	if t := it.Get("tool_name"); t != nil && it.Kind == config.Map {
		if m.tool, err = t.Name(); err != nil {
			return m, err
		}
		if name != evalvertex.SingleToolUse {
			return m, t.Errorf("%s takes no tool_name", name).With("only %s does", evalvertex.SingleToolUse)
		}
	}
	if name == evalvertex.SingleToolUse && m.tool == "" {
		return m, it.Errorf("%s needs a tool_name", name).With("write {metric: %s, tool_name: NAME}", name)
	}
	if t := it.Get("threshold"); t != nil && it.Kind == config.Map {
		v, err := t.Float()
		if err != nil {
			return m, err
		}
		if v < 0 || v > 1 {
			return m, t.Errorf("threshold must be from 0 to 1, got %v", v)
		}
		m.threshold = &v
	}
	return m, nil
}

func loadRow(row *config.Node, metrics []metric, opts suite.Options) (*suite.Case, error) {
	if row.Kind != config.Map {
		return nil, row.Errorf("a row is a JSON object, got %s", row.Kind)
	}
	values, _ := row.Value().(map[string]any)
	c := &suite.Case{ID: format.ID(values, row.Line), Place: config.PlaceOf(row)}
	if p, ok := values["prompt"].(string); ok {
		c.Input = p
	}
	ref := row.Get(format.Reference)
	var reference []evalvertex.Call
	switch {
	case ref != nil && ref.Kind != config.Null:
		calls, err := format.Trajectory(ref.Value())
		if err != nil {
			return nil, ref.Errorf("row %s: %v", c.ID, err)
		}
		reference = make([]evalvertex.Call, len(calls))
		for i, k := range calls {
			reference[i] = evalvertex.Call{ToolName: k.ToolName, ToolInput: k.ToolInput}
		}
	case slices.ContainsFunc(metrics, func(m metric) bool { return m.name != evalvertex.SingleToolUse }):
		return nil, row.Errorf("row %s has no reference_trajectory", c.ID).With(`give the calls expected: "reference_trajectory": [{"tool_name": ..., "tool_input": {...}}], or [] for none`)
	default:
		ref = row
	}
	for _, m := range metrics {
		o := evalvertex.Options{Metric: m.name, Reference: reference}
		if m.name == evalvertex.SingleToolUse {
			o = evalvertex.Options{Metric: m.name, ToolName: m.tool}
		}
		e, err := evalvertex.New(o)
		if err != nil {
			return nil, ref.Errorf("row %s: %v", c.ID, err)
		}
		threshold := 1.0
		switch {
		case m.threshold != nil:
			threshold = *m.threshold
		case opts.Threshold != nil:
			threshold = *opts.Threshold
		}
		c.Evaluators = append(c.Evaluators, &eval.Configured{Name: m.name, Type: m.name, Weight: 1, Required: true, Threshold: threshold, Eval: e})
	}
	return c, nil
}
