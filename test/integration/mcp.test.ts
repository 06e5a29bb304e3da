/**
 * MCP in the real extension host: the MCP Servers view and its commands are there, and a
 * server from the user's `hookwise.mcp.servers` (the SDK-built fixture) reaches the runtime,
 * starts, and offers its tools as `mcp__<server>__<tool>`.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';

const EXTENSION_ID = 'hookwise.hookwise';

interface McpApi {
  readonly controller: {
    readonly runtime: {
      readonly mcp: {
        statuses(): { name: string; state: string; toolCount: number; error?: string }[];
        tools(): readonly { name: string }[];
        ensureStarted(signal: AbortSignal): Promise<void>;
      };
    };
  };
}

async function until(check: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

suite('MCP servers', () => {
  test('registers the MCP Servers view and its commands', async () => {
    await vscode.extensions.getExtension(EXTENSION_ID)!.activate();
    const all = await vscode.commands.getCommands(true);
    for (const id of [
      'hookwise.mcpServers.focus',
      'hookwise.mcp.addServer',
      'hookwise.mcp.reviewServers',
      'hookwise.mcp.restartServer',
      'hookwise.mcp.showServerTools',
    ])
      assert.ok(all.includes(id), `${id} is not registered`);
  });

  test('a user-level hookwise.mcp.servers entry starts and offers its tools as mcp__fixture__*', async function () {
    this.timeout(60_000);
    const ext = vscode.extensions.getExtension<McpApi>(EXTENSION_ID)!;
    const api = await ext.activate();
    const server = path.join(ext.extensionPath, 'test', 'fixtures', 'mcp', 'server.mjs');
    const config = vscode.workspace.getConfiguration('hookwise.mcp');
    await config.update('servers', { fixture: { command: process.execPath, args: [server] } }, vscode.ConfigurationTarget.Global);
    try {
      const mcp = api.controller.runtime.mcp;
      await until(() => mcp.statuses().some((s) => s.name === 'fixture'));
      await mcp.ensureStarted(AbortSignal.timeout(30_000));
      const status = mcp.statuses().find((s) => s.name === 'fixture');
      assert.equal(status?.state, 'ready', `fixture is ${status?.state}: ${status?.error ?? ''}`);
      assert.ok(
        mcp.tools().some((t) => t.name === 'mcp__fixture__echo'),
        `tools: ${mcp
          .tools()
          .map((t) => t.name)
          .join(', ')}`,
      );
    } finally {
      await config.update('servers', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
