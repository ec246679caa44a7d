// Package dialects lists the built-in suite dialects besides AgentV's
// YAML, in the order the loader asks them (see suite.Options.Dialects):
//  1. adk: Google ADK eval sets (*.evalset.json, *.test.json) and their
//     test_config.json;
//  2. uipath: UiPath evaluation sets and their evaluator files;
//  3. tau2: τ²-bench task files (tasks.json), scored against τ²'s
//     results files;
//  4. bfcl: Berkeley Function Calling Leaderboard possible-answer files
//     (JSON Lines, claimed by content), with their question files;
//  5. vertex: Vertex AI evaluation datasets (JSON Lines with a
//     reference_trajectory column).
//
// AgentV's YAML is the loader's own and is asked last. The list is
// explicit: no dialect registers itself, so a program that loads suites
// gives this list (or its own) to the loader.
package dialects

import (
	"github.com/trajeval/trajeval/internal/suite"
	"github.com/trajeval/trajeval/internal/suite/adk"
	"github.com/trajeval/trajeval/internal/suite/bfcl"
	"github.com/trajeval/trajeval/internal/suite/tau2"
	"github.com/trajeval/trajeval/internal/suite/uipath"
	"github.com/trajeval/trajeval/internal/suite/vertex"
)

// All returns the built-in dialects, in the order they are asked.
func All() []suite.Dialect {
	return []suite.Dialect{adk.Dialect, uipath.Dialect, tau2.Dialect, bfcl.Dialect, vertex.Dialect}
}
