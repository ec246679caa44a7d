// Runs against the installed packages: node --test in a scratch project
// that installed the packed tarballs.
"use strict";
const test = require("node:test");
const assert = require("node:assert");
const { execFileSync } = require("node:child_process");
const path = require("node:path");
const trajeval = require("trajeval");
const assertion = require("trajeval/promptfoo.js");

test("npx trajeval runs the platform's binary", () => {
  const out = execFileSync("npx", ["--offline", "trajeval", "version"], { encoding: "utf8" });
  assert.match(out, /^trajeval /, "the launcher passes arguments and output through");
});

test("evaluate matches optimally, not greedily", async () => {
  const v = await trajeval.evaluate(
    [{ tool: "search", input: { q: "x" } }, { tool: "search", input: { q: "y" } }, { tool: "fetch" }],
    [{ tool: "search", args: { q: "y" } }, { tool: "fetch" }],
  );
  assert.strictEqual(v.score, 1, "the second search is the expected one; a greedy matcher would take the first");
  assert.strictEqual(v.pass, true);
});

test("evaluate explains a failure", async () => {
  const v = await trajeval.evaluate([{ tool: "fetch" }], [{ tool: "search" }, { tool: "fetch" }]);
  assert.strictEqual(v.pass, false);
  assert.match(v.reasoning, /search/, "the reasoning names the missing call");
});

test("evaluate rejects a bad mode", async () => {
  await assert.rejects(trajeval.evaluate([], [{ tool: "a" }], { mode: "inorder" }), /mode/, "a typo is an error, never a score");
});

test("evalSuite returns one row per case", async () => {
  const rows = await trajeval.evalSuite(path.join(process.env.TRAJEVAL_REPO, "examples", "shopping-agent"));
  assert.ok(rows.length > 0, "the example suite has cases");
  for (const r of rows) assert.ok(r.id && r.status, "each row has an id and a status");
});

test("evalSuite rejects a missing suite", async () => {
  await assert.rejects(trajeval.evalSuite("no-such-suite.yaml"), /no-such-suite/, "an unreadable path is an error naming it");
});

test("promptfoo assertion returns a GradingResult", async () => {
  const r = await assertion(JSON.stringify({ tool_calls: [{ function: { name: "search", arguments: "{\"q\":\"y\"}" } }] }),
    { config: { expected: [{ tool: "search", args: { q: "y" } }] } });
  assert.deepStrictEqual([r.pass, r.score], [true, 1], "OpenAI-shaped tool calls are read");
  const miss = await assertion("plain text", { config: { expected: [{ tool: "search" }] } });
  assert.strictEqual(miss.pass, false, "an output without tool calls fails, never passes");
});
