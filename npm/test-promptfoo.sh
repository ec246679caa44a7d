#!/bin/sh
# trajeval's promptfoo assertion with the real promptfoo CLI from the npm
# registry: the echo provider returns the canned tool calls of each test,
# no key and no network beyond the registry. One test passes (trajeval's
# optimal matching), one fails, and its reason must be trajeval's
# explanation. TRAJEVAL_PACKAGES holds the packed tarballs,
# TRAJEVAL_PLATFORM and TRAJEVAL_VERSION name them.
#
# promptfoo 0.122 and later need Node >= 22.22; when the Node on the path
# is older, Node 22 comes from the npm registry too (the "node" package
# holds a real Node binary) and runs promptfoo. PROMPTFOO_VERSION and
# NODE_VERSION choose other versions.
set -eu
: "${TRAJEVAL_PACKAGES:?}" "${TRAJEVAL_PLATFORM:?}" "${TRAJEVAL_VERSION:?}"
PROMPTFOO_VERSION=${PROMPTFOO_VERSION:-0.123.1}
NODE_VERSION=${NODE_VERSION:-22.23.3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if ! npm view "promptfoo@$PROMPTFOO_VERSION" version >/dev/null 2>&1; then
  echo "test-promptfoo: SKIP: the npm registry cannot be reached (npm view promptfoo failed)"
  exit 0
fi
# promptfoo and trajeval live in two projects: the tarballs install
# offline, promptfoo from the registry.
mkdir "$work/pf" "$work/tj"
(cd "$work/tj" && npm init -y >/dev/null && npm install --offline --no-audit --no-fund --omit=optional --loglevel=error \
  "$TRAJEVAL_PACKAGES/trajeval-$TRAJEVAL_VERSION.tgz" "$TRAJEVAL_PACKAGES/trajeval-$TRAJEVAL_PLATFORM-$TRAJEVAL_VERSION.tgz" >/dev/null)
cd "$work/pf"
npm init -y >/dev/null
engine=$(npm view "promptfoo@$PROMPTFOO_VERSION" engines.node)
# Does the Node on the path satisfy promptfoo's engines? (semver ships
# inside npm, whose own code is not meant to be required, so the check is
# by hand for the forms promptfoo has used: ">=A.B.C" and "^A.B.C || >=D.E.F".)
fits=$(node -e '
const have = process.versions.node.split(".").map(Number);
const ge = (v) => { const w = v.split(".").map(Number); for (let i = 0; i < 3; i++) if (have[i] !== w[i]) return have[i] > w[i]; return true; };
const ok = process.argv[1].split("||").some((r) => {
  r = r.trim();
  if (r.startsWith(">=")) return ge(r.slice(2));
  if (r.startsWith("^")) return ge(r.slice(1)) && have[0] === Number(r.slice(1).split(".")[0]);
  return false;
});
console.log(ok ? "yes" : "no");' "$engine")
extra=""
if [ "$fits" != yes ]; then
  echo "test-promptfoo: promptfoo $PROMPTFOO_VERSION needs Node $engine, this is $(node --version): using node@$NODE_VERSION from the npm registry"
  extra="node@$NODE_VERSION"
fi
npm install --no-audit --no-fund --loglevel=error "promptfoo@$PROMPTFOO_VERSION" $extra >/dev/null
# The project's bin folder first: its node (when installed) runs npx and
# promptfoo, whose scripts start with "#!/usr/bin/env node".
PATH="$work/pf/node_modules/.bin:$PATH"
cat > promptfooconfig.yaml <<YAML
prompts: ["{{calls}}"]
providers: [echo]
defaultTest:
  assert:
    - type: javascript
      value: file://$work/tj/node_modules/trajeval/promptfoo.js
      config:
        mode: in_order
        expected:
          - {tool: lookup, args: {order: 42}}
          - {tool: refund}
tests:
  - description: optimal
    vars:
      calls: '{"tool_calls":[{"tool":"lookup","input":{"order":7}},{"tool":"lookup","input":{"order":42}},{"tool":"refund"}]}'
  - description: missing refund
    vars:
      calls: '{"tool_calls":[{"function":{"name":"lookup","arguments":"{\"order\":42}"}}]}'
YAML
export PROMPTFOO_CONFIG_DIR="$work/pfhome" PROMPTFOO_DISABLE_TELEMETRY=1 PROMPTFOO_DISABLE_UPDATE=1 PROMPTFOO_DISABLE_SHARING=1
set +e
npx --offline promptfoo eval -c promptfooconfig.yaml -o out.json --no-cache --no-progress-bar >promptfoo.log 2>&1
code=$?
set -e
# 100 is promptfoo's exit code when some test failed (and one must).
if [ "$code" -ne 100 ] || [ ! -s out.json ]; then
  cat promptfoo.log
  echo "test-promptfoo: promptfoo exited $code (want 100: one test fails on purpose)" >&2
  exit 1
fi
node -e '
const out = JSON.parse(require("fs").readFileSync("out.json", "utf8"));
const { results, stats } = out.results;
const by = Object.fromEntries(results.map((r) => [r.testCase.description, r]));
const good = by["optimal"], bad = by["missing refund"];
console.log(`test-promptfoo: promptfoo ${process.argv[1]} on Node ${process.versions.node}: optimal ${good?.success} ${good?.score}; missing refund ${bad?.success} ${bad?.score}: ${bad?.gradingResult?.reason}`);
const ok = stats.errors === 0 && good?.success === true && good.score === 1 &&
  bad?.success === false && bad.score === 0.5 && /^trajeval tool_trajectory: score 0\.50 \(fail\).*refund.*missing/.test(bad.gradingResult?.reason ?? "");
if (!ok) {
  const rows = results.map((r) => ({ test: r.testCase.description, success: r.success, score: r.score, reason: r.gradingResult?.reason, error: r.error }));
  console.error(JSON.stringify({ errors: stats.errors, rows }, null, 1));
  process.exit(1);
}
' "$PROMPTFOO_VERSION"
