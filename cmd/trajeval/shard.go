package main

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/trajeval/trajeval/internal/report"
	"github.com/trajeval/trajeval/suite"
)

// ciRunIDs are the variables that CI services set to the same value in
// every job of one pipeline run, in the order they are looked at: the run
// id that joins the shards of a run when --run-id is not given. The
// attempt, where a service has one, is part of it, so that a re-run of a
// pipeline is a run of its own.
var ciRunIDs = [][]string{
	{"GITHUB_RUN_ID", "GITHUB_RUN_ATTEMPT"}, // GitHub Actions
	{"CI_PIPELINE_ID"},                      // GitLab CI
	{"BUILDKITE_BUILD_ID"},                  // Buildkite
	{"CIRCLE_WORKFLOW_ID"},                  // CircleCI
	{"BITBUCKET_BUILD_NUMBER"},              // Bitbucket Pipelines
	{"BUILD_BUILDID"},                       // Azure Pipelines
	{"BUILD_TAG"},                           // Jenkins
}

// runID is the id that joins the shards of a run: --run-id, else the CI
// service's own (ciRunIDs), else "".
func runID(flag string, getenv func(string) string) string {
	if flag != "" {
		return flag
	}
	for _, vars := range ciRunIDs {
		if v := getenv(vars[0]); v != "" {
			id := vars[0] + "=" + v
			for _, more := range vars[1:] {
				if m := getenv(more); m != "" {
					id += "/" + more + "=" + m
				}
			}
			return id
		}
	}
	return ""
}

// mergeShards orders the rows of a sharded run given as several results
// files, and checks that they are its shards: the rows that carry a shard
// are sorted by suite, id and attempt (each shard keeps its cases in its
// own order, so the files' order says nothing), and a shard missing from
// them, or found in two files, is a warning. Rows without a shard keep
// their order, before them.
func mergeShards(files [][]report.Row) ([]report.Row, []string) {
	var plain, sharded []report.Row
	count := 0
	seen := map[string]int{} // shard → the file it was first found in
	var warnings []string
	for i, rows := range files {
		inFile := map[string]bool{}
		for _, r := range rows {
			if r.Shard == "" {
				plain = append(plain, r)
				continue
			}
			sharded = append(sharded, r)
			if inFile[r.Shard] {
				continue
			}
			inFile[r.Shard] = true
			if first, ok := seen[r.Shard]; ok {
				warnings = append(warnings, fmt.Sprintf("shard %s is in results files %d and %d: its cases are counted twice", r.Shard, first+1, i+1))
				continue
			}
			seen[r.Shard] = i
			if sh, err := suite.ParseShard(r.Shard); err == nil {
				count = max(count, sh.Count)
			}
		}
	}
	if len(sharded) == 0 {
		return plain, nil
	}
	var missing []string
	for k := 1; k <= count; k++ {
		if _, ok := seen[fmt.Sprintf("%d/%d", k, count)]; !ok {
			missing = append(missing, fmt.Sprintf("%d/%d", k, count))
		}
	}
	if len(missing) > 0 {
		warnings = append(warnings, fmt.Sprintf("the results of shard %s are not among the files: the report covers part of the run", strings.Join(missing, ", ")))
	}
	slices.SortStableFunc(sharded, func(a, b report.Row) int {
		return cmp.Or(strings.Compare(a.Suite, b.Suite), strings.Compare(a.ID, b.ID), cmp.Compare(a.Attempt, b.Attempt))
	})
	return append(plain, sharded...), warnings
}
