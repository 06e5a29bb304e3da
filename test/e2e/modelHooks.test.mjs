// @ts-check
/**
 * E2E of a model-level hook in the real chat: the demo workspace's secret redactor
 * (.claude/hooks/redact-secrets.cjs, wired on AfterInference as the demo's
 * model-hooks.example.json does, here in the user settings) rewrites a Playground reply holding
 * a fake API key. The chat never shows the key, not even while the reply arrives (a watcher in
 * the page records every mutation), and marks the reply "Reply redacted by hook …"; a window
 * reload keeps the mark. Screenshot: test-results/e2e-model-hooks-redacted.png.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'mocha';
import { chatFrame, sendPrompt, waitForAssistantText, waitForIdle } from './chatHarness.mjs';
import { DEMO_WORKSPACE, screenshot } from './harness.mjs';
import { reloadWorkbench, startScenario, userSettingsForSuite } from './workbenchHarness.mjs';

const SECRET = 'sk-e2eFAKEKEY0123456789';

/** The demo's AfterInference redactor entry, exactly as its example settings wire it. */
function demoRedactor() {
  const example = JSON.parse(readFileSync(path.join(DEMO_WORKSPACE, '.claude', 'model-hooks.example.json'), 'utf8'));
  const hooks = example.hooks.AfterInference[0].hooks.filter((/** @type {{command: string}} */ h) => h.command.includes('redact-secrets.cjs'));
  assert.equal(hooks.length, 1, 'the demo wires redact-secrets.cjs on AfterInference');
  return [{ hooks }];
}

describe('Model-level hooks: the secret redactor in the chat', function () {
  const patchSettings = userSettingsForSuite();

  it('a reply holding a fake key is shown redacted, never with the key, and marked "Reply redacted by hook"', async function () {
    this.timeout(180_000);
    await patchSettings({ 'hookwise.hooks': { AfterInference: demoRedactor() } });
    await startScenario({ name: 'e2e: redacted reply', turns: [{ text: `Your deploy key is ${SECRET} — keep it out of git.` }] });

    // Everything the chat ever draws is watched: the key must not appear even for a frame.
    await chatFrame()
      .locator('#messages')
      .evaluate((root, secret) => {
        const w = /** @type {Window & { sawSecret?: boolean }} */ (root.ownerDocument.defaultView);
        w.sawSecret = false;
        new w.MutationObserver(() => {
          if ((root.textContent ?? '').includes(secret)) w.sawSecret = true;
        }).observe(root, { subtree: true, childList: true, characterData: true });
      }, SECRET);
    await sendPrompt('Where is my deploy key?');
    await waitForAssistantText('Your deploy key is [REDACTED]');
    await waitForIdle();

    const messages = chatFrame().locator('#messages');
    assert.equal(await messages.evaluate((root) => /** @type {Window & { sawSecret?: boolean }} */ (root.ownerDocument.defaultView).sawSecret), false);
    assert.ok(!((await messages.textContent()) ?? '').includes(SECRET), 'the chat does not show the key');
    const marker = chatFrame().getByRole('note', { name: /^Reply redacted by hook ".+"$/ });
    await marker.waitFor({ state: 'visible' });
    const name = (await marker.getAttribute('aria-label')) ?? '';
    console.log(`      marker: ${name}`);
    // The mark sits on the reply it concerns: just above it, and names the message's description.
    const reply = chatFrame().locator('.model-hook-marker.redacted + .message.assistant');
    assert.match((await reply.textContent()) ?? '', /Your deploy key is \[REDACTED\]/);
    assert.equal(await reply.getAttribute('aria-describedby'), await marker.getAttribute('id'));
    console.log(`      screenshot: ${await screenshot('e2e-model-hooks-redacted')}`);

    // A reload draws the chat from its saved display: the mark is still on the reply.
    await reloadWorkbench({ keepChat: true });
    await waitForAssistantText('Your deploy key is [REDACTED]');
    await chatFrame().getByRole('note', { name }).waitFor({ state: 'visible' });
    assert.ok(!((await chatFrame().locator('#messages').textContent()) ?? '').includes(SECRET));
  });
});
