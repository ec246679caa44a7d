// gen-langchain.mjs writes the generated langsmith and langchain files of
// testdata/real: it runs LangChain.js (@langchain/core with ChatOpenAI and
// two tools) and the LangSmith JS client against a fake model server and
// a fake LangSmith endpoint on 127.0.0.1, so that no file depends on a
// network or a model. Run it from this folder:
//
//	npm install && node gen-langchain.mjs ..
//
// Every answer of the fake server is fixed, so each run writes the same
// calls; ids and times differ from run to run.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';

import { z } from 'zod';
import { ChatOpenAI } from '@langchain/openai';
import { HumanMessage, mapChatMessagesToStoredMessages } from '@langchain/core/messages';
import { RunnableLambda } from '@langchain/core/runnables';
import { tool } from '@langchain/core/tools';
import { LangChainTracer } from '@langchain/core/tracers/tracer_langchain';
import { Client } from 'langsmith';
import { mapStoredMessagesToChatMessages as mapStored03 } from '@langchain/core-0.3/messages';
import { Client as Client03 } from 'langsmith-0.3';
import { traceable as traceable03 } from 'langsmith-0.3/traceable';

const out = process.argv[2] ?? '..';
const batches = []; // request bodies of /runs/batch, as posted

// The fake model answers a question with two parallel tool calls, then,
// once both results are in, with a text; the fake LangSmith endpoint
// keeps what it is sent.
function chat(body) {
  const results = body.messages.filter((m) => m.role === 'tool').length;
  const base = { id: `chatcmpl_${results}`, object: 'chat.completion', created: 1767225600, model: body.model, usage: { prompt_tokens: 40, completion_tokens: 12, total_tokens: 52 } };
  const asks = body.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
  if (results === 0 || (asks.includes('Tokyo') && results === 2)) {
    const city = asks.includes('Tokyo') ? 'Tokyo' : 'Paris';
    const tz = city === 'Tokyo' ? 'Asia/Tokyo' : 'Europe/Paris';
    return {
      ...base, choices: [{
        index: 0, finish_reason: 'tool_calls', message: {
          role: 'assistant', content: null, tool_calls: [
            { id: `call_weather_${city}`, type: 'function', function: { name: 'get_weather', arguments: JSON.stringify({ city }) } },
            { id: `call_time_${city}`, type: 'function', function: { name: 'get_time', arguments: JSON.stringify({ timezone: tz }) } },
          ],
        },
      }],
    };
  }
  return { ...base, choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'It is sunny, and it is 14:00 there.' } }] };
}

const server = http.createServer((req, res) => {
  let raw = '';
  req.on('data', (c) => { raw += c; });
  req.on('end', () => {
    const url = req.url ?? '';
    let reply = {};
    if (url.endsWith('/info')) {
      reply = { version: '0.10.0', batch_ingest_config: { use_multipart_endpoint: false, scale_up_qsize_trigger: 1000, scale_up_nthreads_limit: 16, scale_down_nempty_trigger: 4, size_limit: 100, size_limit_bytes: 20971520 } };
    } else if (url.endsWith('/runs/batch')) {
      batches.push(raw);
    } else if (url.includes('/runs/multipart')) {
      console.error('unexpected multipart upload');
      process.exitCode = 1;
    } else if (url.match(/\/runs(\/[^/]+)?$/)) {
      console.error(`unexpected ${req.method} ${url}`);
      process.exitCode = 1;
    } else if (url.endsWith('/chat/completions')) {
      reply = chat(JSON.parse(raw));
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(reply));
  });
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}`;

const getWeather = tool(async ({ city }) => `Sunny, 22°C in ${city}`, {
  name: 'get_weather', description: 'The weather in a city', schema: z.object({ city: z.string() }),
});
const getTime = tool(async ({ timezone }) => `14:00 in ${timezone}`, {
  name: 'get_time', description: 'The time in a time zone', schema: z.object({ timezone: z.string() }),
});
const tools = { get_weather: getWeather, get_time: getTime };

// 1. LangChain.js: a tool-calling loop under one runnable, traced by
// @langchain/core's LangChainTracer through the LangSmith client (batch
// ingest), two questions of one thread.
const client = new Client({ apiUrl: base, apiKey: 'fake-key', autoBatchTracing: true });
const tracer = new LangChainTracer({ client, projectName: 'trajeval-gen' });
const model = new ChatOpenAI({ model: 'gpt-4o-mini', apiKey: 'fake-key', configuration: { baseURL: `${base}/v1` } }).bindTools(Object.values(tools));
const agent = RunnableLambda.from(async (input, config) => {
  const messages = [...(input.history ?? []), new HumanMessage(input.question)];
  for (;;) {
    const ai = await model.invoke(messages, config);
    messages.push(ai);
    if (!ai.tool_calls?.length) {
      return { messages };
    }
    const results = await Promise.all(ai.tool_calls.map((tc) => tools[tc.name].invoke(tc, config)));
    messages.push(...results);
  }
}).withConfig({ runName: 'weather_agent' });
const config = { callbacks: [tracer], metadata: { thread_id: 'thread-weather-1' } };
const first = await agent.invoke({ question: 'What is the weather and the time in Paris?' }, config);
const second = await agent.invoke({ question: 'And in Tokyo?', history: first.messages }, config);
await client.awaitPendingTraceBatches();
fs.writeFileSync(path.join(out, 'langsmith/langchain-js-batch.jsonl'), batches.splice(0).map((b) => b + '\n').join(''));

// 2. The conversation's messages as LangChain.js stores them
// (mapChatMessagesToStoredMessages, the {type, data} form), and loaded by
// @langchain/core 0.3 and serialized by its toJSON (the lc: 1 form).
const stored = mapChatMessagesToStoredMessages(second.messages);
fs.writeFileSync(path.join(out, 'langchain/langchain-js-stored-messages.json'), JSON.stringify(stored, null, 2) + '\n');
fs.writeFileSync(path.join(out, 'langchain/langchain-js-0.3-serialized.json'), JSON.stringify(mapStored03(stored), null, 2) + '\n');

// 3. The LangSmith JS client 0.3 alone: traceable functions (an agent, an
// llm call through the OpenAI-compatible endpoint, and tools, one of
// which fails), posted in batches.
const client03 = new Client03({ apiUrl: base, apiKey: 'fake-key', autoBatchTracing: true });
const opts = { client: client03, project_name: 'trajeval-gen', tracingEnabled: true };
const llm = traceable03(async (messages) => {
  const r = await fetch(`${base}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'gpt-4o-mini', messages }) });
  return r.json();
}, { ...opts, name: 'chat_model', run_type: 'llm' });
const weather = traceable03(async ({ city }) => `Sunny, 22°C in ${city}`, { ...opts, name: 'get_weather', run_type: 'tool' });
const time = traceable03(async ({ timezone }) => { throw new Error(`unknown time zone: ${timezone}`); }, { ...opts, name: 'get_time', run_type: 'tool' });
const run03 = traceable03(async (question) => {
  const messages = [{ role: 'user', content: question }];
  const answer = await llm(messages);
  const msg = answer.choices[0].message;
  messages.push(msg);
  for (const tc of msg.tool_calls ?? []) {
    const fn = tc.function.name === 'get_weather' ? weather : time;
    let content;
    try {
      content = await fn(JSON.parse(tc.function.arguments));
    } catch (e) {
      content = String(e);
    }
    messages.push({ role: 'tool', tool_call_id: tc.id, content });
  }
  const last = await llm(messages);
  return { output: last.choices[0].message.content };
}, { ...opts, name: 'weather_agent', run_type: 'chain', metadata: { thread_id: 'thread-weather-2' } });
await run03('What is the weather and the time in Paris?');
await client03.awaitPendingTraceBatches();
fs.writeFileSync(path.join(out, 'langsmith/langsmith-js-0.3-batch.jsonl'), batches.map((b) => b + '\n').join(''));
server.close();
