// A static file server for test-action.sh, standing in for a release's
// download folder: node serve.js DIR PORTFILE serves DIR's files on
// 127.0.0.1 (a free port, written to PORTFILE) and logs each request's path
// on standard output.
"use strict";
const http = require("node:http");
const fs = require("node:fs");
const path = require("node:path");

const [dir, portFile] = process.argv.slice(2);
const server = http.createServer((req, res) => {
  console.log(req.url);
  // Only a file directly in dir: a release folder has no subfolders.
  const name = path.basename(decodeURIComponent(new URL(req.url, "http://x").pathname));
  const file = path.join(dir, name);
  fs.readFile(file, (err, body) => {
    if (err) { res.writeHead(404); res.end("not found\n"); return; }
    res.writeHead(200, { "content-type": "application/octet-stream", "content-length": body.length });
    res.end(body);
  });
});
server.listen(0, "127.0.0.1", () => fs.writeFileSync(portFile, String(server.address().port)));
