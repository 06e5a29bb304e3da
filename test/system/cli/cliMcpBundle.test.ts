import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textReply } from '../../support/openAiTestServer';
import { parseJsonResult, runCliProcess } from '../../support/cliHarness';
import { useCliSuite } from '../../support/cliSuite';

const suite = useCliSuite();
const SERVER = path.resolve(__dirname, '../../fixtures/mcp/server.mjs');

// A copy of the built CLI whose mcp.js records that it was loaded and then fails, as a missing
// or broken MCP bundle would.
let dir = '';
let cli = '';
let marker = '';
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'hookwise-cli-mcpjs-'));
  cpSync(path.dirname(suite.cli), dir, { recursive: true });
  cli = path.join(dir, path.basename(suite.cli));
  marker = path.join(dir, 'mcp-loaded');
  writeFileSync(path.join(dir, 'mcp.js'), `require('fs').writeFileSync(${JSON.stringify(marker)}, 'yes');\nthrow new Error('broken MCP bundle');\n`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const args = (url: string) => ['-p', 'hello', '--model', 'test-model', '--base-url', url, '--output-format', 'json', '--max-steps', '3'];

describe('hookwise -p loads the MCP bundle (mcp.js) only when a server is configured', () => {
  it('a run without MCP servers never loads mcp.js', async () => {
    const s = await suite.serve([textReply('ok')]);

    const out = await runCliProcess(cli, suite.w, args(s.url));

    expect(out.code).toBe(0);
    expect(parseJsonResult(out).result).toBe('ok');
    expect(existsSync(marker)).toBe(false);
  });

  it('with a server in .mcp.json it loads mcp.js; when that fails the server is reported failed and the agent still runs', async () => {
    await suite.w.write('.mcp.json', JSON.stringify({ mcpServers: { fixture: { command: process.execPath, args: [SERVER] } } }));
    const s = await suite.serve([textReply('ok')]);

    const out = await runCliProcess(cli, suite.w, args(s.url));

    expect(existsSync(marker)).toBe(true);
    expect(out.code).toBe(0);
    expect(parseJsonResult(out).result).toBe('ok');
    expect(out.stderr).toContain('MCP server "fixture" (.mcp.json) cannot load the MCP client (Error: broken MCP bundle)');
    const offered = (s.requests[0]?.body.tools ?? []).map((t) => (t as { function: { name: string } }).function.name);
    expect(offered.filter((n) => n.startsWith('mcp__'))).toEqual([]);
  });
});
