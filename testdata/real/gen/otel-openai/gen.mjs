// gen.mjs writes what the OpenTelemetry instrumentation of the OpenAI
// client (@opentelemetry/instrumentation-openai) puts in traces: a
// question, a chat completion that asks for get_weather, the tool's
// answer, and a second completion. The instrumentation records the
// messages, the tool call included, as log events, not on the spans,
// whatever its captureMessageContent says: the traces hold two chat spans
// with the model, the token counts and the finish reasons. Run it from
// this folder:
//
//	npm install && node gen.mjs ../..
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { trace, context } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { OpenAIInstrumentation } from '@opentelemetry/instrumentation-openai';

const out = path.resolve(process.argv[2] || '../..');

// The fake model: Chat Completions, a call of get_weather first, then text.
let n = 0;
const server = http.createServer((req, res) => {
  let data = '';
  req.on('data', (c) => { data += c; });
  req.on('end', () => {
    const body = JSON.parse(data);
    const answered = body.messages.some((m) => m.role === 'tool');
    const message = answered
      ? { role: 'assistant', content: 'It is 14 C in Paris.' }
      : { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({
      id: `chatcmpl-${++n}`, object: 'chat.completion', created: 1795800000, model: body.model,
      choices: [{ index: 0, message, finish_reason: answered ? 'stop' : 'tool_calls' }],
      usage: { prompt_tokens: 50, completion_tokens: 10, total_tokens: 60 },
    }));
  });
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));

context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
trace.setGlobalTracerProvider(provider);
const instrumentation = new OpenAIInstrumentation({ captureMessageContent: true });
instrumentation.setTracerProvider(provider);
instrumentation.enable();
// loaded after enable(), through require, which the instrumentation hooks
const OpenAI = createRequire(import.meta.url)('openai');

const client = new OpenAI({ apiKey: 'sk-fake', baseURL: `http://127.0.0.1:${server.address().port}/v1` });
const tools = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];
const messages = [{ role: 'user', content: 'What is the weather in Paris?' }];
const first = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools });
messages.push(first.choices[0].message, { role: 'tool', tool_call_id: 'call_1', content: '14 C' });
await client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools });
server.close();

const version = JSON.parse(fs.readFileSync(new URL('./node_modules/@opentelemetry/instrumentation-openai/package.json', import.meta.url))).version;
const body = Buffer.from(JsonTraceSerializer.serializeRequest(exporter.getFinishedSpans())).toString();
fs.writeFileSync(path.join(out, 'otlp', `otel-instrumentation-openai-${version}.json`), body);
