// @ts-check
/**
 * E2E, as a user sees it: the packaged .vsix installed in code-server, the workbench open
 * in headless Chromium on a copy of examples/demo-workspace.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { auxiliaryBar, chatModelLabel, chatPrompt, showChat } from './chatHarness.mjs';
import { e2e, runCommand, screenshot, waitUntil } from './harness.mjs';
import { approveProjectHooks } from './workbenchHarness.mjs';

describe('Hookwise in the browser (code-server, packaged .vsix)', function () {
  it('loads the workbench with the demo workspace', async function () {
    const { page } = e2e();
    await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 60_000 });
    // The explorer lists the demo workspace's files: the folder is the one we opened.
    await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'package.json' }).first().waitFor({ state: 'visible', timeout: 30_000 });
  });

  it('opens the "Hookwise" container from the activity bar, with "Hook Runs" and "MCP Servers" (the chat has a place of its own)', async function () {
    const { page } = e2e();
    const item = page.locator('.activitybar [aria-label^="Hookwise"]').first();
    await item.waitFor({ state: 'visible', timeout: 30_000 });
    await item.click();
    const sidebar = page.locator('.part.sidebar');
    await sidebar
      .locator('.composite.title', { hasText: /hookwise/i })
      .first()
      .waitFor({ state: 'visible' });
    await sidebar.locator('.pane-header', { hasText: 'Hook Runs' }).first().waitFor({ state: 'visible' });
    await sidebar.locator('.pane-header', { hasText: 'MCP Servers' }).first().waitFor({ state: 'visible' });
    // The chat is not squeezed into this column: it has the secondary side bar (next tests).
    assert.equal(await sidebar.locator('.pane-header', { hasText: /^Chat$/ }).count(), 0, 'no Chat pane in the Hookwise side bar');
    // Wait for the extension itself, not just its static contributions: neither tree says any
    // more that no provider is registered.
    const noProvider = sidebar.getByText('There is no data provider registered');
    await waitUntil('the Hook Runs and MCP Servers providers', async () => (await noProvider.count()) === 0);
  });

  it("asks once to allow the demo workspace's project hooks, listing each with its source", async function () {
    // The workspace is trusted (--disable-workspace-trust), but project hooks still need the
    // user's approval of their exact content: a modal right after the extension loads them.
    const shown = await approveProjectHooks(async () => console.log(`      screenshot: ${await screenshot('e2e-approve-project-hooks')}`));
    assert.ok(shown, 'the approval modal was already answered before this test');
    assert.match(shown.message, /allow 5 new or changed project hooks to run in this workspace\?/);
    for (const source of ['hooks.PreToolUse[0].hooks[0]', 'hooks.PreToolUse[1].hooks[0]', 'hooks.PreToolUse[2].hooks[0]', 'hooks.Stop[0].hooks[0]']) {
      assert.ok(shown.detail.includes(`.claude/settings.json › ${source}`), `the modal lists ${source}:\n${shown.detail}`);
    }
    assert.match(shown.detail, /ask-before-risky\.sh/);
    // All five fit in the modal, so Allow is offered beside the full review.
    assert.deepEqual(
      shown.buttons.filter((b) => b !== 'Cancel'),
      ['Review All…', 'Allow These Hooks'],
    );
    // The demo workspace's .vscode/settings.json selects the playground.
    await showChat();
    await chatModelLabel().filter({ hasText: 'Playground (scripted)' }).waitFor();
  });

  it('"Hookwise: Open Chat" opens the chat in the secondary side bar, beside Hook Runs, with the height of the window', async function () {
    const { page } = e2e();
    await showChat();
    const chatBox = await page.locator('iframe.webview.ready').first().boundingBox();
    const auxBox = await auxiliaryBar().boundingBox();
    const sideBox = await page.locator('.part.sidebar').boundingBox();
    assert.ok(chatBox && auxBox && sideBox, 'the chat, its side bar and the Hookwise side bar are on screen');
    assert.ok(chatBox.x >= auxBox.x - 1 && chatBox.x + chatBox.width <= auxBox.x + auxBox.width + 1, 'the chat is in the secondary side bar');
    assert.ok(auxBox.x > sideBox.x + sideBox.width, 'Hook Runs stays visible beside the chat');
    assert.ok(chatBox.height > 500, `the chat has the full height of its side bar (${chatBox.height} px)`);
    // The webview is our provider's: it takes input.
    await chatPrompt().waitFor({ state: 'visible', timeout: 30_000 });
    const file = await screenshot('e2e-hookwise-container');
    console.log(`      screenshot: ${file}`);
  });

  it('"Hookwise: Open Chat" from the command palette brings the chat back and it takes input', async function () {
    // Hide the chat's side bar first, so the command has real work to do.
    await runCommand('View: Hide Secondary Side Bar');
    await auxiliaryBar().waitFor({ state: 'hidden' });

    await runCommand('Hookwise: Open Chat');
    const prompt = chatPrompt();
    await prompt.waitFor({ state: 'visible', timeout: 30_000 });
    // Typing proves the webview is live, not just painted.
    await prompt.fill('hello from e2e');
    assert.equal(await prompt.inputValue(), 'hello from e2e');
    const file = await screenshot('e2e-chat');
    console.log(`      screenshot: ${file}`);
  });
});
