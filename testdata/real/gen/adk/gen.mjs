// gen.mjs runs an agent of ADK for TypeScript (@google/adk) against the
// fake Gemini API server of ../clis/server.mjs, which answers as it answers
// Gemini CLI (a command, then two file reads in one response, then text),
// and writes the session the runner kept, as the sessions API returns it:
//
//	npm install && node gen.mjs ../..
//
// The second read throws (missing.txt), as a tool that fails does. Ids and
// times change from run to run; the calls do not.
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { LlmAgent, FunctionTool, InMemoryRunner, Gemini } from '@google/adk';
import { start } from '../clis/server.mjs';

const out = path.resolve(process.argv[2] || '../..');
const srv = await start('/home/user/project');
// read by @google/genai, the client ADK's Gemini model uses
process.env.GOOGLE_GEMINI_BASE_URL = `http://127.0.0.1:${srv.port}`;

const shell = new FunctionTool({
  name: 'run_shell_command', description: 'Runs a shell command.',
  parameters: z.object({ command: z.string(), description: z.string() }),
  execute: ({ command }) => ({ output: command === 'echo hi' ? 'hi' : '' }),
});
const read = new FunctionTool({
  name: 'read_file', description: 'Reads a file.',
  parameters: z.object({ file_path: z.string() }),
  execute: ({ file_path }) => {
    if (file_path !== 'hello.txt') throw new Error(`File not found: ${file_path}`);
    return { output: 'hello\n' };
  },
});
const agent = new LlmAgent({
  name: 'helper', instruction: 'Help with files.', tools: [shell, read],
  model: new Gemini({ model: 'gemini-2.5-pro', apiKey: 'fake-key' }),
});
const runner = new InMemoryRunner({ agent, appName: 'files' });
const session = await runner.sessionService.createSession({ appName: 'files', userId: 'user' });
const newMessage = { role: 'user', parts: [{ text: 'Run echo hi, then show hello.txt and missing.txt.' }] };
for await (const ev of runner.runAsync({ userId: 'user', sessionId: session.id, newMessage })) {
  void ev;
}
const saved = await runner.sessionService.getSession({ appName: 'files', userId: 'user', sessionId: session.id });
srv.server.close();
console.error(JSON.stringify(srv.log));
const version = JSON.parse(fs.readFileSync(new URL('./node_modules/@google/adk/package.json', import.meta.url))).version;
fs.writeFileSync(path.join(out, 'adk-session', `adk-js-${version}.session.json`), JSON.stringify(saved, null, 2) + '\n');
