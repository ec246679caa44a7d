// Scores openai.jsonl (OpenAI chat messages) with LangChain agentevals'
// trajectory match: superset, arguments as a superset (it has no in-order
// mode that allows extra calls).
// Usage: node agentevals.mjs DIR
import { readFileSync } from 'node:fs';
import { createTrajectoryMatchEvaluator } from 'agentevals';
import { lines, report } from './common.mjs';

const dir = process.argv[2];
const expected = JSON.parse(readFileSync(`${dir}/check.json`, 'utf8'));
const reference = [{
  role: 'assistant', content: '',
  tool_calls: expected.map((e, i) => ({ id: `ref_${i}`, type: 'function', function: { name: e.tool, arguments: JSON.stringify(e.args) } })),
}];
const evaluator = createTrajectoryMatchEvaluator({ trajectoryMatchMode: 'superset', toolArgsMatchMode: 'superset' });
let cases = 0, passed = 0, gradeNs = 0n;
for await (const line of lines(`${dir}/openai.jsonl`)) {
  const rec = JSON.parse(line);
  const t0 = process.hrtime.bigint();
  const r = await evaluator({ outputs: rec.messages, referenceOutputs: reference });
  gradeNs += process.hrtime.bigint() - t0;
  cases++;
  if (r.score === true) passed++;
}
report('agentevals', cases, passed, gradeNs);
