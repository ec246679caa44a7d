// Package check builds trajeval evaluators in Go: the expectations a suite
// file writes in YAML, written as values in a test.
//
//	c, err := check.Compile(check.InOrder(
//		check.Call("search", check.Args{"query": check.Regex("(?i)python")}),
//		check.Call("read_document"),
//	))
//	if err != nil {
//		return err // a bad setting, reported before anything runs
//	}
//	r := c.Run(ctx, traj)
//	fmt.Println(r.Passed(), r.Score, r.Explain())
//
// [Compile] checks an evaluator's settings once, when it is built, and
// [Check.Run] gives the verdict: the score, whether it passes, and the
// explanation. [MustCompile] is the form for evaluators written as
// literals, as regexp.MustCompile is for patterns. Every constructor's
// result is also a [trajeval.Evaluator], for [Evaluate] (which gives
// any evaluator its settings through [Configure]), trajevaltest.Check or
// a suite. [Register] makes an evaluator type of your own usable in suite
// files.
//
// # Trajectories of calls
//
// [InOrder], [AnyOrder], [Exact] and [Subset] compare the agent's tool
// calls with expected calls ([Call]). They take [Option] values: the
// expected calls, in order, and settings that apply to all of them
// ([ArgsMode], [Score], [Minimum], [IgnoreCase], [TrimSpace]). A call
// matches a step when:
//  1. the names are equal (case-sensitive);
//  2. the arguments match under the call's [ArgsMode] (partial unless
//     set): every key of [Args] must be present with a matching value; a
//     value is a literal (compared by JSON value, so 1 = 1.0) or an
//     operator ([Regex], [Contains], [Gt], [Gte], [Lt], [Lte], [Approx],
//     [Near], [Type], [Any], [OneOf], [Not], and [From], which looks at
//     what earlier calls returned);
//  3. with [MaxDuration], the step's duration is one more check: within
//     the limit it passes; with no duration known it is skipped (and out
//     of the score); when the call is missing it fails.
//
// Calls and settings form one list of options, so a constructor reads
// like the expectation it states, and a setting an evaluator would not use
// is refused rather than ignored. A step's arguments are compared in the
// JSON data model (numbers as json.Number), as the trace readers make
// them.
//
// The matching is optimal, never greedy. The score, before [Score]
// changes it, is:
//  1. InOrder: (hits + latency passes) / (expected calls + latency checks),
//     hits being the largest order-preserving matching; other calls may
//     sit between expected ones;
//  2. AnyOrder: the same with a one-to-one matching in any order, plus
//     one hit per [Minimum] met and one more denominator per minimum;
//  3. Exact: position by position (calls issued together in one parallel
//     group may come in any order), over max(expected, actual), so extra
//     calls count; with nothing expected, 1 only when nothing was called;
//  4. Subset: the share of calls that match some expected call (an
//     allow-list); 1 when nothing was called.
//
// # Groups
//
// [InOrder] and [Exact] also take groups of entries, which nest:
// [Unordered] (its entries in any order), [Sequence] (in order), [Either]
// (exactly one), [Optional] and [Repeat] (min to max times). "Search,
// then both documents in any order, then the answer" is
//
//	check.InOrder(
//		check.Call("search"),
//		check.Unordered(check.Call("read", check.Args{"id": "a"}), check.Call("read", check.Args{"id": "b"})),
//		check.Call("answer"),
//	)
//
// Each plain list of calls the groups allow is scored as the evaluator
// scores a list, and the best counts (see [Group]); the details show that
// list as the expected calls, and Notes["chosen"] where each came from.
//
// # Other evaluators
//
// [ExecutionMetrics] checks budgets (calls, tokens, cost, duration,
// exploration). [ToolCallOrder], [ToolCallCount], [ToolCallArgs] and
// [ToolCallOutput] are UiPath's tool-call evaluators; [ToolCorrectness],
// [ToolCallValidity], [ToolErrors], [Efficiency], [ToolNameReliability]
// and [ToolDescriptionReliability] are Dokimos's rule checks. [Grounding]
// checks that every argument value came from the user or an earlier
// result. [Rules] checks temporal rules ([Never], [AtMost], [Before],
// [Within], [Pattern] ...), one check each. Each documents its score.
//
// # Agents
//
// In a multi-agent run, [ForAgent] limits any evaluator to the steps some
// agents made (a suite's agent: key), and [ForAgentTree] to those agents
// and the agents they called (include_subagents: true). The result's
// Details.Scope says what was kept; a trajectory that names none of the
// agents is an error, never a score.
//
// # Mining
//
// [Mine] writes the expectation instead: given several good runs, it
// returns the most specific evaluators it finds that accept every one of
// them (any_order where the order varied, optional and repeated calls,
// alternatives, arguments kept, ranged or typed), with the suite file
// that holds them.
//
// # Bad settings
//
// Every constructor returns an evaluator and never panics. A setting it
// cannot use (an invalid regular expression, an empty tool name, a
// negative minimum, an option the evaluator does not take) is an error
// that names the setting and matches [ErrSetting]: [Compile] returns it
// at once, and [MustCompile] panics with it. An evaluator used without
// Compile returns it from every Evaluate: it cannot run, which a test
// reports as a failure, never as a score. [Validate] returns that error
// without running the evaluator.
//
// A nil trajectory is scored as an empty one.
package check
