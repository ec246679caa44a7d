// Shared by the peer harnesses: read a JSON Lines file one line at a time
// and print one JSON line of figures.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

export async function* lines(path) {
  const rl = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
  for await (const line of rl) {
    if (line.trim() !== '') yield line;
  }
}

export function report(tool, cases, passed, gradeNs) {
  console.log(JSON.stringify({ tool, cases, passed, grade_ms: Number(gradeNs) / 1e6 }));
}
