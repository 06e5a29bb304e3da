import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ToolContext } from '../../../src/agent/tools/tool';
import { McpServerManager } from '../../../src/mcp/mcpServerManager';
import { elicitationForm } from '../../../src/mcp/mcpElicitation';
import type { McpServerDefinition } from '../../../src/mcp/mcpServerConfig';
import { validateToolInput } from '../../../src/agent/tools/validateToolInput';
import { survivors } from '../../support/processProbe';

const SERVER = path.resolve(__dirname, '../../fixtures/mcp/server.mjs');

function stdioServer(name = 'fixture', env: Record<string, string> = {}): Extract<McpServerDefinition, { transport: 'stdio' }> {
  return { name, transport: 'stdio', command: process.execPath, args: [SERVER], env, scope: 'user', displayFile: 'test', hash: `h-${name}` };
}

let dir = '';
let logFile = '';
let manager: McpServerManager | undefined;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'hookwise-mcp-'));
  logFile = path.join(dir, 'log.jsonl');
});
afterEach(async () => {
  await manager?.dispose();
  manager = undefined;
  rmSync(dir, { recursive: true, force: true });
});

function log(): Record<string, unknown>[] {
  try {
    return readFileSync(logFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  } catch {
    return [];
  }
}

async function started(env: Record<string, string> = {}): Promise<McpServerManager> {
  manager = new McpServerManager({ cwd: dir, env: { ...process.env, MCP_FIXTURE_LOG: logFile, ...env } });
  await manager.setServers([stdioServer()]);
  await manager.ensureStarted(new AbortController().signal);
  return manager;
}

const ctx = (signal = new AbortController().signal): ToolContext => ({ signal }) as unknown as ToolContext;

function tool(m: McpServerManager, name: string) {
  const found = m.tools().find((t) => t.name === name);
  if (!found)
    throw new Error(
      `no tool ${name} in ${m
        .tools()
        .map((t) => t.name)
        .join(', ')}`,
    );
  return found;
}

describe('McpServerManager with the real fixture server (stdio)', () => {
  it('offers each tool as mcp__server__tool, normalises odd names and disables only the tool with a broken schema', async () => {
    const m = await started();
    const names = m.tools().map((t) => t.name);
    expect(names).toContain('mcp__fixture__echo');
    expect(names).toContain('mcp__fixture__name_with_spaces_');
    expect(names).not.toContain('mcp__fixture__broken');
    expect(m.toolProblems()).toEqual([expect.objectContaining({ server: 'fixture', tool: 'broken', message: expect.stringContaining('input schema') })]);
    expect(m.statuses()).toEqual([expect.objectContaining({ name: 'fixture', state: 'ready', toolCount: 12 })]);
    expect(tool(m, 'mcp__fixture__echo').needsApproval).toBe(true);
  });

  it('calls a tool with its arguments and validates them against the tool schema first', async () => {
    const m = await started();
    const echo = tool(m, 'mcp__fixture__echo');
    expect(await echo.execute({ text: 'hi' }, ctx())).toMatchObject({ content: 'echo: hi', isError: false });
    expect(log()).toContainEqual(expect.objectContaining({ event: 'call', tool: 'echo', arguments: { text: 'hi' } }));
    const bad = validateToolInput(echo, { text: 5 });
    expect(bad).toEqual({ ok: false, error: expect.stringContaining('mcp__fixture__echo') });
  });

  it('maps images, resource links and structuredContent into what the model reads', async () => {
    const m = await started();
    const result = await tool(m, 'mcp__fixture__media').execute({}, ctx());
    expect(result.content).toContain('[image: image/png, 16 bytes]');
    expect(result.content).toContain('report.txt file:///tmp/report.txt');
    expect(result.content).toContain('{"temperature":21.5,"unit":"C"}');
    expect(result.isError).toBe(false);
  });

  it('cuts a huge result with a marker and reports isError results as failures', async () => {
    const m = await started();
    const big = await tool(m, 'mcp__fixture__big').execute({ n: 300_000 }, ctx());
    expect(big.content.length).toBeLessThan(101_000);
    expect(big.content).toMatch(/characters truncated/);
    expect(await tool(m, 'mcp__fixture__fail').execute({}, ctx())).toMatchObject({ isError: true, content: 'the fixture failed on purpose' });
  });

  it('Stop sends MCP cancellation: the server sees the call cancelled', async () => {
    const m = await started();
    const stop = new AbortController();
    const call = tool(m, 'mcp__fixture__slow').execute({ ms: 20_000 }, ctx(stop.signal));
    await waitFor(() => log().some((e) => e.event === 'call' && e.tool === 'slow'));
    stop.abort();
    expect(await call).toMatchObject({ isError: true, content: expect.stringContaining('cancelled') });
    await waitFor(() => log().some((e) => e.event === 'cancelled'));
  });

  it('a crashed server is started again on its next use', async () => {
    const m = await started();
    const firstPid = m.pids()[0];
    const crash = await tool(m, 'mcp__fixture__crash').execute({}, ctx());
    expect(crash.isError).toBe(true);
    await waitFor(() => m.statuses()[0]?.state === 'crashed');
    expect(await tool(m, 'mcp__fixture__echo').execute({ text: 'again' }, ctx())).toMatchObject({ content: 'echo: again', isError: false });
    expect(m.pids()[0]).not.toBe(firstPid);
    expect(log().filter((e) => e.event === 'start')).toHaveLength(2);
  });

  it('tools/list_changed refreshes the tool set', async () => {
    const m = await started();
    expect(m.tools().map((t) => t.name)).not.toContain('mcp__fixture__late');
    await tool(m, 'mcp__fixture__add_tool').execute({}, ctx());
    await waitFor(() => m.tools().some((t) => t.name === 'mcp__fixture__late'));
    expect(await tool(m, 'mcp__fixture__late').execute({}, ctx())).toMatchObject({ content: 'the late tool ran' });
  });

  it('dispose kills the server and everything it started (its process group)', async () => {
    const m = await started({ MCP_FIXTURE_CHILD: '1' });
    const serverPid = m.pids()[0] as number;
    await waitFor(() => log().some((e) => e.event === 'child'));
    const childPid = log().find((e) => e.event === 'child')?.childPid as number;
    await m.dispose();
    expect(await survivors([serverPid, childPid])).toEqual([]);
  });

  it('elicitation/create reaches the elicitation handler with the form, and its answer goes back to the server', async () => {
    const asked: unknown[] = [];
    manager = new McpServerManager({
      cwd: dir,
      env: { ...process.env, MCP_FIXTURE_LOG: logFile },
      elicit: async (server, params) => {
        asked.push({ server, form: elicitationForm(server, params) });
        return { action: 'accept', content: { name: 'Ada' } };
      },
    });
    await manager.setServers([stdioServer()]);
    await manager.ensureStarted(new AbortController().signal);
    expect(await tool(manager, 'mcp__fixture__ask_user').execute({}, ctx())).toMatchObject({ content: 'hello Ada', isError: false });
    expect(asked).toEqual([
      {
        server: 'fixture',
        form: { ok: true, server: 'fixture', message: 'What is your name?', fields: [{ key: 'name', title: 'Name', type: 'string', required: true }] },
      },
    ]);
  });

  it('a server that cannot start is failed with its error and offers no tools; the others still work', async () => {
    manager = new McpServerManager({ cwd: dir, env: process.env });
    await manager.setServers([
      { ...stdioServer('broken'), command: path.join(dir, 'no-such-server') },
      { ...stdioServer('good'), env: { MCP_FIXTURE_LOG: logFile } },
    ]);
    await manager.ensureStarted(new AbortController().signal);
    const statuses = manager.statuses();
    expect(statuses.find((s) => s.name === 'broken')).toMatchObject({ state: 'failed', error: expect.stringContaining('could not start') });
    expect(statuses.find((s) => s.name === 'good')).toMatchObject({ state: 'ready' });
    expect(manager.tools().some((t) => t.name.startsWith('mcp__broken__'))).toBe(false);
  });
});

describe('McpServerManager over Streamable HTTP', () => {
  it('connects to the fixture over HTTP with the configured headers and calls a tool', async () => {
    const portFile = path.join(dir, 'port');
    const proc = spawn(process.execPath, [SERVER, '--http', portFile], { env: { ...process.env, MCP_FIXTURE_LOG: logFile }, stdio: 'ignore' });
    try {
      await waitFor(() => existsSync(portFile) && readFileSync(portFile, 'utf8') !== '');
      const url = `http://127.0.0.1:${readFileSync(portFile, 'utf8')}/mcp`;
      manager = new McpServerManager({ cwd: dir, env: process.env });
      await manager.setServers([
        { name: 'web', transport: 'http', url, headers: { Authorization: 'Bearer t0k' }, scope: 'user', displayFile: 'test', hash: 'w' },
      ]);
      await manager.ensureStarted(new AbortController().signal);
      expect(manager.statuses()[0]).toMatchObject({ state: 'ready', transport: 'http' });
      expect(await tool(manager, 'mcp__web__echo').execute({ text: 'over http' }, ctx())).toMatchObject({ content: 'echo: over http' });
      expect(
        log()
          .filter((e) => e.event === 'http')
          .every((e) => e.auth === 'Bearer t0k'),
      ).toBe(true);
    } finally {
      proc.kill();
    }
  });
});

async function waitFor(check: () => boolean, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
