// @ts-check
/**
 * E2E of the chat's place and keys, as the chats users know them: the chat has the secondary
 * side bar to itself (Hook Runs and MCP Servers stay in the Hookwise container), the header
 * stays readable when narrow, Escape stops a running turn, Up recalls the last prompt, the
 * `/` list closes once the prompt is sent, Ctrl+Alt+J brings the chat back and focuses it, and
 * the editor's selection goes with one prompt only, and a chat that loads while you type in an
 * editor leaves your keys there. Screenshots: test-results/e2e-layout-*.png.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'mocha';
import { auxiliaryBar, CHAT_WIDTH, chatFrame, chatModelLabel, chatPrompt, sendPrompt, showChat, waitForIdle } from './chatHarness.mjs';
import { e2e, openInEditor, resizePart, runCommand, screenshot, waitUntil } from './harness.mjs';
import { showHookwise, startScenario } from './workbenchHarness.mjs';

/** @param {string} name */
async function shot(name) {
  console.log(`      screenshot: ${await screenshot(name)}`);
}

/** A turn long enough to still be streaming when Escape is pressed (the playground streams 8 characters every 15 ms). */
const LONG_TEXT = 'Once upon a time a hook guarded a repository. '.repeat(800);

/** Whether the chat's prompt has the keyboard focus (its frame focused, the textarea active). */
async function promptFocused() {
  return chatPrompt().evaluate((el) => el.ownerDocument.hasFocus() && el.ownerDocument.activeElement === el);
}

describe('Chat layout and keys', function () {
  it('the chat has the secondary side bar to itself; the empty MCP Servers view says how to add a server', async function () {
    await startScenario({ name: 'chat layout', turns: [{ text: LONG_TEXT }] });
    const { page } = e2e();
    const chatBox = await page.locator('iframe.webview.ready').first().boundingBox();
    const auxBox = await auxiliaryBar().boundingBox();
    assert.ok(chatBox && auxBox);
    assert.ok(chatBox.x >= auxBox.x - 1 && chatBox.x + chatBox.width <= auxBox.x + auxBox.width + 1, 'the chat is in the secondary side bar');
    const sidebar = page.locator('.part.sidebar');
    assert.equal(await sidebar.locator('.pane-header', { hasText: /^Chat$/ }).count(), 0, 'no Chat pane in the Hookwise side bar');
    const mcp = sidebar.locator('.pane', { has: page.locator('.pane-header', { hasText: 'MCP Servers' }) });
    // A collapsed pane shows no body: open it as a user would.
    const header = mcp.locator('.pane-header').first();
    if ((await header.getAttribute('aria-expanded')) === 'false') await header.click();
    await mcp.getByText('No MCP server is configured').waitFor({ state: 'visible' });
    await mcp.getByRole('button', { name: 'Add MCP Server…' }).waitFor({ state: 'visible' });
    await shot('e2e-layout-1-secondary-side-bar');
  });

  it('at a narrow width the header keeps the model name readable and its buttons on one line; "Choose a model…" only without a model', async function () {
    await resizePart(auxiliaryBar(), 240, 'left');
    try {
      // The demo workspace chose the playground: the empty chat does not ask for a model.
      await chatFrame().locator('#open-setup').waitFor({ state: 'hidden' });
      const header = await chatFrame()
        .locator('header.header')
        .evaluate((el) => {
          /** @param {Element | null} node */
          const lines = (node) => {
            if (!node) return -1;
            const range = node.ownerDocument.createRange();
            range.selectNodeContents(node);
            return new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top))).size;
          };
          const model = el.querySelector('#model-label');
          return {
            width: el.clientWidth,
            overflow: el.scrollWidth - el.clientWidth,
            model: model?.getBoundingClientRect().width ?? 0,
            modelText: model?.textContent ?? '',
            newChatLines: lines(el.querySelector('#new-chat')),
            historyLines: lines(el.querySelector('#history')),
          };
        });
      assert.ok(header.width < 260, `the chat is narrow (${header.width} px)`);
      assert.equal(header.modelText, 'Playground (scripted)');
      assert.ok(header.model >= 90, `the model name keeps room for its first word, not "P…" (${header.model} px)`);
      assert.equal(header.newChatLines, 1, '"New Chat" stays on one line');
      assert.equal(header.historyLines, 1, '"History" stays on one line');
      assert.ok(header.overflow <= 0, `nothing in the header is cut off (${header.overflow} px over)`);
      await shot('e2e-layout-2-narrow-header');
    } finally {
      await resizePart(auxiliaryBar(), CHAT_WIDTH, 'left');
    }
  });

  it('Escape stops a running turn; Up in the empty input recalls the prompt', async function () {
    await sendPrompt('Tell me a long story');
    await chatFrame().locator('#stop').waitFor({ state: 'visible' });
    await chatFrame().locator('.message.assistant').first().waitFor({ state: 'visible' });
    await chatPrompt().press('Escape');
    // "Cancelled", the word Hook Runs uses for what a Stop cut short.
    await chatFrame().locator('.note', { hasText: 'Cancelled: Stopped by the user' }).waitFor({ state: 'visible', timeout: 10_000 });
    await waitForIdle(10_000);
    const shown = (await chatFrame().locator('.message.assistant').first().textContent()) ?? '';
    assert.ok(shown.length < LONG_TEXT.length / 2, `the answer was cut short (${shown.length} of ${LONG_TEXT.length} characters)`);

    assert.equal(await chatPrompt().inputValue(), '');
    await chatPrompt().press('ArrowUp');
    assert.equal(await chatPrompt().inputValue(), 'Tell me a long story');
    await chatPrompt().press('ArrowDown');
    assert.equal(await chatPrompt().inputValue(), '');
    await shot('e2e-layout-3-stopped');
  });

  it('the `/` list closes once the prompt is sent, also when its items arrive after the Enter', async function () {
    // By id: while hidden the listbox is not in the accessibility tree.
    const list = chatFrame().locator('#command-list[aria-label="Slash commands"]');
    // Record every time the list shows from now on.
    await list.evaluate((el) => {
      const w = /** @type {any} */ (el.ownerDocument.defaultView);
      w.__slashListShown = 0;
      new w.MutationObserver(() => {
        if (!el.hidden) w.__slashListShown++;
      }).observe(el, { attributes: true, attributeFilter: ['hidden'], childList: true });
    });
    // A fast typist: the command and Enter in one go, before the extension answered the `/` query.
    await chatPrompt().evaluate((el) => {
      const input = /** @type {HTMLTextAreaElement} */ (el);
      const w = /** @type {any} */ (input.ownerDocument.defaultView);
      input.value = '/model';
      input.setSelectionRange(6, 6);
      input.dispatchEvent(new w.Event('input'));
      input.dispatchEvent(new w.KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
    });
    await chatFrame().locator('.message.user', { hasText: '/model' }).waitFor({ state: 'visible' });
    await waitForIdle();
    // A later query is answered after the sent one: once the list shows for it, the first answer has arrived too.
    await chatPrompt().fill('/');
    await list.waitFor({ state: 'visible' });
    const shownBefore = await list.evaluate((el) => /** @type {any} */ (el.ownerDocument.defaultView).__slashListShown);
    assert.equal(shownBefore, 1, 'the list showed only for the new "/", never over the sent prompt');
    await chatPrompt().press('Escape');
    await list.waitFor({ state: 'hidden' });
    await chatPrompt().fill('');
  });

  it('Ctrl+Alt+J brings the chat back from anywhere and puts the cursor in its prompt', async function () {
    const { page } = e2e();
    await runCommand('View: Hide Secondary Side Bar');
    await auxiliaryBar().waitFor({ state: 'hidden' });
    // Start from the editor, where the user types code.
    await openInEditor('greet.js');

    await page.keyboard.press('Control+Alt+J');
    await auxiliaryBar().waitFor({ state: 'visible' });
    await waitUntil('the prompt to have the focus', promptFocused, 10_000);
    // Keys typed while the focus leaves the prompt and comes back are lost to the user.
    await chatPrompt().evaluate((el) => {
      const w = /** @type {any} */ (el.ownerDocument.defaultView);
      w.__promptBlurs = 0;
      el.addEventListener('blur', () => w.__promptBlurs++);
    });
    await page.keyboard.type('typed straight into the chat');
    const blurs = await chatPrompt().evaluate((el) => /** @type {any} */ (el.ownerDocument.defaultView).__promptBlurs);
    assert.equal(await chatPrompt().inputValue(), 'typed straight into the chat', `the prompt lost the focus ${blurs} time(s) while typing`);
    await chatPrompt().fill('');
    await showChat();
    await shot('e2e-layout-4-focus-shortcut');
  });

  it('the offered selection goes with one prompt, not silently with the next, and leaves with its editor', async function () {
    const { page } = e2e();
    const editor = page.locator('.editor-instance .monaco-editor').first();
    await editor.locator('.view-lines').click();
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+ArrowDown');
    const offered = chatFrame().locator('#attachments .chip.offered');
    await offered.filter({ hasText: 'greet.js:1-2' }).waitFor({ state: 'visible' });

    await sendPrompt('About these lines');
    await chatFrame().locator('.message.user', { hasText: 'About these lines' }).locator('.chip', { hasText: 'greet.js:1-2' }).waitFor();
    await waitForIdle();
    await offered.waitFor({ state: 'hidden' });
    await sendPrompt('Something else');
    await waitForIdle();
    assert.equal(
      await chatFrame().locator('.message.user', { hasText: 'Something else' }).locator('.chip').count(),
      0,
      'the earlier selection did not go with the next prompt',
    );

    // A new selection is offered again, until its editor is closed.
    await editor.locator('.view-lines').click();
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('Shift+ArrowDown');
    await offered.filter({ hasText: 'greet.js:1' }).waitFor({ state: 'visible' });
    await runCommand('View: Close All Editors');
    await offered.waitFor({ state: 'hidden' });
  });
  it('a chat that loads while you type in an editor leaves your keys in the editor', async function () {
    this.timeout(180_000);
    const { page } = e2e();
    // The workbench saves edits by itself: greet.js is put back for the suites after this one (their `npm test` runs it).
    const greet = path.join(e2e().workspace, 'src', 'greet.js');
    const original = readFileSync(greet, 'utf8');
    try {
      await showHookwise();
      // Start in the editor, at the end of greet.js.
      await openInEditor('greet.js');
      const editor = page.locator('.editor-instance .monaco-editor').first();
      await page.keyboard.press('Control+End');
      await page.keyboard.type('abc');
      // The chat's page loads again (as after a window reload) while the editor has the focus: the
      // palette gives the focus back to the editor when it closes.
      await chatFrame()
        .locator('#messages')
        .evaluate((el) => el.setAttribute('data-before-reload', '1'));
      await runCommand('Developer: Reload Webviews');
      await chatFrame().locator('#messages:not([data-before-reload])').waitFor({ timeout: 30_000 });
      await chatModelLabel().filter({ hasText: 'Playground (scripted)' }).waitFor({ timeout: 30_000 });
      await page.keyboard.type('xyz');
      const text = async () => (await editor.locator('.view-lines').innerText()).replace(/\s+/g, '');
      await waitUntil('the keys in the editor', async () => (await text()).endsWith('abcxyz'), 10_000).catch(() => undefined);
      assert.ok((await text()).endsWith('abcxyz'), `every key typed went to the editor (it ends with ${JSON.stringify((await text()).slice(-12))})`);
      assert.equal(await chatPrompt().inputValue(), '', 'the chat took no key');
    } finally {
      await runCommand('File: Revert File').catch(() => undefined);
      await runCommand('View: Close All Editors');
      writeFileSync(greet, original);
    }
    assert.equal(readFileSync(greet, 'utf8'), original, 'greet.js is as it was');
    await showChat();
  });
});
