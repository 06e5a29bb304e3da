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
import { chatFrame, chatModelLabel, sendPrompt, waitForAssistantText, waitForIdle } from './chatHarness.mjs';
import { e2e, screenshot } from './harness.mjs';
import { approveProjectHooks, reloadWorkbench, showHookwise } from './workbenchHarness.mjs';

/**
 * Picks the quick-pick row showing `row` (after typing `text` to filter, then Enter), as a user would.
 * @param {string} text
 * @param {string} [row] default `text`
 */
async function pickQuickItem(text, row = text) {
  const { page } = e2e();
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(text);
  await page.locator('.quick-input-widget .monaco-list-row.focused', { hasText: row }).first().waitFor({ state: 'visible' });
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
    // Not runCommand(): it waits for the palette to close, but Select Model… reuses it at once for its own pick.
    const { page } = e2e();
    await page.keyboard.press('Control+Shift+P');
    await pickQuickItem('>Hookwise: Select Model…', 'Hookwise: Select Model…');
    await page.locator('.quick-input-widget input[placeholder="Where should the agent\'s model come from?"]').waitFor({ state: 'visible' });
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

  it('a provider error (quota) shows in the chat as a notice that says what happened and what to do', async function () {
    // The fixture's next request takes this script: some text, then the provider's Blocked error.
    writeFileSync(
      path.join(e2e().workspace, '.lm-script.json'),
      JSON.stringify({ turns: [[{ text: 'Let me see. ' }, { error: 'Blocked', message: 'monthly quota used up' }]] }),
    );
    await sendPrompt('Once more');
    const notice = chatFrame().getByText(
      /"Scripted Test Model" refused the request \(quota or rate limit: .*monthly quota used up\)\. Try again later, or choose another model/,
    );
    await notice.first().waitFor({ state: 'visible', timeout: 30_000 });
    await waitForIdle();
    // One failure, one message: the run's own "Failed: …" line, not a second "The agent failed: …".
    const said = await chatFrame().locator('.note', { hasText: 'monthly quota used up' }).allInnerTexts();
    assert.equal(said.length, 1, `the failure shows once:\n${said.join('\n')}`);
    assert.match(said[0] ?? '', /^Failed: /);
    console.log(`      screenshot: ${await screenshot('e2e-vscode-lm-quota-notice')}`);
  });
});
