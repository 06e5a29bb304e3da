// @ts-check
/**
 * What an e2e failure leaves behind, taken when the test fails (the runner's own screenshot
 * comes after the whole run, when later suites have changed the window): a screenshot, and the
 * end of the chat as text (what the agent said and which cards it showed) and the end of the
 * extension's own log (which commands ran to the end), printed so that a CI log alone says where
 * the agent and the extension were.
 */
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach } from 'mocha';
import { chatFrame } from './chatHarness.mjs';
import { e2e, RESULTS_DIR } from './harness.mjs';

const CHAT_TAIL_CHARS = 1500;
const LOG_TAIL_LINES = 20;

/** The newest Hookwise.log of the window's extension hosts under `userDataDir`, or undefined. */
function newestHookwiseLog(/** @type {string} */ userDataDir) {
  const logs = path.join(userDataDir, 'logs');
  const files = readdirSync(logs, { recursive: true })
    .map(String)
    .filter((f) => path.basename(f) === 'Hookwise.log')
    .map((f) => path.join(logs, f));
  return files.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
}

afterEach(async function () {
  const test = this.currentTest;
  if (!test || test.state !== 'failed') return;
  const slug = test
    .fullTitle()
    .replace(/[^a-z0-9]+/gi, '-')
    .slice(0, 80);
  mkdirSync(RESULTS_DIR, { recursive: true });
  const shot = path.join(RESULTS_DIR, `e2e-failed-${slug}.png`);
  await e2e()
    .page.screenshot({ path: shot })
    .catch(() => undefined);
  console.log(`      failure screenshot: ${shot}`);
  const chat = await chatFrame()
    .locator('.messages')
    .innerText({ timeout: 2_000 })
    .catch(() => undefined);
  if (chat === undefined) console.log('      the chat was not open');
  else console.log(`      the chat ended with:\n        ${chat.slice(-CHAT_TAIL_CHARS).replace(/\n+/g, '\n        ')}`);
  try {
    const log = newestHookwiseLog(e2e().userDataDir);
    if (!log) console.log('      no Hookwise log (the extension had not logged yet)');
    else
      console.log(`      the Hookwise log ended with:\n        ${readFileSync(log, 'utf8').trimEnd().split('\n').slice(-LOG_TAIL_LINES).join('\n        ')}`);
  } catch (error) {
    console.log(`      no Hookwise log: ${error instanceof Error ? error.message : String(error)}`);
  }
});
