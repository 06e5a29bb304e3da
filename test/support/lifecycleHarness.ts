import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { OpenAiTestServer, OpenAiTestServerOptions, RecordedRequest } from './openAiTestServer';
import { startOpenAiTestServer } from './openAiTestServer';
import type { CliRun, CliWorkspace } from './cliHarness';
import { buildCli, makeCliWorkspace, runCliProcess, startCliProcess } from './cliHarness';

/** A hook-input / transcript line as parsed JSON. */
export type Json = Record<string, unknown>;

/** What a lifecycle test file gets: the CLI built once, a fresh workspace and server per test. */
export interface LifecycleEnv {
  readonly cli: string;
  readonly w: CliWorkspace;
  /** Starts the local OpenAI-compatible server for this test (closed after it). */
  serve(script: OpenAiTestServerOptions['script']): Promise<OpenAiTestServer>;
  /**
   * Writes a node hook script into the workspace (`hooks/<name>.cjs`) and returns the
   * settings.json command that runs it. The script gets `input` (its parsed stdin) and `fs`.
   */
  hook(name: string, body: string): Promise<string>;
  /** `hookwise -p PROMPT --model test-model --base-url URL --output-format FORMAT --max-steps 8 ...extra`. */
  run(server: OpenAiTestServer, prompt: string, extra?: readonly string[], format?: 'json' | 'stream-json'): Promise<CliRun>;
  start(server: OpenAiTestServer, prompt: string, extra?: readonly string[]): ReturnType<typeof startCliProcess>;
  /** Kills this process id after the test (a hook orphaned by a SIGKILLed CLI). */
  killLater(pid: number): void;
}

/**
 * Registers the vitest hooks of a lifecycle test file and returns a live view of its
 * environment (read `env.w` inside a test, not at module load).
 */
export function useLifecycleEnv(): LifecycleEnv {
  let buildDir = '';
  let cli = '';
  let w: CliWorkspace | undefined;
  let servers: OpenAiTestServer[] = [];
  let pids: number[] = [];
  beforeAll(async () => {
    buildDir = await mkdtemp(path.join(os.tmpdir(), 'hookwise-lifecycle-build-'));
    cli = await buildCli(buildDir);
  });
  afterAll(async () => {
    await rm(buildDir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    w = await makeCliWorkspace();
  });
  afterEach(async () => {
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    pids = [];
    await Promise.all(servers.map((s) => s.close()));
    servers = [];
    await w?.cleanup();
    w = undefined;
  });
  const ws = (): CliWorkspace => {
    if (!w) throw new Error('no workspace outside a test');
    return w;
  };
  const args = (s: OpenAiTestServer, prompt: string, extra: readonly string[], format: string): string[] => [
    '-p',
    prompt,
    '--model',
    'test-model',
    '--base-url',
    s.url,
    '--output-format',
    format,
    '--max-steps',
    '8',
    ...extra,
  ];
  return {
    get cli() {
      return cli;
    },
    get w() {
      return ws();
    },
    async serve(script) {
      const server = await startOpenAiTestServer({ script });
      servers.push(server);
      return server;
    },
    hook: (name, body) => writeHookScript(ws(), name, body),
    run: (s, prompt, extra = [], format = 'json') => runCliProcess(cli, ws(), args(s, prompt, extra, format)),
    start: (s, prompt, extra = []) => startCliProcess(cli, ws(), args(s, prompt, extra, 'json')),
    killLater: (pid) => {
      pids.push(pid);
    },
  };
}

/**
 * Writes a node hook script into the workspace (`hooks/<name>.cjs`) and returns the
 * settings.json command that runs it. The script gets `input` (its parsed stdin) and `fs`.
 */
export async function writeHookScript(w: CliWorkspace, name: string, body: string): Promise<string> {
  const file = await w.write(`hooks/${name}.cjs`, `const fs = require('node:fs');\nconst input = JSON.parse(fs.readFileSync(0, 'utf8'));\n${body}\n`);
  return [process.execPath, file].map((a) => JSON.stringify(a)).join(' ');
}

/** A hook body that appends its stdin JSON as one line to `file` (absolute). */
export function recordTo(file: string): string {
  return `fs.appendFileSync(${JSON.stringify(file)}, JSON.stringify(input) + '\\n');`;
}

/** JSON lines of a file (a recording hook's, or a transcript). */
export function jsonLinesOf(file: string): Json[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Json);
}

/** The system prompt of a recorded chat request. */
export function systemPromptOf(request: RecordedRequest): string {
  const first = request.body.messages?.[0];
  return first?.role === 'system' ? String(first.content) : '';
}

/** The last user message of a recorded chat request (a subagent's task, or the prompt). */
export function lastUserText(request: RecordedRequest): string {
  const users = (request.body.messages ?? []).filter((m) => m.role === 'user');
  return String(users[users.length - 1]?.content ?? '');
}

/** The `tool` messages of a recorded request. */
export function toolMessagesOf(request: RecordedRequest | undefined): { tool_call_id: string; content: string }[] {
  return (request?.body.messages ?? []).filter((m) => m.role === 'tool').map((m) => ({ tool_call_id: String(m.tool_call_id), content: String(m.content) }));
}

/** True when a request comes from a subagent (its system prompt is a subagent's, not the main agent's). */
export function isMainAgentRequest(request: RecordedRequest): boolean {
  return systemPromptOf(request).startsWith('You are Hookwise, a coding agent');
}
