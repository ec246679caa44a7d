#!/bin/sh
# trajeval as AgentV's code-grader, with the real AgentV CLI from the npm
# registry and no LLM: a cli target replays a canned answer. The suite is
# one where AgentV's greedy tool_trajectory fails the agent (it takes the
# first lookup, whose order is wrong) and trajeval's optimal matching
# passes it. TRAJEVAL_BINARY is the binary to test.
set -eu
: "${TRAJEVAL_BINARY:?}"
AGENTV_VERSION=${AGENTV_VERSION:-4.42.4}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
if ! npm view "agentv@$AGENTV_VERSION" version >/dev/null 2>&1; then
  echo "test-agentv: SKIP: the npm registry cannot be reached (npm view agentv failed)"
  exit 0
fi
npm init -y >/dev/null
npm install --no-audit --no-fund --loglevel=error "agentv@$AGENTV_VERSION" >/dev/null
mkdir -p .agentv fixtures evals
cat > .agentv/targets.yaml <<'YAML'
targets:
  - name: canned
    provider: cli
    command: cp fixtures/{EVAL_ID}.json {OUTPUT_FILE}
    cwd: ..
    timeout_seconds: 30
YAML
cat > fixtures/refund.json <<'JSON'
{"output":[{"role":"assistant","content":"Refunded.","tool_calls":[{"tool":"lookup","input":{"order":7}},{"tool":"lookup","input":{"order":42}},{"tool":"refund","input":{"order":42}}]}]}
JSON
cat > evals/refund.eval.yaml <<YAML
execution:
  target: canned
tests:
  - id: refund
    input: Refund order 42
    assertions:
      - name: agentv
        type: tool_trajectory
        mode: in_order
        expected:
          - {tool: lookup, args: {order: 42}}
          - {tool: refund}
      - name: trajeval
        type: code-grader
        command: ["$TRAJEVAL_BINARY", grade, --agentv]
        config:
          mode: in_order
          expected:
            - {tool: lookup, args: {order: 42}}
            - {tool: refund}
YAML
npx --offline agentv eval run evals/refund.eval.yaml --target canned --output out >agentv.log 2>&1 || { cat agentv.log; exit 1; }
node -e '
const row = JSON.parse(require("fs").readFileSync("out/index.jsonl", "utf8").split("\n")[0]);
const by = Object.fromEntries(row.scores.map((s) => [s.name, s]));
const ok = by.agentv && by.agentv.score < 1 && by.trajeval && by.trajeval.score === 1 && by.trajeval.verdict === "pass";
console.log(`test-agentv: AgentV tool_trajectory ${by.agentv?.score}, trajeval code-grader ${by.trajeval?.score} (${by.trajeval?.verdict})`);
if (!ok) { console.error(JSON.stringify(row.scores, null, 1)); process.exit(1); }
'
