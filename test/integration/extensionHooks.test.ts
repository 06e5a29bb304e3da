/**
 * Hooks shipped by another VS Code extension (`contributes.hookwise.hooks` in its package.json),
 * read from `vscode.extensions.all` in the real extension host: the lm-provider fixture
 * extension is installed beside Hookwise and contributes one.
 */
import * as assert from 'node:assert/strict';
import path from 'node:path';
import * as vscode from 'vscode';
import { describeSource, isProjectSource } from '../../src/hooks/hookSource';
import { createHarness, waitForChange, type ServiceHarness } from './configSupport';

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
    const change = await waitForChange(harness.service, (c) => c.applied.active.some(from), 15_000, 'the extension hook to be active');
    const hook = change.applied.active.find(from);
    assert.ok(hook);
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
