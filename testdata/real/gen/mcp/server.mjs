// An MCP server built with the TypeScript SDK whose package folder is
// argv[2] ("@modelcontextprotocol/sdk" or "mcp-sdk-1.9"), on stdio. Four
// tools: get_weather answers (with structured content where the SDK has
// it), get_time answers, search_flights is slow (the client gives up on
// it), book_flight fails with isError.
import { z } from "zod";

const sdk = process.argv[2];
const { McpServer } = await import(`${sdk}/server/mcp.js`);
const { StdioServerTransport } = await import(`${sdk}/server/stdio.js`);

const server = new McpServer({ name: "travel", version: "1.0.0" });
const weather = { Paris: { temp_c: 14, conditions: "cloudy" }, Tokyo: { temp_c: 21, conditions: "sunny" } };

// The tools that answer take 50 ms, so that the two calls the client sends
// at once overlap on the wire whatever the machine's speed.
const work = () => new Promise((resolve) => setTimeout(resolve, 50));

async function getWeather({ city }) {
  await work();
  const w = weather[city] ?? { temp_c: 0, conditions: "unknown" };
  const out = { city, ...w };
  const text = `${city}: ${w.temp_c} C, ${w.conditions}`;
  if (server.registerTool) return { content: [{ type: "text", text }], structuredContent: out };
  return { content: [{ type: "text", text }] };
}
async function getTime({ timezone }) {
  await work();
  return { content: [{ type: "text", text: `10:00 in ${timezone}` }] };
}
// search_flights takes longer than the client waits: the client cancels it.
async function searchFlights({ from, to }, extra) {
  await new Promise((resolve) => {
    const t = setTimeout(resolve, 2000);
    extra.signal?.addEventListener("abort", () => { clearTimeout(t); resolve(); });
  });
  return { content: [{ type: "text", text: `3 flights from ${from} to ${to}` }] };
}
async function bookFlight({ from, to }) {
  return { content: [{ type: "text", text: `no seats left from ${from} to ${to}` }], isError: true };
}

if (server.registerTool) {
  server.registerTool("get_weather", {
    title: "Weather",
    description: "Current weather of a city",
    inputSchema: { city: z.string() },
    outputSchema: { city: z.string(), temp_c: z.number(), conditions: z.string() },
  }, getWeather);
  server.registerTool("get_time", {
    description: "Local time of a time zone",
    inputSchema: { timezone: z.string() },
  }, getTime);
  server.registerTool("search_flights", {
    description: "Search flights",
    inputSchema: { from: z.string(), to: z.string() },
  }, searchFlights);
  server.registerTool("book_flight", {
    description: "Book a flight",
    inputSchema: { from: z.string(), to: z.string() },
  }, bookFlight);
} else {
  server.tool("get_weather", "Current weather of a city", { city: z.string() }, getWeather);
  server.tool("get_time", "Local time of a time zone", { timezone: z.string() }, getTime);
  server.tool("search_flights", "Search flights", { from: z.string(), to: z.string() }, searchFlights);
  server.tool("book_flight", "Book a flight", { from: z.string(), to: z.string() }, bookFlight);
}

await server.connect(new StdioServerTransport());
