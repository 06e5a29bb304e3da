#!/usr/bin/env node
// Records what a real Claude Code sends on stdin to command hooks, so tests can
// compare Hookwise's hook inputs against real samples.
//
// Usage:
//   node scripts/recordClaudeCodeSamples.mjs --claude /path/to/claude [--only a,b] [--out DIR] [--keep]
//
// It starts a local server speaking the Anthropic Messages API (streaming SSE),
// replays a scripted model per session, runs `claude -p` in a temporary project
// whose .claude/settings.json registers a recording hook for every hook event,
// and writes the scrubbed hook inputs to <out>/<session>.jsonl (one hook call a
// line). Absolute temporary paths, session ids, agent ids and timestamps become
// placeholders; every key and the type of every value are kept.
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync, existsSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { sessions } from './claudeCodeSessions.mjs';
import { createMessagesServer } from './messagesStubServer.mjs';

/** Every hook event name Claude Code 2.1.328 knows (its own list, read from the binary). */
export const hookEvents = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PostToolBatch',
  'Notification',
  'UserPromptSubmit',
  'UserPromptExpansion',
  'SessionStart',
  'SessionEnd',
  'Stop',
  'StopFailure',
  'SubagentStart',
  'SubagentStop',
  'PreCompact',
  'PostCompact',
  'PreModelSwitch',
  'PostModelSwitch',
  'PermissionRequest',
  'PermissionDenied',
  'Setup',
  'TeammateIdle',
  'TaskCreated',
  'TaskCompleted',
  'Elicitation',
  'ElicitationResult',
  'ConfigChange',
  'WorktreeCreate',
  'WorktreeRemove',
  'InstructionsLoaded',
  'CwdChanged',
  'FileChanged',
  'DirectoryAdded',
  'MessageDisplay',
];

const { values: args } = parseArgs({
  options: {
    claude: { type: 'string' },
    only: { type: 'string' },
    out: { type: 'string', default: 'test/fixtures/claudeCodeSamples' },
    model: { type: 'string', default: 'claude-sonnet-4-5' },
    keep: { type: 'boolean', default: false },
    timeout: { type: 'string', default: '180' },
  },
});
if (!args.claude) {
  console.error('usage: node scripts/recordClaudeCodeSamples.mjs --claude /path/to/claude [--only a,b] [--out DIR]');
  process.exit(64);
}

// The hook every event runs: append {event, stdin} to the log; a few events are told to fail.
const hookSource = `
import { appendFileSync } from 'node:fs';
const [log, event, failEvents] = process.argv.slice(2);
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (c) => (input += c));
process.stdin.on('end', () => {
  let parsed;
  try { parsed = JSON.parse(input); } catch { parsed = { unparsable: input }; }
  appendFileSync(log, JSON.stringify(parsed) + '\\n');
  if ((failEvents || '').split(',').includes(event)) {
    process.stderr.write('blocked by the recording hook for ' + event);
    process.exit(2);
  }
});
`;

// ---------- running one session ----------

function settingsFor(hookPath, logPath, failEvents) {
  const command = `node ${JSON.stringify(hookPath)} ${JSON.stringify(logPath)}`;
  const hooks = {};
  for (const event of hookEvents) {
    hooks[event] = [{ matcher: '*', hooks: [{ type: 'command', command: `${command} ${event} ${failEvents.join(',') || '-'}`, timeout: 30 }] }];
  }
  return { hooks };
}

function runClaude(session, dirs, port) {
  const env = {
    PATH: process.env.PATH,
    HOME: dirs.home,
    TMPDIR: dirs.tmp,
    LANG: 'C.UTF-8',
    ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}`,
    ANTHROPIC_API_KEY: 'test',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    // Claude Code refuses bypassPermissions as root outside a sandbox it recognises.
    IS_SANDBOX: '1',
    ...(session.env ?? {}),
  };
  const argv = [
    '-p',
    session.prompt,
    '--output-format',
    'stream-json',
    '--verbose',
    '--model',
    session.model ?? args.model,
    '--permission-mode',
    'bypassPermissions',
    ...(session.args ?? []),
    ...(process.env.CCREC_DEBUG ? ['--debug-file', join(tmpdir(), 'ccrec-debug', `${session.name}.debug.log`)] : []),
  ];
  return new Promise((resolvePromise) => {
    const child = spawn(args.claude, argv, { cwd: dirs.project, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), Number(args.timeout) * 1000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code, signal, stdout, stderr });
    });
  });
}

const uuidRe = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const isoRe = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g;

/**
 * Replaces machine- and run-specific strings in one session's hook inputs by placeholders,
 * keeping every key and the type of every value. The first uuid seen is the session id.
 */
export function scrubSession(lines, dirs) {
  const ids = new Map();
  const agentIds = new Map();
  for (const line of lines) {
    if (typeof line.agent_id === 'string' && !agentIds.has(line.agent_id)) {
      agentIds.set(line.agent_id, agentIds.size === 0 ? '<agent_id>' : `<agent_id_${agentIds.size + 1}>`);
    }
  }
  const swap = (s) => {
    let out = s;
    for (const [path, name] of [
      [dirs.project, '<cwd>'],
      [dirs.home, '<home>'],
      [dirs.tmp, '<tmp>'],
      [dirs.root, '<root>'],
    ]) {
      out = out.split(path).join(name);
    }
    for (const [id, name] of agentIds) out = out.split(id).join(name);
    out = out.replace(/-tmp-ccrec-[A-Za-z0-9]+-project/g, '<project_slug>');
    out = out.replace(isoRe, '<timestamp>');
    return out.replace(uuidRe, (id) => {
      if (!ids.has(id)) ids.set(id, ids.size === 0 ? '<session_id>' : `<uuid_${ids.size}>`);
      return ids.get(id);
    });
  };
  const walk = (v) => {
    if (typeof v === 'string') return swap(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return lines.map(walk);
}

async function recordSession(session, port) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'ccrec-')));
  const dirs = { root, home: join(root, 'home'), tmp: join(root, 'tmp'), project: join(root, 'project') };
  for (const d of [dirs.home, dirs.tmp, join(dirs.project, '.claude')]) mkdirSync(d, { recursive: true });
  const hookPath = join(root, 'recordHook.mjs');
  const logPath = join(root, 'hooks.jsonl');
  writeFileSync(hookPath, hookSource);
  writeFileSync(join(dirs.project, '.claude', 'settings.json'), JSON.stringify(settingsFor(hookPath, logPath, session.failEvents ?? []), null, 2));
  for (const [name, content] of Object.entries(session.files ?? {})) writeFileSync(join(dirs.project, name), content);
  state.requestLog = [];
  state.script = { turns: session.turns, next: 0, subagent: session.subagent, subNext: 0, cwd: dirs.project };
  const result = await runClaude(session, dirs, port);
  const lines = existsSync(logPath)
    ? readFileSync(logPath, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
    : [];
  const scrubbed = scrubSession(lines, dirs);
  const outDir = resolve(args.out);
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, `${session.name}.jsonl`), scrubbed.map((l) => JSON.stringify(l)).join('\n') + '\n');
  const debugDir = join(tmpdir(), 'ccrec-debug');
  mkdirSync(debugDir, { recursive: true });
  writeFileSync(join(debugDir, `${session.name}.requests.json`), JSON.stringify(state.requestLog, null, 2));
  writeFileSync(join(debugDir, `${session.name}.stdout.jsonl`), result.stdout);
  writeFileSync(join(debugDir, `${session.name}.stderr.txt`), result.stderr);
  console.log(
    `${session.name}: exit ${result.code}${result.signal ? ` (${result.signal})` : ''}, ${lines.length} hook calls [${lines.map((l) => l.hook_event_name).join(', ')}], ${state.requestLog.length} requests (turns used ${state.script.next}/${session.turns.length}); debug in ${debugDir}`,
  );
  if (!args.keep) rmSync(root, { recursive: true, force: true });
  else console.log(`  kept ${root}`);
}

const state = { script: null, requestLog: [] };
const server = createMessagesServer(state);
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const { port } = server.address();
const only = args.only ? new Set(args.only.split(',')) : null;
try {
  for (const session of sessions) {
    if (only && !only.has(session.name)) continue;
    await recordSession(session, port);
  }
} finally {
  server.close();
}
