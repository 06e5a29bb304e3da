// @ts-check
/**
 * The e2e harness's flows over a whole window: showing Hookwise, the one-time approval of the
 * demo's project hooks, reloads, playground scenarios and suite-scoped user settings.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after } from 'mocha';
import { clickDialogButton, DEMO_WORKSPACE, e2e, patchUserSettings, resizePart, waitForDialog, waitUntil } from './harness.mjs';
import { chatFrame, chatModelLabel, chatPrompt, showChat } from './chatHarness.mjs';
import { hookRunsView } from './hookRunsHarness.mjs';

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

/** Side bar layout for the tests: room for the Hook Runs labels beside the chat's cards. */
const SIDE_BAR_WIDTH = 440;

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
