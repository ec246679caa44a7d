// Package suite loads suite files and runs them: the expected calls and
// evaluator settings of each case, in any of the dialects trajeval knows
// (AgentV YAML, ADK eval sets, UiPath evaluation sets, Dokimos, τ²-bench
// tasks, BFCL possible answers), scored against recorded traces or
// against the trajectories of agents run for the cases.
//
// [Load] loads files and folders into one [Suite]; every mistake in them
// is a *[trajeval.SpecError] at its file, line and column, all of them
// joined. [Suite.Run] streams a [trajeval.CaseResult] for each case, as
// [RunOptions] say: a traces file, targets and trials, a filter, resuming,
// a graceful stop, a shard ([ParseShard]). [Case.Score] scores a
// trajectory you already have as one case, and a case's Evaluators work
// with check.Evaluate.
package suite
