// A fake model server on 127.0.0.1 for Codex CLI (Responses API), Claude
// Code (Messages API) and Gemini CLI (Gemini API), all streamed as
// server-sent events. Its answers are fixed: each turn is chosen by how
// many tool results the request already holds.
import http from 'node:http';

function sse(res, events) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const [type, data] of events) {
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  }
  res.end();
}

// Responses API, for Codex.
let respN = 0;
function responses(body, res, log) {
  const input = Array.isArray(body.input) ? body.input : [];
  const outputs = input.filter((i) => i.type === 'function_call_output' || i.type === 'custom_tool_call_output').length;
  const tools = (body.tools || []).map((t) => t.name || t.type);
  log.push({ api: 'responses', outputs, tools });
  const id = `resp_${++respN}`;
  const usage = { input_tokens: 100 + outputs, input_tokens_details: { cached_tokens: 0 }, output_tokens: 10, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 110 + outputs };
  if (JSON.stringify(input).includes('Search the web')) return sse(res, responseEvents(body, id, usage, webSearch(outputs, tools)));
  // the second response holds two calls: Codex runs them together
  const turns = [['echo hi'], ['cat hello.txt', 'cat missing.txt']];
  let items = [];
  const turn = outputs === 0 ? 0 : outputs === 1 ? 1 : 2;
  if (turn < turns.length) {
    items = turns[turn].map((command, k) => {
      let name, args;
      if (tools.includes('shell_command')) { name = 'shell_command'; args = { command }; }
      else if (tools.includes('exec_command')) { name = 'exec_command'; args = { cmd: command }; }
      else { name = 'shell'; args = { command: ['bash', '-lc', command] }; }
      return { type: 'function_call', id: `fc_${respN}_${k}`, call_id: `call_${respN}_${k}`, name, arguments: JSON.stringify(args), status: 'completed' };
    });
  } else {
    items = [{ type: 'message', id: `msg_${respN}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'The command printed hi, hello.txt says hello and missing.txt is missing.', annotations: [] }] }];
  }
  sse(res, responseEvents(body, id, usage, items));
}

// webSearch answers the second Codex run: a web search, which the API runs
// itself (a web_search_call item with its own status), and a command, in
// one response; then the answer.
function webSearch(outputs, tools) {
  if (outputs > 0) {
    return [{ type: 'message', id: `msg_${respN}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Searched the web and wrote notes.txt.', annotations: [] }] }];
  }
  const name = tools.includes('exec_command') ? 'exec_command' : 'shell_command';
  const args = name === 'exec_command' ? { cmd: 'echo hi > notes.txt' } : { command: 'echo hi > notes.txt' };
  return [
    { type: 'web_search_call', id: `ws_${respN}`, status: 'completed', action: { type: 'search', query: 'codex rollout format' } },
    { type: 'function_call', id: `fc_${respN}_0`, call_id: `call_${respN}_0`, name, arguments: JSON.stringify(args), status: 'completed' },
  ];
}

function responseEvents(body, id, usage, items) {
  const response = { id, object: 'response', created_at: Math.floor(Date.now() / 1000), model: body.model, status: 'in_progress', output: [] };
  const events = [['response.created', { response }]];
  items.forEach((item, output_index) => {
    events.push(['response.output_item.added', { output_index, item }]);
    if (item.type === 'message') {
      events.push(['response.output_text.delta', { item_id: item.id, output_index, content_index: 0, delta: item.content[0].text }]);
    }
    events.push(['response.output_item.done', { output_index, item }]);
  });
  events.push(['response.completed', { response: { ...response, status: 'completed', output: items, usage } }]);
  return events;
}

// Messages API, for Claude Code.
let msgN = 0;
function messages(body, res, log, dir) {
  const msgs = body.messages || [];
  const tools = (body.tools || []).map((t) => t.name);
  const text = (c) => (typeof c === 'string' ? c : (c || []).filter((b) => b.type === 'text').map((b) => b.text).join(''));
  const first = text(msgs[0]?.content);
  let results = 0;
  for (const m of msgs) if (Array.isArray(m.content)) results += m.content.filter((b) => b.type === 'tool_result').length;
  const sub = first.includes('SUBAGENT');
  log.push({ api: 'messages', results, sub, tools, first: first.slice(0, 80) });
  const taskTool = tools.includes('Task') ? 'Task' : tools.includes('Agent') ? 'Agent' : null;
  let blocks;
  if (!tools.length) {
    blocks = [{ type: 'text', text: 'Fake title' }];
  } else if (sub) {
    blocks = results === 0
      ? [{ type: 'tool_use', id: `toolu_sub_${++msgN}`, name: 'Read', input: { file_path: `${dir}/hello.txt` } }]
      : [{ type: 'text', text: 'The sub-agent read hello.txt: it says hello.' }];
  } else if (results === 0) {
    blocks = [{ type: 'text', text: 'I will run a command.' }, { type: 'tool_use', id: `toolu_${++msgN}`, name: 'Bash', input: { command: 'echo hi', description: 'Print hi' } }];
  } else if (results === 1) {
    // two calls of one message: Claude Code runs them together
    blocks = [
      { type: 'tool_use', id: `toolu_${++msgN}`, name: 'Read', input: { file_path: `${dir}/hello.txt` } },
      { type: 'tool_use', id: `toolu_${++msgN}`, name: 'Bash', input: { command: 'cat missing.txt', description: 'Show missing.txt' } },
    ];
  } else if (results === 3 && taskTool) {
    blocks = [{ type: 'tool_use', id: `toolu_${++msgN}`, name: taskTool, input: { description: 'Read hello', prompt: 'SUBAGENT: read hello.txt and say what it holds.', subagent_type: 'general-purpose' } }];
  } else {
    blocks = [{ type: 'text', text: 'The command printed hi, hello.txt says hello and missing.txt is missing.' }];
  }
  const id = `msg_fake_${++msgN}`;
  const usage = { input_tokens: 100 + results, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const events = [['message_start', { message: { id, type: 'message', role: 'assistant', model: body.model, content: [], stop_reason: null, stop_sequence: null, usage } }]];
  blocks.forEach((b, index) => {
    if (b.type === 'text') {
      events.push(['content_block_start', { index, content_block: { type: 'text', text: '' } }]);
      events.push(['content_block_delta', { index, delta: { type: 'text_delta', text: b.text } }]);
    } else {
      events.push(['content_block_start', { index, content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} } }]);
      events.push(['content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(b.input) } }]);
    }
    events.push(['content_block_stop', { index }]);
  });
  const stop = blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn';
  events.push(['message_delta', { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 12 } }]);
  events.push(['message_stop', {}]);
  sse(res, events);
}

// Gemini API, for Gemini CLI (streamGenerateContent) and Google ADK
// (generateContent): the same answers, streamed or not.
function gemini(body, res, log, stream) {
  const contents = body.contents || [];
  let responses = 0;
  for (const c of contents) responses += (c.parts || []).filter((p) => p.functionResponse).length;
  log.push({ api: 'gemini', stream, responses, contents: contents.length });
  const usageMetadata = { promptTokenCount: 100 + responses, candidatesTokenCount: 10, totalTokenCount: 110 + responses };
  const tools = (body.tools || []).flatMap((t) => (t.functionDeclarations || []).map((f) => f.name));
  const asked = JSON.stringify(contents[0] || {});
  let parts;
  if (tools.includes('complete_task')) {
    // a sub-agent of Gemini CLI (it must end with complete_task): one
    // read_file, then its answer
    parts = responses === 0
      ? [{ functionCall: { name: 'read_file', args: { file_path: 'hello.txt' } } }]
      : [{ functionCall: { name: 'complete_task', args: { result: { response: 'hello.txt says hello.' } } } }];
  } else if (asked.includes('sub-agent')) {
    // the main agent hands the work to the generalist sub-agent
    parts = responses === 0
      ? [{ functionCall: { name: 'invoke_agent', args: { agent_name: 'generalist', prompt: 'Read hello.txt and say what it holds.' } } }]
      : [{ text: 'The sub-agent read hello.txt: it says hello.' }];
  } else if (responses === 0) {
    parts = [{ functionCall: { name: 'run_shell_command', args: { command: 'echo hi', description: 'Print hi' } } }];
  } else if (responses === 1) {
    // two calls of one response: Gemini CLI runs them as one batch
    parts = [
      { functionCall: { name: 'read_file', args: { file_path: 'hello.txt' } } },
      { functionCall: { name: 'read_file', args: { file_path: 'missing.txt' } } },
    ];
  } else {
    parts = [{ text: 'The command printed hi, hello.txt says hello and missing.txt is missing.' }];
  }
  const chunk = { candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }], usageMetadata, modelVersion: body.model || 'gemini-2.5-pro' };
  if (!stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    return res.end(JSON.stringify(chunk));
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.write(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
  res.end();
}

export function start(dir) {
  const log = [];
  const server = http.createServer((req, res) => {
    let data = '';
    req.on('data', (c) => { data += c; });
    req.on('end', () => {
      let body = {};
      try { body = data ? JSON.parse(data) : {}; } catch { /* not JSON */ }
      const path = req.url.split('?')[0];
      if (req.method === 'POST' && path.endsWith('/responses')) return responses(body, res, log);
      if (req.method === 'POST' && path.endsWith('/messages')) return messages(body, res, log, dir);
      if (req.method === 'POST' && path.endsWith(':streamGenerateContent')) return gemini(body, res, log, true);
      if (req.method === 'POST' && path.endsWith(':generateContent')) return gemini(body, res, log, false);
      log.push({ other: `${req.method} ${req.url}` });
      if (path.endsWith('/models')) { res.writeHead(200, { 'content-type': 'application/json' }); return res.end('{"data":[],"models":[]}'); }
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: server.address().port, log })));
}
