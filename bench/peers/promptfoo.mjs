// Scores spans.jsonl (tool spans) with promptfoo's trajectory assertions:
// trajectory:tool-sequence (in_order) and one trajectory:tool-args-match
// (partial) per expected call; a case passes when all pass.
// Usage: node promptfoo.mjs DIR
import { readFileSync } from 'node:fs';
import { lines, report } from './common.mjs';

const { assertions } = await import('promptfoo');
const dir = process.argv[2];
const expected = JSON.parse(readFileSync(`${dir}/check.json`, 'utf8'));
const checks = [
  { type: 'trajectory:tool-sequence', value: { mode: 'in_order', steps: expected.map((e) => e.tool) } },
  ...expected.map((e) => ({ type: 'trajectory:tool-args-match', value: { name: e.tool, args: e.args, mode: 'partial' } })),
];
let cases = 0, passed = 0, gradeNs = 0n;
for await (const line of lines(`${dir}/spans.jsonl`)) {
  const rec = JSON.parse(line);
  const traceData = { traceId: rec.id, spans: rec.spans };
  const t0 = process.hrtime.bigint();
  let ok = true;
  for (const assertion of checks) {
    const r = await assertions.runAssertion({
      assertion, test: { vars: {} }, providerResponse: { output: '' }, traceId: rec.id, traceData,
    });
    ok &&= r.pass;
  }
  gradeNs += process.hrtime.bigint() - t0;
  cases++;
  if (ok) passed++;
}
report('promptfoo', cases, passed, gradeNs);
