// @ts-check
/**
 * Shared state between test/host/runE2e.mjs (which starts code-server with the packaged
 * .vsix and opens the workbench) and the e2e test files (which drive the page). The runner
 * sets it before mocha loads the tests; both import this same module instance.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const RESULTS_DIR = path.join(REPO_ROOT, 'test-results');

/**
 * @typedef {object} E2eContext
 * @property {import('playwright-core').Page} page The workbench page, already navigated.
 * @property {string} url The workbench URL (with ?folder=).
 * @property {string} workspace Temp copy of examples/demo-workspace that the workbench has open.
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
  const file = path.join(RESULTS_DIR, `${name}.png`);
  await e2e().page.screenshot({ path: file });
  return file;
}

/**
 * Runs a command through the command palette, as a user would.
 * @param {string} label what is typed after ">", e.g. "Hookwise: Open Chat"
 */
export async function runCommand(label) {
  const { page } = e2e();
  await page.keyboard.press('Control+Shift+P');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`>${label}`);
  // Wait until the palette shows the exact entry, so Enter runs it and not a stale first row.
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: label }).first().waitFor({ state: 'visible' });
  await page.keyboard.press('Enter');
  await input.waitFor({ state: 'hidden' });
}

/**
 * The chat webview's content. Webviews are two nested iframes: the host frame
 * (`iframe.webview`, class `ready` once loaded) and the content frame `#active-frame`.
 * Hookwise's chat is the only webview in the test workbench.
 */
export function chatFrame() {
  return e2e().page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
}

/**
 * The chat's prompt box, found the way a screen reader would (a textbox whose accessible
 * name starts with "Prompt"), so the test survives changes to the webview's markup.
 */
export function chatPrompt() {
  return chatFrame().getByRole('textbox', { name: /^Prompt/ });
}
