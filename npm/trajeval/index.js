// trajeval for Node: the binary of this platform's package and a small API
// that runs it.
"use strict";
const { spawn } = require("node:child_process");
const path = require("node:path");

// The platforms with a package, as Node names them: @trajeval/OS-CPU.
const platforms = ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "win32-x64", "win32-arm64"];

// binaryPath returns the trajeval binary to run: $TRAJEVAL_BINARY when set,
// else the one in this platform's optional package.
function binaryPath() {
  if (process.env.TRAJEVAL_BINARY) return process.env.TRAJEVAL_BINARY;
  const plat = `${process.platform}-${process.arch}`;
  if (!platforms.includes(plat)) {
    throw new Error(`trajeval: no prebuilt binary for ${plat} (hint: build it with go install github.com/trajeval/trajeval/cmd/trajeval@latest and set TRAJEVAL_BINARY)`);
  }
  const exe = process.platform === "win32" ? "trajeval.exe" : "trajeval";
  try {
    return require.resolve(`@trajeval/${plat}/bin/${exe}`);
  } catch {
    throw new Error(`trajeval: the package @trajeval/${plat} is not installed (hint: reinstall without --no-optional / --omit=optional)`);
  }
}

// run runs trajeval with args and input on standard input; it resolves to
// {code, stdout, stderr}. Output is bounded: a runaway process is killed.
function run(args, input, { timeoutMs = 600000, maxBytes = 256 << 20 } = {}) {
  return new Promise((resolve, reject) => {
    const p = spawn(binaryPath(), args, { stdio: ["pipe", "pipe", "pipe"], timeout: timeoutMs });
    const out = [], err = [];
    let size = 0;
    const take = (buf, chunk) => {
      size += chunk.length;
      if (size > maxBytes) { p.kill(); reject(new Error(`trajeval ${args[0]}: output over ${maxBytes} bytes`)); return; }
      buf.push(chunk);
    };
    p.stdout.on("data", (c) => take(out, c));
    p.stderr.on("data", (c) => take(err, c));
    p.on("error", reject);
    p.on("close", (code) => resolve({ code, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() }));
    p.stdin.end(input ?? "");
  });
}

// evaluate scores one trajectory's tool calls against the expected ones.
// trajectory: [{tool, input}] (or messages with tool_calls); expected:
// [{tool, args}]; options.mode: in_order (default), any_order, exact,
// subset. It resolves to {score, pass, hits, misses, reasoning}.
async function evaluate(trajectory, expected, options = {}) {
  if (!Array.isArray(trajectory) || !Array.isArray(expected)) {
    throw new TypeError("trajeval.evaluate: trajectory and expected must be arrays");
  }
  const messages = trajectory.some((m) => m && m.tool_calls) ? trajectory : [{ role: "assistant", tool_calls: trajectory }];
  const payload = { output_messages: messages, config: { mode: options.mode ?? "in_order", expected } };
  const r = await run(["grade", "--agentv"], JSON.stringify(payload), options);
  if (r.code !== 0) throw new Error(r.stderr.trim() || `trajeval grade: exit ${r.code}`);
  const v = JSON.parse(r.stdout);
  const threshold = options.threshold ?? 1;
  return { ...v, pass: v.score >= threshold };
}

// evalSuite runs trajeval eval on a suite file or folder and resolves to
// its result rows (one object per case). options: traces, filter (array),
// threshold, args (more flags). A run whose cases fail still resolves
// (exit 1); a usage or input error rejects.
async function evalSuite(suitePath, options = {}) {
  const args = ["eval", path.resolve(suitePath), "--format", "jsonl", "-q", "--no-db"];
  if (options.traces) args.push("--traces", path.resolve(options.traces));
  for (const f of options.filter ?? []) args.push("--filter", f);
  if (options.threshold !== undefined) args.push("--threshold", String(options.threshold));
  args.push(...(options.args ?? []));
  const r = await run(args, "", options);
  if (r.code !== 0 && r.code !== 1) throw new Error(r.stderr.trim() || `trajeval eval: exit ${r.code}`);
  return r.stdout.split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l));
}

module.exports = { binaryPath, evaluate, evalSuite, run };
