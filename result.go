package trajeval

import "time"

// Status is the verdict of a case or an evaluator.
type Status string

// The three verdicts. An error is neither a pass nor a silent fail: it says
// the case or evaluator could not be scored, and counts as a failure for the
// exit code.
const (
	StatusPass  Status = "pass"
	StatusFail  Status = "fail"
	StatusError Status = "error"
)

// A Result is one evaluator's verdict on one trajectory: its Name and
// Type, Score (0 to 1), Status, the Threshold and Weight it was scored
// with, whether it is Required, the Error that kept it from running, the
// Details that explain the score, and the results of its Members (a
// composite's, or those of check.Evaluate with several evaluators).
//
// Passed reports whether Status is pass. Explain returns the explanation
// the text report gives, one line per evaluator:
//  1. its verdict (✓ pass, ✗ fail, ! error), name, type and score, with
//     the threshold it missed, or "failed by its verdict" when the
//     evaluator's own verdict failed it;
//  2. the reason it could not run, if it could not;
//  3. for a result that did not pass: how the expected calls lined up
//     with the steps (✓ step N, ✗ missing), each near miss with the
//     argument paths that differ, the extra steps, each check, the
//     dialect's notes and the warnings; then its members, explained the
//     same way, indented;
//  4. for a result that passed: its warnings alone.
type Result struct {
	Name      string   `json:"name"`
	Type      string   `json:"type"`
	Score     float64  `json:"score"`
	Status    Status   `json:"status"`
	Threshold float64  `json:"threshold"`
	Weight    float64  `json:"weight"`
	Required  bool     `json:"required"`
	Error     string   `json:"error,omitempty"`
	Details   *Details `json:"details,omitempty"`
	Members   []Result `json:"members,omitempty"` // a composite's members
	Turn      int      `json:"turn,omitempty"`    // set for a per-turn evaluator
	// Judge is what the evaluator's judge calls cost; nil when it asked no
	// judge.
	Judge *JudgeUsage `json:"judge,omitempty"`
}

// A CaseResult is the verdict on one eval case: its ID and Suite, Status,
// Score, the Error that kept it from being scored, the Results of its
// Evaluators, its Warnings, and whether it was scored from a Partial
// trajectory.
//
// Passed reports whether Status is pass. Explain returns the text
// report's explanation of the case: a heading (PASS, FAIL or ERROR, id,
// score, suite), the reason it could not be scored, and each evaluator
// explained as [Result.Explain] does.
type CaseResult struct {
	ID         string   `json:"id"`
	Suite      string   `json:"suite,omitempty"`
	Status     Status   `json:"status"`
	Score      float64  `json:"score"`
	Error      string   `json:"error,omitempty"`
	Evaluators []Result `json:"evaluators"`
	Warnings   []string `json:"warnings,omitempty"`
	// Partial is set when the case was scored from a partial trajectory: a
	// damaged trace read leniently.
	Partial bool `json:"partial,omitempty"`
	// Attempt is the trial this row is (1-based) when a case runs several
	// times (eval --trials N); 0 when it ran once.
	Attempt int `json:"attempt,omitempty"`
	// Judge sums the judge calls of the case's evaluators; nil when none
	// asked a judge.
	Judge *JudgeUsage `json:"judge,omitempty"`
	// Trajectory is the canonical trajectory the case was scored on, when
	// asked for (eval --include-trace). Its arguments and results may be
	// JSON text not yet decoded (see [Decoded]).
	Trajectory *Trajectory `json:"trajectory,omitempty"`
	// Trace is the file the trajectory came from, as the user named it
	// (the case's trace:, the run's --traces, the suite's traces file), or
	// the file a target's trace was dumped to; "" when there is none.
	Trace string `json:"trace,omitempty"`
	// TraceIDs are the OTLP trace ids (hex), in start-time order, of the
	// traces of a conversation that trajeval serve gathered from live
	// traffic and scored as one row (whose ID is the conversation's); nil
	// otherwise.
	TraceIDs []string `json:"trace_ids,omitempty"`
	// StartedAt is when the case began to be scored (its trace read, its
	// target run), in UTC to the millisecond; zero in rows written before
	// it was recorded.
	StartedAt time.Time `json:"started_at,omitzero"`
	// DurationMS is the wall time the case took from StartedAt, in
	// milliseconds: reading its own trace file or running its target, and
	// scoring. A trajectory of a shared traces file is read before its
	// case starts, and its reading is not counted.
	DurationMS float64 `json:"duration_ms,omitempty"`
	// Shard is the part of a sharded run (eval --shard K/N) that scored
	// the case, as "K/N"; "" when the run was not sharded.
	Shard string `json:"shard,omitempty"`
}

// JudgeUsage counts the judge calls of an evaluator, a case or a run.
type JudgeUsage struct {
	Calls        int   `json:"calls"`  // requests sent to the judge
	Cached       int   `json:"cached"` // answers served from the cache
	InputTokens  int64 `json:"input_tokens"`
	OutputTokens int64 `json:"output_tokens"`
	// CostUSD is nil when no call reported a cost and no price is set.
	CostUSD *float64 `json:"cost_usd,omitempty"`
}

// Add adds o to u; a nil o adds nothing.
func (u *JudgeUsage) Add(o *JudgeUsage) {
	if o == nil {
		return
	}
	u.Calls += o.Calls
	u.Cached += o.Cached
	u.InputTokens += o.InputTokens
	u.OutputTokens += o.OutputTokens
	if o.CostUSD != nil {
		c := *o.CostUSD
		if u.CostUSD != nil {
			c += *u.CostUSD
		}
		u.CostUSD = &c
	}
}

// Details explain a score: how the expected calls lined up with the actual
// steps, what is missing, what is extra, and each check that ran.
type Details struct {
	Mode     string    `json:"mode,omitempty"`
	Hits     int       `json:"hits"`
	Expected int       `json:"expected"`
	Actual   int       `json:"actual"`
	Matched  []Pair    `json:"matched,omitempty"`
	Missing  []Missing `json:"missing,omitempty"`
	Extra    []Extra   `json:"extra,omitempty"`
	Checks   []Check   `json:"checks,omitempty"`
	Warnings []string  `json:"warnings,omitempty"`
	// Scope is set when the evaluator saw only some agents' steps (a
	// suite's agent: key); see [AgentScope].
	Scope *Scope `json:"scope,omitempty"`
	// Notes carry a dialect's own justification, e.g. UiPath's
	// actual order, expected order and LCS.
	Notes map[string]any `json:"notes,omitempty"`
}

// A Pair says that expected item Item (1-based) matched actual step Step
// (1-based).
type Pair struct {
	Item int    `json:"item"`
	Step int    `json:"step"`
	Tool string `json:"tool"`
}

// Missing is an expected item that no step matched, with the steps that
// came closest.
type Missing struct {
	Item int        `json:"item"`
	Tool string     `json:"tool"`
	Near []NearMiss `json:"near,omitempty"`
}

// A NearMiss is a step that almost matched an expected item: the same name
// with different arguments, or a close name.
type NearMiss struct {
	Step  int       `json:"step"`
	Tool  string    `json:"tool"`
	Diffs []ArgDiff `json:"diffs,omitempty"`
	Why   string    `json:"why,omitempty"`
}

// An ArgDiff is one argument path whose value did not match. Want and Got
// are written as the text report shows them: JSON text ("NYC" quoted, 3,
// {"a":1}), or ArgAbsent and ArgMissing for a key on one side only. In
// JSON (see MarshalJSON) they are JSON values.
type ArgDiff struct {
	Path string // e.g. args.city
	Want string
	Got  string
}

// String renders the difference as `args.city: expected "New York", got "NYC"`.
func (d ArgDiff) String() string { return d.Path + ": expected " + d.Want + ", got " + d.Got }

// Extra is an actual step that no expected item used.
type Extra struct {
	Step int    `json:"step"`
	Tool string `json:"tool"`
}

// A Check is one pass/fail test inside an evaluator: a latency limit, a
// metric budget, a minimum count, a count constraint.
type Check struct {
	Name    string `json:"name"`
	Status  string `json:"status"` // "pass", "fail" or "skip"
	Message string `json:"message,omitempty"`
}

// Check statuses.
const (
	CheckPass = "pass"
	CheckFail = "fail"
	CheckSkip = "skip"
)
