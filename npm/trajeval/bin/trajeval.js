#!/usr/bin/env node
// The trajeval command: runs the binary of this platform's package.
"use strict";
const { spawnSync } = require("node:child_process");
const { binaryPath } = require("../index.js");

let bin;
try {
  bin = binaryPath();
} catch (err) {
  console.error(err.message);
  process.exit(2);
}
const r = spawnSync(bin, process.argv.slice(2), { stdio: "inherit" });
if (r.error) {
  console.error(`trajeval: cannot run ${bin}: ${r.error.message}`);
  process.exit(2);
}
process.exit(r.status === null ? 2 : r.status);
