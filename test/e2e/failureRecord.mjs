// @ts-check
/**
 * What an e2e failure leaves behind, taken when the test fails (the runner's own screenshot
 * comes after the whole run, when later suites have changed the window): a screenshot, and the
 * end of the chat as text (what the agent said and which cards it showed), printed so that a
 * CI log alone says where the agent was.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach } from 'mocha';
import { chatFrame } from './chatHarness.mjs';
import { e2e, RESULTS_DIR } from './harness.mjs';

const CHAT_TAIL_CHARS = 1500;

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
});
