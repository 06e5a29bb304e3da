// @ts-check
/**
 * E2E of reviewable edits and checkpoints, as a user lives them: the Playground model edits
 * real files of the demo workspace copy through the packaged extension in code-server; the
 * chat shows the diff, Undo and Restore Checkpoint put the files back on disk.
 * Screenshots go to test-results/e2e-edits-*.png.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, afterEach, before, describe, it } from 'mocha';
import { chatFrame, chatPrompt, sendPrompt, waitForAssistantText, waitForIdle, waitForToolCard } from './chatHarness.mjs';
import { clickDialogButton, e2e, screenshot, waitForDialog, waitUntil } from './harness.mjs';
import { startScenario } from './workbenchHarness.mjs';

/** @param {string} name */
async function shot(name) {
  console.log(`      screenshot: ${await screenshot(name)}`);
}

const EDIT_GREET = { name: 'Edit', input: { file_path: 'src/greet.js', old_string: "|| 'world'", new_string: "|| 'friend'" } };
const WRITE_NOTES = { name: 'Write', input: { file_path: 'NOTES.md', content: '# Notes\n\nThe fallback greeting is now "friend".\n' } };

/** Sends a prompt and allows the one Write/Edit it makes (default mode asks before edits). @param {string} prompt @param {string} tool */
async function promptAndAllow(prompt, tool) {
  await sendPrompt(prompt);
  const ask = await waitForDialog(`Allow ${tool} for the main agent?`);
  await clickDialogButton(ask.box, 'Allow');
}

describe('Reviewable edits and checkpoints (Playground model, real files)', function () {
  const greet = () => path.join(e2e().workspace, 'src', 'greet.js');
  const notes = () => path.join(e2e().workspace, 'NOTES.md');
  let original = '';
  before(() => {
    original = readFileSync(greet(), 'utf8');
  });
  // Later scenarios get the demo workspace as it was, whatever happened here.
  const putBack = () => {
    writeFileSync(greet(), original);
    rmSync(notes(), { force: true });
  };
  afterEach(putBack);
  after(putBack);

  it('an Edit turn shows its diff in the card; Undo in the summary restores the file', async function () {
    await startScenario({
      name: 'e2e: edit then undo',
      turns: [{ text: 'I will make the fallback friendlier.', toolCalls: [EDIT_GREET] }, { text: 'The fallback is now "friend".' }],
    });
    await promptAndAllow('Greet friends by default', 'Edit');

    const card = await waitForToolCard('Edit: src/greet.js', 'done');
    const diff = card.card.locator(':scope > .edit-diff');
    await diff.waitFor();
    assert.deepEqual(await diff.locator('.diff-removed').allTextContents(), ["-   const who = name.trim() || 'world';"]);
    assert.deepEqual(await diff.locator('.diff-added').allTextContents(), ["+   const who = name.trim() || 'friend';"]);
    assert.equal(await diff.getAttribute('aria-label'), 'Changes to src/greet.js: 1 added, 1 removed');
    await waitForAssistantText('The fallback is now "friend".');
    await waitForIdle();
    assert.match(readFileSync(greet(), 'utf8'), /\|\| 'friend'/);

    const summary = chatFrame().locator('section.edit-summary');
    await summary.waitFor();
    assert.equal(await summary.getAttribute('aria-label'), '1 file(s) changed in this turn');
    await summary.locator('.edit-file[data-state="pending"]', { hasText: 'src/greet.js' }).waitFor();
    await summary.scrollIntoViewIfNeeded();
    await shot('e2e-edits-1-diff-and-summary');

    await summary.getByRole('button', { name: 'Undo the change to src/greet.js' }).click();
    await summary.locator('.edit-file[data-state="undone"]', { hasText: 'src/greet.js' }).waitFor();
    assert.equal(readFileSync(greet(), 'utf8'), original, 'Undo put the file back byte for byte');
    await chatFrame().locator('.note', { hasText: 'Undo: src/greet.js restored.' }).waitFor();
    await shot('e2e-edits-2-undone');
  });

  it('Restore Checkpoint rolls back two turns: the files go back and the conversation is cut', async function () {
    await startScenario({
      name: 'e2e: restore checkpoint',
      turns: [
        { text: 'greet() says hello, with "world" when no name is given.' },
        { text: 'I will make the fallback friendlier.', toolCalls: [EDIT_GREET] },
        { text: 'Done: the fallback is "friend".' },
        { text: 'Writing it down.', toolCalls: [WRITE_NOTES] },
        { text: 'NOTES.md records the change.' },
      ],
    });
    await sendPrompt('What does greet do?');
    await waitForAssistantText('greet() says hello');
    await waitForIdle();
    await promptAndAllow('Greet friends by default', 'Edit');
    await waitForAssistantText('Done: the fallback is "friend".');
    await waitForIdle();
    await promptAndAllow('Write a note about it', 'Write');
    await waitForAssistantText('NOTES.md records the change.');
    await waitForIdle();
    assert.ok(existsSync(notes()), 'the agent wrote NOTES.md');
    assert.match(readFileSync(greet(), 'utf8'), /\|\| 'friend'/);

    // Restore the checkpoint of the second prompt: it and the third go, the first stays.
    const message = chatFrame().locator('.message.user', { hasText: 'Greet friends by default' });
    await message
      .locator('xpath=following-sibling::div[contains(@class, "checkpoint-bar")][1]')
      .getByRole('button', { name: /^Restore Checkpoint/ })
      .click();
    const shown = await waitForDialog('Restore this checkpoint?');
    assert.match(shown.detail, /before “Greet friends by default”: 2 prompt\(s\) and their replies are removed/);
    assert.match(shown.detail, /src\/greet\.js: restored/);
    assert.match(shown.detail, /NOTES\.md: deleted \(the agent created it\)/);
    await shot('e2e-edits-3-restore-confirmation');
    await clickDialogButton(shown.box, 'Restore');

    await waitUntil('the files to go back', async () => readFileSync(greet(), 'utf8') === original && !existsSync(notes()));
    await message.waitFor({ state: 'detached' });
    assert.deepEqual(await chatFrame().locator('.message.user .message-text').allTextContents(), ['What does greet do?']);
    await chatFrame().locator('.message.assistant', { hasText: 'greet() says hello' }).waitFor();
    assert.equal(await chatFrame().locator('.message.assistant', { hasText: 'Done: the fallback' }).count(), 0);
    assert.equal(await chatPrompt().inputValue(), 'Greet friends by default', 'the removed prompt is back in the input box');
    await shot('e2e-edits-4-restored');
  });
});
