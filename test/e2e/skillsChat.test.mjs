// @ts-check
/**
 * E2E of slash commands and memory in the real chat: typing `/` in the prompt
 * lists every command (built-in and the project's `.claude/commands`) with its description,
 * narrows as the name is typed and completes with Enter; a built-in (`/hooks`) answers in the
 * chat without the model; the memory files the session uses show under the model label as
 * links. Sorts after scenariosChat.test.mjs. Screenshots: test-results/e2e-skills-*.png.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'mocha';
import { chatFrame, chatPrompt, sendPrompt, typeInPrompt, waitForAssistantText, waitForIdle } from './chatHarness.mjs';
import { e2e, screenshot, waitUntil } from './harness.mjs';
import { startScenario } from './workbenchHarness.mjs';

/** @param {string} name */
async function shot(name) {
  console.log(`      screenshot: ${await screenshot(name)}`);
}

describe('Chat: slash commands and memory files', function () {
  it('/ lists built-in and custom commands with descriptions, narrows and completes; the memory line links CLAUDE.md', async function () {
    const ws = e2e().workspace;
    mkdirSync(path.join(ws, '.claude', 'commands'), { recursive: true });
    writeFileSync(path.join(ws, '.claude', 'commands', 'review.md'), '---\ndescription: Review the open PR\n---\nReview it.');
    writeFileSync(path.join(ws, 'CLAUDE.md'), 'Answer briefly.');
    await startScenario({ name: 'slash commands', turns: [{ text: 'Hello from the playground.' }] });

    const prompt = chatPrompt();
    await typeInPrompt('/');
    const list = chatFrame().getByRole('listbox', { name: 'Slash commands' });
    await list.getByRole('option', { name: /\/hooks/ }).waitFor({ state: 'visible' });
    assert.match((await list.getByRole('option', { name: /\/hooks/ }).textContent()) ?? '', /List the hooks in effect/);
    assert.match((await list.getByRole('option', { name: /\/review/ }).textContent()) ?? '', /Review the open PR/);
    await shot('e2e-skills-1-slash-list');

    await typeInPrompt('/rev');
    // Each key sends a query, and clearing the prompt first hides the list until an answer comes:
    // wait for the answer to "/rev" itself, a visible list of /review alone.
    await waitUntil('the list for "/rev" to hold only /review', async () => {
      const options = await list.getByRole('option').allTextContents();
      return options.length === 1 && options[0]?.startsWith('/review');
    });
    await prompt.press('Enter');
    assert.equal(await prompt.inputValue(), '/review ', 'Enter completes the command (and does not send)');
    await prompt.fill('');

    // A full command name still shows its completion: the first Enter completes, the second sends.
    await prompt.fill('/hooks');
    await list.getByRole('option', { name: /\/hooks/ }).waitFor({ state: 'visible' });
    await prompt.press('Enter');
    assert.equal(await prompt.inputValue(), '/hooks ', 'the first Enter completes');
    await prompt.press('Enter');
    await chatFrame().locator('.message.user', { hasText: '/hooks' }).last().waitFor({ state: 'visible' });
    await chatFrame()
      .getByText(/No hooks are in effect|PreToolUse:|Stop:|built-in limits/)
      .first()
      .waitFor({ state: 'visible' });
    await waitForIdle();

    await sendPrompt('Say hello');
    await waitForAssistantText('Hello from the playground.');
    await waitForIdle();
    const memory = chatFrame().getByRole('navigation', { name: 'Memory files in use' });
    await memory.getByRole('link', { name: 'CLAUDE.md' }).waitFor({ state: 'visible' });
    await shot('e2e-skills-2-memory-line');
  });
});
