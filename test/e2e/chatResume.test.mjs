// @ts-check
/**
 * E2E of a conversation that survives: a session with a call a hook blocks, a call a hook
 * asks about (answered in the modal), a subagent, an edit, an attached file and a turn stopped
 * by the user, played with the Playground model in the demo workspace. The chat's DOM is
 * captured live (normalised: no ids, no open/closed sections, no durations), then after New
 * Chat and History → resume, then after a reload of the whole window: each must be the live
 * one. Screenshots: test-results/e2e-resume-*.png.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'mocha';
import { chatFrame, sendPrompt, waitForAssistantText, waitForIdle, waitForToolCard } from './chatHarness.mjs';
import { clickDialogButton, e2e, screenshot, waitForDialog, waitUntil } from './harness.mjs';
import { reloadWorkbench, startScenario } from './workbenchHarness.mjs';

/** @param {string} name */
async function shot(name) {
  console.log(`      screenshot: ${await screenshot(name)}`);
}

const PROMPT = 'Review #file:src/greet.js and tidy up';
const LAST_TEXT = 'All done: the fallback is now "friend".';
/** The second prompt's answer: long enough to be stopped while it streams. */
const LONG_TEXT = 'Once upon a time a hook guarded a repository. '.repeat(800);

const SCENARIO = {
  name: 'e2e: resume and reload',
  turns: [
    { text: 'First I clear the build output.', toolCalls: [{ name: 'Bash', input: { command: 'rm -rf build', description: 'Remove build output' } }] },
    { text: 'That was blocked; running the tests instead.', toolCalls: [{ name: 'Bash', input: { command: 'npm test', description: 'Run the tests' } }] },
    {
      text: 'An Explore subagent reviews the tests.',
      toolCalls: [
        { name: 'Agent', input: { description: 'Review the tests', prompt: 'Read test/greet.test.js and list what it covers.', subagent_type: 'Explore' } },
      ],
    },
    { text: 'Reading the test file.', toolCalls: [{ name: 'Read', input: { file_path: 'test/greet.test.js' } }] },
    { text: 'test/greet.test.js covers greeting by name and the fallback to world.' },
    {
      text: 'I will make the fallback friendlier.',
      toolCalls: [{ name: 'Edit', input: { file_path: 'src/greet.js', old_string: "|| 'world'", new_string: "|| 'friend'" } }],
    },
    { text: LAST_TEXT },
    { text: LONG_TEXT },
  ],
};

/**
 * The conversation's DOM as a person sees it, one tag per line: without element ids, focus
 * order, which sections are expanded, the checkpoint numbers and durations, which differ
 * between two drawings of the same chat.
 * @returns {Promise<string>}
 */
async function conversationDom() {
  const html = await chatFrame()
    .locator('#messages')
    .evaluate((root) => {
      const clone = /** @type {HTMLElement} */ (root.cloneNode(true));
      for (const el of [clone, ...clone.querySelectorAll('*')])
        for (const name of el.getAttributeNames()) if (/^(id|tabindex|open|style|aria-busy|data-checkpoint)$/.test(name)) el.removeAttribute(name);
      return clone.outerHTML;
    });
  return html
    .replace(/\b\d+(\.\d+)? ?(ms|s)\b/g, 'N s')
    .replace(/></g, '>\n<')
    .trim();
}

/**
 * Waits until the chat shows `live` again; on timeout fails with the difference.
 * @param {string} live
 * @param {string} what
 */
async function expectSameChat(live, what) {
  await chatFrame().locator('.note', { hasText: 'Stopped' }).waitFor({ timeout: 60_000 });
  let shown = '';
  await waitUntil(`${what}: the chat as it was live`, async () => (shown = await conversationDom()) === live, 30_000).catch(() => undefined);
  assert.equal(shown, live, `${what}: the chat differs from the live one`);
}

describe('Chat resume and reload (Playground model, demo hooks)', function () {
  const greet = () => path.join(e2e().workspace, 'src', 'greet.js');
  let original = '';
  before(() => {
    original = readFileSync(greet(), 'utf8');
  });
  after(() => writeFileSync(greet(), original));

  it('History → resume and a window reload show the chat as it was: verdicts, the subagent, the diff, the chip, the stop', async function () {
    // A full turn with two approvals, a resume and a window reload: slow on a busy machine.
    this.timeout(300_000);
    await startScenario(SCENARIO);
    await sendPrompt(PROMPT);
    const ask = await waitForDialog('Allow Bash for the main agent?');
    assert.match(ask.detail, /^\$ npm test$/m);
    await clickDialogButton(ask.box, 'Allow');
    const edit = await waitForDialog('Allow Edit for the main agent?');
    await clickDialogButton(edit.box, 'Allow');
    await waitForAssistantText(LAST_TEXT);
    await waitForIdle();

    // What the live chat shows, checked once here so the comparisons below compare something.
    const denied = await waitForToolCard('Bash: rm -rf build', 'denied');
    assert.match(denied.verdict, /^Blocked by PreToolUse hook .*block-rm-rf\.sh/);
    assert.match((await waitForToolCard('Bash: npm test', 'done')).verdict, /Allowed by you/);
    const agent = await waitForToolCard('Agent: Explore: Review the tests', 'done');
    await agent.card.locator(':scope > .subagents > section.subagent .tool-card[data-status="done"]').first().waitFor();
    await (await waitForToolCard('Edit: src/greet.js', 'done')).card.locator(':scope > .edit-diff').waitFor();
    await chatFrame().locator('.message.user [aria-label="Attached context"]', { hasText: 'greet.js' }).waitFor();
    // A second prompt, stopped while the answer streams: the chat notes it.
    await sendPrompt('Tell me a long story');
    await chatFrame().locator('.message.assistant', { hasText: 'Once upon a time' }).first().waitFor();
    await chatFrame().locator('#stop').click();
    await chatFrame().locator('.note', { hasText: 'Stopped' }).waitFor();
    await waitForIdle();
    const live = await conversationDom();
    await shot('e2e-resume-1-live');

    // New Chat, then History → resume: the same chat.
    await chatFrame().locator('#new-chat').click();
    await waitUntil('an empty chat', async () => (await chatFrame().locator('#messages > .message').count()) === 0);
    await chatFrame().locator('#history').click();
    await chatFrame()
      .getByRole('button', { name: new RegExp(`^Resume "${PROMPT}"`) })
      .first()
      .click();
    await expectSameChat(live, 'after History → resume');
    await shot('e2e-resume-2-resumed');

    // A reload of the whole window (a new extension host): the open chat comes back, the same.
    await reloadWorkbench({ keepChat: true });
    await expectSameChat(live, 'after a window reload');
    await shot('e2e-resume-3-reloaded');
  });
});
