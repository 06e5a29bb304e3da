// @ts-check
/**
 * E2E of the chat a developer uses all day: the editor's selection attached with
 * **Hookwise: Add Selection to Chat** reaches the model, built-in limit hooks stay out of Hook
 * Runs unless asked for, the chat opens in an editor tab with the same conversation, and
 * axe-core (the real library, injected into the webview frame) finds no serious or critical
 * violations, in the default theme and in Light, Dark and both High Contrast themes (picked
 * with Preferences: Color Theme, as a user would). Runs after scenarios.test.mjs (the file name sorts after it) so the first-run
 * checks of hookwise.test.mjs see a fresh window. Screenshots: test-results/e2e-chat-*.png.
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'mocha';
import { chatFrame, sendPrompt, waitForAssistantText, waitForIdle } from './chatHarness.mjs';
import { clickDialogButton, e2e, latestTranscript, openInEditor, REPO_ROOT, runCommand, screenshot, waitForDialog, waitUntil } from './harness.mjs';
import { hookRunsView, treeItem, treeSnapshot } from './hookRunsHarness.mjs';
import { startScenario } from './workbenchHarness.mjs';

/** @param {string} name */
async function shot(name) {
  console.log(`      screenshot: ${await screenshot(name)}`);
}

/** Opens a workspace file with Quick Open and selects its first two lines. @param {string} name */
async function openAndSelectTwoLines(name) {
  const { page } = e2e();
  await openInEditor(name);
  await page.locator('.editor-instance .monaco-editor.focused').first().locator('.view-lines').click();
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('Shift+ArrowDown');
  await page.keyboard.press('Shift+ArrowDown');
}

/** The webview frames: the side bar chat (the secondary side bar, right of the editor) first, then the editor-tab chat. */
async function chatFrames() {
  const { page } = e2e();
  const frames = page.locator('iframe.webview.ready');
  const count = await frames.count();
  /** @type {{x: number, index: number}[]} */
  const boxes = [];
  for (let i = 0; i < count; i++) boxes.push({ x: (await frames.nth(i).boundingBox())?.x ?? 0, index: i });
  return boxes.sort((a, b) => b.x - a.x).map((b) => page.frameLocator('iframe.webview.ready').nth(b.index).frameLocator('iframe#active-frame'));
}

/** Runs axe-core in the chat's content frame; returns the serious and critical violations. @param {number} nth */
async function axeViolations(nth = 0) {
  const { page } = e2e();
  const outer = await (await page.locator('iframe.webview.ready').nth(nth).elementHandle())?.contentFrame();
  const inner = await (await outer?.waitForSelector('iframe#active-frame'))?.contentFrame();
  assert.ok(inner, 'the chat content frame');
  // Evaluated through the debugger protocol, so the webview's strict CSP (nonce scripts only) does not stop it.
  await inner.evaluate(readFileSync(path.join(REPO_ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8'));
  /** @type {{id: string, impact: string | null, help: string, nodes: string[]}[]} */
  const violations = await inner.evaluate(async () => {
    const g = /** @type {any} */ (globalThis);
    const result = await g.axe.run(g.document, { resultTypes: ['violations'] });
    return result.violations.map((/** @type {any} */ v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((/** @type {any} */ n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`),
    }));
  });
  return { all: violations, serious: violations.filter((v) => v.impact === 'serious' || v.impact === 'critical') };
}

/**
 * The themes the chat is checked in, by the name the theme picker shows ("Default Light Modern",
 * "Default Dark Modern", "Default High Contrast" and "Default High Contrast Light" in settings),
 * and the kind the webview's body then has (VS Code sets `data-vscode-theme-kind` and `-name`).
 */
const THEMES = [
  { kind: 'vscode-light', name: 'Light Modern' },
  { kind: 'vscode-dark', name: 'Dark Modern' },
  { kind: 'vscode-high-contrast', name: 'Dark High Contrast' },
  { kind: 'vscode-high-contrast-light', name: 'Light High Contrast' },
];

const userSettingsFile = () => path.join(e2e().userDataDir, 'User', 'settings.json');

/** The side bar chat's theme, as its webview sees it. */
async function chatTheme() {
  return chatFrame()
    .locator('body')
    .evaluate((body) => ({ kind: body.dataset['vscodeThemeKind'] ?? '', name: body.dataset['vscodeThemeName'] ?? '' }));
}

/**
 * Picks a colour theme the way a user does (Preferences: Color Theme, type its name, Enter;
 * the workbench writes `workbench.colorTheme`) and waits until the chat webview has it and the
 * workbench has written the user settings: a write still on its way would land on whatever the
 * next suite patches into that file, and undo it.
 * @param {{kind: string, name: string}} theme
 */
async function switchTheme(theme) {
  const { page } = e2e();
  const current = await chatTheme();
  if (current.kind === theme.kind && current.name === theme.name) return;
  const settingsBefore = readFileSync(userSettingsFile(), 'utf8');
  await page.keyboard.press('Control+Shift+P');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill('>Preferences: Color Theme');
  // A click on the exact entry: the palette may rank "Browse Color Themes in Marketplace" first.
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Preferences: Color Theme' }).first().click();
  await page.locator('.quick-input-widget input[placeholder^="Select Color Theme"]').waitFor({ state: 'visible' });
  await input.fill(theme.name);
  // The filter leaves the theme itself first (a substring match) and "Browse Additional Color Themes…", so Enter picks it.
  const rows = page.locator('.quick-input-widget .monaco-list-row');
  await waitUntil(`the theme picker to show only ${theme.name}`, async () => {
    const themes = (await rows.allInnerTexts()).map((t) => t.trim()).filter((t) => !t.startsWith('Browse Additional'));
    return themes.length === 1 && themes[0]?.startsWith(theme.name) && (await rows.first().innerText()).trim().startsWith(theme.name);
  });
  await page.keyboard.press('Enter');
  await input.waitFor({ state: 'hidden' });
  /** @type {{kind?: string, name?: string}} */
  let seen = {};
  await waitUntil(`the chat to show the theme ${JSON.stringify(theme)}`, async () => {
    seen = await chatTheme();
    return seen.kind === theme.kind && seen.name === theme.name;
  }).catch((/** @type {Error} */ error) => {
    throw new Error(`${error.message}; the chat shows ${JSON.stringify(seen)}`);
  });
  await waitUntil(`the workbench to write ${theme.name} into the user settings`, async () => {
    // It truncates, then writes: a changed file that parses is the finished write.
    const text = readFileSync(userSettingsFile(), 'utf8');
    return text !== settingsBefore && JSON.parse(text) !== null;
  });
}

/**
 * Runs axe in every theme of THEMES; returns the serious or critical violations per theme.
 * @param {string} state what the chat shows, for the screenshots and the report
 */
async function axeInEveryTheme(state) {
  /** @type {Record<string, unknown[]>} */
  const found = {};
  for (const theme of THEMES) {
    await switchTheme(theme);
    const { serious, all } = await axeViolations(0);
    console.log(`      axe, ${state}, ${theme.name}: ${all.length} violation(s) in all, ${serious.length} serious or critical`);
    await shot(`e2e-chat-axe-${state}-${theme.kind}`);
    if (serious.length > 0) found[theme.name] = serious;
  }
  return found;
}

describe('Chat: context, less noise, editor tab, accessibility', function () {
  /** @type {{settings: string, theme: {kind: string, name: string}} | undefined} the user settings and theme before the theme test, put back after it */
  let themeBefore;
  after(async function () {
    rmSync(path.join(e2e().workspace, 'AXE-NOTES.md'), { force: true });
    if (!themeBefore) return;
    await switchTheme(themeBefore.theme);
    writeFileSync(userSettingsFile(), themeBefore.settings);
  });

  it('Add Selection to Chat attaches the selected lines; they reach the model with their path and line range', async function () {
    await startScenario({
      name: 'chat context',
      turns: [{ text: 'Those two lines open the doc comment of greet.' }, { text: 'Same conversation, now in an editor tab.' }],
    });
    await openAndSelectTwoLines('greet.js');
    await runCommand('Hookwise: Add Selection to Chat');
    const chip = chatFrame().locator('#attachments .chip:not(.offered)', { hasText: 'greet.js:1-2' });
    await chip.waitFor({ state: 'visible' });
    await shot('e2e-chat-1-selection-chip');

    await sendPrompt('What do these lines do?');
    await chatFrame().locator('.message.user .chip', { hasText: 'greet.js:1-2' }).waitFor({ state: 'visible' });
    await waitForAssistantText('Those two lines open the doc comment of greet.');
    await waitForIdle();
    assert.equal(await chatFrame().locator('#attachments .chip:not(.offered)').count(), 0, 'the attachments went with the prompt');
    const sent = path.join(e2e().workspace, 'src', 'greet.js');
    const transcript = latestTranscript();
    assert.ok(
      transcript.includes(`The user selected the lines 1 to 2 from ${sent}:\\n/**\\n * Greets someone by name, politely.`),
      `the model was sent the selection with its path and lines:\n${transcript.slice(0, 3000)}`,
    );
    await shot('e2e-chat-2-selection-sent');
  });

  it('built-in limit hooks are hidden in Hook Runs by default; "Show Built-in Hooks" shows them', async function () {
    // The earlier turn's Stop row shows that its session is listed and open; the demo has no UserPromptSubmit hook.
    await treeItem('Stop').first().waitFor({ state: 'visible' });
    assert.equal(await treeItem('BeforeStep').count(), 0, `no BeforeStep row by default:\n${await treeSnapshot()}`);
    await runCommand('Hookwise: Show Built-in Hooks');
    await treeItem('BeforeStep').first().waitFor({ state: 'visible' });
    await shot('e2e-chat-3-builtin-shown');
    await runCommand('Hookwise: Hide Built-in Hooks');
    await waitUntil('built-in hooks hidden again', async () => (await treeItem('BeforeStep').count()) === 0, 10_000);
    assert.ok(await hookRunsView().isVisible());
  });

  it('Open Chat in Editor shows the same conversation in a tab; a prompt sent there shows in the side bar too', async function () {
    const { page } = e2e();
    await runCommand('Hookwise: Open Chat in Editor');
    await page.locator('.tabs-container .tab', { hasText: 'Hookwise Chat' }).waitFor({ state: 'visible' });
    await waitUntil('two chat webviews', async () => (await page.locator('iframe.webview.ready').count()) === 2);
    const [side, tab] = await chatFrames();
    assert.ok(side && tab);
    await tab.locator('.message.user', { hasText: 'What do these lines do?' }).waitFor({ state: 'visible' });
    await tab.getByRole('textbox', { name: /^Prompt/ }).fill('And in the tab?');
    await tab.getByRole('textbox', { name: /^Prompt/ }).press('Enter');
    await tab.locator('.message.assistant', { hasText: 'Same conversation, now in an editor tab.' }).waitFor({ state: 'visible' });
    await side.locator('.message.user', { hasText: 'And in the tab?' }).waitFor({ state: 'visible' });
    await side.locator('.message.assistant', { hasText: 'Same conversation, now in an editor tab.' }).waitFor({ state: 'visible' });
    await tab.locator('#send').waitFor({ state: 'visible' });
    await shot('e2e-chat-4-editor-tab');
    const inTab = await axeViolations(1);
    assert.deepEqual(inTab.serious, [], `axe: serious or critical violations in the editor-tab chat:\n${JSON.stringify(inTab.serious, null, 1)}`);
    await runCommand('View: Close All Editors');
    await waitUntil('one chat webview again', async () => (await page.locator('iframe.webview.ready').count()) === 1);
  });

  it('axe-core finds no serious or critical violations in the side bar chat; j/k move between messages and cards', async function () {
    const { serious, all } = await axeViolations(0);
    console.log(`      axe: ${all.length} violation(s) in all, ${serious.length} serious or critical`);
    assert.deepEqual(serious, [], `axe: serious or critical violations:\n${JSON.stringify(serious, null, 1)}`);
    const first = chatFrame().locator('.message').first();
    await first.focus();
    await first.press('j');
    const focused = await chatFrame()
      .locator(':focus')
      .evaluate((el) => `${el.className} ${el.getAttribute('aria-label') ?? ''}`);
    assert.match(focused, /message assistant|tool-card|note/, `j moved focus to the next item (${focused})`);
  });

  it('axe-core finds no serious or critical violations in the Light, Dark and both High Contrast themes: empty chat, edit card and highlighted code', async function () {
    this.timeout(300_000);
    const write = { name: 'Write', input: { file_path: 'AXE-NOTES.md', content: '# Notes\n\nWritten for the theme check.\n' } };
    // The answer's highlighted code has every kind of token codeHighlight.css colours, so each colour is checked against each theme.
    const code = [
      '```ts',
      '// keywords, strings, numbers, titles, comments',
      "export async function note(path: string, lines = 3): Promise<boolean> { return path.endsWith('.md') && lines > 0; }",
      '```',
      '```diff',
      '- removed line',
      '+ added line',
      '```',
    ].join('\n');
    await startScenario({ name: 'e2e: themes', turns: [{ text: 'Writing a note.', toolCalls: [write] }, { text: `The note is written.\n\n${code}` }] });
    themeBefore = { settings: readFileSync(userSettingsFile(), 'utf8'), theme: await chatTheme() };

    // The empty chat (a model is chosen here, so it offers no "Choose a model…" link; its text is checked).
    await chatFrame().locator('#empty').waitFor({ state: 'visible' });
    const empty = await axeInEveryTheme('empty');

    // A chat with an edit card (Open Diff) and the turn's summary (Keep / Undo).
    await sendPrompt('Write a note');
    const ask = await waitForDialog('Allow Write for the main agent?');
    await clickDialogButton(ask.box, 'Allow');
    const card = chatFrame().locator('section.tool-card[aria-label^="Tool call Write"][data-status="done"]');
    await waitForAssistantText('The note is written.');
    await waitForIdle();
    const openDiff = card.getByRole('button', { name: /^Open Diff/ });
    await openDiff.waitFor({ state: 'visible' });
    await openDiff.scrollIntoViewIfNeeded();
    // The highlighted code is there to be checked.
    await chatFrame().locator('.markdown pre code .hljs-deletion').waitFor({ state: 'visible' });
    const edited = await axeInEveryTheme('edit');

    assert.deepEqual(
      { empty, edited },
      { empty: {}, edited: {} },
      `axe: serious or critical violations per theme:\n${JSON.stringify({ empty, edited }, null, 1)}`,
    );
  });
});
