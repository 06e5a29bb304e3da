/**
 * Hooks shipped by another VS Code extension (`contributes.hookwise.hooks` in its package.json),
 * read from `vscode.extensions.all` in the real extension host: the lm-provider fixture
 * extension is installed beside Hookwise and contributes one.
 */
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { loadHookConfig } from '../../src/hooks/config/hookConfigLoader';
import { describeSource, isProjectSource } from '../../src/configFiles/hookSource';
import { pluginAndExtensionSources } from '../../src/vscode/extensionHooks';
import { activeCommands, createHarness, waitForChange, type ServiceHarness } from './configSupport';

const FIXTURE_ID = 'hookwise-test.lm-provider';

suite('hooks contributed by VS Code extensions', () => {
  let harness: ServiceHarness | undefined;
  teardown(() => {
    harness?.dispose();
    harness = undefined;
  });

  test('vscode.extensions.all yields the fixture’s hooks file as a source the loader reads', async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'hookwise-ext-hooks-'));
    try {
      const within = <T>(p: Promise<T>, what: string): Promise<T> =>
        Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what} did not finish in 5 s`)), 5_000))]);
      const warnings: string[] = [];
      const { inputs } = await within(
        pluginAndExtensionSources({ homeDir: home, projectDirs: [], settingDirs: [], dataRoot: home, warn: (m) => warnings.push(m) }),
        'finding sources',
      );
      const config = await within(loadHookConfig(inputs), 'loading');
      assert.deepEqual(
        config.hooks.map((h) => describeSource(h.source)),
        [`extension ${FIXTURE_ID} › hooks/hooks.json › hooks.PreToolUse[0].hooks[0]`],
        `warnings: ${warnings.join('; ')}; diagnostics: ${config.diagnostics.map((d) => d.message).join('; ')}`,
      );
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  test('an installed extension’s contributes.hookwise hooks load, labelled with its id, trusted, with CLAUDE_PLUGIN_ROOT = its folder', async () => {
    const fixture = vscode.extensions.getExtension(FIXTURE_ID);
    assert.ok(fixture, `the fixture extension ${FIXTURE_ID} is installed in the host`);
    // Untrusted workspace: a hook from an installed extension is user-level, so it still runs.
    harness = createHarness({ trusted: false, approve: () => 'cancel', extensionHooks: true });
    const from = (h: { source: Parameters<typeof describeSource>[0] }): boolean => describeSource(h.source).startsWith(`extension ${FIXTURE_ID} ›`);
    const change = await harness.service.reload();
    assert.ok(change);
    const hook = change.applied.active.find(from);
    assert.ok(
      hook,
      `no active hook from ${FIXTURE_ID}; hookwise contribution: ${JSON.stringify((fixture.packageJSON as { contributes?: { hookwise?: unknown } }).contributes?.hookwise)}; hooks: ${change.config.hooks.map((h) => describeSource(h.source)).join(', ')}; diagnostics: ${change.config.diagnostics.map((d) => `${d.displayFile}: ${d.message}`).join('; ')}`,
    );
    assert.equal(describeSource(hook.source), `extension ${FIXTURE_ID} › hooks/hooks.json › hooks.PreToolUse[0].hooks[0]`);
    assert.equal(hook.matcher, 'hookwise_test_never');
    assert.equal(isProjectSource(hook.source), false);
    assert.equal(hook.handler.type === 'command' ? hook.handler.command : '', `cat "${path.join(fixture.extensionPath, 'hooks', 'hooks.json')}" >/dev/null`);
  });
});

suite('Claude Code plugin folders, live', () => {
  let harness: ServiceHarness | undefined;
  teardown(() => {
    harness?.dispose();
    harness = undefined;
  });

  test("editing an installed, enabled plugin's hooks/hooks.json reloads its hooks without a window reload", async function () {
    this.timeout(30_000);
    harness = createHarness({ trusted: true, approve: () => 'cancel' });
    const home = harness.home;
    const root = path.join(home, '.claude', 'plugins', 'cache', 'acme', 'live-kit', '1.0.0');
    const hooksFile = path.join(root, 'hooks', 'hooks.json');
    const hooks = (command: string): string => JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command }] }] } });
    mkdirSync(path.dirname(hooksFile), { recursive: true });
    mkdirSync(path.join(root, '.claude-plugin'), { recursive: true });
    writeFileSync(path.join(root, '.claude-plugin', 'plugin.json'), JSON.stringify({ name: 'live-kit' }));
    writeFileSync(hooksFile, hooks('echo plugin-before'));
    writeFileSync(
      path.join(home, '.claude', 'plugins', 'installed_plugins.json'),
      JSON.stringify({ version: 2, plugins: { 'live-kit@acme': [{ scope: 'user', installPath: root, version: '1.0.0' }] } }),
    );
    writeFileSync(path.join(home, '.claude', 'settings.json'), JSON.stringify({ enabledPlugins: { 'live-kit@acme': true } }));
    const first = await harness.service.reload();
    assert.ok(first && activeCommands(first).includes('echo plugin-before'), `hooks: ${first ? activeCommands(first).join(', ') : 'none'}`);
    // No reload() call: the plugin folder watcher must pick the edit up. The edit is repeated
    // each second, since the host starts a new watcher asynchronously after the load.
    const edit = (): void => writeFileSync(hooksFile, hooks('echo plugin-after'));
    edit();
    const again = setInterval(edit, 1_000);
    const change = await waitForChange(
      harness.service,
      (c) => activeCommands(c).includes('echo plugin-after'),
      15_000,
      `the edited plugin hook (generations so far: ${harness.applyCalls.length})`,
    ).finally(() => clearInterval(again));
    assert.equal(
      change.applied.active.map((h) => describeSource(h.source)).find((s) => s.startsWith('plugin live-kit')),
      'plugin live-kit › hooks/hooks.json › hooks.Stop[0].hooks[0]',
    );
  });
});
