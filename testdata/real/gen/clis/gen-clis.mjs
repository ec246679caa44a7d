// Runs the real Codex CLI, Claude Code and Gemini CLI against the fake model server of
// server.mjs and keeps what each writes: the stream on stdout and the
// session file under the (throwaway) home folder. The temporary home folder
// is written as /home/user.
//
//   npm install && node gen-clis.mjs ../..
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { start } from './server.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.resolve(process.argv[2] || '../..');
const only = process.argv[3]; // "codex", "claude" or "gemini", or all when absent
const bin = (name) => path.join(here, 'node_modules', '.bin', name);

function run(cmd, args, env, cwd) {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '', stderr = '';
    p.stdout.on('data', (c) => { stdout += c; });
    p.stderr.on('data', (c) => { stderr += c; });
    const timer = setTimeout(() => p.kill('SIGKILL'), 180000);
    p.on('error', reject);
    p.on('close', (code) => { clearTimeout(timer); resolve({ code, stdout, stderr }); });
  });
}

function walk(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? walk(p) : [p];
  });
}

function scratch() {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trajeval-clis-')));
  const home = path.join(root, 'home');
  const work = path.join(home, 'project');
  fs.mkdirSync(work, { recursive: true });
  fs.writeFileSync(path.join(work, 'hello.txt'), 'hello\n');
  // Paths appear as they are and, in Claude Code's project folder names,
  // with every / written as -.
  const scrub = (s) => s.split(home).join('/home/user').split(home.replaceAll('/', '-')).join('-home-user');
  return { root, home, work, scrub };
}

function baseEnv(home) {
  return { PATH: process.env.PATH, HOME: home, USER: 'user', LANG: 'C.UTF-8', TERM: 'dumb', NO_COLOR: '1' };
}

// codex runs codex exec with prompt; tag ("" for the first run) goes into
// the names of the files written.
async function codex(prompt, tag) {
  const s = scratch();
  const srv = await start(s.work);
  const codexHome = path.join(s.home, '.codex');
  fs.mkdirSync(codexHome, { recursive: true });
  fs.writeFileSync(path.join(codexHome, 'config.toml'), [
    'model = "gpt-5-codex"',
    'model_provider = "fake"',
    '[model_providers.fake]',
    'name = "fake"',
    `base_url = "http://127.0.0.1:${srv.port}/v1"`,
    'wire_api = "responses"',
    'env_key = "FAKE_API_KEY"',
    'request_max_retries = 0',
    'stream_max_retries = 0',
    '',
  ].join('\n'));
  const env = { ...baseEnv(s.home), CODEX_HOME: codexHome, FAKE_API_KEY: 'sk-fake' };
  const r = await run(bin('codex'), ['exec', '--json', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox',
    prompt], env, s.work);
  srv.server.close();
  console.error('codex exit', r.code, r.stderr.slice(-2000));
  console.error(JSON.stringify(srv.log));
  const version = (await run(bin('codex'), ['--version'], env, s.work)).stdout.trim();
  const prefix = version.replace(/\s+/g, '-') + (tag ? `-${tag}` : '');
  fs.writeFileSync(path.join(out, 'codex', `${prefix}-exec.jsonl`), s.scrub(r.stdout));
  for (const f of walk(path.join(codexHome, 'sessions'))) {
    fs.writeFileSync(path.join(out, 'codex-session', `${prefix}-${path.basename(f)}`), s.scrub(fs.readFileSync(f, 'utf8')));
  }
  console.error(s.root);
}

// leaveOut drops from a Claude Code transcript the lines that hold Claude
// Code's own prompts, tool definitions and the messages sent again to the
// API (attachment, api-request-shape, api-request-blob; 2.1.332 writes
// about 250 kB of them for a run of five calls); they hold no call. The
// other lines are kept as written.
function leaveOut(text) {
  const drop = new Set(['attachment', 'api-request-shape', 'api-request-blob']);
  return text.split('\n').filter((line) => {
    try { return !drop.has(JSON.parse(line).type); } catch { return true; }
  }).join('\n');
}

function claudeEnv(s, srv) {
  return {
    ...baseEnv(s.home),
    ANTHROPIC_BASE_URL: `http://127.0.0.1:${srv.port}`,
    ANTHROPIC_API_KEY: 'sk-ant-fake',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
  };
}

const claudeAsk = ['-p', 'Run echo hi, read hello.txt and missing.txt, then ask a sub-agent to read hello.txt too.',
  '--output-format', 'stream-json', '--verbose', '--model', 'claude-sonnet-4-5', '--allowedTools', 'Bash,Read,Task,Agent'];

// claudeSessions writes the session transcripts Claude Code kept under
// the home folder of s, and their sub-agents' files, named name.
function claudeSessions(s, name) {
  const projects = path.join(s.home, '.claude', 'projects');
  for (const f of walk(projects)) {
    // <project>/<session>.jsonl and <project>/<session>/subagents/agent-*.jsonl
    const rel = path.relative(projects, f).split(path.sep).slice(1);
    if (!f.endsWith('.jsonl') && !f.endsWith('.meta.json')) continue;
    rel[0] = rel[0].replace(/^[0-9a-f-]+/, name);
    const dst = path.join(out, 'claude-code', ...rel);
    fs.mkdirSync(path.dirname(dst), { recursive: true });
    fs.writeFileSync(dst, s.scrub(leaveOut(fs.readFileSync(f, 'utf8'))));
  }
}

async function claude() {
  const s = scratch();
  const srv = await start(s.work);
  const env = claudeEnv(s, srv);
  const r = await run(bin('claude'), claudeAsk, env, s.work);
  srv.server.close();
  console.error('claude exit', r.code, r.stderr.slice(-2000));
  console.error(JSON.stringify(srv.log));
  const version = (await run(bin('claude'), ['--version'], env, s.work)).stdout.trim().split(' ')[0];
  const prefix = `claude-code-${version}`;
  fs.writeFileSync(path.join(out, 'claude-code', `${prefix}-stream-json.jsonl`), s.scrub(r.stdout));
  claudeSessions(s, `${prefix}-session`);
  console.error(s.root);
}

// claudeCompact runs the same prompt, then /compact and a second prompt
// in the same session (--resume): the transcript holds the compaction
// and the resumed runs. The fake server answers the second prompt as the
// first, the history before the compaction being gone.
async function claudeCompact() {
  const s = scratch();
  const srv = await start(s.work);
  const env = claudeEnv(s, srv);
  const r = await run(bin('claude'), claudeAsk, env, s.work);
  const session = JSON.parse(r.stdout.split('\n')[0]).session_id;
  const more = (prompt) => ['-p', '--resume', session, prompt, '--output-format', 'stream-json', '--verbose', '--model', 'claude-sonnet-4-5', '--allowedTools', 'Bash,Read,Task,Agent'];
  const c = await run(bin('claude'), more('/compact'), env, s.work);
  const d = await run(bin('claude'), more('Did it work?'), env, s.work);
  srv.server.close();
  console.error('claude compact exits', r.code, c.code, d.code);
  const version = (await run(bin('claude'), ['--version'], env, s.work)).stdout.trim().split(' ')[0];
  claudeSessions(s, `claude-code-${version}-compact-session`);
  console.error(s.root);
}

// gemini runs gemini -p with prompt; tag ("" for the first run) goes into
// the names of the files written. Sub-agents' files are kept under
// chats/<session id>/, as the CLI writes them.
async function gemini(prompt, tag) {
  const s = scratch();
  const srv = await start(s.work);
  // The API key is read from the settings, the base URL from the
  // environment; the project folder is trusted so that --yolo holds.
  const dot = path.join(s.home, '.gemini');
  fs.mkdirSync(dot, { recursive: true });
  fs.writeFileSync(path.join(dot, 'settings.json'), JSON.stringify({
    security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
    privacy: { usageStatisticsEnabled: false }, telemetry: { enabled: false },
  }));
  fs.writeFileSync(path.join(dot, 'trustedFolders.json'), JSON.stringify({ [s.work]: 'TRUST_FOLDER' }));
  const env = { ...baseEnv(s.home), GEMINI_API_KEY: 'fake-key', GOOGLE_GEMINI_BASE_URL: `http://127.0.0.1:${srv.port}`, GEMINI_CLI_NO_RELAUNCH: 'true' };
  const r = await run(bin('gemini'), ['-p', prompt, '--output-format', 'stream-json',
    '--yolo', '--model', 'gemini-2.5-pro'], env, s.work);
  srv.server.close();
  console.error('gemini exit', r.code, r.stderr.slice(-2000));
  console.error(JSON.stringify(srv.log));
  const version = (await run(bin('gemini'), ['--version'], env, s.work)).stdout.trim();
  const name = `gemini-cli-${version}${tag ? '-' + tag : ''}`;
  fs.writeFileSync(path.join(out, 'gemini-cli', `${name}-stream-json.jsonl`), s.scrub(r.stdout));
  for (const f of walk(path.join(dot, 'tmp'))) {
    // tmp/<project>/chats/session-<time>-<id>.jsonl, and a sub-agent's
    // tmp/<project>/chats/<session id>/<agent id>.jsonl
    const chats = path.basename(path.dirname(f)) === 'chats' ? path.dirname(f)
      : path.basename(path.dirname(path.dirname(f))) === 'chats' ? path.dirname(path.dirname(f)) : '';
    if (!chats) continue;
    // the session's file renamed, its sub-agents' folder (named by the
    // session id, which the reader looks for beside the file) kept
    const rel = path.relative(chats, f);
    const to = path.join(out, 'gemini-chat', rel.includes(path.sep) ? rel : `${name}-${rel}`);
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.writeFileSync(to, s.scrub(fs.readFileSync(f, 'utf8')));
  }
  console.error(s.root);
}

if (!only || only === 'codex') {
  await codex('Run echo hi, then show hello.txt and missing.txt.', '');
  // the server answers this prompt with a web search (run by the API) and
  // a command in one response
  await codex('Search the web for the rollout format, then write notes.txt.', 'web-search');
}
if (!only || only === 'claude') {
  await claude();
  await claudeCompact();
}
if (!only || only === 'gemini') {
  await gemini('Run echo hi, then show hello.txt and missing.txt.', '');
  // the server answers this prompt with an invoke_agent call, and the
  // sub-agent's requests (which offer complete_task) with read_file
  await gemini('Ask a sub-agent what hello.txt holds.', 'subagent');
}
