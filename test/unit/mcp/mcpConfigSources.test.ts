import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadMcpConfig } from '../../../src/mcp/mcpConfigSources';
import { expandVariables } from '../../../src/mcp/mcpServerConfig';
import type { McpServerDefinition } from '../../../src/mcp/mcpServerConfig';
import { filterMcpByTrust } from '../../../src/mcp/mcpTrust';
import { assignToolNames } from '../../../src/mcp/mcpToolNames';

let base = '';
let home = '';
let project = '';
beforeEach(() => {
  base = mkdtempSync(path.join(tmpdir(), 'hookwise-mcpcfg-'));
  home = path.join(base, 'home');
  project = path.join(base, 'proj');
  mkdirSync(home);
  mkdirSync(project);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe('expandVariables', () => {
  it('expands ${VAR} and ${VAR:-default}, and names unset variables without a default', () => {
    expect(expandVariables('${A}/${B:-fallback}/${C}', { A: 'a' })).toEqual({ value: 'a/fallback/', missing: ['C'] });
    expect(expandVariables('${B:-}x', {})).toEqual({ value: 'x', missing: [] });
  });
});

describe('loadMcpConfig', () => {
  it("reads user and local servers from ~/.claude.json and project ones from .mcp.json; a project server never takes a user server's name", async () => {
    writeFileSync(
      path.join(home, '.claude.json'),
      JSON.stringify({
        mcpServers: { shared: { command: 'user-cmd' }, mine: { type: 'http', url: 'https://u.example/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } } },
        projects: { [project]: { mcpServers: { local: { command: 'local-cmd' } } }, '/elsewhere': { mcpServers: { other: { command: 'x' } } } },
      }),
    );
    writeFileSync(path.join(project, '.mcp.json'), JSON.stringify({ mcpServers: { shared: { command: 'project-cmd', args: ['${DIR:-.}'] } } }));

    const loaded = await loadMcpConfig({ homeDir: home, projectDir: project, env: { TOKEN: 't0k' } });

    expect(loaded.problems).toEqual([
      expect.objectContaining({
        displayFile: '.mcp.json',
        jsonPath: 'mcpServers.shared',
        message: expect.stringContaining('may not reuse the name of your server "shared"'),
      }),
    ]);
    const byName = Object.fromEntries(loaded.servers.map((s) => [s.name, s]));
    expect(Object.keys(byName).sort()).toEqual(['local', 'mine', 'shared']);
    expect(byName.shared).toMatchObject({ scope: 'user', command: 'user-cmd' });
    expect(byName.local).toMatchObject({ scope: 'local' });
    expect(byName.mine).toMatchObject({ transport: 'http', headers: { Authorization: 'Bearer t0k' } });
  });

  it('reports a broken file and a bad entry by file and path, and keeps the good servers', async () => {
    writeFileSync(path.join(home, '.claude.json'), '{ not json');
    writeFileSync(path.join(project, '.mcp.json'), JSON.stringify({ mcpServers: { ok: { command: 'a' }, bad: { type: 'ws', url: 'x' } } }));

    const loaded = await loadMcpConfig({ homeDir: home, projectDir: project, env: {} });

    expect(loaded.servers.map((s) => s.name)).toEqual(['ok']);
    expect(loaded.problems).toEqual([
      expect.objectContaining({ displayFile: '~/.claude.json', message: expect.stringContaining('not valid JSON') }),
      expect.objectContaining({ displayFile: '.mcp.json', jsonPath: 'mcpServers.bad.type', message: expect.stringContaining('"stdio", "http" or "sse"') }),
    ]);
  });

  it('a changed definition gets a new hash (project approval is re-asked)', async () => {
    writeFileSync(path.join(project, '.mcp.json'), JSON.stringify({ mcpServers: { s: { command: 'a' } } }));
    const first = await loadMcpConfig({ homeDir: home, projectDir: project, env: {} });
    writeFileSync(path.join(project, '.mcp.json'), JSON.stringify({ mcpServers: { s: { command: 'a', args: ['--evil'] } } }));
    const second = await loadMcpConfig({ homeDir: home, projectDir: project, env: {} });
    expect(first.servers[0]?.hash).not.toBe(second.servers[0]?.hash);
  });
});

describe('assignToolNames', () => {
  it('normalises to the model alphabet, caps at 64 characters and resolves collisions deterministically', () => {
    const names = assignToolNames([
      { server: 'my server', tool: 'a.b' },
      { server: 'my_server', tool: 'a_b' },
      { server: 's', tool: 'x'.repeat(80) },
      { server: 's', tool: `${'x'.repeat(80)}y` },
    ]);
    expect(names[0]).toBe('mcp__my_server__a_b');
    expect(names[1]).toBe('mcp__my_server__a_b_2');
    expect(names[2]).toHaveLength(64);
    expect(names[3]).toMatch(/_2$/);
    expect(names[3]).toHaveLength(64);
    for (const n of names) expect(n).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
  });
});

describe('filterMcpByTrust', () => {
  const def = (name: string, scope: McpServerDefinition['scope'], hash = name): McpServerDefinition => ({
    name,
    transport: 'stdio',
    command: 'x',
    args: [],
    env: {},
    scope,
    displayFile: scope,
    hash,
  });

  it('holds project servers in an untrusted workspace and until their exact definition is approved; user servers always run', () => {
    const servers = [def('u', 'user'), def('p', 'project', 'h1'), def('q', 'project', 'h2')];
    expect(filterMcpByTrust(servers, { trusted: false }).held.map((h) => [h.server.name, h.why])).toEqual([
      ['p', 'untrusted'],
      ['q', 'untrusted'],
    ]);
    const approved = filterMcpByTrust(servers, { trusted: true, approved: new Set(['h1']) });
    expect(approved.runnable.map((s) => s.name)).toEqual(['u', 'p']);
    expect(approved.held).toEqual([{ server: servers[2], why: 'unapproved' }]);
  });
});
