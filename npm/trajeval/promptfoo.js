// A promptfoo assertion that scores a test's tool calls with trajeval:
//
//   assert:
//     - type: javascript
//       value: file://node_modules/trajeval/promptfoo.js
//       config: {mode: in_order, expected: [{tool: search, args: {q: shoes}}]}
//
// The output's tool calls are read from output.tool_calls, or from the
// output parsed as JSON ({tool_calls: [...]} or an array of calls); each
// call is {tool, input} or OpenAI's {function: {name, arguments}}.
"use strict";
const { evaluate } = require("./index.js");

function calls(output) {
  let o = output;
  if (typeof o === "string") {
    try { o = JSON.parse(o); } catch { return null; }
  }
  const list = Array.isArray(o) ? o : o && o.tool_calls;
  if (!Array.isArray(list)) return null;
  return list.map((c) => {
    if (c && c.function) {
      let input = c.function.arguments;
      if (typeof input === "string") { try { input = JSON.parse(input); } catch { /* free text */ } }
      return { tool: c.function.name, input };
    }
    return { tool: c.tool ?? c.name, input: c.input ?? c.args ?? c.arguments };
  });
}

module.exports = async function trajevalAssertion(output, context) {
  const config = (context && context.config) || {};
  const expected = config.expected ?? (context && context.vars && context.vars.expected_tools);
  if (!Array.isArray(expected) || expected.length === 0) {
    return { pass: false, score: 0, reason: "trajeval: no expected tool calls (set config.expected on the assertion, or vars.expected_tools)" };
  }
  const actual = calls(output);
  if (actual === null) {
    return { pass: false, score: 0, reason: "trajeval: the output holds no tool_calls list" };
  }
  const v = await evaluate(actual, expected, { mode: config.mode, threshold: config.threshold });
  return { pass: v.pass, score: v.score, reason: v.reasoning };
};
