// @ts-check
/**
 * E2E scenarios, as a user lives them: the demo workspace's project hooks
 * (.claude/settings.json) and the Playground model, in the packaged extension in code-server.
 *
 * Each scenario reloads the workbench (a fresh extension host, so the Playground starts its
 * script from the first turn and Hook Runs starts empty) with its own script in the
 * workspace copy's .hookwise/playground.json; the first one replays the demo's own tour.
 * Screenshots of each key moment go to test-results/e2e-<scenario>-*.png.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'mocha';
import { chatFrame, expandResult, sendPrompt, toolCard, waitForAssistantText, waitForIdle, waitForToolCard } from './chatHarness.mjs';
import { clickDialogButton, dialog, e2e, latestTranscript, screenshot, waitForDialog, waitUntil } from './harness.mjs';
import { expandTreeItem, readTreeItem, settledTreeItem, treeItem } from './hookRunsHarness.mjs';
import { startScenario } from './workbenchHarness.mjs';

/** @param {string} name */
async function shot(name) {
  console.log(`      screenshot: ${await screenshot(name)}`);
}

/** Dialog buttons without the Cancel that VS Code adds to every modal, in a stable order. */
const choices = (/** @type {string[]} */ buttons) => buttons.filter((b) => b !== 'Cancel').sort();

/** Where the demo's hooks live, as the chat, the modal and the tree name them. */
const BLOCK_RM_RF = '.claude/settings.json › hooks.PreToolUse[0].hooks[0]';
const ASK_BEFORE_RISKY = '.claude/settings.json › hooks.PreToolUse[1].hooks[0]';

describe('Hookwise scenarios (demo workspace hooks, Playground model)', function () {
  it('a project hook asks before `npm test`: the modal names it, Allow runs the tests, Hook Runs shows "asked → allow"', async function () {
    await startScenario(undefined); // the demo's own tour: its first step runs `npm test`
    await sendPrompt('Run the tests, please');

    const shown = await waitForDialog('Allow Bash for the main agent?');
    assert.match(shown.detail, /^\$ npm test$/m, 'the modal shows the command');
    assert.match(shown.detail, /Reason: npm scripts run code from package\.json: a person confirms each run/);
    assert.match(shown.detail, /Asked by hook: "\$CLAUDE_PROJECT_DIR"\/\.claude\/hooks\/ask-before-risky\.sh/);
    assert.ok(shown.detail.includes(ASK_BEFORE_RISKY), `the modal names the hook's source:\n${shown.detail}`);
    assert.deepEqual(choices(shown.buttons), ['Allow', 'Deny'], "a hook's ask offers Allow / Deny only");
    // Meanwhile the card waits for the person, and Hook Runs shows the hook's "ask".
    await toolCard('Bash: npm test', 'waiting-approval').waitFor();
    assert.equal(((await toolCard('Bash: npm test').locator('.tool-status').first().textContent()) ?? '').trim(), 'waiting for approval');
    await treeItem('PreToolUse · Bash · npm test')
      .filter({ hasText: /hooks? · ask$/ })
      .waitFor();
    await shot('e2e-ask-allow-1-modal');

    await clickDialogButton(shown.box, 'Allow');
    const card = await waitForToolCard('Bash: npm test', 'done');
    assert.equal(card.status, 'done');
    assert.match(card.result, /# pass 2/, `the result is the test run's output:\n${card.result}`);
    assert.match(card.verdict, /Allowed by you/);
    await waitForIdle();
    await expandResult(card.card);

    // An earlier session in the same window may list the same call: this one is among them.
    const occurrence = treeItem('PreToolUse · Bash · npm test').filter({ hasText: 'asked → allow' }).last();
    await occurrence.waitFor();
    await expandTreeItem(occurrence);
    const run = treeItem('ask-before-risky.sh').filter({ hasText: /asked → allow · \d/ });
    await run.waitFor();
    const item = await settledTreeItem(run, (i) => /codicon-question/.test(i.icon), 'the asked hook shows the question icon');
    assert.match(item.description, /^asked → allow · [\d.]+ m?s$/);
    // The other Bash hook ran too, and had nothing to say.
    assert.match((await readTreeItem(treeItem('block-rm-rf.sh'))).description, /^no decision · /);
    await shot('e2e-ask-allow-2-done');
  });

  it('the same ask answered with Deny: the card says denied and the model is told', async function () {
    await startScenario({
      name: 'e2e: ask → Deny',
      turns: [
        {
          text: 'Let me check that example.com is reachable.',
          toolCalls: [{ name: 'Bash', input: { command: 'curl -sI https://example.com', description: 'Check a website' } }],
        },
        { text: 'Understood: no network check, then.' },
      ],
    });
    await sendPrompt('Is example.com up?');

    const shown = await waitForDialog('Allow Bash for the main agent?');
    assert.match(shown.detail, /^\$ curl -sI https:\/\/example\.com$/m);
    assert.match(shown.detail, /Reason: this command reaches the network/);
    assert.ok(shown.detail.includes(ASK_BEFORE_RISKY), `the modal names the hook's source:\n${shown.detail}`);
    await shot('e2e-ask-deny-1-modal');
    await clickDialogButton(shown.box, 'Deny');

    const card = await waitForToolCard('Bash: curl -sI https://example.com', 'denied');
    assert.equal(card.status, 'denied');
    // What the model gets as the tool's result: who said no, and the hook's reason for asking.
    assert.match(card.result, /^The user denied Bash \(the hook asked: this command reaches the network\)/);
    assert.match(card.verdict, /you/);
    await waitForAssistantText('Understood: no network check, then.');
    await waitForIdle();
    await expandResult(card.card);
    // What the model was told is in the session's transcript (Claude Code's format), as the tool_result block.
    const told = latestTranscript()
      .split('\n')
      .filter((l) => l.includes('"type":"tool_result"'))
      .flatMap((l) => JSON.parse(l).message.content.filter((b) => b.type === 'tool_result'));
    assert.ok(
      told.some((r) => r.is_error === true && r.content === card.result),
      `the transcript has the denial as the tool result:\n${JSON.stringify(told, null, 1)}`,
    );

    const occurrence = treeItem('PreToolUse · Bash · curl -sI https://example.com');
    await occurrence.filter({ hasText: 'asked → deny' }).waitFor();
    await expandTreeItem(occurrence);
    const run = treeItem('ask-before-risky.sh').filter({ hasText: 'asked → deny' });
    await run.waitFor();
    await settledTreeItem(run, (i) => /codicon-circle-slash/.test(i.icon), 'the denied ask shows the blocked icon');
    await shot('e2e-ask-deny-2-done');
  });

  it('a deny hook blocks `rm -rf build`: the card says who blocked it and why, and build/ is untouched', async function () {
    const build = path.join(e2e().workspace, 'build');
    mkdirSync(build, { recursive: true });
    writeFileSync(path.join(build, 'greet.min.js'), 'export const greet=n=>`Hello, ${n.trim()||"world"}!`;\n');
    await startScenario({
      name: 'e2e: deny hook',
      turns: [
        {
          text: 'Now some cleanup of the build folder.',
          toolCalls: [{ name: 'Bash', input: { command: 'rm -rf build', description: 'Remove build output' } }],
        },
        { text: 'The hook blocked that; I will leave build/ alone.' },
      ],
    });
    await sendPrompt('Clean the build folder');

    const card = await waitForToolCard('Bash: rm -rf build', 'denied');
    assert.equal(card.status, 'denied');
    // "Blocked by PreToolUse hook `<source>`: <reason>" (the source may carry a note in parentheses).
    const who = BLOCK_RM_RF.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    assert.match(
      card.verdict,
      new RegExp(
        `^Blocked by PreToolUse hook ${who}( \\([^)]*\\))?: Blocked by \\.claude/hooks/block-rm-rf\\.sh: 'rm -rf' is not allowed in this project\\. Delete specific files instead\\.$`,
      ),
    );
    // The source is a code span in the rendered verdict line.
    assert.ok(((await card.card.locator(':scope > .tool-verdict code').first().textContent()) ?? '').startsWith(BLOCK_RM_RF));
    assert.match(card.result, /^Blocked by a PreToolUse hook: Blocked by \.claude\/hooks\/block-rm-rf\.sh/);
    await waitForAssistantText('The hook blocked that');
    await waitForIdle();
    assert.equal(await dialog('Allow Bash').count(), 0, 'a hook deny never reaches a person');
    assert.ok(existsSync(path.join(build, 'greet.min.js')), 'build/greet.min.js still exists');
    assert.match(readFileSync(path.join(build, 'greet.min.js'), 'utf8'), /Hello/);

    const occurrence = treeItem('PreToolUse · Bash · rm -rf build');
    await occurrence.filter({ hasText: '· deny' }).waitFor();
    await expandTreeItem(occurrence);
    const run = treeItem('block-rm-rf.sh').filter({ hasText: /deny · \d/ });
    await run.waitFor();
    await settledTreeItem(run, (i) => /codicon-circle-slash/.test(i.icon), 'the deny shows the blocked icon');
    await shot('e2e-deny-hook');
  });

  it('a slow hook shows a spinner in Hook Runs while it runs, then its decision', async function () {
    await startScenario({
      name: 'e2e: slow hook',
      turns: [
        { text: 'Let me read the greeting code.', toolCalls: [{ name: 'Read', input: { file_path: 'src/greet.js' } }] },
        { text: 'greet() trims the name.' },
      ],
    });
    // guard-secrets.sh sleeps 2 s, then waits while the hold file exists: the spinner stays in view
    // however slow the machine is, until the test has seen it.
    const hold = path.join(e2e().hookwiseHome, 'hold-guard-secrets');
    writeFileSync(hold, 'held by the slow-hook scenario\n');
    const occurrence = treeItem('PreToolUse · Read · src/greet.js');
    const run = treeItem('guard-secrets.sh');
    const statusItem = e2e().page.locator('.statusbar-item', { hasText: 'Hookwise' });
    try {
      await sendPrompt('What does greet do?');
      await occurrence.filter({ has: e2e().page.locator('.codicon-loading.codicon-modifier-spin') }).waitFor({ timeout: 15_000 });
      await expandTreeItem(occurrence);
      const running = await readTreeItem(run);
      assert.match(running.icon, /codicon-loading/);
      assert.match(running.icon, /codicon-modifier-spin/);
      assert.equal(running.description, 'running…');
      assert.equal(await toolCard('Read: src/greet.js', 'done').count(), 0, 'the Read waits for the hook');
      // The status bar says what the agent waits for: the hook, not the model.
      await statusItem.filter({ hasText: 'Hookwise: running PreToolUse hook' }).waitFor({ timeout: 5_000 });
      await shot('e2e-slow-hook-1-spinner');
    } finally {
      rmSync(hold, { force: true });
    }

    await run.filter({ hasText: /allow · [\d.]+ s/ }).waitFor({ timeout: 15_000 });
    await statusItem.filter({ hasNotText: 'running PreToolUse hook' }).waitFor({ timeout: 5_000 });
    // Read the row that shows the decision: the tree recycles row elements while it redraws.
    const done = await settledTreeItem(
      run.filter({ hasText: /allow · [\d.]+ s/ }),
      (i) => /codicon-pass/.test(i.icon) && /^allow · /.test(i.description),
      'the finished hook shows its decision icon',
    );
    // The run shows its own duration: at least the 2 s the hook sleeps (no upper bound: a busy machine is slower).
    const seconds = Number(/^allow · ([\d.]+) s$/.exec(done.description)?.[1]);
    assert.ok(seconds >= 1.9, `the run's time includes the hook's 2 s sleep: ${done.description}`);
    assert.doesNotMatch(done.icon, /codicon-modifier-spin/);
    // The occurrence sums up its runs: no spinner once its only run is done.
    await occurrence.filter({ hasText: '1 hook · allow' }).waitFor({ timeout: 5_000 });
    await settledTreeItem(occurrence, (i) => !/codicon-modifier-spin/.test(i.icon), 'the finished occurrence has no spinner');
    const card = await waitForToolCard('Read: src/greet.js', 'done');
    assert.match(card.result, /export function greet/);
    await waitForIdle();
    await shot('e2e-slow-hook-2-done');
  });

  it('a subagent appears nested: under its Agent card in the chat, under the main agent in Hook Runs', async function () {
    await startScenario({
      name: 'e2e: subagent',
      turns: [
        {
          text: 'I will hand the test review to an Explore subagent.',
          toolCalls: [
            { name: 'Agent', input: { description: 'Review the tests', prompt: 'Read test/greet.test.js and list what it covers.', subagent_type: 'Explore' } },
          ],
        },
        { text: 'Reading the test file.', toolCalls: [{ name: 'Read', input: { file_path: 'test/greet.test.js' } }] },
        { text: 'test/greet.test.js covers greeting by name and the fallback to world.' },
        { text: 'The subagent reviewed the tests: two cases, both for greet().' },
      ],
    });
    await sendPrompt('Review the tests with a subagent');

    const agentCard = await waitForToolCard('Agent: Explore: Review the tests', 'done', 30_000);
    assert.match(agentCard.result, /covers greeting by name/, "the subagent's answer is the Agent call's result");
    const section = agentCard.card.locator(':scope > .subagents > section.subagent');
    assert.equal(await section.getAttribute('aria-label'), 'Subagent Explore · Review the tests');
    const nestedRead = section.locator('section.tool-card[aria-label="Tool call Read: test/greet.test.js"][data-status="done"]');
    await nestedRead.waitFor();
    await section.locator('.message.assistant', { hasText: 'covers greeting by name' }).waitFor();
    // The main agent's own text stays outside the subagent's section.
    await waitForAssistantText('The subagent reviewed the tests');
    assert.equal(await section.locator('.message.assistant', { hasText: 'The subagent reviewed the tests' }).count(), 0);
    await waitForIdle();
    await chatFrame().locator('.message.assistant', { hasText: 'I will hand the test review' }).scrollIntoViewIfNeeded();

    const main = await readTreeItem(treeItem('main agent'));
    const sub = treeItem('Explore');
    await sub.first().waitFor();
    const subItem = await readTreeItem(sub);
    assert.equal(subItem.label, 'Explore');
    assert.equal(subItem.description, 'Review the tests');
    assert.equal(subItem.level, main.level + 1, 'the subagent is a child of the main agent');
    const read = treeItem('PreToolUse · Read · test/greet.test.js');
    const finishedRead = read.filter({ hasText: 'allow' });
    await finishedRead.waitFor({ timeout: 15_000 });
    await settledTreeItem(finishedRead, (i) => i.level === subItem.level + 1, "the subagent's hook runs are under the subagent");
    await waitUntil('the Hook Runs tree to settle', async () => (await treeItem('running…').count()) === 0);
    await shot('e2e-subagent');
  });
});
