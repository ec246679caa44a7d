#!/bin/sh
# trajeval's promptfoo assertion with the real promptfoo from the npm
# registry: the echo provider returns the canned tool calls of each test,
# no key and no network beyond the registry. TRAJEVAL_PACKAGES holds the
# packed tarballs, TRAJEVAL_PLATFORM and TRAJEVAL_VERSION name them.
set -eu
: "${TRAJEVAL_PACKAGES:?}" "${TRAJEVAL_PLATFORM:?}" "${TRAJEVAL_VERSION:?}"
# 0.120 runs on Node 20; 0.123 needs Node 22.22.
PROMPTFOO_VERSION=${PROMPTFOO_VERSION:-0.120.0}
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
npm install --no-audit --no-fund --loglevel=error "promptfoo@$PROMPTFOO_VERSION" >/dev/null
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
[ -s out.json ] || { cat promptfoo.log; echo "test-promptfoo: promptfoo exited $code without results" >&2; exit 1; }
node -e '
const out = JSON.parse(require("fs").readFileSync("out.json", "utf8"));
const rows = out.results.results;
const by = Object.fromEntries(rows.map((r) => [r.testCase.description, r]));
const good = by["optimal"], bad = by["missing refund"];
console.log(`test-promptfoo: optimal ${good?.success} ${good?.score}; missing refund ${bad?.success} ${bad?.score}: ${bad?.gradingResult?.reason}`);
if (!(good?.success === true && good.score === 1 && bad?.success === false && /refund/.test(bad.gradingResult?.reason ?? ""))) process.exit(1);
'
