// gen.mjs writes the generated files of testdata/real: it runs the real
// libraries (the OpenAI Agents SDK for JavaScript, the OpenAI client with
// OpenInference's instrumentation, the OpenTelemetry SDK and its OTLP JSON
// serializer) against a fake model server on 127.0.0.1, so that no file
// depends on a network or a model. Run it from this folder:
//
//	npm install && node gen.mjs ..
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
import { trace, context, SpanStatusCode } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { OpenAIInstrumentation } from '@arizeai/openinference-instrumentation-openai';
import { SemanticConventions as OI, OpenInferenceSpanKind } from '@arizeai/openinference-semantic-conventions';

const out = process.argv[2] ?? '..';
const ingested = [];

// The fake model: Responses API for the Agents SDK, Chat Completions for
// the instrumented client, and the traces ingest endpoint.
function answer(url, body) {
  if (url.endsWith('/traces/ingest')) {
    ingested.push(...body.data);
    return {};
  }
  const usage = { input_tokens: 40, output_tokens: 12, total_tokens: 52, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } };
  if (url.endsWith('/responses')) {
    const items = Array.isArray(body.input) ? body.input : [];
    const outputs = items.filter((i) => i.type === 'function_call_output').length;
    const base = { id: `resp_${outputs}_${items.length}`, object: 'response', created_at: 1767225600, status: 'completed', model: body.model, usage };
    if ((body.instructions ?? '').startsWith('Triage') && outputs === 0) {
      const name = (body.tools ?? []).map((t) => t.name).find((n) => n?.startsWith('transfer_to'));
      return { ...base, output: [{ type: 'function_call', id: 'fc_h', call_id: 'call_handoff', name, arguments: '{}', status: 'completed' }] };
    }
    if ((body.instructions ?? '').startsWith('Weather') && outputs < 2) {
      return {
        ...base, output: [
          { type: 'function_call', id: 'fc_1', call_id: 'call_weather', name: 'get_weather', arguments: '{"city":"Paris"}', status: 'completed' },
          { type: 'function_call', id: 'fc_2', call_id: 'call_time', name: 'get_time', arguments: '{"timezone":"Europe/Paris"}', status: 'completed' },
        ],
      };
    }
    return { ...base, output: [{ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'It is sunny in Paris, and it is 14:00 there.', annotations: [] }] }] };
  }
  if (url.endsWith('/chat/completions')) {
    const tools = body.messages.filter((m) => m.role === 'tool').length;
    const base = { id: `chatcmpl_${tools}`, object: 'chat.completion', created: 1767225600, model: body.model, usage: { prompt_tokens: 40, completion_tokens: 12, total_tokens: 52 } };
    if (tools === 0) {
      return {
        ...base, choices: [{
          index: 0, finish_reason: 'tool_calls', message: {
            role: 'assistant', content: null, tool_calls: [
              { id: 'call_weather', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
              { id: 'call_time', type: 'function', function: { name: 'get_time', arguments: '{"timezone":"Europe/Paris"}' } },
            ],
          },
        }],
      };
    }
    return { ...base, choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'It is sunny in Paris, and it is 14:00 there.' } }] };
  }
  return null;
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
const client = new OpenAI({ apiKey: 'fake-key', baseURL: base });

const weather = { city: 'Paris', sky: 'sunny', celsius: 21 };
const time = { timezone: 'Europe/Paris', time: '14:00' };

// 1. The OpenAI Agents SDK: a triage agent hands off to a weather agent,
// which calls two tools in one response. Its trace processor posts the
// trace to the fake ingest endpoint, whose body is the file.
{
  setDefaultOpenAIClient(client);
  setTraceProcessors([new BatchTraceProcessor(new OpenAITracingExporter({ apiKey: 'fake-key', endpoint: `${base}/traces/ingest` }))]);
  const getWeather = tool({ name: 'get_weather', description: 'The weather of a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false }, strict: true, execute: async () => weather });
  const getTime = tool({ name: 'get_time', description: 'The time in a timezone', parameters: { type: 'object', properties: { timezone: { type: 'string' } }, required: ['timezone'], additionalProperties: false }, strict: true, execute: async () => time });
  const weatherAgent = new Agent({ name: 'Weather agent', instructions: 'Weather: answer with the tools.', model: 'gpt-4.1-mini', tools: [getWeather, getTime] });
  const triage = new Agent({ name: 'Triage agent', instructions: 'Triage: hand weather questions on.', model: 'gpt-4.1-mini', handoffs: [weatherAgent] });
  const result = await run(triage, 'What is the weather and the time in Paris?');
  await getGlobalTraceProvider().forceFlush();
  fs.writeFileSync(path.join(out, 'openai-agents', 'agents-js-handoff.json'), JSON.stringify({ data: ingested }, null, 1) + '\n');
  console.log('openai-agents:', ingested.length, 'items; final:', result.finalOutput);
}

// OpenTelemetry: spans kept in memory, written as one OTLP/JSON document.
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
trace.setGlobalTracerProvider(provider);
// write writes the spans kept as OTLP/JSON, and as binary OTLP protobuf
// (an ExportTraceServiceRequest, the same bytes as TracesData) when proto
// names a file.
const write = (name, proto) => {
  const spans = exporter.getFinishedSpans();
  const doc = JSON.parse(new TextDecoder().decode(JsonTraceSerializer.serializeRequest(spans)));
  fs.writeFileSync(path.join(out, 'otlp', name), JSON.stringify(doc, null, 1) + '\n');
  console.log(`otlp/${name}:`, spans.length, 'spans');
  if (proto) {
    fs.mkdirSync(path.join(out, 'otlp-proto'), { recursive: true });
    fs.writeFileSync(path.join(out, 'otlp-proto', proto), ProtobufTraceSerializer.serializeRequest(spans));
    console.log(`otlp-proto/${proto}:`, spans.length, 'spans');
  }
  exporter.reset();
};
const tracer = trace.getTracer('trajeval-real-gen');
const messages = [{ role: 'user', content: 'What is the weather and the time in Paris?' }];
const tools = [
  { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
  { type: 'function', function: { name: 'get_time', parameters: { type: 'object', properties: { timezone: { type: 'string' } } } } },
];
const results = { get_weather: weather, get_time: time };
// runTool answers after a few milliseconds, as a real tool would: spans
// whose start times are equal to the millisecond could not be ordered.
const runTool = async (name) => {
  await new Promise((ok) => setTimeout(ok, 5));
  return JSON.stringify(results[name]);
};

// 2. OpenInference: the OpenAI client instrumented by OpenInference (LLM
// spans), the agent and its tools as AGENT and TOOL spans.
{
  const inst = new OpenAIInstrumentation();
  inst.setTracerProvider(provider);
  inst.manuallyInstrument(OpenAI);
  const oiClient = new OpenAI({ apiKey: 'fake-key', baseURL: base });
  await tracer.startActiveSpan('weather_agent', { attributes: { [OI.OPENINFERENCE_SPAN_KIND]: OpenInferenceSpanKind.AGENT, [OI.INPUT_VALUE]: messages[0].content } }, async (agent) => {
    const msgs = [...messages];
    const first = await oiClient.chat.completions.create({ model: 'gpt-4.1-mini', messages: msgs, tools });
    const calls = first.choices[0].message.tool_calls;
    msgs.push(first.choices[0].message);
    for (const c of calls) {
      await tracer.startActiveSpan(c.function.name, { attributes: { [OI.OPENINFERENCE_SPAN_KIND]: OpenInferenceSpanKind.TOOL, [OI.TOOL_NAME]: c.function.name, [OI.TOOL_CALL_ID]: c.id, [OI.INPUT_VALUE]: c.function.arguments, [OI.INPUT_MIME_TYPE]: 'application/json' } }, async (span) => {
        const r = await runTool(c.function.name);
        span.setAttributes({ [OI.OUTPUT_VALUE]: r, [OI.OUTPUT_MIME_TYPE]: 'application/json' });
        span.end();
        msgs.push({ role: 'tool', tool_call_id: c.id, content: r });
      });
    }
    const second = await oiClient.chat.completions.create({ model: 'gpt-4.1-mini', messages: msgs, tools });
    agent.setAttribute(OI.OUTPUT_VALUE, second.choices[0].message.content);
    agent.end();
  });
  inst.disable();
  write('openinference-openai-js.json');
}

// 3. GenAI semantic conventions: invoke_agent, chat and execute_tool spans
// with the gen_ai.* attributes, as an instrumented agent framework writes
// them.
{
  await tracer.startActiveSpan('invoke_agent weather_agent', { attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'weather_agent', 'gen_ai.provider.name': 'openai' } }, async (agent) => {
    const msgs = [...messages];
    const chat = async () => tracer.startActiveSpan('chat gpt-4.1-mini', { attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': 'gpt-4.1-mini' } }, async (span) => {
      const r = await client.chat.completions.create({ model: 'gpt-4.1-mini', messages: msgs, tools });
      span.setAttributes({ 'gen_ai.response.model': r.model, 'gen_ai.usage.input_tokens': r.usage.prompt_tokens, 'gen_ai.usage.output_tokens': r.usage.completion_tokens, 'gen_ai.response.finish_reasons': [r.choices[0].finish_reason] });
      span.end();
      return r;
    });
    const first = await chat();
    msgs.push(first.choices[0].message);
    for (const c of first.choices[0].message.tool_calls) {
      await tracer.startActiveSpan(`execute_tool ${c.function.name}`, { attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': c.function.name, 'gen_ai.tool.call.id': c.id, 'gen_ai.tool.type': 'function', 'gen_ai.tool.call.arguments': c.function.arguments } }, async (span) => {
        const r = await runTool(c.function.name);
        span.setAttribute('gen_ai.tool.call.result', r);
        span.setStatus({ code: SpanStatusCode.OK });
        span.end();
        msgs.push({ role: 'tool', tool_call_id: c.id, content: r });
      });
    }
    await chat();
    agent.end();
  });
  write('genai-semconv-js.json', 'genai-semconv-js.pb');
}

server.close();
