import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { McpClient } from '../../../src/mcp/loadMcpClient';
import { loadMcpClient } from '../../../src/mcp/loadMcpClient';
import type { McpServerDefinition } from '../../../src/mcp/mcpServerConfig';
import { McpServerManager } from '../../../src/mcp/mcpServerManager';

const SERVER = path.resolve(__dirname, '../../fixtures/mcp/server.mjs');

function stdioServer(name: string): McpServerDefinition {
  return { name, transport: 'stdio', command: process.execPath, args: [SERVER], env: {}, scope: 'user', displayFile: '.mcp.json', hash: `h-${name}` };
}

let manager: McpServerManager | undefined;
afterEach(async () => {
  await manager?.dispose();
  manager = undefined;
});

describe('McpServerManager loads the MCP client only for configured servers', () => {
  it('with no server it never loads the client', async () => {
    let loads = 0;
    manager = new McpServerManager({ cwd: process.cwd(), env: process.env, loadClient: () => (loads++, loadMcpClient()) });
    await manager.setServers([]);
    await manager.ensureStarted(AbortSignal.timeout(5_000));
    expect(manager.tools()).toEqual([]);
    expect(loads).toBe(0);
  });

  it('a client that cannot be loaded leaves each server failed with the reason; calls are error results, not throws', async () => {
    manager = new McpServerManager({
      cwd: process.cwd(),
      env: process.env,
      loadClient: () => Promise.reject(new Error('cannot load the MCP client (no mcp.js)')),
    });
    await manager.setServers([stdioServer('fixture')]);
    await manager.ensureStarted(AbortSignal.timeout(5_000));

    expect(manager.statuses()).toEqual([expect.objectContaining({ name: 'fixture', state: 'failed', error: 'cannot load the MCP client (no mcp.js)' })]);
    expect(manager.tools()).toEqual([]);
    const call = await manager.callTool('fixture', 'echo', { text: 'hi' }, AbortSignal.timeout(5_000));
    expect(call).toMatchObject({ isError: true, content: expect.stringContaining('cannot load the MCP client') });
    expect(manager.pids()).toEqual([]);
  });

  it('the same servers set again after the client loads are real connections, no longer failed', async () => {
    let fail = true;
    manager = new McpServerManager({
      cwd: process.cwd(),
      env: process.env,
      loadClient: () => (fail ? Promise.reject(new Error('cannot load the MCP client (no mcp.js)')) : loadMcpClient()),
    });
    await manager.setServers([stdioServer('fixture')]);
    fail = false;
    await manager.setServers([stdioServer('fixture')]);
    await manager.ensureStarted(AbortSignal.timeout(15_000));

    expect(manager.statuses()).toEqual([expect.objectContaining({ name: 'fixture', state: 'ready' })]);
    expect(manager.tools().map((t) => t.name)).toContain('mcp__fixture__echo');
  });

  it('a prompt sent while the client still loads waits for the configured server: its tools are there for the first model call', async () => {
    let release: (client: McpClient) => void = () => undefined;
    const slow = new Promise<McpClient>((resolve) => (release = resolve));
    manager = new McpServerManager({ cwd: process.cwd(), env: process.env, loadClient: () => slow });
    const applied = manager.setServers([stdioServer('fixture')]);
    expect(manager.hasServers).toBe(true);
    const ready = manager.ensureStarted(AbortSignal.timeout(15_000));
    release(await loadMcpClient());
    await Promise.all([applied, ready]);

    expect(manager.statuses()).toEqual([expect.objectContaining({ name: 'fixture', state: 'ready' })]);
    expect(manager.tools().map((t) => t.name)).toContain('mcp__fixture__echo');
  });

  it('a second prompt while the server is starting waits for it too', async () => {
    manager = new McpServerManager({ cwd: process.cwd(), env: process.env });
    await manager.setServers([stdioServer('fixture')]);
    const m = manager;
    const first = m.ensureStarted(AbortSignal.timeout(15_000));
    for (let i = 0; i < 1000 && m.statuses()[0]?.state !== 'starting'; i++) await new Promise((r) => setTimeout(r, 2));
    expect(m.statuses()[0]?.state).toBe('starting');
    await m.ensureStarted(AbortSignal.timeout(15_000));

    expect(m.tools().map((t) => t.name)).toContain('mcp__fixture__echo');
    await first;
  });

  it('a later configuration (no servers) wins over an earlier one still waiting for the client', async () => {
    let release: (client: McpClient) => void = () => undefined;
    const slow = new Promise<McpClient>((resolve) => (release = resolve));
    manager = new McpServerManager({ cwd: process.cwd(), env: process.env, loadClient: () => slow });
    const first = manager.setServers([stdioServer('old')]);
    const second = manager.setServers([]);
    release(await loadMcpClient());
    await Promise.all([first, second]);

    expect(manager.statuses()).toEqual([]);
    expect(manager.hasServers).toBe(false);
  });
});
