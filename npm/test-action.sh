#!/bin/sh
# Runs the CI action's steps (release/action.sh) in a scratch folder with
# the variables a runner sets, on the repository's shopping example, and
# checks the job summary and the JUnit file. TRAJEVAL_BINARY is the binary
# to use (the action would download it).
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
mkdir runner
export RUNNER_OS=Linux RUNNER_ARCH=X64 RUNNER_TEMP="$work/runner" GITHUB_STEP_SUMMARY="$work/summary.md" GITHUB_ACTION_PATH="$repo"
export INPUT_PATH="$repo/examples/shopping-agent" INPUT_JUNIT="$work/junit.xml"
set +e
sh "$repo/release/action.sh" >"$work/eval.txt"
code=$?
set -e
[ "$code" -le 1 ] || { echo "test-action: the action exited $code" >&2; exit 1; }
grep -q '|' summary.md || { echo "test-action: no markdown table in the job summary" >&2; exit 1; }
grep -q '<testsuite' junit.xml || { echo "test-action: junit.xml is not JUnit" >&2; exit 1; }
# A missing suite must fail the step, not pass it.
if INPUT_PATH="$work/no-such-suite.yaml" sh "$repo/release/action.sh" 2>/dev/null; then
  echo "test-action: a missing suite passed" >&2; exit 1
fi
echo "test-action: ok (eval exit $code, summary $(wc -l <summary.md) lines)"
