/**
 * Hooks another VS Code extension registers in process through Hookwise's exported API, in the
 * real extension host: the fixture extension (test/fixtures/lmProvider) registers, on a command,
 * a PreToolUse hook with `api.forExtension(context.extension)` that denies Bash commands containing
 * `forbidden`. A whole agent turn on the fixture's scripted vscode-lm model makes that call.
 * (The same extension's `contributes.hookwise` hooks are covered by extensionHooks.test.ts.)
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { HookwiseApi } from '../../src/extension';
import type { HookRunsNode } from '../../src/vscode/tree/hookRunNodes';
import type { HookRunsTreeProvider } from '../../src/vscode/tree/hookRunsTreeProvider';
import { lmFixture, type LmFixture } from './lmFixture';

const FIXTURE_ID = 'hookwise-test.lm-provider';
const SOURCE = `extension ${FIXTURE_ID}`;
const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('hookwise');

/** Every run node of the Hook Runs tree, depth first. */
function runNodes(provider: HookRunsTreeProvider, node?: HookRunsNode): HookRunsNode[] {
  return provider.getChildren(node).flatMap((child) => (child.kind === 'run' ? [child] : runNodes(provider, child)));
}

const runItems = (provider: HookRunsTreeProvider): vscode.TreeItem[] => runNodes(provider).map((n) => provider.getTreeItem(n));

/** The run's tooltip as plain text (its Markdown escapes removed). */
const tooltip = (item: vscode.TreeItem): string => (typeof item.tooltip === 'string' ? item.tooltip : (item.tooltip?.value ?? '')).replace(/\\(.)/g, '$1');

/** The text of the tool results the model got in its `n`th request (0-based). */
function toolResultText(fixture: LmFixture, n: number): string {
  return (fixture.requests[n]?.messages ?? [])
    .flatMap((m) => m.parts.filter((p) => p.type === 'toolResult'))
    .flatMap((p) => p.content ?? [])
    .join('');
}

suite('hooks registered by another extension through the API', () => {
  let fixture: LmFixture;
  let api: HookwiseApi;
  suiteSetup(async () => {
    fixture = await lmFixture();
    const ext = vscode.extensions.getExtension<HookwiseApi>('hookwise.hookwise');
    assert.ok(ext);
    api = await ext.activate();
    await config().update('model.provider', 'vscode-lm', vscode.ConfigurationTarget.Global);
    await config().update('model.name', 'scripted', vscode.ConfigurationTarget.Global);
    // The call runs once the hook is gone: no approval popup in between.
    await config().update('permissions.mode', 'bypassPermissions', vscode.ConfigurationTarget.Global);
    await api.controller.reloadModel();
  });
  setup(() => fixture.reset());
  teardown(async () => {
    await vscode.commands.executeCommand('hookwiseTest.disposeApiHook');
    await api.controller.newSession();
  });
  suiteTeardown(async () => {
    for (const key of ['model.provider', 'model.name', 'permissions.mode', 'hooks.disabled'])
      await config().update(key, undefined, vscode.ConfigurationTarget.Global);
    await api.hookConfig.reload();
    await api.controller.reloadModel();
  });

  async function bashTurn(): Promise<string> {
    await api.controller.newSession();
    fixture.setScript([[{ toolCall: { id: 'call_api', name: 'Bash', input: { command: 'echo forbidden' } } }], [{ text: 'Done.' }]]);
    assert.equal(await api.controller.submit('run it'), true);
    return toolResultText(fixture, 1);
  }

  test('the fixture’s hook denies the Bash call, labelled with its extension id; disposed, the call runs', async () => {
    await vscode.commands.executeCommand('hookwiseTest.registerApiHook');
    api.hookRuns.clear();
    assert.match(await bashTurn(), /the hook provider fixture forbids this/);
    api.hookRuns.flush();
    const denied = runItems(api.hookRuns).filter((item) => tooltip(item).includes(`**Source:** ${SOURCE}`));
    assert.equal(denied.length, 1, `runs: ${runItems(api.hookRuns).map(tooltip).join('\n---\n')}`);
    assert.equal(denied[0]?.label, 'deny forbidden Bash');
    assert.match(String(denied[0]?.description), /deny/);

    await vscode.commands.executeCommand('hookwiseTest.disposeApiHook');
    fixture.reset();
    api.hookRuns.clear();
    const ran = await bashTurn();
    assert.doesNotMatch(ran, /forbids this/);
    assert.match(ran, /forbidden/, 'the command ran and its output came back');
    api.hookRuns.flush();
    assert.equal(runItems(api.hookRuns).filter((item) => tooltip(item).includes(SOURCE)).length, 0);
  });

  test('"Disable Hook" on its run switches the extension’s hooks off by its id (hookwise.hooks.disabled), live; "Enable Hook" brings them back', async () => {
    await vscode.commands.executeCommand('hookwiseTest.registerApiHook');
    api.hookRuns.clear();
    assert.match(await bashTurn(), /forbids this/);
    api.hookRuns.flush();
    const run = runNodes(api.hookRuns).find((node) => tooltip(api.hookRuns.getTreeItem(node)).includes(`**Source:** ${SOURCE}`));
    assert.ok(run, 'the denied run is in Hook Runs');
    try {
      await vscode.commands.executeCommand('hookwise.hooks.disableHook', run);
      assert.ok(
        (config().get<string[]>('hooks.disabled') ?? []).includes(SOURCE),
        `hookwise.hooks.disabled: ${JSON.stringify(config().get('hooks.disabled'))}`,
      );
      await api.hookConfig.reload();
      fixture.reset();
      assert.doesNotMatch(await bashTurn(), /forbids this/);
    } finally {
      await vscode.commands.executeCommand('hookwise.hooks.enableHook', run);
    }
    assert.ok(!(config().get<string[]>('hooks.disabled') ?? []).includes(SOURCE));
    await api.hookConfig.reload();
    fixture.reset();
    assert.match(await bashTurn(), /forbids this/);
  });

  test('compactionProvider: another extension’s summarizer installs as its own compaction hook, labelled with its id; bad options are refused', async () => {
    assert.throws(() => api.compactionProvider({ name: '', summarize: () => Promise.resolve('x') }), /compactionProvider\(\)/);
    await api.hookConfig.reload();
    const installed = api.forExtension(FIXTURE_ID).use(api.compactionProvider({ name: 'fixture summarizer', summarize: () => Promise.resolve('SUMMARY') }));
    try {
      const hook = api.controller.runtime.registry.list().find((r) => r.action.label === 'fixture summarizer: compaction');
      assert.ok(hook, 'the replacement compaction hook is registered');
      assert.equal(hook.event, 'BeforeStep');
      assert.deepEqual(hook.source, { kind: 'code', label: SOURCE });
    } finally {
      installed.dispose();
    }
    assert.equal(
      api.controller.runtime.registry.list().some((r) => r.action.label === 'fixture summarizer: compaction'),
      false,
    );
  });

  test('an extension that names an id that is not installed is refused with a clear error', async () => {
    await assert.rejects(Promise.resolve(vscode.commands.executeCommand('hookwiseTest.forExtension', 'nobody.not-installed')), /no installed extension/);
  });
});
