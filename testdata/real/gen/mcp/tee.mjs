// What a stdio proxy sees: runs the command of argv[3..] with piped stdin
// and stdout, passes both through, and appends every line that crosses
// them, in the order it crossed, to the file argv[2], byte for byte. The
// file is appended to, as a proxy's log is across restarts of its server.
import { spawn } from "node:child_process";
import { appendFileSync } from "node:fs";

const [out, cmd, ...args] = process.argv.slice(2);
const child = spawn(cmd, args, { stdio: ["pipe", "pipe", "inherit"] });

function recorder() {
  let buf = "";
  return (chunk) => {
    buf += chunk.toString("utf8");
    let i;
    while ((i = buf.indexOf("\n")) >= 0) {
      const line = buf.slice(0, i).replace(/\r$/, "");
      buf = buf.slice(i + 1);
      if (line !== "") appendFileSync(out, line + "\n");
    }
  };
}
const toServer = recorder();
const toClient = recorder();
process.stdin.on("data", (c) => { toServer(c); child.stdin.write(c); });
process.stdin.on("end", () => child.stdin.end());
child.stdout.on("data", (c) => { toClient(c); process.stdout.write(c); });
child.on("exit", (code) => process.exit(code ?? 0));
process.on("SIGTERM", () => child.kill("SIGTERM"));
