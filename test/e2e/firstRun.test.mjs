// @ts-check
/**
 * E2E: the first run, as `npm start` gives it. A code-server of its own with Workspace Trust on
 * (the shared one has it off), the packaged .vsix, a fresh copy of examples/demo-workspace: the
 * folder opens in Restricted Mode, the chat says the project hooks are off and offers Trust; one
 * Hookwise question lists the hooks and allows them, VS Code's Workspace Trust editor trusts the
 * folder, no second question follows, and the tour's first prompt meets the hook that asks.
 * The harness helpers drive this suite's page while it runs (the shared context is restored after).
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { after, afterEach, before, describe, it } from 'mocha';
import { copyWorkspace, launchChromium, QUIET_SETTINGS, startCodeServer, tempDir } from '../host/codeServer.mjs';
import { chatFrame, chatModelLabel, chatPrompt, sendPrompt, waitForAssistantText, waitForIdle, waitForToolCard } from './chatHarness.mjs';
import { clickDialogButton, DEMO_WORKSPACE, dialog, e2e, runCommand, screenshot, setE2eContext, waitForDialog, waitUntil } from './harness.mjs';

describe('First run in Restricted Mode (code-server with Workspace Trust on)', function () {
  /** @type {import('./harness.mjs').E2eContext} */
  let shared;
  /** @type {import('../host/codeServer.mjs').CodeServer | undefined} */
  let server;
  /** @type {Awaited<ReturnType<typeof launchChromium>> | undefined} */
  let browser;
  let workspace = '';
  let home = '';

  before(async function () {
    this.timeout(180_000);
    shared = e2e();
    workspace = copyWorkspace(DEMO_WORKSPACE);
    home = tempDir('first-run-home');
    // What `npm start` writes for code-server (the Playground as the user's choice), with Workspace Trust on as shipped.
    server = await startCodeServer({
      folder: workspace,
      extensionsDir: shared.extensionsDir,
      settings: { ...QUIET_SETTINGS, 'hookwise.hookRuns.keepHistory': false, 'hookwise.model.provider': 'playground' },
      env: { HOOKWISE_HOME: home },
    });
    browser = await launchChromium({ viewport: { width: 1840, height: 900 } });
    const url = `${server.url}?folder=${encodeURIComponent(workspace)}`;
    setE2eContext({ ...shared, page: browser.page, url, workspace, hookwiseHome: home, userDataDir: server.userDataDir });
    await browser.page.goto(url);
    await browser.page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 90_000 });
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') console.log(`      failure screenshot: ${await screenshot(`e2e-first-run-failure-${Date.now()}`)}`);
  });

  after(async function () {
    this.timeout(60_000);
    if (shared) setE2eContext(shared);
    await browser?.close();
    await server?.stop();
    if (workspace) rmSync(path.dirname(workspace), { recursive: true, force: true });
    if (home) rmSync(home, { recursive: true, force: true });
  });

  /** The chat's notice bar (one notice at a time). */
  const notice = () => chatFrame().locator('#notice');

  it('opens without asking about trust: Restricted Mode, and the chat says the project hooks are off, why, and offers Trust', async function () {
    const { page } = e2e();
    // code-server asks nothing at startup (the `npm start` message says so): the status bar says Restricted Mode.
    await page.locator('.statusbar-item', { hasText: 'Restricted Mode' }).first().waitFor({ state: 'visible', timeout: 60_000 });
    assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'no dialog at startup');
    // Hookwise's contributions are in (its activity bar item), so the palette lists its commands.
    await page.locator('.activitybar [aria-label^="Hookwise"]').first().waitFor({ state: 'visible', timeout: 60_000 });
    await runCommand('Hookwise: Open Chat');
    await chatPrompt().waitFor({ state: 'visible', timeout: 60_000 });
    await chatModelLabel().filter({ hasText: 'Playground (scripted)' }).waitFor({ timeout: 30_000 });
    await notice().filter({ hasText: 'Restricted Mode' }).waitFor({ state: 'visible', timeout: 30_000 });
    const text = (await notice().locator('span').textContent()) ?? '';
    assert.match(text, /this folder is not trusted, so its 5 project hooks \(\.claude\/settings\.json\) are off and Hookwise asks before every tool call/);
    assert.deepEqual(
      (await notice().locator('button').allTextContents()).map((b) => b.trim()),
      ['Trust…'],
    );
    console.log(`      screenshot: ${await screenshot('e2e-first-run-restricted')}`);
  });

  it('Trust is one flow: one question lists the hooks and allows them, VS Code trusts the folder, and no second question follows', async function () {
    const { page } = e2e();
    await notice().locator('button', { hasText: 'Trust…' }).click();
    const shown = await waitForDialog(/trust this folder and allow its 5 project hooks to run\?/);
    assert.match(shown.detail, /ask-before-risky\.sh/);
    assert.match(shown.detail, /Workspace Trust then opens/);
    assert.deepEqual(
      shown.buttons.filter((b) => b !== 'Cancel'),
      ['Review All…', 'Trust and Allow Hooks'],
    );
    console.log(`      screenshot: ${await screenshot('e2e-first-run-trust-question')}`);
    await clickDialogButton(shown.box, 'Trust and Allow Hooks');
    // VS Code's own Workspace Trust editor: an extension cannot grant trust itself.
    const trustButton = page.locator('.workspace-trust-editor .monaco-button', { hasText: /^Trust$/ }).first();
    await trustButton.waitFor({ state: 'visible', timeout: 30_000 });
    await trustButton.click();
    await page.locator('.workspace-trust-editor', { hasText: 'You trust this folder' }).waitFor({ state: 'visible', timeout: 30_000 });
    // The notice goes once the configuration loaded after the grant is applied: the hooks allowed above are in force.
    await notice().filter({ hasText: 'Restricted Mode' }).waitFor({ state: 'hidden', timeout: 30_000 });
    await page.locator('.statusbar-item', { hasText: 'Restricted Mode' }).first().waitFor({ state: 'hidden', timeout: 30_000 });
    assert.equal(await dialog(/project hooks? to run in this workspace/).count(), 0, 'no second approval question after trusting');
    await page.keyboard.press('Escape');
  });

  it('"Hookwise: Restart Tour" opens the walkthrough with its steps reset (done again by their actions), and the tour\'s first prompt meets the hook that asks (no other question before it)', async function () {
    const { page } = e2e();
    // The walkthrough's "Try the playground" step completes with "Hookwise: Open Chat" (run above).
    const step = page.locator('[data-done-step-id="hookwise.hookwise#hookwise.gettingStarted#hookwise.tryPlayground"]');
    await runCommand('Hookwise: Restart Tour');
    // The walkthrough opens once the Playground has restarted its script from the first turn; its steps are reset.
    await page.locator('.gettingStartedContainer', { hasText: 'Get started with Hookwise' }).first().waitFor({ state: 'visible', timeout: 30_000 });
    await step.and(page.locator('[aria-checked="false"]')).waitFor({ state: 'attached', timeout: 30_000 });
    await runCommand('Hookwise: Open Chat');
    await step.and(page.locator('[aria-checked="true"]')).waitFor({ state: 'attached', timeout: 30_000 });
    await runCommand('Hookwise: Restart Tour');
    // The steps are reset last: once unchecked, the command has run, and closing the walkthrough below stays closed.
    await step.and(page.locator('[aria-checked="false"]')).waitFor({ state: 'attached', timeout: 30_000 });
    console.log(`      screenshot: ${await screenshot('e2e-first-run-restart-tour')}`);
    // Done again after a restart: VS Code on its own completes a step on an action only the first time in a window.
    await runCommand('Hookwise: Open Chat');
    await step.and(page.locator('[aria-checked="true"]')).waitFor({ state: 'attached', timeout: 30_000 });
    // The walkthrough is a webview too: close it, so the chat is the only one.
    await runCommand('View: Close All Editors');
    await waitUntil('the chat as the only webview', async () => (await page.locator('iframe.webview.ready').count()) === 1);
    await sendPrompt('Show me the tour');
    const asked = await waitForDialog(/Allow Bash for the main agent\?/);
    assert.match(asked.detail, /Asked by hook: .*ask-before-risky\.sh/);
    assert.equal(await dialog(/project hooks? to run in this workspace/).count(), 0, 'the hook asked, not an approval of hooks');
    console.log(`      screenshot: ${await screenshot('e2e-first-run-hook-asks')}`);
    await clickDialogButton(asked.box, 'Deny');
    const card = await waitForToolCard('Bash: npm test', 'denied');
    assert.match(card.status, /denied/i);
    await waitForAssistantText('That popup came from');
    await waitForIdle();
  });
});
