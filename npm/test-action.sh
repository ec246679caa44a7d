#!/bin/sh
# Runs the CI action's steps (release/action.sh) in a scratch workspace with
# the variables a runner sets, on the repository's shopping example, both
# ways the action installs trajeval:
#   - release: the archives of TRAJEVAL_DIST (what go run ./release wrote,
#     with this machine's platform among them) served over HTTP on
#     127.0.0.1 as the download URL; the checksum is checked, and a
#     tampered archive must stop the step before eval runs;
#   - npm: the packed tarballs of TRAJEVAL_PACKAGES, installed offline.
# Each run must write the markdown report to $GITHUB_STEP_SUMMARY and the
# JUnit file where the junit input says (by default in the workspace).
# TRAJEVAL_VERSION is the version the archives and tarballs carry (no v),
# TRAJEVAL_PLATFORM the npm platform (linux-x64, ...).
set -eu
: "${TRAJEVAL_DIST:?}" "${TRAJEVAL_PACKAGES:?}" "${TRAJEVAL_PLATFORM:?}" "${TRAJEVAL_VERSION:?}"
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
server=""
trap '[ -z "$server" ] || kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
die() { echo "test-action: $*" >&2; exit 1; }

case "$(uname -s)" in Linux) runner_os=Linux ;; Darwin) runner_os=macOS ;; *) runner_os=Windows ;; esac
case "$(uname -m)" in x86_64 | amd64) runner_arch=X64 ;; aarch64 | arm64) runner_arch=ARM64 ;; *) runner_arch=$(uname -m) ;; esac
suite=$repo/examples/shopping-agent

# runaction NAME: a fresh runner (workspace, temp, summary) in $work/NAME;
# runs the action there with the INPUT_* variables already exported and
# leaves its exit code in $code and its stderr in NAME/stderr.
runaction() {
  r=$work/$1
  mkdir -p "$r/workspace" "$r/temp"
  : >"$r/summary.md"
  set +e
  (cd "$r/workspace" && env RUNNER_OS=$runner_os RUNNER_ARCH=$runner_arch RUNNER_TEMP="$r/temp" \
    GITHUB_WORKSPACE="$r/workspace" GITHUB_STEP_SUMMARY="$r/summary.md" GITHUB_ACTION_PATH="$repo" \
    sh "$repo/release/action.sh" >"$r/stdout" 2>"$r/stderr")
  code=$?
  set -e
}

# reported NAME JUNIT: the run failed some cases as the example does (exit
# 1), and wrote the summary and a JUnit file with one testcase per case.
reported() {
  r=$work/$1
  [ "$code" -eq 1 ] || { cat "$r/stderr" >&2; die "$1: the action exited $code, want 1 (the example fails some cases on purpose)"; }
  grep -q '^|' "$r/summary.md" || die "$1: no markdown table in \$GITHUB_STEP_SUMMARY"
  [ -s "$2" ] || die "$1: no JUnit file at $2"
  grep -q '<testsuite' "$2" || die "$1: $2 is not JUnit"
  n=$(grep -c '<testcase' "$2")
  [ "$n" -gt 0 ] || die "$1: $2 has no testcase"
}

export INPUT_PATH="$suite" INPUT_VERSION="v$TRAJEVAL_VERSION"

# The release path, from a local download folder.
node "$repo/npm/test/serve.js" "$TRAJEVAL_DIST" "$work/port" >"$work/requests" 2>&1 &
server=$!
i=0
while [ ! -s "$work/port" ]; do
  i=$((i + 1)); [ "$i" -le 100 ] || die "the file server did not start: $(cat "$work/requests")"
  sleep 0.1
done
url=http://127.0.0.1:$(cat "$work/port")
INPUT_SOURCE=release INPUT_DOWNLOAD_URL=$url runaction release
reported release "$work/release/workspace/trajeval-junit.xml"
grep -q "^trajeval action: trajeval v$TRAJEVAL_VERSION from $url/trajeval_${TRAJEVAL_VERSION}_" "$work/release/stderr" ||
  die "release: the binary did not come from $url: $(cat "$work/release/stderr")"
grep -q '/SHA256SUMS$' "$work/requests" || die "release: SHA256SUMS was not downloaded"
bin=$work/release/temp/trajeval-bin/trajeval
[ -f "$bin" ] || bin=$bin.exe
[ -f "$bin" ] || die "release: the binary is not under RUNNER_TEMP"

# A tampered archive (a well-formed one whose "trajeval" is another
# program): the checksum stops the step (exit 2) before anything runs.
mkdir -p "$work/bad" "$work/evil"
cp "$TRAJEVAL_DIST"/* "$work/bad/"
printf '#!/bin/sh\necho "not trajeval"\n' >"$work/evil/trajeval"
chmod +x "$work/evil/trajeval"
for a in "$work"/bad/trajeval_*.tar.gz; do tar czf "$a" -C "$work/evil" trajeval; done
kill "$server"
rm -f "$work/port"
node "$repo/npm/test/serve.js" "$work/bad" "$work/port" >>"$work/requests" 2>&1 &
server=$!
i=0
while [ ! -s "$work/port" ]; do
  i=$((i + 1)); [ "$i" -le 100 ] || die "the file server did not start"
  sleep 0.1
done
url=http://127.0.0.1:$(cat "$work/port")
INPUT_SOURCE=release INPUT_DOWNLOAD_URL=$url runaction tampered
[ "$code" -eq 2 ] || die "tampered: a tampered archive gave exit $code, want 2"
grep -q 'does not match its checksum' "$work/tampered/stderr" || die "tampered: no checksum error: $(cat "$work/tampered/stderr")"
[ ! -e "$work/tampered/workspace/trajeval-junit.xml" ] || die "tampered: eval ran with an unverified binary"
kill "$server"
server=""

# The npm path, from the packed tarballs (offline: the registry is not
# needed, and the other platforms' optional packages are left out).
INPUT_SOURCE=npm INPUT_NPM_PACKAGE="$TRAJEVAL_PACKAGES/trajeval-$TRAJEVAL_VERSION.tgz $TRAJEVAL_PACKAGES/trajeval-$TRAJEVAL_PLATFORM-$TRAJEVAL_VERSION.tgz" \
  INPUT_JUNIT="$work/npm/reports/junit.xml" npm_config_offline=true npm_config_omit=optional runaction npm
reported npm "$work/npm/reports/junit.xml"
grep -q "^trajeval action: trajeval v$TRAJEVAL_VERSION from npm " "$work/npm/stderr" ||
  die "npm: the binary did not come from the npm package: $(cat "$work/npm/stderr")"

# A missing suite fails the step; it is never a pass.
TRAJEVAL_BINARY="$bin" INPUT_PATH="$work/no-such-suite.yaml" runaction missing
[ "$code" -eq 2 ] || die "missing: a missing suite gave exit $code, want 2"

echo "test-action: ok (release from a local download folder, checksum checked, tampered archive refused; npm package; summary $(wc -l <"$work/release/summary.md") lines, JUnit $n testcases)"
