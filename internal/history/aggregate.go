package history

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

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
	in, args := inRuns(h.d, ids, suite, "")
	rows, err := h.db.QueryContext(ctx, h.d.bind(`SELECT c.case_id FROM cases c WHERE `+in+` GROUP BY c.case_id ORDER BY MIN(`+casePos+`)`), args...)
	if err != nil {
		return s, h.wrap(err)
	}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return s, h.wrap(err)
		}
		s.Cases = append(s.Cases, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return s, h.wrap(err)
	}
	in, args = inRuns(h.d, ids, suite, caseID)
	rows, err = h.db.QueryContext(ctx, h.d.bind(`SELECT c.run_id, SUM(c.score), COUNT(*) FROM cases c WHERE `+in+` AND c.status <> 'error' GROUP BY c.run_id`), args...)
	if err != nil {
		return s, h.wrap(err)
	}
	for rows.Next() {
		var run int64
		var m Mean
		if err := rows.Scan(&run, &m.Sum, &m.N); err != nil {
			rows.Close()
			return s, h.wrap(err)
		}
		s.Case[at[run]] = m
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return s, h.wrap(err)
	}
	rows, err = h.db.QueryContext(ctx, h.d.bind(`SELECT e.run_id, e.name, SUM(e.score), COUNT(*), MIN(CAST(c.seq AS BIGINT) * `+strconv.Itoa(posScale)+` + e.seq)
		FROM cases c JOIN evaluators e ON e.run_id = c.run_id AND e.case_seq = c.seq
		WHERE `+in+` AND e.status <> 'error'
		GROUP BY e.run_id, e.name`), args...)
	if err != nil {
		return s, h.wrap(err)
	}
	defer rows.Close()
	first := map[string][2]int64{} // the least (run id, place in the run)
	for rows.Next() {
		var run, pos int64
		var name string
		var m Mean
		if err := rows.Scan(&run, &name, &m.Sum, &m.N, &pos); err != nil {
			return s, h.wrap(err)
		}
		i := at[run]
		if s.Evaluators[i] == nil {
			s.Evaluators[i] = map[string]Mean{}
		}
		s.Evaluators[i][name] = m
		if f, ok := first[name]; !ok || cmp.Or(cmp.Compare(run, f[0]), cmp.Compare(pos, f[1])) < 0 {
			first[name] = [2]int64{run, pos}
		}
	}
	if err := rows.Err(); err != nil {
		return s, h.wrap(err)
	}
	rows.Close()
	// The cases kept on their rows alone have their evaluators packed.
	packed, err := h.db.QueryContext(ctx, h.d.bind(`SELECT c.run_id, c.seq, c.evals FROM cases c WHERE `+in+` AND c.evals IS NOT NULL`), args...)
	if err != nil {
		return s, h.wrap(err)
	}
	defer packed.Close()
	for packed.Next() {
		var run, seq int64
		var blob []byte
		if err := packed.Scan(&run, &seq, &blob); err != nil {
			return s, h.wrap(err)
		}
		evals, err := unpack(blob)
		if err != nil {
			return s, fmt.Errorf("%s: run %d: case %d: %w", h.where, run, seq, err)
		}
		i := at[run]
		for k, e := range evals {
			if e.Status == trajeval.StatusError {
				continue
			}
			if s.Evaluators[i] == nil {
				s.Evaluators[i] = map[string]Mean{}
			}
			m := s.Evaluators[i][e.Name]
			s.Evaluators[i][e.Name] = Mean{Sum: m.Sum + e.Score, N: m.N + 1}
			pos := seq*posScale + int64(k+1)
			if f, ok := first[e.Name]; !ok || cmp.Or(cmp.Compare(run, f[0]), cmp.Compare(pos, f[1])) < 0 {
				first[e.Name] = [2]int64{run, pos}
			}
		}
	}
	if err := packed.Err(); err != nil {
		return s, h.wrap(err)
	}
	for n := range first {
		s.Names = append(s.Names, n)
	}
	slices.SortFunc(s.Names, func(a, b string) int {
		return cmp.Or(cmp.Compare(first[a][0], first[b][0]), cmp.Compare(first[a][1], first[b][1]))
	})
	return s, nil
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
	in, args := inRuns(h.d, ids, suite, "")
	having := ""
	if changing {
		having = `HAVING COUNT(DISTINCT CASE WHEN pass = n THEN 'pass' WHEN errs = n THEN 'error' WHEN pass > 0 THEN 'mixed' ELSE 'fail' END) > 1
			OR SUM(CASE WHEN pass > 0 AND pass < n THEN 1 ELSE 0 END) > 0`
	}
	q := `WITH v AS (
			SELECT c.run_id, c.suite, c.case_id, MIN(` + casePos + `) AS pos,
				SUM(CASE WHEN c.status = 'pass' THEN 1 ELSE 0 END) AS pass,
				SUM(CASE WHEN c.status = 'error' THEN 1 ELSE 0 END) AS errs,
				COUNT(*) AS n
			FROM cases c WHERE ` + in + ` GROUP BY c.run_id, c.suite, c.case_id),
		f AS (SELECT suite, case_id, MIN(pos) AS pos FROM v GROUP BY suite, case_id ` + having + `)
		SELECT v.run_id, v.suite, v.case_id, v.pass, v.errs, v.n FROM v JOIN f ON f.suite = v.suite AND f.case_id = v.case_id
		ORDER BY f.pos, v.run_id`
	var total int
	if err := h.db.QueryRowContext(ctx, h.d.bind(`SELECT COUNT(*) FROM (SELECT DISTINCT c.suite, c.case_id FROM cases c WHERE `+in+`) d`), args...).Scan(&total); err != nil {
		return nil, 0, h.wrap(err)
	}
	rows, err := h.db.QueryContext(ctx, h.d.bind(q), args...)
	if err != nil {
		return nil, 0, h.wrap(err)
	}
	defer rows.Close()
	var out []Verdict
	for rows.Next() {
		var r Verdict
		var n int
		if err := rows.Scan(&r.Run, &r.Suite, &r.ID, &r.Pass, &r.Errors, &n); err != nil {
			return nil, 0, h.wrap(err)
		}
		r.Fail = n - r.Pass - r.Errors
		out = append(out, r)
	}
	return out, total, h.wrap(rows.Err())
}

// casePos is a row of cases c's place in the history, as one integer:
// by run id, then by its place in the run.
const casePos = "c.run_id * 2147483648 + c.seq"

// posScale is above the number of evaluators of a case: an evaluator's
// place in its run is its case's seq times posScale plus its own.
const posScale = 1 << 16

// inRuns is the condition on the cases c of rule 1, of case caseID
// alone when it is not "", and its arguments.
//
// Without a case, the suite is an expression, suite || ”, so that
// SQLite, which has no statistics of the table, looks rows up by run (its
// primary key, a range of pos for each run: dialect.ofRuns) rather than
// by suite: a suite holds the rows of every run, and reading them by an
// index is tenfold slower. With a case, the index cases_by_id finds its
// rows at once (on SQLite, its case_id; run_id, worked out of pos, is
// checked on the row).
func inRuns(d dialect, ids []int64, suite, caseID string) (string, []any) {
	args := make([]any, 0, len(ids)+2)
	for _, id := range ids {
		args = append(args, id)
	}
	args = append(args, suite)
	if caseID == "" {
		return d.ofRuns("c.", len(ids)) + " AND c.suite || '' IN ('', ?)", args
	}
	q := "c.run_id IN (" + strings.TrimSuffix(strings.Repeat("?, ", len(ids)), ", ") + ")"
	return q + " AND c.suite IN ('', ?) AND c.case_id = ?", append(args, caseID)
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
