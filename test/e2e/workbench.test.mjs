// @ts-check
/**
 * E2E for the hook workbench, as a user works on hooks: "Why These Hooks?" on a real event in
 * Hook Runs, Hookwise: Explain Hooks… from the command palette, and Save as Test Case → the
 * case in the Test Explorer, run and passed. The demo workspace's own project hooks
 * (.claude/settings.json: two Bash hooks, one of which blocks `rm -rf`, and a Read hook) and
 * the Playground model; each scenario reloads the workbench.
 *
 * With HOOKWISE_DOCS_SCREENSHOTS=1 the README's screenshots (docs/screenshots/) are refreshed
 * from this run; otherwise they only land in test-results/.
 */
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'mocha';
import {
  e2e,
  expandTreeItem,
  hookRunsView,
  reloadWorkbench,
  REPO_ROOT,
  runCommand,
  screenshot,
  sendPrompt,
  startScenario,
  treeItem,
  treeSnapshot,
  waitUntil,
} from './harness.mjs';

const BLOCK_RM_RF = '.claude/settings.json › hooks.PreToolUse[0].hooks[0]';
const ASK_BEFORE_RISKY = '.claude/settings.json › hooks.PreToolUse[1].hooks[0]';
const GUARD_SECRETS = '.claude/settings.json › hooks.PreToolUse[2].hooks[0]';

/** The scenario both tests start from: the model runs `rm -rf build`, the project's hook blocks it. */
const RM_RF_BUILD = {
  name: 'e2e: workbench',
  turns: [
    { text: 'Cleaning the build folder.', toolCalls: [{ name: 'Bash', input: { command: 'rm -rf build', description: 'Remove build output' } }] },
    { text: 'The hook blocked that; build/ stays.' },
  ],
};

/**
 * Screenshot to test-results/, and to docs/screenshots/<docName>.png when asked to refresh the docs.
 * @param {string} name
 * @param {string} docName
 */
async function shot(name, docName) {
  const file = await screenshot(name);
  console.log(`      screenshot: ${file}`);
  if (process.env.HOOKWISE_DOCS_SCREENSHOTS === '1') copyFileSync(file, path.join(REPO_ROOT, 'docs', 'screenshots', `${docName}.png`));
}

/** Runs the scenario and waits until Hook Runs shows the blocked occurrence; returns its row. */
async function blockedRmRf() {
  await startScenario(RM_RF_BUILD);
  await sendPrompt('Clean the build folder');
  // Hook Runs is what these tests work on: the blocked call, then the turn's Stop hook (the agent is done).
  const occurrence = treeItem('PreToolUse · Bash · rm -rf build');
  await occurrence.filter({ hasText: '· deny' }).waitFor({ timeout: 30_000 });
  await treeItem(/^Stop/).first().waitFor({ timeout: 30_000 });
  return occurrence;
}

/**
 * Right-clicks a row and picks `label` from its context menu, as a user would.
 * @param {import('playwright-core').Locator} row
 * @param {string} label
 */
async function contextMenu(row, label) {
  const { page } = e2e();
  const item = page.locator('.monaco-menu .action-item', { has: page.locator(`.action-label[aria-label=${JSON.stringify(label)}]`) }).first();
  // A live tree re-renders rows as runs settle; a right-click that lands mid-render opens no menu, so retry.
  for (let attempt = 0; ; attempt++) {
    await row.first().click({ button: 'right' });
    const shown = await item.waitFor({ state: 'visible', timeout: 5_000 }).then(
      () => true,
      () => false,
    );
    if (shown) break;
    if (attempt === 2) throw new Error(`no "${label}" in the context menu:\n${await treeSnapshot()}`);
    await page.keyboard.press('Escape');
  }
  await item.hover();
  await item.click();
  await item.waitFor({ state: 'hidden' });
}

/**
 * The active editor's text, one entry per document line: wrapped view lines are joined back
 * using the line numbers in the gutter (a wrapped continuation has none).
 */
async function activeEditorLines() {
  return e2e()
    .page.locator('.editor-group-container.active .monaco-editor')
    .first()
    .evaluate((editor) => {
      const topOf = (/** @type {any} */ el) => parseFloat(el?.style?.top || '0');
      const starts = new Set(
        [...editor.querySelectorAll('.margin-view-overlays .line-numbers')]
          .filter((el) => (el.textContent ?? '').trim() !== '')
          .map((el) => topOf(el.parentElement)),
      );
      const rows = [...editor.querySelectorAll('.view-lines .view-line')]
        .map((el) => ({ top: topOf(el), text: (el.textContent ?? '').replace(/\u00a0/g, ' ') }))
        .sort((a, b) => a.top - b.top);
      /** @type {string[]} */
      const lines = [];
      for (const row of rows) {
        if (lines.length === 0 || starts.size === 0 || starts.has(row.top)) lines.push(row.text);
        // A wrapped continuation is indented; the space at the break stays on the row before.
        else lines[lines.length - 1] += row.text.replace(/^\s+/, '');
      }
      return lines;
    });
}

/**
 * Waits for an open document titled like `title` and returns its lines once `ready` accepts them.
 * @param {string} title part of the editor tab's label
 * @param {(lines: string[]) => boolean} ready
 */
async function documentLines(title, ready) {
  const { page } = e2e();
  await page.locator('.tabs-container .tab.active', { hasText: title }).waitFor({ timeout: 15_000 });
  return waitUntil(`the "${title}" document`, async () => {
    const lines = await activeEditorLines();
    return ready(lines) ? lines : undefined;
  });
}

/**
 * The list items of an explanation: `- **outcome** — command` with its indented detail lines.
 * @param {string[]} lines
 */
function explanationRows(lines) {
  /** @type {{outcome: string, command: string, details: string[]}[]} */
  const rows = [];
  for (const line of lines) {
    const head = /^- \*\*(ran|would run|skipped)\*\* — (.*)$/.exec(line);
    if (head) rows.push({ outcome: head[1] ?? '', command: head[2] ?? '', details: [] });
    else if (/^ {2}- /.test(line) && rows.length > 0) rows[rows.length - 1]?.details.push(line.slice(4));
    else if (line.startsWith('## ')) break;
  }
  return rows;
}

/** The row of the hook from `source`. @param {ReturnType<typeof explanationRows>} rows @param {string} source */
const rowFrom = (rows, source) => rows.find((r) => r.details.includes(`from ${source}`));

describe('Hook workbench (demo workspace hooks, Playground model)', function () {
  it('"Why These Hooks?" on a blocked Bash call: the deny hook ran with its decision, the Read hook was skipped (matcher vs `Bash`)', async function () {
    const occurrence = await blockedRmRf();
    await contextMenu(occurrence, 'Why These Hooks?');
    const lines = await documentLines('Why these hooks - PreToolUse', (l) => l.some((x) => x.startsWith('## Input')));
    assert.equal(lines[0], '# Why these hooks? PreToolUse (Bash)');
    const rows = explanationRows(lines);
    const deny = rowFrom(rows, BLOCK_RM_RF);
    assert.ok(deny, `the block-rm-rf hook is listed:\n${lines.join('\n')}`);
    assert.equal(deny.outcome, 'ran');
    assert.match(deny.details[0] ?? '', /^ran: deny — Blocked by \.claude\/hooks\/block-rm-rf\.sh: 'rm -rf' is not allowed in this project/);
    assert.deepEqual(
      [rowFrom(rows, ASK_BEFORE_RISKY)?.outcome, rowFrom(rows, ASK_BEFORE_RISKY)?.details[0]],
      ['ran', 'ran: no decision (ok)'],
      'the other Bash hook ran and had nothing to say',
    );
    const read = rowFrom(rows, GUARD_SECRETS);
    assert.deepEqual([read?.outcome, read?.details[0]], ['skipped', 'matcher `Read` does not match tool_name `Bash`']);
    assert.ok(
      lines.some((l) => l.includes('"command": "rm -rf build"')),
      'the input the hooks saw is shown',
    );
    await shot('e2e-workbench-why-these-hooks', 'why-these-hooks');

    // Explain Hooks… from the palette: the same list for a call that has not happened, nothing run.
    const { page } = e2e();
    // Not runCommand: that waits for the palette to close, and this command opens its own quick pick at once.
    await page.keyboard.press('Control+Shift+P');
    const quick = page.locator('.quick-input-widget input');
    await quick.fill('>Hookwise: Explain Hooks…');
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Hookwise: Explain Hooks…' }).first().waitFor();
    await page.keyboard.press('Enter');
    await page.locator('.quick-input-widget input[placeholder="Which event?"]').waitFor();
    await quick.fill('PreToolUse');
    await page
      .locator('.quick-input-widget .monaco-list-row', { hasText: /^PreToolUse/ })
      .first()
      .waitFor();
    await page.keyboard.press('Enter');
    await page.locator('.quick-input-widget', { hasText: 'Explain Hooks: tool' }).waitFor();
    await quick.fill('Read');
    await page.keyboard.press('Enter');
    await page.locator('.quick-input-widget', { hasText: 'Explain Hooks: tool_input' }).waitFor();
    await quick.fill('{"file_path": ".env"}');
    await page.keyboard.press('Enter');
    const explained = explanationRows(await documentLines('Why these hooks - PreToolUse', (l) => l[0] === '# Explain Hooks: PreToolUse (Read)'));
    // The demo's three PreToolUse hooks (an extension installed in the test host may add its own).
    assert.deepEqual(
      [BLOCK_RM_RF, ASK_BEFORE_RISKY, GUARD_SECRETS].map((source) => [rowFrom(explained, source)?.outcome, rowFrom(explained, source)?.details[0]]),
      [
        ['skipped', 'matcher `Bash` does not match tool_name `Read`'],
        ['skipped', 'matcher `Bash` does not match tool_name `Read`'],
        ['would run', 'matcher `Read` matches tool_name `Read`'],
      ],
    );
    await shot('e2e-workbench-explain-hooks', 'explain-hooks');
  });

  it('the CodeLens above the block-rm-rf hook in .claude/settings.json shows its run and last decision', async function () {
    await blockedRmRf();
    const { page } = e2e();
    await page.keyboard.press('Control+P');
    await page.locator('.quick-input-widget input').fill('.claude/settings.json');
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'settings.json' }).first().waitFor();
    await page.keyboard.press('Enter');
    const lens = page.locator('.monaco-editor .codelens-decoration', { hasText: /\bruns? · last: deny\b/ });
    await lens.first().waitFor({ timeout: 30_000 });
    const text = (await lens.first().innerText()).replace(/\s+/g, ' ');
    assert.match(text, /Run with Sample Input…/, `the lens offers its actions: ${text}`);
    assert.match(text, /Disable/);
    await shot('e2e-workbench-settings-codelens', 'settings-codelens');
  });

  it('Save as Test Case on that event writes .hookwise/hook-tests/<name>.json; the Test Explorer lists it and it passes', async function () {
    const { page, workspace } = e2e();
    const occurrence = await blockedRmRf();
    await contextMenu(occurrence, 'Save as Test Case…');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    await input.fill('rm-rf build is blocked');
    await page.keyboard.press('Enter');
    const file = path.join(workspace, '.hookwise', 'hook-tests', 'rm-rf-build-is-blocked.json');
    await waitUntil(`${file} to be written`, async () => existsSync(file));
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    assert.equal(saved.name, 'rm-rf build is blocked');
    assert.equal(saved.event, 'PreToolUse');
    assert.deepEqual(saved.input.tool_input, { command: 'rm -rf build', description: 'Remove build output' });
    assert.equal(saved.expect.decision, 'deny');
    assert.match(saved.expect.reason, /rm -rf/);

    // Save opens the case in an editor: let it settle first, or the palette's Enter lands in the file.
    await page.locator('.tabs-container .tab.active', { hasText: 'rm-rf-build-is-blocked.json' }).waitFor({ timeout: 15_000 });
    const explorer = page.locator('.test-explorer');
    for (let attempt = 0; !(await explorer.isVisible()); attempt++) {
      if (attempt === 3) throw new Error('the Test Explorer did not open');
      await runCommand('Testing: Focus on Test Explorer View');
      await explorer.waitFor({ state: 'visible', timeout: 5_000 }).catch(() => undefined);
    }
    const row = explorer.locator('.monaco-list-row', { hasText: 'rm-rf build is blocked' });
    await row.first().waitFor({ timeout: 30_000 });
    // With one controller VS Code may show its items at the top level; when it shows the controller, the case is under it.
    const controller = explorer.locator('.monaco-list-row', { hasText: 'Hookwise Hook Tests' });
    if ((await controller.count()) > 0)
      assert.equal(Number(await row.first().getAttribute('aria-level')), Number(await controller.first().getAttribute('aria-level')) + 1);

    await row.first().hover();
    await row.first().locator('.action-label[aria-label^="Run Test"]').click();
    await waitUntil(
      'the case to show passed',
      async () => /testing-passed-icon/.test((await row.first().locator('.computed-state').getAttribute('class')) ?? ''),
      30_000,
    ).catch(async (error) => {
      const html = await explorer.innerText().catch(() => '');
      throw new Error(`${error instanceof Error ? error.message : String(error)}\n${html}\n${await treeSnapshot()}`);
    });
    // The explorer's summary: "1/1" (passed of run) and the time it took.
    const summary = await waitUntil('the result summary', async () => {
      const text = (await explorer.locator('.result-summary').first().innerText()).replace(/\s+/g, ' ').trim();
      return /^1\/1 [\d.]+ ?m?s$/.test(text) ? text : undefined;
    });
    assert.ok(summary);
    // The Test Results panel reads the same: the run of the Hookwise controller, the case passed,
    // and its output says what the hooks decided.
    const result = page.locator('.part.panel .monaco-list-row', { hasText: 'rm-rf build is blocked', has: page.locator('[class*="testing-passed-icon"]') });
    await result.first().waitFor({ timeout: 15_000 });
    await waitUntil('the case output in Test Results', async () =>
      /✓ rm-rf build is blocked \(decision: deny\)/.test(
        (await page
          .locator('.part.panel .xterm-rows')
          .first()
          .innerText()
          .catch(() => '')) ?? '',
      ),
    );
    await page.locator('.part.panel .monaco-list-row', { hasText: 'Hookwise hook tests' }).first().waitFor();
    await shot('e2e-workbench-hook-test-explorer', 'hook-test-explorer');
  });

  it('Hook Runs come back after a window reload (hookwise.hookRuns.keepHistory on): the blocked call is still listed under its session', async function () {
    // The e2e host turns the history off (every other scenario reads Hook Runs from empty); this one turns it on.
    const settingsFile = path.join(e2e().userDataDir, 'User', 'settings.json');
    const original = readFileSync(settingsFile, 'utf8');
    writeFileSync(settingsFile, JSON.stringify({ ...JSON.parse(original), 'hookwise.hookRuns.keepHistory': true }, null, 2));
    try {
      await blockedRmRf(); // its reload activates the extension with the history on
      const sessions = hookRunsView().locator('.monaco-list-row[aria-level="1"]');
      // The live session is the expanded one.
      const mine = (await hookRunsView().locator('.monaco-list-row[aria-level="1"][aria-expanded="true"]').first().innerText()).replace(/\s+/g, ' ').trim();
      assert.ok(mine.startsWith('Session'), `the live session row:\n${await treeSnapshot()}`);
      await reloadWorkbench(); // a fresh extension host: only the history can bring the runs back
      await sessions.first().waitFor({ timeout: 30_000 });
      const restored = sessions.filter({ hasText: mine.split(' ').at(-1) ?? mine });
      assert.equal(await restored.count(), 1, `${mine} is restored:\n${await treeSnapshot()}`);
      await expandTreeItem(restored);
      await expandTreeItem(hookRunsView().locator('.monaco-list-row[aria-level="2"]', { hasText: 'main agent' }));
      await treeItem('PreToolUse · Bash · rm -rf build').filter({ hasText: '· deny' }).first().waitFor();
      console.log(`      screenshot: ${await screenshot('e2e-workbench-history-after-reload')}`);
    } finally {
      writeFileSync(settingsFile, original);
    }
  });
});
