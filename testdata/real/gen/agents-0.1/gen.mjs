// gen.mjs writes testdata/real/openai-agents/agents-js-0.1-guardrail.json:
// the OpenAI Agents SDK for JavaScript at an older minor version (0.1)
// runs an agent with an input guardrail and two tools, one of which
// fails, against a fake model server on 127.0.0.1; its trace exporter's
// body as posted is the file. It has a folder and package.json of its own
// because the SDK 0.1 wants zod 3 and 0.20 (../gen.mjs) zod 4. Run it from
// this folder:
//
//	npm install && node gen.mjs ../..
//
// Every answer of the fake server is fixed, so each run writes the same
// calls; ids and times differ from run to run.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';

import OpenAI from 'openai';
import {
  Agent, run, tool, setDefaultOpenAIClient, setTraceProcessors, BatchTraceProcessor, getGlobalTraceProvider,
} from '@openai/agents';
import { OpenAITracingExporter } from '@openai/agents-openai';

const out = process.argv[2] ?? '../..';
const ingested = [];

// The fake model: the Responses API, and the traces ingest endpoint. The
// agent asks for both tools in one response, then answers.
function answer(url, body) {
  if (url.endsWith('/traces/ingest')) {
    ingested.push(...body.data);
    return {};
  }
  if (!url.endsWith('/responses')) {
    return null;
  }
  const usage = { input_tokens: 40, output_tokens: 12, total_tokens: 52, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } };
  const items = Array.isArray(body.input) ? body.input : [];
  const outputs = items.filter((i) => i.type === 'function_call_output').length;
  const base = { id: `resp_${outputs}_${items.length}`, object: 'response', created_at: 1767225600, status: 'completed', model: body.model, usage };
  if (outputs === 0) {
    return {
      ...base, output: [
        { type: 'function_call', id: 'fc_1', call_id: 'call_stock', name: 'lookup_stock', arguments: '{"sku":"A-100"}', status: 'completed' },
        { type: 'function_call', id: 'fc_2', call_id: 'call_ship', name: 'ship_order', arguments: '{"sku":"A-100","quantity":2}', status: 'completed' },
      ],
    };
  }
  return { ...base, output: [{ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'A-100 is in stock, but the order could not be shipped.', annotations: [] }] }] };
}

const server = http.createServer((req, res) => {
  let data = '';
  req.on('data', (c) => { data += c; });
  req.on('end', () => {
    const a = answer(req.url, data ? JSON.parse(data) : {});
    res.writeHead(a ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(a ?? { error: { message: 'not found' } }));
  });
});
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const base = `http://127.0.0.1:${server.address().port}/v1`;

setDefaultOpenAIClient(new OpenAI({ apiKey: 'fake-key', baseURL: base }));
setTraceProcessors([new BatchTraceProcessor(new OpenAITracingExporter({ apiKey: 'fake-key', endpoint: `${base}/traces/ingest` }))]);
const lookupStock = tool({
  name: 'lookup_stock', description: 'How many of an item are in stock',
  parameters: { type: 'object', properties: { sku: { type: 'string' } }, required: ['sku'], additionalProperties: false }, strict: true,
  execute: async ({ sku }) => ({ sku, in_stock: 7 }),
});
const shipOrder = tool({
  name: 'ship_order', description: 'Ship an order',
  parameters: { type: 'object', properties: { sku: { type: 'string' }, quantity: { type: 'integer' } }, required: ['sku', 'quantity'], additionalProperties: false }, strict: true,
  execute: async () => { throw new Error('the warehouse is closed'); },
});
const onTopic = { name: 'on_topic', execute: async () => ({ tripwireTriggered: false, outputInfo: { reason: 'an order question' } }) };
const agent = new Agent({ name: 'Order agent', instructions: 'Orders: answer with the tools.', model: 'gpt-4.1-mini', tools: [lookupStock, shipOrder], inputGuardrails: [onTopic] });
const result = await run(agent, 'Is A-100 in stock? If so, ship two.');
await getGlobalTraceProvider().forceFlush();
fs.writeFileSync(path.join(out, 'openai-agents', 'agents-js-0.1-guardrail.json'), JSON.stringify({ data: ingested }, null, 1) + '\n');
console.log('openai-agents:', ingested.length, 'items; final:', result.finalOutput);
server.close();
