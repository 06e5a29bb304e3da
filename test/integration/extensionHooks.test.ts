/**
 * Hooks shipped by another VS Code extension (`contributes.hookwise.hooks` in its package.json),
 * read from `vscode.extensions.all` in the real extension host: the lm-provider fixture
 * extension is installed beside Hookwise and contributes one.
 */
import * as assert from 'node:assert/strict';
import path from 'node:path';
import * as vscode from 'vscode';
import { describeSource, isProjectSource } from '../../src/hooks/hookSource';
import { createHarness, type ServiceHarness } from './configSupport';

const FIXTURE_ID = 'hookwise-test.lm-provider';

suite('hooks contributed by VS Code extensions', () => {
  let harness: ServiceHarness | undefined;
  teardown(() => {
    harness?.dispose();
    harness = undefined;
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

  test('without the extension’s contribution nothing is labelled with it (the harness default reads no extensions)', async () => {
    harness = createHarness({ trusted: true, approve: () => 'cancel' });
    const change = await harness.service.reload();
    assert.ok(change);
    assert.equal(
      change.config.hooks.some((h) => describeSource(h.source).startsWith('extension ')),
      false,
    );
  });
});
