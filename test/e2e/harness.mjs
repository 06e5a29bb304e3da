// @ts-check
/**
 * Shared state between test/host/runE2e.mjs (which starts code-server with the packaged
 * .vsix and opens the workbench) and the e2e test files (which drive the page). The runner
 * sets it before mocha loads the tests; both import this same module instance.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after } from 'mocha';

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
 * @param {string} name
 */
export async function openInEditor(name) {
  const { page } = e2e();
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(name);
  await page.locator('.quick-input-widget .monaco-list-row.focused', { hasText: name }).first().waitFor({ state: 'visible' });
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
  // The palette can lose its key or close again when an editor takes the focus just then (a
  // walkthrough VS Code opens by itself after Trust): open it again, as a user would. A modal
  // dialog is never dismissed here: the test fails naming it.
  for (let attempt = 1; ; attempt++) {
    const modal = page.locator('.monaco-dialog-box').first();
    if (await modal.isVisible().catch(() => false)) throw new Error(`a modal dialog is open: ${(await modal.innerText().catch(() => '')).trim()}`);
    await page.keyboard.press('Control+Shift+P');
    try {
      await input.waitFor({ state: 'visible', timeout: 7_500 });
      await input.fill(`>${label}`, { timeout: 7_500 });
      break;
    } catch (error) {
      if (attempt >= 4) throw error;
    }
  }
  // Wait until the entry is the focused row, so Enter runs it: the unfiltered list can show it
  // as "recently used" below the last command run, which Enter would run again.
  await page.locator('.quick-input-widget .monaco-list-row.focused', { hasText: label }).first().waitFor({ state: 'visible' });
  await page.keyboard.press('Enter');
  await input.waitFor({ state: 'hidden' });
}

/**
 * The chat webview's content. Webviews are two nested iframes: the host frame
 * (`iframe.webview`, class `ready` once loaded) and the content frame `#active-frame`.
 * The host frame's URL names the extension that owns it, so a Markdown preview open beside the
 * chat is not mistaken for it.
 */
export function chatFrame() {
  return e2e().page.frameLocator('iframe.webview.ready[src*="extensionId=hookwise.hookwise"]').frameLocator('iframe#active-frame');
}

/**
 * The chat's prompt box, found the way a screen reader would (a textbox whose accessible
 * name starts with "Prompt"), so the test survives changes to the webview's markup.
 */
export function chatPrompt() {
  return chatFrame().getByRole('textbox', { name: /^Prompt/ });
}

/** The chat header's model label (the playground says "Playground (scripted)"). */
export function chatModelLabel() {
  return chatFrame().locator('#model-label');
}

/**
 * Opens the "Hookwise" container (Hook Runs, MCP Servers) in the side bar unless it is
 * already showing (a click on the active activity-bar item would close it), answers the
 * one-time approval of the project hooks (its modal would block the command palette), and
 * shows the chat in the secondary side bar.
 */
export async function showHookwise() {
  const { page } = e2e();
  const title = page.locator('.part.sidebar .composite.title', { hasText: /hookwise/i }).first();
  // After a reload the workbench restores the container it had open; give it the time to,
  // since a click on an active activity-bar item would close it again.
  const restored = await title.waitFor({ state: 'visible', timeout: 10_000 }).then(
    () => true,
    () => false,
  );
  if (!restored) {
    const item = page.locator('.activitybar .action-item', { has: page.locator('[aria-label^="Hookwise"]') }).first();
    await item.waitFor({ state: 'visible', timeout: 30_000 });
    if (!(await item.evaluate((el) => el.classList.contains('checked')))) await item.click();
    await title.waitFor({ state: 'visible' });
  }
  await resizePart(page.locator('.part.sidebar'), SIDE_BAR_WIDTH, 'right');
  await approveProjectHooks();
  await showChat();
}

/** The secondary side bar, where the chat lives. */
export function auxiliaryBar() {
  return e2e().page.locator('.part.auxiliarybar');
}

/**
 * Shows the chat in the secondary side bar (restored after a reload, else through
 * "Hookwise: Open Chat") and gives it room for its cards.
 */
export async function showChat() {
  const restored = await chatPrompt()
    .waitFor({ state: 'visible', timeout: 10_000 })
    .then(
      () => true,
      () => false,
    );
  if (!restored) {
    await runCommand('Hookwise: Open Chat');
    await chatPrompt().waitFor({ state: 'visible', timeout: 30_000 });
  }
  await resizePart(auxiliaryBar(), CHAT_WIDTH, 'left');
}

/** Side bar layout for the tests: room for the Hook Runs labels beside the chat's cards. */
const SIDE_BAR_WIDTH = 440;
/** The secondary side bar's width: room for the chat's cards. */
export const CHAT_WIDTH = 620;

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

/** Whether this window already approved the demo's project hooks (approvals persist in workspace state). */
let hooksApproved = false;

/**
 * Answers the one-time "Allow These Hooks" modal that a trusted workspace with project hooks
 * shows after the extension loads them. Returns what the modal said (undefined when it was
 * already answered earlier in this run).
 * @param {() => Promise<unknown>} [beforeClick] e.g. a screenshot of the modal
 */
export async function approveProjectHooks(beforeClick = async () => {}) {
  if (hooksApproved) return undefined;
  const shown = await waitForDialog(/project hooks? to run in this workspace/);
  await beforeClick();
  await clickDialogButton(shown.box, 'Allow These Hooks');
  hooksApproved = true;
  return shown;
}

/**
 * Reloads the workbench page (a fresh extension host: the model reloads its playground
 * script, Hook Runs start empty) and waits until Hookwise is ready again. Hookwise reopens the
 * chat a reload interrupts, so unless `keepChat` is set the chat gets a New Chat first and
 * the reloaded one starts empty, as each scenario expects.
 * @param {{ keepChat?: boolean }} [options]
 */
export async function reloadWorkbench({ keepChat = false } = {}) {
  const { page } = e2e();
  if (!keepChat) await newChatIfShown();
  await page.reload();
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 60_000 });
  await showHookwise();
  await chatPrompt().waitFor({ state: 'visible', timeout: 30_000 });
  await approveProjectHooks();
  await chatModelLabel().filter({ hasText: 'Playground (scripted)' }).waitFor({ timeout: 30_000 });
  await hookRunsView().getByText('There is no data provider registered').waitFor({ state: 'hidden', timeout: 30_000 });
}

/** Presses New Chat when the chat shows a conversation, and waits until it is empty (no chat frame yet: nothing to do). */
async function newChatIfShown() {
  const shown = chatFrame().locator('#messages > .message, #messages > .tool-card');
  const count = await shown.count().catch(() => 0);
  if (count === 0) return;
  await chatFrame().locator('#new-chat').click();
  await waitUntil('an empty chat after New Chat', async () => (await shown.count()) === 0);
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
 * Starts a scenario on a fresh extension host: writes its playground script into the
 * workspace copy's `.hookwise/playground.json` (the playground replays turns in call order,
 * so each scenario brings its own), or restores the demo's own tour script, then reloads.
 * @param {{turns: object[], name?: string} | undefined} script
 */
export async function startScenario(script) {
  const target = path.join(e2e().workspace, '.hookwise', 'playground.json');
  mkdirSync(path.dirname(target), { recursive: true });
  if (script) writeFileSync(target, JSON.stringify(script, null, 2));
  else copyFileSync(path.join(DEMO_WORKSPACE, '.hookwise', 'playground.json'), target);
  await reloadWorkbench();
}

/**
 * For a suite that patches the user settings: returns the patch function, and after the suite
 * puts settings.json back and reloads the workbench (only if a patch was made).
 * @returns {(patch: Record<string, unknown>) => Promise<void>}
 */
export function userSettingsForSuite() {
  /** @type {(() => void) | undefined} */
  let restore;
  after(async function () {
    if (!restore) return;
    restore();
    await reloadWorkbench();
  });
  return async (patch) => {
    restore = await patchUserSettings(patch);
  };
}

/**
 * Types `text` into the chat's empty prompt key by key, so key handlers (the `/` list) see each
 * key. Just after a reload the workbench may hand the focus to a restored editor while keys are
 * sent, and the prompt misses them: then it clears the prompt and types again (at most 4 times),
 * and fails saying what the prompt holds.
 * @param {string} text
 */
export async function typeInPrompt(text) {
  const prompt = chatPrompt();
  let value = '';
  for (let attempt = 0; attempt < 4; attempt++) {
    await prompt.fill('');
    await prompt.pressSequentially(text);
    value = await prompt.inputValue();
    if (value === text) return;
  }
  throw new Error(`typing ${JSON.stringify(text)} into the chat prompt: it holds ${JSON.stringify(value)} (the focus moved away while typing)`);
}

/**
 * Sends a prompt from the chat's input, as a user would (type, Enter), and waits until the
 * chat shows it as the user's message.
 * @param {string} text
 */
export async function sendPrompt(text) {
  const prompt = chatPrompt();
  await prompt.fill(text);
  await prompt.press('Enter');
  await chatFrame().locator('.message.user', { hasText: text }).last().waitFor({ state: 'visible' });
}

/**
 * A tool call card in the chat, by its accessible name ("Tool call Bash: npm test"),
 * optionally only once it has reached `status` (validating, waiting-approval, running,
 * done, denied, failed).
 * @param {string} name e.g. "Bash: npm test" (without the "Tool call " prefix)
 * @param {string} [status]
 */
export function toolCard(name, status) {
  return chatFrame().locator(`section.tool-card[aria-label=${JSON.stringify(`Tool call ${name}`)}]${status ? `[data-status=${JSON.stringify(status)}]` : ''}`);
}

/**
 * Waits for a card to reach `status` and returns its parts' text (status word, verdict line,
 * result), read from the card itself and not from nested subagent cards.
 * @param {string} name
 * @param {string} status
 * @param {number} [timeout]
 */
export async function waitForToolCard(name, status, timeout = 30_000) {
  const card = toolCard(name, status);
  await card.waitFor({ state: 'visible', timeout });
  const text = async (/** @type {string} */ selector) => ((await card.locator(selector).first().textContent()) ?? '').trim();
  return {
    card,
    status: await text(':scope > .tool-header > .tool-status'),
    verdict: (await card.locator(':scope > .tool-verdict').isHidden()) ? '' : await text(':scope > .tool-verdict'),
    result: await text(':scope > details.tool-section:nth-of-type(2) > pre'),
  };
}

/**
 * Expands a card's Result section (as a person would, to read the output).
 * @param {import('playwright-core').Locator} card
 */
export async function expandResult(card) {
  const details = card.locator(':scope > details.tool-section').nth(1);
  if ((await details.getAttribute('open')) === null) await details.locator(':scope > summary').click();
}

/** Waits for the assistant's text to contain `text`. @param {string | RegExp} text */
export async function waitForAssistantText(text, timeout = 30_000) {
  await chatFrame().locator('.message.assistant', { hasText: text }).first().waitFor({ state: 'visible', timeout });
}

/** Waits until the agent is idle again (Send back, Stop hidden). */
export async function waitForIdle(timeout = 30_000) {
  await chatFrame().locator('#messages[aria-busy="false"]').waitFor({ state: 'attached', timeout });
  await chatFrame().locator('#send').waitFor({ state: 'visible', timeout });
}

/** The "Hook Runs" view's pane in the side bar. */
export function hookRunsView() {
  const { page } = e2e();
  return page.locator('.part.sidebar .pane', { has: page.locator('.pane-header', { hasText: 'Hook Runs' }) });
}

/**
 * Rows of the Hook Runs tree whose text (label and description) matches.
 * @param {string | RegExp} text
 */
export function treeItem(text) {
  return hookRunsView().locator('.monaco-list-row', { hasText: text });
}

/**
 * Reads one tree row: label, description, nesting level, expanded state and icon classes.
 * @param {import('playwright-core').Locator} row
 */
export async function readTreeItem(row) {
  // One evaluate, so an absent part (a row with no description) reads as '' instead of waiting.
  return row.first().evaluate((el) => ({
    label: el.querySelector('.label-name')?.textContent?.trim() ?? '',
    description: el.querySelector('.label-description')?.textContent?.trim() ?? '',
    level: Number(el.getAttribute('aria-level')),
    expanded: el.getAttribute('aria-expanded'),
    icon: el.querySelector('.custom-view-tree-node-item-icon')?.className ?? '',
  }));
}

/**
 * Reads a tree row until `check` accepts it (the live tree redraws rows while runs settle, so
 * one read can land between two renders). Fails with the rendered tree when it never does.
 * @param {import('playwright-core').Locator} row
 * @param {(item: Awaited<ReturnType<typeof readTreeItem>>) => boolean} check
 * @param {string} what
 */
export async function settledTreeItem(row, check, what, timeout = 10_000) {
  /** @type {Awaited<ReturnType<typeof readTreeItem>> | undefined} */
  let last;
  try {
    return await waitUntil(
      what,
      async () => {
        last = await readTreeItem(row);
        return check(last) ? last : undefined;
      },
      timeout,
    );
  } catch (error) {
    throw new Error(`${error instanceof Error ? error.message : String(error)}\nlast read: ${JSON.stringify(last)}\n${await treeSnapshot()}`);
  }
}

/** The Hook Runs rows as rendered, one line each ("  label — description [icon]"), for failure messages. */
export async function treeSnapshot() {
  return hookRunsView()
    .locator('.monaco-list-row')
    .evaluateAll((rows) =>
      rows
        .map((el) => {
          const level = Number(el.getAttribute('aria-level'));
          const text = (/** @type {string} */ sel) => el.querySelector(sel)?.textContent?.trim() ?? '';
          const icon = /codicon-([\w-]+)/.exec(el.querySelector('.custom-view-tree-node-item-icon')?.className ?? '')?.[1] ?? '';
          return `${'  '.repeat(Math.max(0, level - 1))}${text('.label-name')} — ${text('.label-description')} [${icon}]`;
        })
        .join('\n'),
    );
}

/**
 * Expands a collapsed tree row (a click on a collapsible item toggles it).
 * @param {import('playwright-core').Locator} row
 */
export async function expandTreeItem(row) {
  const first = row.first();
  // A live tree re-renders rows as hooks finish; a click that lands mid-render is lost, so retry.
  for (let attempt = 0; attempt < 5; attempt++) {
    if ((await first.getAttribute('aria-expanded')) !== 'false') return;
    await first.click();
    try {
      await first.and(hookRunsView().locator('.monaco-list-row[aria-expanded="true"]')).waitFor({ timeout: 3_000 });
      return;
    } catch {
      // not expanded yet: look again and click again
    }
  }
  throw new Error(`could not expand the tree row:\n${await treeSnapshot()}`);
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
