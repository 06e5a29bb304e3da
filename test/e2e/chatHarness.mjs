// @ts-check
/** The e2e harness's view of the Hookwise chat: its frame, prompt, tool cards and idle state. */
import { e2e, resizePart, runCommand } from './harness.mjs';

/** The chat webview's host frame: its URL names the extension that owns it. */
const CHAT_HOST_FRAME = 'iframe.webview.ready[src*="extensionId=hookwise.hookwise"]';

/** The element of the chat's host frame in the workbench page (where the chat is on screen). */
export function chatHostFrame() {
  return e2e().page.locator(CHAT_HOST_FRAME);
}

/**
 * The chat webview's content. Webviews are two nested iframes: the host frame
 * (`iframe.webview`, class `ready` once loaded) and the content frame `#active-frame`.
 * The host frame's URL names the extension that owns it, so a Markdown preview open beside the
 * chat is not mistaken for it.
 */
export function chatFrame() {
  return e2e().page.frameLocator(CHAT_HOST_FRAME).frameLocator('iframe#active-frame');
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

/** The secondary side bar's width: room for the chat's cards. */
export const CHAT_WIDTH = 620;

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
