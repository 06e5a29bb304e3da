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
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'mocha';
import { sendPrompt } from './chatHarness.mjs';
import { e2e, openInEditor, patchUserSettings, REPO_ROOT, runCommand, screenshot, waitUntil } from './harness.mjs';
import { expandTreeItem, hookRunsView, treeItem, treeSnapshot } from './hookRunsHarness.mjs';
import { reloadWorkbench, startScenario } from './workbenchHarness.mjs';

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
  // An earlier session's blocked call may be listed too (the history restores it): this one is among them.
  await occurrence.filter({ hasText: '· deny' }).first().waitFor({ timeout: 30_000 });
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
 * Right-clicks a row and returns the labels of its context menu (left open; Escape closes it).
 * @param {import('playwright-core').Locator} row
 */
async function contextMenuLabels(row) {
  const { page } = e2e();
  const items = page.locator('.monaco-menu .action-item .action-label[aria-label]');
  for (let attempt = 0; ; attempt++) {
    await row.first().click({ button: 'right' });
    const shown = await items
      .first()
      .waitFor({ state: 'visible', timeout: 5_000 })
      .then(
        () => true,
        () => false,
      );
    if (shown) break;
    if (attempt === 2) throw new Error(`no context menu:\n${await treeSnapshot()}`);
    await page.keyboard.press('Escape');
  }
  return items.evaluateAll((els) => els.map((el) => el.getAttribute('aria-label') ?? ''));
}

/**
 * The rendered Markdown preview showing now: explanations and sample-run results open as
 * previews, each in a tab of its own. A webview is two nested iframes; the host frame's URL names
 * the Markdown extension, and only the visible preview has its frames in the page.
 */
function previewFrame() {
  return e2e()
    .page.locator('iframe.webview.ready[src*="extensionId=vscode.markdown-language-features"]:visible')
    .last()
    .contentFrame()
    .locator('iframe#active-frame')
    .contentFrame();
}

/**
 * What a rendered page shows: its heading, its top-level list items (outcome in bold, the
 * command in code, the nested items as details), its code blocks and its text.
 * @typedef {{ heading: string, rows: {outcome: string, command: string, details: string[]}[], blocks: string[], text: string }} RenderedPage
 */

/**
 * Waits for the active tab titled like `title` to render and returns the page once `ready` accepts it.
 * @param {string} title part of the editor tab's label
 * @param {(page: RenderedPage) => boolean} ready
 * @returns {Promise<RenderedPage>}
 */
async function renderedPage(title, ready) {
  const { page } = e2e();
  await page.locator('.tabs-container .tab.active', { hasText: title }).waitFor({ timeout: 15_000 });
  return waitUntil(`the rendered "${title}" page`, async () => {
    const read = await previewFrame()
      .locator('body')
      .evaluate((body) => ({
        heading: body.querySelector('h1')?.textContent?.trim() ?? '',
        rows: [...body.querySelectorAll('li')]
          .filter((li) => li.parentElement?.parentElement?.tagName !== 'LI')
          .map((li) => ({
            outcome: li.querySelector('strong')?.textContent ?? '',
            command: li.querySelector('code')?.textContent ?? '',
            details: [...li.querySelectorAll('li')].map((d) => (d.textContent ?? '').trim()),
          })),
        blocks: [...body.querySelectorAll('pre')].map((pre) => pre.textContent ?? ''),
        text: body.innerText,
      }))
      .catch(() => undefined);
    return read && ready(read) ? read : undefined;
  });
}

/** The row of the hook from `source`. @param {RenderedPage['rows']} rows @param {string} source */
const rowFrom = (rows, source) => rows.find((r) => r.details.includes(`from ${source}`));

describe('Hook workbench (demo workspace hooks, Playground model)', function () {
  it('"Why These Hooks?" on a blocked Bash call: the deny hook ran with its decision, the Read hook was skipped (matcher vs `Bash`)', async function () {
    const occurrence = await blockedRmRf();
    await contextMenu(occurrence, 'Why These Hooks?');
    const why = await renderedPage('Why these hooks - PreToolUse', (p) => p.blocks.length > 0 && p.rows.length > 0);
    assert.equal(why.heading, 'Why these hooks? PreToolUse (Bash)');
    const rows = why.rows;
    const deny = rowFrom(rows, BLOCK_RM_RF);
    assert.ok(deny, `the block-rm-rf hook is listed:\n${why.text}`);
    assert.equal(deny.outcome, 'ran');
    assert.match(deny.details[0] ?? '', /^ran: deny — Blocked by \.claude\/hooks\/block-rm-rf\.sh: 'rm -rf' is not allowed in this project/);
    assert.deepEqual(
      [rowFrom(rows, ASK_BEFORE_RISKY)?.outcome, rowFrom(rows, ASK_BEFORE_RISKY)?.details[0]],
      ['ran', 'ran: no decision (ok)'],
      'the other Bash hook ran and had nothing to say',
    );
    const read = rowFrom(rows, GUARD_SECRETS);
    assert.deepEqual([read?.outcome, read?.details[0]], ['skipped', 'matcher Read does not match tool_name Bash']);
    assert.ok(
      why.blocks.some((b) => b.includes('"command": "rm -rf build"')),
      'the input the hooks saw is shown',
    );
    await shot('e2e-workbench-why-these-hooks', 'why-these-hooks');

    // Explain Hooks… from the palette: the same list for a call that has not happened, nothing run.
    const { page } = e2e();
    const quick = page.locator('.quick-input-widget input');
    // A quick pick closes when an editor takes the focus (the preview above may still be settling):
    // the whole flow starts again then, as a user would, at most 3 times.
    for (let attempt = 1; ; attempt++) {
      try {
        // Not runCommand: that waits for the palette to close, and this command opens its own quick pick at once.
        await page.keyboard.press('Control+Shift+P');
        await quick.fill('>Hookwise: Explain Hooks…', { timeout: 7_500 });
        await page.locator('.quick-input-widget .monaco-list-row.focused', { hasText: 'Hookwise: Explain Hooks…' }).first().waitFor({ timeout: 7_500 });
        await page.keyboard.press('Enter');
        await page.locator('.quick-input-widget input[placeholder="Which event?"]').waitFor({ timeout: 7_500 });
        await quick.fill('PreToolUse', { timeout: 7_500 });
        await page
          .locator('.quick-input-widget .monaco-list-row', { hasText: /^PreToolUse/ })
          .first()
          .waitFor({ timeout: 7_500 });
        await page.keyboard.press('Enter');
        await page.locator('.quick-input-widget', { hasText: 'Explain Hooks: tool' }).waitFor({ timeout: 7_500 });
        await quick.fill('Read', { timeout: 7_500 });
        await page.keyboard.press('Enter');
        await page.locator('.quick-input-widget', { hasText: 'Explain Hooks: tool_input' }).waitFor({ timeout: 7_500 });
        await quick.fill('{"file_path": ".env"}', { timeout: 7_500 });
        await page.keyboard.press('Enter');
        break;
      } catch (error) {
        if (attempt >= 3) throw error;
        await page.keyboard.press('Escape');
      }
    }
    const explained = (await renderedPage('Why these hooks - PreToolUse', (p) => p.heading === 'Explain Hooks: PreToolUse (Read)')).rows;
    // The demo's three PreToolUse hooks (an extension installed in the test host may add its own).
    assert.deepEqual(
      [BLOCK_RM_RF, ASK_BEFORE_RISKY, GUARD_SECRETS].map((source) => [rowFrom(explained, source)?.outcome, rowFrom(explained, source)?.details[0]]),
      [
        ['skipped', 'matcher Bash does not match tool_name Read'],
        ['skipped', 'matcher Bash does not match tool_name Read'],
        ['would run', 'matcher Read matches tool_name Read'],
      ],
    );
    // Each explanation has a tab of its own: the first one is still open.
    assert.equal(await page.locator('.tabs-container .tab', { hasText: 'Why these hooks - PreToolUse' }).count(), 2);
    await shot('e2e-workbench-explain-hooks', 'explain-hooks');

    // The run row of the hook that blocked offers Disable Hook, not Enable Hook (it is on).
    await expandTreeItem(occurrence);
    const run = treeItem('block-rm-rf.sh');
    const menu = await contextMenuLabels(run);
    assert.ok(menu.includes('Disable Hook') && !menu.includes('Enable Hook'), `the run row's menu: ${menu.join(', ')}`);
    await page.keyboard.press('Escape');
    await runCommand('View: Close All Editors');
  });

  it('the CodeLens above the block-rm-rf hook in .claude/settings.json shows its run and last decision', async function () {
    await blockedRmRf();
    const { page } = e2e();
    await openInEditor('.claude/settings.json', 'settings.json');
    const lens = page.locator('.monaco-editor .codelens-decoration', { hasText: /\bruns? · last: deny\b/ });
    await lens.first().waitFor({ timeout: 30_000 });
    const text = (await lens.first().innerText()).replace(/\s+/g, ' ');
    assert.match(text, /Run with Sample Input…/, `the lens offers its actions: ${text}`);
    assert.match(text, /Disable/);
    await shot('e2e-workbench-settings-codelens', 'settings-codelens');

    await runCommand('View: Close All Editors');
  });

  it('Run with Sample Input… opens the input in a JSON editor; after an edit its lens runs the hook and the full result opens rendered beside it', async function () {
    const { page } = e2e();
    await reloadWorkbench();
    // Earlier tests ran block-rm-rf, and the history may bring those runs back after the reload
    // (Run with Sample Input… then starts from the last one): start from no runs.
    await runCommand('Hookwise: Clear Hook Runs');
    await openInEditor('.claude/settings.json', 'settings.json');
    await page.locator('.monaco-editor .codelens-decoration', { hasText: 'no runs yet in this workspace' }).first().waitFor({ timeout: 30_000 });
    // The first hook of the file is block-rm-rf; with no run yet its input is a sample for PreToolUse on Bash.
    const sample = page.locator('.monaco-editor .codelens-decoration a', { hasText: 'Run with Sample Input…' });
    await sample.first().waitFor({ timeout: 30_000 });
    await sample.first().click();
    await page.locator('.tabs-container .tab.active', { hasText: '.hook-input.json' }).waitFor({ timeout: 15_000 });
    const run = page.locator('.monaco-editor .codelens-decoration a', { hasText: 'Run Hook with This Input' });
    await run.first().waitFor({ timeout: 30_000 });

    // The user makes it the call to try: the sample's command `npm test` found and typed over with `rm -rf build`.
    const lines = page.locator('.editor-group-container.active .monaco-editor .view-lines').first();
    // Monaco renders spaces as no-break spaces.
    assert.match((await lines.innerText()).replace(/\u00a0/g, ' '), /"command": "npm test"/);
    await lines.click();
    await page.keyboard.press('Control+F');
    await page.keyboard.type('npm test');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    await page.keyboard.type('rm -rf build');
    await waitUntil('the edited command', async () => (await lines.innerText()).replace(/\u00a0/g, ' ').includes('"command": "rm -rf build"'));
    await run.first().click();
    const result = await renderedPage('Sample run - PreToolUse', (p) => p.heading === 'Run with Sample Input: PreToolUse' && /Exit code/.test(p.text));
    assert.match(result.text, /Decision\s+deny/);
    assert.match(result.text, /Exit code\s+2/);
    assert.ok(
      result.blocks.some((b) => b.includes("Blocked by .claude/hooks/block-rm-rf.sh: 'rm -rf' is not allowed")),
      `stderr is shown:\n${result.text}`,
    );
    assert.ok(
      result.blocks.some((b) => b.includes('"command": "rm -rf build"')),
      'the edited input is the one that ran',
    );
    await shot('e2e-workbench-sample-run', 'sample-run');
    await runCommand('View: Close All Editors');
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
    // Whatever the panel showed before (an earlier suite's view), bring up Test Results.
    await runCommand('Focus on Test Results View');
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
    const restoreSettings = await patchUserSettings({ 'hookwise.hookRuns.keepHistory': true });
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
      restoreSettings();
    }
  });
});
