/**
 * In the real extension host: the approval review lists every
 * project hook being approved (no cut list) with each field that can move data — http headers
 * and the environment variables they expand, allowedEnvVars — and the MCP approval shows
 * server headers and env as written, pins the server's name (a rename asks again) and the
 * script it runs (an edit asks again), and refuses a workspace server named like a user's.
 */
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { HookwiseRuntime } from '../../src/runtime/hookwiseRuntime';
import { PlaygroundModelClient } from '../../src/model/playgroundModelClient';
import type { ApprovalRequest } from '../../src/vscode/config/projectHookTrust';
import { McpService, type McpApprovalRequest } from '../../src/vscode/mcp/mcpService';
import { MemoryMemento } from '../support/memoryMemento';
import { createHarness, workspaceRoot, type ServiceHarness } from './configSupport';

async function until(check: () => boolean, what: string, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const HOOKS = 40;

suite('Approval review (every item, every field)', () => {
  let harness: ServiceHarness | undefined;
  let localFile = '';
  let savedLocal: string | undefined;

  teardown(async () => {
    harness?.dispose();
    harness = undefined;
    if (localFile !== '') {
      if (savedLocal !== undefined) writeFileSync(localFile, savedLocal);
      else rmSync(localFile, { force: true });
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test(`the review of ${HOOKS} new project hooks lists every one, with http headers, the env vars they send and allowedEnvVars`, async function () {
    this.timeout(60_000);
    localFile = path.join(workspaceRoot(), '.claude', 'settings.local.json');
    savedLocal = existsSync(localFile) ? readFileSync(localFile, 'utf8') : undefined;
    const commands = Array.from({ length: HOOKS - 2 }, (_, i) => ({ type: 'command', command: `echo review-hook-${i + 1}` }));
    const http = [
      {
        type: 'http',
        url: 'https://hooks.example/review-a',
        headers: { Authorization: 'Bearer $REVIEW_TOKEN', 'X-Other': '${OTHER_SECRET}' },
        allowedEnvVars: ['REVIEW_TOKEN'],
      },
      { type: 'http', url: 'https://hooks.example/review-b', headers: { 'X-Plain': 'static' } },
    ];
    writeFileSync(localFile, JSON.stringify({ hooks: { PostToolUse: [{ matcher: 'Write', hooks: [...commands, ...http] }] } }));

    harness = createHarness({ trusted: true, approve: () => 'cancel' });
    const h = harness;
    await until(() => h.approvalRequests.some((r) => r.message.includes('new or changed')), 'the approval request');
    const request = h.approvalRequests.find((r) => r.message.includes('new or changed')) as ApprovalRequest;
    const pending = Number(/allow (\d+) new/.exec(request.message)?.[1]);
    assert.ok(pending >= HOOKS, `asked about ${pending} hooks`);
    assert.equal(request.complete, false, 'the modal cannot list 40 hooks, so it must not offer Allow before the review');
    assert.match(request.detail, new RegExp(`and ${pending - 15} more not listed here`));
    assert.doesNotMatch(request.detail, /listed in the Hookwise log/);

    const document = await request.openReview();
    assert.equal(document.uri.scheme, 'hookwise-hook-review');
    assert.ok(
      vscode.window.visibleTextEditors.some((e) => e.document.uri.toString() === document.uri.toString()),
      'the review is shown in an editor',
    );
    const text = document.getText();
    for (let i = 1; i <= HOOKS - 2; i++) assert.ok(text.includes(`command: echo review-hook-${i}\n`), `hook ${i} is missing from the review`);
    assert.equal((text.match(/^## \d+\. /gm) ?? []).length, pending, 'one section per hook being approved');
    assert.ok(text.includes('url: https://hooks.example/review-a'));
    assert.ok(text.includes('header Authorization: Bearer $REVIEW_TOKEN — sends $REVIEW_TOKEN'), text);
    assert.ok(text.includes('header X-Other: ${OTHER_SECRET} — sends $OTHER_SECRET (not in allowedEnvVars: sent empty)'));
    assert.ok(text.includes('allowedEnvVars: REVIEW_TOKEN'));
    assert.ok(text.includes('url: https://hooks.example/review-b'));
    assert.ok(text.includes('header X-Plain: static'));
  });

  test('MCP approval shows headers and env as written with their variables, and asks again after a rename or a script edit; a user name cannot be taken', async function () {
    this.timeout(60_000);
    const dir = mkdtempSync(path.join(workspaceRoot(), 'mcp-review-'));
    const home = mkdtempSync(path.join(os.tmpdir(), 'hookwise-mcp-home-'));
    const log = vscode.window.createOutputChannel('Hookwise MCP review test', { log: true });
    const grant = new vscode.EventEmitter<void>();
    const runtime = new HookwiseRuntime({
      projectDir: dir,
      homeDir: home,
      model: new PlaygroundModelClient({ turns: [] }),
      transcriptDir: path.join(home, 't'),
    });
    const requests: McpApprovalRequest[] = [];
    const writeServers = (name: string): void =>
      writeFileSync(
        path.join(dir, '.mcp.json'),
        JSON.stringify({
          mcpServers: {
            remote: { type: 'http', url: 'https://mcp.example/mcp', headers: { Authorization: 'Bearer ${MCP_REVIEW_TOKEN:-}' } },
            [name]: { command: 'node', args: ['server'], env: { API_KEY: '${MCP_REVIEW_KEY:-}' } },
          },
        }),
      );
    writeFileSync(path.join(dir, 'server'), '// v1\n');
    writeServers('tools');
    const service = new McpService({
      runtime,
      log,
      workspaceState: new MemoryMemento(),
      projectDir: dir,
      homeDir: home,
      trust: { isTrusted: true, onDidGrantWorkspaceTrust: grant.event },
      prompt: async (request) => {
        requests.push(request);
        return true;
      },
    });
    try {
      await service.reload();
      await until(() => requests.length === 1 && service.heldServers.length === 0, 'the first approval');
      const first = requests[0]!;
      assert.ok(first.detail.includes('header Authorization: Bearer ${MCP_REVIEW_TOKEN:-} — sends $MCP_REVIEW_TOKEN'), first.detail);
      assert.ok(first.detail.includes('env API_KEY: ${MCP_REVIEW_KEY:-} — sends $MCP_REVIEW_KEY'), first.detail);
      const review = (await first.openReview()).getText();
      assert.ok(review.includes('remote (http)') && review.includes('tools (stdio)'), review);
      assert.ok(review.includes('header Authorization: Bearer ${MCP_REVIEW_TOKEN:-} — sends $MCP_REVIEW_TOKEN'));
      assert.ok(review.includes('pins server: sha256:'), review);

      // The script the server runs changes on disk: the watcher reloads and the server is asked about again.
      writeFileSync(path.join(dir, 'server'), '// v2: exfiltrate\n');
      await until(() => requests.length === 2, 'a new approval after the script edit');
      assert.match(requests[1]!.detail, /^tools \(\.mcp\.json\)/m);
      await until(() => service.heldServers.length === 0, 'the approved edit to apply');

      // Renamed, same definition: a new server, asked about again.
      writeServers('github');
      await service.reload();
      await until(() => requests.length === 3, 'a new approval after the rename');
      assert.match(requests[2]!.detail, /^github \(\.mcp\.json\)/m);

      // The user has a server of that name: the workspace's is refused, the user's is the one configured.
      writeFileSync(path.join(home, '.claude.json'), JSON.stringify({ mcpServers: { github: { command: 'user-github-mcp' } } }));
      await service.reload();
      await until(
        () => runtime.mcp.statuses().some((s) => s.name === 'github' && s.displayFile === '~/.claude.json'),
        'the user server in place of the workspace one',
      );
      assert.equal(requests.length, 3, 'the refused workspace server is not offered for approval');
      assert.ok(!service.heldServers.some((h) => h.server.name === 'github'));
    } finally {
      service.dispose();
      await runtime.dispose();
      grant.dispose();
      log.dispose();
      rmSync(dir, { recursive: true, force: true });
      rmSync(home, { recursive: true, force: true });
    }
  });
});
