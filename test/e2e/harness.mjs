// @ts-check
/**
 * Shared state between test/host/runE2e.mjs (which starts code-server with the packaged
 * .vsix and opens the workbench) and the e2e test files (which drive the page), and the
 * workbench's basic moves: the command palette, Quick Open, modal dialogs, user settings,
 * waiting for a condition. The runner sets the context before mocha loads the tests; all the
 * harness modules import this same module instance.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export const RESULTS_DIR = path.join(REPO_ROOT, 'test-results');

export const DEMO_WORKSPACE = path.join(REPO_ROOT, 'examples', 'demo-workspace');

/**
 * @typedef {object} E2eContext
 * @property {import('playwright-core').Page} page The workbench page, already navigated.
 * @property {string} url The workbench URL (with ?folder=).
 * @property {string} workspace Temp copy of examples/demo-workspace that the workbench has open.
 * @property {string} hookwiseHome HOOKWISE_HOME of the server (transcripts live under it).
 * @property {string} userDataDir code-server's user data folder (its User/settings.json holds the user settings).
 * @property {string} extensionsDir The extensions folder the packaged .vsix is installed in (a suite may start its own server on it).
 * @property {{codeServer: string, vscode: string}} version
 */

/** @type {E2eContext | undefined} */
let current;

/** @param {E2eContext} ctx */
export function setE2eContext(ctx) {
  current = ctx;
}

/** @returns {E2eContext} */
export function e2e() {
  if (!current) throw new Error('e2e context not set: run the e2e tests with `npm run test:e2e` (test/host/runE2e.mjs)');
  return current;
}

/**
 * Saves a full-page screenshot under test-results/ and returns its path.
 * @param {string} name file name without extension, e.g. "e2e-hookwise-container"
 */
export async function screenshot(name) {
  mkdirSync(RESULTS_DIR, { recursive: true });
  // Park the pointer on the empty editor area, so no hover tooltip covers what the shot is about.
  await e2e().page.mouse.move(1000, 700);
  const file = path.join(RESULTS_DIR, `${name}.png`);
  await e2e().page.screenshot({ path: file });
  return file;
}

/**
 * Opens the workspace file `name` with Quick Open (Ctrl+P), as a user would, and waits until its
 * editor has the focus.
 * @param {string} name what is typed, e.g. ".claude/settings.json"
 * @param {string} [row] the text of the entry to open (default `name`; a path's row shows the file name)
 */
export async function openInEditor(name, row = name) {
  const { page } = e2e();
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(name);
  await page.locator('.quick-input-widget .monaco-list-row.focused', { hasText: row }).first().waitFor({ state: 'visible' });
  await page.keyboard.press('Enter');
  await page.locator('.editor-instance .monaco-editor.focused').first().waitFor({ state: 'visible' });
}

/**
 * Runs a command through the command palette, as a user would.
 * @param {string} label what is typed after ">", e.g. "Hookwise: Open Chat"
 */
export async function runCommand(label) {
  const { page } = e2e();
  const input = page.locator('.quick-input-widget input');
  // Enter only once the entry is the focused row: the unfiltered list can show it as "recently
  // used" below the last command run, which Enter would run again.
  const entry = page.locator('.quick-input-widget .monaco-list-row.focused', { hasText: label }).first();
  // The palette can lose its key or close again when an editor or a webview takes the focus just
  // then (a walkthrough VS Code opens by itself after Trust or Restart Tour; the chat focusing its
  // input after Open Chat): open it again, as a user would. A modal dialog is never dismissed
  // here: the test fails naming it.
  for (let attempt = 1; ; attempt++) {
    const modal = page.locator('.monaco-dialog-box').first();
    if (await modal.isVisible().catch(() => false)) throw new Error(`a modal dialog is open: ${(await modal.innerText().catch(() => '')).trim()}`);
    await page.keyboard.press('Control+Shift+P');
    try {
      await input.waitFor({ state: 'visible', timeout: 7_500 });
      // Filling a visible input takes milliseconds: a fill that waits means the palette closed.
      await input.fill(`>${label}`, { timeout: 2_500 });
      const outcome = await Promise.race([
        entry.waitFor({ state: 'visible', timeout: 7_500 }).then(() => 'seen'),
        // Closed while filtering: try again at once (a timeout here leaves the race to the entry).
        input.waitFor({ state: 'hidden', timeout: 7_500 }).then(
          () => 'closed',
          () => new Promise(() => {}),
        ),
      ]);
      if (outcome === 'closed') throw new Error(`the palette closed before showing ${label}`);
      // A webview that takes the focus just now (the chat after Open Chat focuses its input)
      // would get the Enter below, and the palette would close without running anything.
      if (!(await input.evaluate((el) => el === el.ownerDocument.activeElement && el.ownerDocument.hasFocus())))
        throw new Error(`the palette lost the focus before running ${label}`);
      break;
    } catch (error) {
      if (attempt >= 4) throw error;
    }
  }
  await page.keyboard.press('Enter');
  await input.waitFor({ state: 'hidden' });
}

/**
 * Drags the inner edge of a side bar until the part is `width` wide (the workbench remembers it).
 * @param {import('playwright-core').Locator} part `.part.sidebar` or `.part.auxiliarybar`
 * @param {number} width
 * @param {'left' | 'right'} edge the edge that borders the editor
 */
export async function resizePart(part, width, edge) {
  const { page } = e2e();
  const box = await part.boundingBox();
  if (!box) return;
  /** @param {number} x0 @param {number} y0 @param {number} x1 @param {number} y1 */
  const drag = async (x0, y0, x1, y1) => {
    await page.mouse.move(x0, y0);
    await page.mouse.down();
    await page.mouse.move(x0 + Math.sign(x1 - x0) * 20, y0 + Math.sign(y1 - y0) * 20, { steps: 2 });
    await page.mouse.move(x1, y1, { steps: 5 });
    await page.mouse.up();
  };
  if (Math.abs(box.width - width) < 20) return;
  const y = box.y + box.height / 3;
  if (edge === 'right') await drag(box.x + box.width + 1, y, box.x + width, y);
  else await drag(box.x - 1, y, box.x + box.width - width, y);
  await waitUntil(`the part to be ${width} px wide`, async () => Math.abs(((await part.boundingBox())?.width ?? 0) - width) < 40, 5_000);
}

/** Escapes text for use inside a RegExp. @param {string} text */
const reEscape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A modal dialog of the workbench (`showWarningMessage(..., {modal: true})`), by its text.
 * @param {string | RegExp} text part of the message or detail
 */
export function dialog(text) {
  return e2e().page.locator('.monaco-dialog-box', { hasText: text });
}

/**
 * Waits for a modal dialog showing `text` and returns its message, detail and button labels.
 * @param {string | RegExp} text
 * @param {number} [timeout]
 */
export async function waitForDialog(text, timeout = 30_000) {
  const box = dialog(text);
  await box.waitFor({ state: 'visible', timeout });
  const message = ((await box.locator('.dialog-message-text').textContent()) ?? '').trim();
  const detail = (
    await box
      .locator('.dialog-message-detail')
      .innerText()
      .catch(() => '')
  ).trim();
  const buttons = (await box.locator('.dialog-buttons .monaco-button').allTextContents()).map((b) => b.trim());
  return { box, message, detail, buttons };
}

/**
 * Clicks the dialog button labelled exactly `label` and waits until the dialog is gone.
 * @param {import('playwright-core').Locator} box from waitForDialog
 * @param {string} label e.g. "Allow"
 */
export async function clickDialogButton(box, label) {
  await box
    .locator('.dialog-buttons .monaco-button')
    .filter({ hasText: new RegExp(`^\\s*${reEscape(label)}\\s*$`) })
    .click();
  await box.waitFor({ state: 'hidden' });
}

/**
 * Merges `patch` into the e2e host's user settings.json (the next reload reads it); returns a
 * function that puts the file back as it was.
 * @param {Record<string, unknown>} patch
 * @returns {Promise<() => void>}
 */
export async function patchUserSettings(patch) {
  const file = path.join(e2e().userDataDir, 'User', 'settings.json');
  // VS Code may be writing the file just then (it truncates, then writes): read until it parses.
  let original = '';
  /** @type {Record<string, unknown>} */
  let settings = {};
  await waitUntil('the user settings.json to parse', async () => {
    original = readFileSync(file, 'utf8');
    try {
      settings = JSON.parse(original);
      return true;
    } catch {
      return false;
    }
  });
  writeFileSync(file, JSON.stringify({ ...settings, ...patch }, null, 2));
  return () => writeFileSync(file, original);
}

/**
 * Polls `check` until it returns a truthy value; throws with `what` and the last value on timeout.
 * @template T
 * @param {string} what
 * @param {() => Promise<T>} check
 * @param {number} [timeout]
 * @returns {Promise<T>}
 */
export async function waitUntil(what, check, timeout = 30_000) {
  const deadline = Date.now() + timeout;
  /** @type {unknown} */
  let last;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
      last = value;
    } catch (e) {
      last = e instanceof Error ? e.message : e;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeout} ms waiting for ${what} (last: ${JSON.stringify(last)})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The newest transcript of the workspace's sessions (what the model was told), as text.
 * Transcripts live in `$HOOKWISE_HOME/projects/<project-slug>/<session>.jsonl`.
 */
export function latestTranscript() {
  const { hookwiseHome, workspace } = e2e();
  const slug = path
    .resolve(workspace)
    .replace(/[^a-zA-Z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  const dir = path.join(hookwiseHome, 'projects', slug);
  if (!existsSync(dir)) return '';
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .map((f) => path.join(dir, f))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  return files[0] ? readFileSync(files[0], 'utf8') : '';
}
