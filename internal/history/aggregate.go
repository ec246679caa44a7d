package history

import (
	"context"
	"fmt"
	"slices"

	"github.com/trajeval/trajeval"
)

// Aggregates read many runs at once, summed up by the database, for the
// pages that look at a suite over its runs. Their rules:
//  1. They read the rows of the runs given whose suite is the one given,
//     or empty (a suite file without a name), as the chart and flaky
//     pages of the viewer did reading each run's rows.
//  2. Things are listed in order of first appearance: by run id, then
//     by the case's place in the run, then by the evaluator's place in
//     the case.

// A Mean is a sum of scores and how many there are.
type Mean struct {
	Sum float64
	N   int
}

// Scores are the mean scores of some runs of a suite, each run's in the
// place of its id.
type Scores struct {
	Cases      []string          // the case ids of the suite's rows, every one
	Names      []string          // the evaluators' names
	Case       []Mean            // the case score, per run
	Evaluators []map[string]Mean // each evaluator's score, per run
}

// eachRun calls fn with the cases of each of runs ids whose suite is
// suite or empty (rule 1), by run id (rule 2), without their
// trajectories and evaluators' details, and with their evaluators' results
// when evaluators is set. Since schema version 8 most cases are in packs,
// which only Go reads: the aggregates read a run's cases as DB.Rows does,
// whatever their storage.
func (h *DB) eachRun(ctx context.Context, ids []int64, suite string, evaluators bool, fn func(run int64, cases []trajeval.CaseResult)) error {
	return h.eachCaseRun(ctx, ids, suite, "", evaluators, fn)
}

// eachCaseRun is eachRun, reading the evaluators' results of case caseID
// alone when it is not "" (the other cases come without them).
func (h *DB) eachCaseRun(ctx context.Context, ids []int64, suite, caseID string, evaluators bool, fn func(run int64, cases []trajeval.CaseResult)) error {
	sorted := slices.Clone(ids)
	slices.Sort(sorted)
	of := func(s, id string) bool { return s == "" || s == suite }
	for _, id := range slices.Compact(sorted) {
		rows, err := h.rows(ctx, id, reading{evaluators: evaluators && caseID == "", only: of})
		if err != nil {
			return err
		}
		if evaluators && caseID != "" {
			// The evaluators of the case wanted alone: unpacking them is
			// most of the cost of reading a case.
			want, err := h.rows(ctx, id, reading{evaluators: true, only: func(s, c string) bool { return of(s, c) && c == caseID }})
			if err != nil {
				return err
			}
			for i, k := 0, 0; i < len(rows) && k < len(want); i++ {
				if rows[i].ID == caseID {
					rows[i] = want[k]
					k++
				}
			}
		}
		fn(id, rows)
	}
	return nil
}

// Scores returns the case scores and evaluator scores of the rows of
// suite in runs ids, of case caseID alone when it is not "". A case or
// evaluator whose status is error is left out of the means, not of
// Cases.
func (h *DB) Scores(ctx context.Context, ids []int64, suite, caseID string) (Scores, error) {
	s := Scores{Case: make([]Mean, len(ids)), Evaluators: make([]map[string]Mean, len(ids))}
	if len(ids) == 0 {
		return s, nil
	}
	at := index(ids)
	seen := map[string]bool{}
	named := map[string]bool{}
	err := h.eachCaseRun(ctx, ids, suite, caseID, true, func(run int64, cases []trajeval.CaseResult) {
		i := at[run]
		for _, c := range cases {
			if !seen[c.ID] {
				seen[c.ID] = true
				s.Cases = append(s.Cases, c.ID)
			}
			if caseID != "" && c.ID != caseID {
				continue
			}
			if c.Status != trajeval.StatusError {
				s.Case[i].Sum += c.Score
				s.Case[i].N++
			}
			for _, e := range c.Evaluators {
				if e.Status == trajeval.StatusError {
					continue
				}
				if s.Evaluators[i] == nil {
					s.Evaluators[i] = map[string]Mean{}
				}
				m := s.Evaluators[i][e.Name]
				s.Evaluators[i][e.Name] = Mean{Sum: m.Sum + e.Score, N: m.N + 1}
				if !named[e.Name] {
					named[e.Name] = true
					s.Names = append(s.Names, e.Name)
				}
			}
		}
	})
	return s, err
}

// A Verdict is the verdict of a case in a run: how many of its rows
// (trials) passed, failed and were errors.
type Verdict struct {
	Run                int64
	Suite, ID          string
	Pass, Fail, Errors int
}

// Verdicts returns the verdicts of the cases of suite in runs ids, case
// by case in order of first appearance, each case's by run id; and how
// many cases there are. With changing set, only the cases whose verdict
// is not the same in every run they ran in are returned, a verdict being
// pass (every trial passed), error (every trial was an error), mixed
// (some trials passed, not all) or fail.
func (h *DB) Verdicts(ctx context.Context, ids []int64, suite string, changing bool) ([]Verdict, int, error) {
	if len(ids) == 0 {
		return nil, 0, nil
	}
	type key struct{ suite, id string }
	var (
		order []key                 // the cases, in order of first appearance
		runs  = map[key][]Verdict{} // each case's, by run id
	)
	err := h.eachRun(ctx, ids, suite, false, func(run int64, cases []trajeval.CaseResult) {
		for _, c := range cases {
			k := key{c.Suite, c.ID}
			vs, ok := runs[k]
			if !ok {
				order = append(order, k)
			}
			if len(vs) == 0 || vs[len(vs)-1].Run != run {
				vs = append(vs, Verdict{Run: run, Suite: c.Suite, ID: c.ID})
			}
			v := &vs[len(vs)-1]
			switch c.Status {
			case trajeval.StatusPass:
				v.Pass++
			case trajeval.StatusError:
				v.Errors++
			default:
				v.Fail++
			}
			runs[k] = vs
		}
	})
	if err != nil {
		return nil, 0, err
	}
	var out []Verdict
	for _, k := range order {
		vs := runs[k]
		if changing && !changes(vs) {
			continue
		}
		out = append(out, vs...)
	}
	return out, len(order), nil
}

// changes reports whether the verdict of a case differs between its runs
// vs, or its trials disagreed within one of them (mixed).
func changes(vs []Verdict) bool {
	verdict := func(v Verdict) string {
		n := v.Pass + v.Fail + v.Errors
		switch {
		case v.Pass == n:
			return "pass"
		case v.Errors == n:
			return "error"
		case v.Pass > 0:
			return "mixed"
		}
		return "fail"
	}
	for _, v := range vs {
		if verdict(v) == "mixed" || verdict(v) != verdict(vs[0]) {
			return true
		}
	}
	return false
}

// index maps each id to its place in ids.
func index(ids []int64) map[int64]int {
	m := make(map[int64]int, len(ids))
	for i, id := range ids {
		m[id] = i
	}
	return m
}

// Stamp returns a value that changes whenever the cases of the history
// change: when a run is added or deleted, and when a run records cases.
// Aggregates may be kept for as long as the stamp stays the same.
func (h *DB) Stamp(ctx context.Context) (string, error) {
	var n, last, cases int64
	err := h.db.QueryRowContext(ctx, "SELECT COUNT(*), COALESCE(MAX(id), 0), COALESCE(SUM(cases), 0) FROM runs").Scan(&n, &last, &cases)
	return fmt.Sprintf("%d/%d/%d", n, last, cases), h.wrap(err)
}
