// Scores traces.jsonl (AgentV's own trace shape) with @agentv/core's
// ToolTrajectoryGrader called directly: in_order, arguments as a superset.
// Usage: node agentv-core.mjs DIR
import { readFileSync } from 'node:fs';
import { ToolTrajectoryGrader } from '@agentv/core';
import { lines, report } from './common.mjs';

const dir = process.argv[2];
const expected = JSON.parse(readFileSync(`${dir}/check.json`, 'utf8'));
const grader = new ToolTrajectoryGrader({
  config: { name: 'check', type: 'tool-trajectory', mode: 'in_order', argsMatch: 'superset', expected },
});
let cases = 0, passed = 0, gradeNs = 0n;
for await (const line of lines(`${dir}/traces.jsonl`)) {
  const rec = JSON.parse(line);
  // AgentV's pipeline turns the file's snake_case into its camelCase messages.
  const output = rec.output.map((m) => ({
    role: m.role, content: m.content,
    toolCalls: m.tool_calls?.map((c) => ({ tool: c.tool, input: c.input, output: c.output, id: c.id, durationMs: c.duration_ms })),
  }));
  const t0 = process.hrtime.bigint();
  const r = grader.evaluate({ output });
  gradeNs += process.hrtime.bigint() - t0;
  cases++;
  if (r.verdict === 'pass' && r.score === 1) passed++;
}
report('@agentv/core', cases, passed, gradeNs);
