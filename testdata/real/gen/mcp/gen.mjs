// Writes the files of testdata/real/mcp (the folder argv[2]): for each SDK
// version, a real SDK client starts the real SDK server of server.mjs
// behind tee.mjs, and calls tools/list and several tools/call: two at once,
// one cancelled by the client's timeout, one failing with isError, one of a
// tool the server lacks. Then two short sessions logged into one file, as a
// proxy logs a host that starts its server again.
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { mkdirSync, writeFileSync } from "node:fs";

const here = dirname(fileURLToPath(import.meta.url));
const outDir = process.argv[2] ?? "../../mcp";
mkdirSync(outDir, { recursive: true });

async function connect(sdk, file) {
  const { Client } = await import(`${sdk}/client/index.js`);
  const { StdioClientTransport } = await import(`${sdk}/client/stdio.js`);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(here, "tee.mjs"), join(outDir, file), process.execPath, join(here, "server.mjs"), sdk],
    stderr: "inherit",
  });
  const client = new Client({ name: "trajeval-gen", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

async function run(sdk, file) {
  writeFileSync(join(outDir, file), "");
  const client = await connect(sdk, file);
  await client.listTools();
  await client.callTool({ name: "get_weather", arguments: { city: "Paris" } });
  await Promise.all([
    client.callTool({ name: "get_weather", arguments: { city: "Tokyo" } }),
    client.callTool({ name: "get_time", arguments: { timezone: "Asia/Tokyo" } }),
  ]);
  try {
    await client.callTool({ name: "search_flights", arguments: { from: "Paris", to: "Tokyo" } }, undefined, { timeout: 300 });
  } catch (e) {
    console.error(`${sdk}: search_flights: ${e.message}`);
  }
  await client.callTool({ name: "book_flight", arguments: { from: "Paris", to: "Tokyo" } });
  try {
    await client.callTool({ name: "get_news", arguments: { topic: "travel" } });
  } catch (e) {
    console.error(`${sdk}: get_news: ${e.message}`);
  }
  await client.close();
}

await run("@modelcontextprotocol/sdk", "typescript-sdk-1.32-stdio.jsonl");
await run("mcp-sdk-1.9", "typescript-sdk-1.9-stdio.jsonl");

const restarted = "typescript-sdk-1.32-two-sessions.jsonl";
writeFileSync(join(outDir, restarted), "");
for (const call of [
  { name: "get_weather", arguments: { city: "Paris" } },
  { name: "get_time", arguments: { timezone: "Europe/Paris" } },
]) {
  const client = await connect("@modelcontextprotocol/sdk", restarted);
  await client.callTool(call);
  await client.close();
}
