// @ts-check
/**
 * A VS Code language model from another extension, chosen the way a user does: "Hookwise:
 * Select Model…" → "VS Code Language Model" → the model, then a prompt in the chat. The model
 * comes from the fixture extension test/fixtures/lmProvider (installed beside Hookwise by the
 * runner), which answers "Hello from the scripted test model." when no script is set.
 * Runs after the scenarios (file order) and puts the demo's Playground back afterwards.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'mocha';
import {
  approveProjectHooks,
  chatModelLabel,
  e2e,
  reloadWorkbench,
  runCommand,
  screenshot,
  sendPrompt,
  showHookwise,
  waitForAssistantText,
  waitForIdle,
} from './harness.mjs';

/**
 * Picks the quick-pick row showing `text` (typed to filter, then Enter), as a user would.
 * @param {string} text
 */
async function pickQuickItem(text) {
  const { page } = e2e();
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(text);
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: text }).first().waitFor({ state: 'visible' });
  await page.keyboard.press('Enter');
}

describe('A vscode-lm model from another extension', function () {
  const settingsFile = () => path.join(e2e().workspace, '.vscode', 'settings.json');
  /** @type {string | undefined} */
  let savedSettings;

  after(async function () {
    // Back to the demo's Playground for whatever runs next.
    if (savedSettings !== undefined) {
      writeFileSync(settingsFile(), savedSettings);
      await reloadWorkbench();
    }
  });

  it('"Select Model…" lists the provider\'s model; the chat shows it selected and renders its reply', async function () {
    savedSettings = readFileSync(settingsFile(), 'utf8');
    await showHookwise();
    await approveProjectHooks(); // once per run; a no-op when an earlier test answered it
    await runCommand('Hookwise: Select Model…');
    await pickQuickItem('VS Code Language Model');
    await pickQuickItem('Scripted Test Model');

    const label = chatModelLabel();
    await label.filter({ hasText: 'Scripted Test Model (VS Code Language Model)' }).waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(readFileSync(settingsFile(), 'utf8'), /"hookwise\.model\.provider":\s*"vscode-lm"/);

    await sendPrompt('Say hello');
    await waitForAssistantText('Hello from the scripted test model.');
    await waitForIdle();
    console.log(`      screenshot: ${await screenshot('e2e-vscode-lm-reply')}`);
  });
});
