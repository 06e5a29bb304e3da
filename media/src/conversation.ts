import type { ChatAttachment } from '../../src/shared/webviewProtocol';
import { chip } from './contextBar';

/**
 * Conversation affordances: message actions (Copy, Edit, Retry), reasoning shown collapsed,
 * keyboard navigation between messages and cards (j/k or the arrow keys), and a polite live
 * region announcing status changes to screen readers.
 */

/** What a user message's buttons do. */
export interface UserMessageActions {
  copy(text: string): void;
  /** Puts the prompt back into the input for editing and resending. */
  edit(text: string): void;
  /** Sends the same prompt again. */
  retry(text: string): void;
}

/** The items keyboard navigation moves between. */
const NAV_ITEMS = '.message, section.tool-card, .note, details.reasoning';

/** A user's message: its text, the chips of what it carried, and Copy / Edit / Retry. */
export function userMessage(text: string, attachments: readonly ChatAttachment[] | undefined, actions: UserMessageActions): HTMLElement {
  const el = document.createElement('div');
  el.className = 'message user';
  el.setAttribute('role', 'article');
  el.setAttribute('aria-label', `You: ${text.length > 80 ? `${text.slice(0, 80)}…` : text}`);
  el.tabIndex = -1;
  const body = document.createElement('div');
  body.className = 'message-text';
  body.textContent = text;
  el.append(body);
  if (attachments && attachments.length > 0) {
    const row = document.createElement('div');
    row.className = 'attachments sent';
    row.setAttribute('role', 'list');
    row.setAttribute('aria-label', 'Attached context');
    for (const a of attachments) row.append(chip(a, false));
    el.append(row);
  }
  el.append(
    actionBar([
      ['Copy', 'Copy this message', () => actions.copy(text)],
      ['Edit', 'Edit this prompt and send it again (the conversation goes back to before it)', () => actions.edit(text)],
      ['Retry', 'Retry: send this prompt again (the conversation goes back to before it)', () => actions.retry(text)],
    ]),
  );
  return el;
}

/** Adds a Copy button to an assistant message (copies its markdown source). */
export function assistantActions(el: HTMLElement, text: () => string, copy: (text: string) => void): void {
  if (el.querySelector(':scope > .message-actions')) return;
  el.append(actionBar([['Copy', 'Copy this answer', () => copy(text())]]));
}

/** A note in the conversation (a hook's message, Stopped, Failed), with its label in bold. */
export function noteElement(className: string, text: string, label?: string): HTMLElement {
  const el = document.createElement('div');
  el.className = `note ${className}`;
  if (label) {
    const strong = document.createElement('strong');
    strong.textContent = `${label}: `;
    el.append(strong);
  }
  el.append(document.createTextNode(text));
  return el;
}

/** The section a subagent's work goes into, headed and named by `title`. */
export function subagentSection(title: string): HTMLElement {
  const section = document.createElement('section');
  section.className = 'subagent';
  const heading = document.createElement('div');
  heading.className = 'subagent-title';
  heading.textContent = title;
  section.setAttribute('aria-label', title);
  section.append(heading);
  return section;
}

/** A collapsed block for reasoning text the model streamed. */
export function reasoningBlock(): { root: HTMLDetailsElement; body: HTMLElement } {
  const root = document.createElement('details');
  root.className = 'reasoning';
  const summary = document.createElement('summary');
  summary.textContent = 'Reasoning';
  const body = document.createElement('div');
  body.className = 'reasoning-text';
  root.append(summary, body);
  return { root, body };
}

function actionBar(buttons: readonly [string, string, () => void][]): HTMLElement {
  const bar = document.createElement('div');
  bar.className = 'message-actions';
  bar.setAttribute('role', 'toolbar');
  bar.setAttribute('aria-label', 'Message actions');
  for (const [label, aria, run] of buttons) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'icon-button message-action';
    button.dataset['action'] = label.toLowerCase();
    button.textContent = label;
    button.setAttribute('aria-label', aria);
    button.addEventListener('click', run);
    bar.append(button);
  }
  return bar;
}

/**
 * j / k and ArrowDown / ArrowUp move between messages and cards; Home / End jump to the first
 * and last. Typing in a field or a code block is left alone.
 */
export function enableKeyboardNavigation(container: HTMLElement): void {
  container.addEventListener('keydown', (e) => {
    const target = e.target as HTMLElement;
    if (target.closest('textarea, input, pre, summary, button') && !target.matches(NAV_ITEMS)) return;
    const items = Array.from(container.querySelectorAll<HTMLElement>(NAV_ITEMS)).filter((el) => !el.closest('[hidden]'));
    if (items.length === 0) return;
    const current = items.findIndex((el) => el === target || el.contains(target));
    let next: number | undefined;
    if (e.key === 'j' || e.key === 'ArrowDown') next = Math.min(items.length - 1, current + 1);
    else if (e.key === 'k' || e.key === 'ArrowUp') next = current < 0 ? items.length - 1 : Math.max(0, current - 1);
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = items.length - 1;
    if (next === undefined) return;
    e.preventDefault();
    const el = items[next];
    if (!el) return;
    if (el.tabIndex < 0 && !el.hasAttribute('tabindex')) el.tabIndex = -1;
    el.focus();
    el.scrollIntoView({ block: 'nearest' });
  });
}

/** Announces `text` through the polite live region (screen readers read it once). */
export function createAnnouncer(region: HTMLElement): (text: string) => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return (text) => {
    clearTimeout(timer);
    // Clear first so the same text twice is read twice.
    region.textContent = '';
    timer = setTimeout(() => (region.textContent = text), 50);
  };
}
