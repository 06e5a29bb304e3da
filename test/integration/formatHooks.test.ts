/**
 * Other agents' hook files in the real extension host: a Copilot `.github/hooks/guard.json` denies
 * the agent's Bash call in a whole turn on the fixture's scripted vscode-lm model, and Hook Runs
 * name the run by the format, file and JSON path; a new `.cursor/hooks.json` in a trusted folder
 * is held until the approval modal, which names the format and the hook, is answered Allow.
 */
import * as assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import type { HookwiseApi } from '../../src/extension';
import { describeSource } from '../../src/configFiles/hookSource';
import type { LoadedHook } from '../../src/hooks/config/loadedHook';
import type { ApprovalChoice, ApprovalRequest } from '../../src/vscode/config/projectHookTrust';
import type { HookRunsNode } from '../../src/vscode/tree/hookRunNodes';
import type { HookRunsTreeProvider } from '../../src/vscode/tree/hookRunsTreeProvider';
import { createHarness, decideBashWithLastConfig, waitForChange, workspaceRoot, type ServiceHarness } from './configSupport';
import { until } from './hostWait';
import { lmFixture, type LmFixture } from './lmFixture';

/** The docs-style hook scripts the CLI format tests run (test/fixtures/formats), from the repository this suite was built from. */
const FORMAT_FIXTURES = path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'formats');
const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('hookwise');

/** Every run node of the Hook Runs tree, depth first. */
function runNodes(provider: HookRunsTreeProvider, node?: HookRunsNode): HookRunsNode[] {
  return provider.getChildren(node).flatMap((child) => (child.kind === 'run' ? [child] : runNodes(provider, child)));
}

/** A run's tooltip as plain text (its Markdown escapes removed). */
const tooltip = (item: vscode.TreeItem): string => (typeof item.tooltip === 'string' ? item.tooltip : (item.tooltip?.value ?? '')).replace(/\\(.)/g, '$1');

/** Copies a docs-style fixture script into the workspace as an executable. */
function installScript(fixture: string, relative: string): void {
  const target = path.join(workspaceRoot(), relative);
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, readFileSync(path.join(FORMAT_FIXTURES, fixture), 'utf8'));
  chmodSync(target, 0o755);
}

/** Removes the folders a test created in the workspace (they did not exist before it). */
function removeCreated(folders: readonly string[]): void {
  for (const folder of folders) rmSync(path.join(workspaceRoot(), folder), { recursive: true, force: true });
}

suite("other agents' hook files in the extension: a Copilot deny in Hook Runs", () => {
  let fixture: LmFixture;
  let api: HookwiseApi;
  const victim = (): string => path.join(workspaceRoot(), 'x');

  suiteSetup(async function () {
    this.timeout(60_000);
    for (const folder of ['.github', 'x']) assert.equal(existsSync(path.join(workspaceRoot(), folder)), false, `the fixture folder has no ${folder}`);
    fixture = await lmFixture();
    api = await vscode.extensions.getExtension<HookwiseApi>('hookwise.hookwise')!.activate();
    await config().update('model.provider', 'vscode-lm', vscode.ConfigurationTarget.Global);
    await config().update('model.name', 'scripted', vscode.ConfigurationTarget.Global);
    // Without the hook the call would run unasked: only the hook stands between the model and rm.
    await config().update('permissions.mode', 'bypassPermissions', vscode.ConfigurationTarget.Global);
    await api.controller.reloadModel();
  });

  suiteTeardown(async () => {
    removeCreated(['.github', 'x']);
    for (const key of ['model.provider', 'model.name', 'permissions.mode']) await config().update(key, undefined, vscode.ConfigurationTarget.Global);
    await api.hookConfig.reload();
    await api.controller.reloadModel();
    await api.controller.newSession();
  });

  test('the agent’s Bash `rm -rf x` is denied by .github/hooks/guard.json, shown as “Copilot .github/hooks/guard.json › hooks.preToolUse[0]” with its deny', async function () {
    this.timeout(60_000);
    mkdirSync(victim());
    writeFileSync(path.join(victim(), 'keep.txt'), 'precious');
    installScript('copilot/guard.sh', '.github/hooks/guard.sh');
    writeFileSync(
      path.join(workspaceRoot(), '.github', 'hooks', 'guard.json'),
      JSON.stringify({ version: 1, hooks: { preToolUse: [{ type: 'command', bash: './.github/hooks/guard.sh', timeoutSec: 10 }] } }, null, 2),
    );
    const label = 'Copilot .github/hooks/guard.json › hooks.preToolUse[0]';
    const loaded = await api.hookConfig.reload();
    const hook = loaded?.config.hooks.find((h) => describeSource(h.source) === label);
    assert.ok(hook, `loaded: ${(loaded?.config.hooks ?? []).map((h) => describeSource(h.source)).join(', ')}`);
    // A project hook: it runs once approved, as the approval modal (refused in this host) would.
    await api.hookConfig.approve([hook.hash]);
    await api.hookConfig.reload();
    await until('the approved Copilot hook', () => api.hookConfig.current?.applied.active.some((h) => h.hash === hook.hash) === true, 15_000);

    await api.controller.newSession();
    fixture.reset();
    api.hookRuns.clear();
    fixture.setScript([[{ toolCall: { id: 'call_copilot', name: 'Bash', input: { command: 'rm -rf x' } } }], [{ text: 'I kept it.' }]]);
    assert.equal(await api.controller.submit('clean up x'), true);

    assert.equal(readFileSync(path.join(victim(), 'keep.txt'), 'utf8'), 'precious', 'rm -rf x did not run');
    const toolResult = (fixture.requests[1]?.messages ?? [])
      .flatMap((m) => m.parts.filter((p) => p.type === 'toolResult'))
      .flatMap((p) => p.content ?? [])
      .join('');
    assert.match(toolResult, /rm is blocked by the Copilot guard/);
    api.hookRuns.flush();
    const runs = runNodes(api.hookRuns).map((n) => api.hookRuns.getTreeItem(n));
    const denied = runs.filter((item) => tooltip(item).includes(`**Source:** ${label}`));
    assert.equal(denied.length, 1, `runs: ${runs.map(tooltip).join('\n---\n')}`);
    assert.match(String(denied[0]?.description), /^deny · /);
    assert.match(tooltip(denied[0]!), /rm is blocked by the Copilot guard/);
  });
});

suite("other agents' hook files in the extension: a new .cursor/hooks.json asks first", () => {
  let harness: ServiceHarness | undefined;
  let temp = '';

  setup(() => {
    assert.equal(existsSync(path.join(workspaceRoot(), '.cursor')), false, 'the fixture folder has no .cursor');
    temp = path.join(os.tmpdir(), `hookwise-cursor-approval-${process.pid}-${Date.now()}`);
  });

  teardown(() => {
    harness?.dispose();
    harness = undefined;
    removeCreated(['.cursor']);
    rmSync(temp, { recursive: true, force: true });
  });

  /** A Bash PreToolUse through a real runtime holding exactly what the service last let through. */
  const decide = (h: ServiceHarness, command: string) => decideBashWithLastConfig(h, command, temp, 'it-cursor');

  test('the approval modal names Cursor and the hook; the hook does not run before Allow, and runs after it', async function () {
    this.timeout(60_000);
    let answerCursor: ((choice: ApprovalChoice) => void) | undefined;
    const isCursor = (r: ApprovalRequest): boolean => r.detail.includes('.cursor/hooks.json');
    harness = createHarness({
      trusted: true,
      // The fixture folder's own hook is allowed at once; the Cursor question stays open until the test answers it.
      approve: (request) => (isCursor(request) ? new Promise<ApprovalChoice>((resolve) => (answerCursor = resolve)) : 'allow'),
    });
    const h = harness;
    await h.service.reload();
    await until('the fixture hook approved', () => h.applyCalls.at(-1)?.config.hooks.some((x) => x.source.kind === 'file' && !x.source.format) === true);
    await h.service.idle();

    // A new file, no reload call: the watcher finds it.
    installScript('cursor/block-git.sh', '.cursor/block-git.sh');
    writeFileSync(
      path.join(workspaceRoot(), '.cursor', 'hooks.json'),
      JSON.stringify({ version: 1, hooks: { beforeShellExecution: [{ command: './.cursor/block-git.sh' }] } }, null, 2),
    );
    await until('the approval question about the Cursor hook', () => answerCursor !== undefined, 15_000);
    const question = h.approvalRequests.find(isCursor)!;
    assert.match(question.message, /allow 1 new or changed project hook to run/);
    assert.ok(
      question.detail.includes(
        'PreToolUse (Cursor beforeShellExecution) command: ./.cursor/block-git.sh — Cursor .cursor/hooks.json › hooks.beforeShellExecution[0]',
      ),
      question.detail,
    );
    const cursorHook = (hooks: readonly LoadedHook[] | undefined): boolean => (hooks ?? []).some((x) => describeSource(x.source).startsWith('Cursor '));
    const held = h.service.current;
    assert.ok(held && cursorHook(held.config.hooks) && !cursorHook(held.applied.active), 'loaded but held while the question is open');
    assert.notEqual((await decide(h, 'git status')).decision, 'deny', 'the hook does not run before Allow');

    answerCursor!('allow');
    await waitForChange(h.service, (c) => cursorHook(c.applied.active), 15_000, 'the Cursor hook in force after Allow');
    const after = await decide(h, 'git status');
    assert.equal(after.decision, 'deny');
    assert.match(after.reason ?? '', /was blocked by a Cursor hook\. Use gh instead\./);
  });
});
