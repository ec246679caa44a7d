// Package compare compares two results files of trajeval eval (an old run
// and a new one) and says which cases regressed.
//
// Rows are matched by suite and case id. A case with one row in each file
// is a single run; a case with more than one row in either file (eval
// --trials N writes one row per attempt) is judged on its trials.
//
// A single run, in both files, is:
//  1. regressed when it could be scored before and now cannot (status
//     error);
//  2. regressed when it passed before and now fails (newly failing);
//  3. regressed when its score dropped by more than the tolerance, both
//     runs scored;
//  4. improved when it failed or could not be scored before and now passes
//     (newly passing);
//  5. improved when its score rose by more than the tolerance, both runs
//     scored;
//  6. changed when its status, its score or one of its evaluators differs
//     in any other way (a drop within the tolerance, fail to error...);
//  7. the same otherwise.
//
// A case run several times is judged on its pass rate, never on one noisy
// run (an error counts as not passing):
//  1. each side's pass rate is passed runs / runs, with its Wilson score
//     interval at the confidence level (95% by default);
//  2. the change of the pass rate, new − old, has the interval of
//     Newcombe's hybrid score method, built from the two Wilson intervals;
//  3. the case regressed when that whole interval lies below −tolerance:
//     the pass rate fell, by more than the tolerance, beyond what chance
//     explains (an upper end exactly at −tolerance is not a regression);
//  4. it improved when the whole interval lies above +tolerance;
//  5. it changed when the pass counts, the mean score or an evaluator
//     differ in any other way; it is the same otherwise.
//
// So 5 passes of 5 before and 1 of 5 now is a regression (the change is
// −0.80, interval −0.96 to −0.19), while 5 of 5 and 3 of 5 is not yet one
// (−0.40, interval −0.77 to +0.12): run more trials to tell.
//
// A case newly fails when it regressed and passed every run before but not
// now; it newly passes when it improved and passes every run now but did
// not before.
//
// Evaluators, matched by name (and turn), explain a case's change: each
// one whose status, pass count or score differs is listed, as worse,
// better or changed, with those only in one file. The verdict is the
// case's: an evaluator that is not required can start failing while its
// case still passes, and then only the case's score says so.
//
// Cases in one file only are listed as added or removed and are not
// regressions: suites gain and lose cases. Two files with no case in
// common are an error ([ErrNoCommon]): there is nothing to compare, and
// an empty comparison must not pass for a good one.
package compare

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/plural"
	"github.com/trajeval/trajeval/internal/trials"
)

// Options set how a change is judged.
type Options struct {
	// Tolerance is the score (or pass rate) drop allowed before a case
	// regresses, between 0 and 1; 0 by default.
	Tolerance float64
	// Confidence is the level of the pass rate intervals of cases run
	// several times, between 0 and 1 exclusive; 0 means 0.95.
	Confidence float64
}

// A Verdict says how a case changed.
type Verdict string

// The verdicts, in the order reports list them.
const (
	Regressed Verdict = "regressed"
	Improved  Verdict = "improved"
	Changed   Verdict = "changed"
	Removed   Verdict = "removed" // only in the old file
	Added     Verdict = "added"   // only in the new file
	Same      Verdict = "same"
)

var verdictOrder = []Verdict{Regressed, Improved, Changed, Removed, Added, Same}

// A Report is the comparison of two results files.
type Report struct {
	Old        string  `json:"old"`
	New        string  `json:"new"`
	Tolerance  float64 `json:"tolerance"`
	Confidence float64 `json:"confidence"`
	Summary    Summary `json:"summary"`
	// Cases are every case of both files: regressed first, then improved,
	// changed, removed, added and the same, each in the order of its file.
	Cases []Case `json:"cases"`
}

// Summary counts the cases by verdict.
type Summary struct {
	OldCases     int `json:"old_cases"`
	NewCases     int `json:"new_cases"`
	Common       int `json:"common"`
	Regressed    int `json:"regressed"`
	NewlyFailing int `json:"newly_failing"`
	Improved     int `json:"improved"`
	NewlyPassing int `json:"newly_passing"`
	Changed      int `json:"changed"`
	Same         int `json:"same"`
	Added        int `json:"added"`
	Removed      int `json:"removed"`
}

// Regressed reports whether some case regressed.
func (r *Report) Regressed() bool { return r.Summary.Regressed > 0 }

// A Case is one case's change.
type Case struct {
	Suite        string  `json:"suite,omitempty"`
	ID           string  `json:"id"`
	Verdict      Verdict `json:"verdict"`
	Why          string  `json:"why,omitempty"` // the rule that decided a regression or an improvement
	NewlyFailing bool    `json:"newly_failing,omitempty"`
	NewlyPassing bool    `json:"newly_passing,omitempty"`
	// Trials is set when the case ran several times in either file and
	// was judged on its pass rate.
	Trials bool  `json:"trials,omitempty"`
	Old    *Side `json:"old,omitempty"`
	New    *Side `json:"new,omitempty"`
	// ScoreChange is the new score − the old one (means over trials);
	// PassRateChange the change of the pass rate with its interval, for a
	// case run several times.
	ScoreChange    *float64          `json:"score_change,omitempty"`
	PassRateChange *Interval         `json:"pass_rate_change,omitempty"`
	Evaluators     []EvaluatorChange `json:"evaluators,omitempty"`
}

// A Side is a case or an evaluator in one file.
type Side struct {
	// Status is the verdict of a single run; empty for trials.
	Status trajeval.Status `json:"status,omitempty"`
	// Score is the score of a single run, the mean score of trials.
	Score   float64 `json:"score"`
	Runs    int     `json:"runs"`
	Passed  int     `json:"passed"`
	Errors  int     `json:"errors"`
	Partial bool    `json:"partial,omitempty"` // some run was scored from a damaged trace
	Error   string  `json:"error,omitempty"`   // a single run's error
	Line    int     `json:"line,omitempty"`    // the case's first row
}

// PassRate is Passed/Runs.
func (s *Side) PassRate() float64 { return float64(s.Passed) / float64(max(s.Runs, 1)) }

// passes reports whether every run passed.
func (s *Side) passes() bool { return s.Runs > 0 && s.Passed == s.Runs }

// An Interval is a change and the interval around it.
type Interval struct {
	Change float64 `json:"change"`
	Lo     float64 `json:"lo"`
	Hi     float64 `json:"hi"`
}

// An EvaluatorChange is one evaluator of a case that differs between the
// files.
type EvaluatorChange struct {
	Name    string `json:"name"`
	Turn    int    `json:"turn,omitempty"`
	Verdict string `json:"verdict"` // worse, better, changed, added or removed
	Old     *Side  `json:"old,omitempty"`
	New     *Side  `json:"new,omitempty"`
}

// eps absorbs the rounding of scores: 0.8 − 0.7 is 0.10000000000000009,
// which must not exceed a tolerance of 0.1.
const eps = 1e-9

// Compare compares the cases of old and new (see the package
// documentation for the rules).
func Compare(old, new *File, opts Options) (*Report, error) {
	if opts.Tolerance < 0 || opts.Tolerance > 1 || math.IsNaN(opts.Tolerance) {
		return nil, fmt.Errorf("tolerance must be between 0 and 1, got %v", opts.Tolerance)
	}
	if opts.Confidence == 0 {
		opts.Confidence = 0.95
	}
	if !(opts.Confidence > 0 && opts.Confidence < 1) {
		return nil, fmt.Errorf("confidence must be between 0 and 1 (exclusive), got %v", opts.Confidence)
	}
	og, ng := group(old.Rows), group(new.Rows)
	rep := &Report{Old: old.Name, New: new.Name, Tolerance: opts.Tolerance, Confidence: opts.Confidence}
	rep.Summary.OldCases, rep.Summary.NewCases = len(og.order), len(ng.order)
	for _, k := range og.order {
		o := og.rows[k]
		n, ok := ng.rows[k]
		if !ok {
			rep.Cases = append(rep.Cases, Case{Suite: k.suite, ID: k.id, Verdict: Removed, Old: side(o)})
			continue
		}
		rep.Summary.Common++
		rep.Cases = append(rep.Cases, judge(k, o, n, opts.Tolerance, opts.Confidence))
	}
	for _, k := range ng.order {
		if _, ok := og.rows[k]; !ok {
			rep.Cases = append(rep.Cases, Case{Suite: k.suite, ID: k.id, Verdict: Added, New: side(ng.rows[k])})
		}
	}
	if rep.Summary.Common == 0 {
		return nil, noCommon(old, new, og, ng)
	}
	// A stable sort keeps each verdict's cases in the order of their file.
	slices.SortStableFunc(rep.Cases, func(a, b Case) int {
		return cmp.Compare(slices.Index(verdictOrder, a.Verdict), slices.Index(verdictOrder, b.Verdict))
	})
	s := &rep.Summary
	for _, c := range rep.Cases {
		switch c.Verdict {
		case Regressed:
			s.Regressed++
		case Improved:
			s.Improved++
		case Changed:
			s.Changed++
		case Same:
			s.Same++
		case Added:
			s.Added++
		case Removed:
			s.Removed++
		}
		if c.NewlyFailing {
			s.NewlyFailing++
		}
		if c.NewlyPassing {
			s.NewlyPassing++
		}
	}
	return rep, nil
}

type caseKey struct{ suite, id string }

type grouped struct {
	order []caseKey
	rows  map[caseKey][]Row
}

func group(rows []Row) grouped {
	g := grouped{rows: map[caseKey][]Row{}}
	for _, r := range rows {
		k := caseKey{r.Suite, r.ID}
		if _, ok := g.rows[k]; !ok {
			g.order = append(g.order, k)
		}
		g.rows[k] = append(g.rows[k], r)
	}
	return g
}

// side sums up a case's rows in one file.
func side(rows []Row) *Side {
	s := &Side{Line: rows[0].Line}
	for _, r := range rows {
		s.add(r.Status, r.Score)
		s.Partial = s.Partial || r.Partial
	}
	if len(rows) == 1 {
		s.Status, s.Error = rows[0].Status, rows[0].Error
	}
	s.Score /= float64(s.Runs)
	return s
}

// add counts one more run, adding its score to Score (a sum until the
// caller divides it).
func (s *Side) add(st trajeval.Status, score float64) {
	s.Runs++
	s.Score += score
	switch st {
	case trajeval.StatusPass:
		s.Passed++
	case trajeval.StatusError:
		s.Errors++
	}
}

// judge applies the rules of the package documentation to a case found in
// both files.
func judge(k caseKey, oldRows, newRows []Row, tol, conf float64) Case {
	z := math.Sqrt2 * math.Erfinv(conf)
	c := Case{Suite: k.suite, ID: k.id, Old: side(oldRows), New: side(newRows)}
	o, n := c.Old, c.New
	d := round(n.Score - o.Score)
	c.ScoreChange = &d
	c.Evaluators = evaluators(oldRows, newRows)
	c.Trials = len(oldRows) > 1 || len(newRows) > 1
	if c.Trials {
		iv := newcombe(o.Passed, o.Runs, n.Passed, n.Runs, z)
		c.PassRateChange = &iv
		pct := fmt.Sprintf("%g%%", math.Round(conf*1000)/10)
		switch {
		case iv.Hi < -tol-eps:
			c.Verdict = Regressed
			c.Why = fmt.Sprintf("pass rate %d/%d → %d/%d: the %s interval of the change, %s to %s, lies below %s",
				o.Passed, o.Runs, n.Passed, n.Runs, pct, signed(iv.Lo), signed(iv.Hi), signed(-tol))
		case iv.Lo > tol+eps:
			c.Verdict = Improved
			c.Why = fmt.Sprintf("pass rate %d/%d → %d/%d: the %s interval of the change, %s to %s, lies above %s",
				o.Passed, o.Runs, n.Passed, n.Runs, pct, signed(iv.Lo), signed(iv.Hi), signed(tol))
		}
	} else {
		scored := o.Status != trajeval.StatusError && n.Status != trajeval.StatusError
		switch {
		case n.Status == trajeval.StatusError && o.Status != trajeval.StatusError:
			c.Verdict, c.Why = Regressed, fmt.Sprintf("%s → error: the case could not be scored", o.Status)
		case o.Status == trajeval.StatusPass && n.Status == trajeval.StatusFail:
			c.Verdict, c.Why = Regressed, "pass → fail"
		case scored && -d > tol+eps:
			c.Verdict, c.Why = Regressed, fmt.Sprintf("score dropped by %.2f, more than the tolerance %.2f", -d, tol)
		case o.Status != trajeval.StatusPass && n.Status == trajeval.StatusPass:
			c.Verdict, c.Why = Improved, fmt.Sprintf("%s → pass", o.Status)
		case scored && d > tol+eps:
			c.Verdict, c.Why = Improved, fmt.Sprintf("score rose by %.2f, more than the tolerance %.2f", d, tol)
		}
	}
	switch {
	case c.Verdict == Regressed:
		c.NewlyFailing = o.passes() && !n.passes()
	case c.Verdict == Improved:
		c.NewlyPassing = n.passes() && !o.passes()
	case o.Passed != n.Passed || o.Errors != n.Errors || o.Runs != n.Runs || d != 0 || len(c.Evaluators) > 0:
		c.Verdict = Changed
	default:
		c.Verdict = Same
	}
	return c
}

// newcombe returns the change of pass rate p2 − p1 and its interval by
// Newcombe's hybrid score method (his method 10): each end moves from the
// change by the root of the squared distances from the rates to the near
// ends of their Wilson intervals.
func newcombe(passed1, n1, passed2, n2 int, z float64) Interval {
	p1, p2 := float64(passed1)/float64(n1), float64(passed2)/float64(n2)
	l1, u1 := trials.Wilson(passed1, n1, z)
	l2, u2 := trials.Wilson(passed2, n2, z)
	d := p2 - p1
	return Interval{
		Change: round(d),
		Lo:     round(d - math.Sqrt((p2-l2)*(p2-l2)+(u1-p1)*(u1-p1))),
		Hi:     round(d + math.Sqrt((u2-p2)*(u2-p2)+(p1-l1)*(p1-l1))),
	}
}

type evalKey struct {
	name string
	turn int
}

// evaluators lists the evaluators whose verdict or score differs between
// the two files, in the order they first appear (old file first).
func evaluators(oldRows, newRows []Row) []EvaluatorChange {
	sum := func(rows []Row) ([]evalKey, map[evalKey]*Side) {
		var order []evalKey
		sides := map[evalKey]*Side{}
		for _, r := range rows {
			for _, e := range r.Evaluators {
				k := evalKey{e.Name, e.Turn}
				s := sides[k]
				if s == nil {
					s = &Side{}
					sides[k] = s
					order = append(order, k)
				}
				s.add(e.Status, e.Score)
				if len(rows) == 1 {
					s.Status, s.Error = e.Status, e.Error
				}
			}
		}
		for _, s := range sides {
			s.Score /= float64(s.Runs)
		}
		return order, sides
	}
	oOrder, oSides := sum(oldRows)
	nOrder, nSides := sum(newRows)
	var out []EvaluatorChange
	for _, k := range oOrder {
		o, n := oSides[k], nSides[k]
		if n == nil {
			out = append(out, EvaluatorChange{Name: k.name, Turn: k.turn, Verdict: "removed", Old: o})
			continue
		}
		if v := direction(o, n); v != "" {
			out = append(out, EvaluatorChange{Name: k.name, Turn: k.turn, Verdict: v, Old: o, New: n})
		}
	}
	for _, k := range nOrder {
		if oSides[k] == nil {
			out = append(out, EvaluatorChange{Name: k.name, Turn: k.turn, Verdict: "added", New: nSides[k]})
		}
	}
	return out
}

// direction says whether an evaluator got worse or better: by its pass
// rate, then its share of errors, then its score; "changed" when only its
// number of runs differs, "" when nothing does.
func direction(o, n *Side) string {
	errRate := func(s *Side) float64 { return float64(s.Errors) / float64(max(s.Runs, 1)) }
	c := cmp.Compare(n.PassRate(), o.PassRate())
	if c == 0 {
		c = cmp.Compare(errRate(o), errRate(n))
	}
	if c == 0 && math.Abs(n.Score-o.Score) > eps {
		c = cmp.Compare(n.Score, o.Score)
	}
	switch {
	case c < 0:
		return "worse"
	case c > 0:
		return "better"
	case o.Runs != n.Runs:
		return "changed"
	}
	return ""
}

// round rounds x to 9 decimals, so that a change reads 0.1, not
// 0.10000000000000009.
func round(x float64) float64 { return math.Round(x*1e9) / 1e9 }

// signed writes x with its sign and two decimals; 0 without a sign.
func signed(x float64) string {
	if math.Abs(x) < 0.005 {
		return "0.00"
	}
	return fmt.Sprintf("%+.2f", x)
}

// noCommon is the error of two files without a case in common, with a
// hint when the same ids sit under other suite names.
func noCommon(old, new *File, og, ng grouped) error {
	ids := map[string]string{}
	for _, k := range og.order {
		ids[k.id] = k.suite
	}
	hint := "were both written by the same suites?"
	for _, k := range ng.order {
		if s, ok := ids[k.id]; ok {
			hint = fmt.Sprintf("case %q is in suite %q in %s and in suite %q in %s: cases match by suite and id",
				k.id, s, old.Name, k.suite, new.Name)
			break
		}
	}
	return &FileError{File: new.Name, Err: ErrNoCommon, Hint: hint,
		Msg: fmt.Sprintf("no case in common with %s (%s there, %d here)", old.Name, plural.Count(len(og.order), "case", "cases"), len(ng.order))}
}
