import type { ChatEvent } from '../../src/shared/webviewProtocol';

/**
 * A model-level hook's mark on a reply ("Answered by hook …", "Reply redacted by hook …",
 * "Request changed by hook …: messages 42 → 12"): a small line just above the assistant
 * message it concerns, which names it as its description for screen readers.
 */

type MarkerEvent = Extract<ChatEvent, { type: 'modelHookMarker' }>;

/** The mark's element: a note whose accessible name is the whole mark. */
export function modelHookMarker(event: MarkerEvent): HTMLElement {
  const el = document.createElement('div');
  el.className = `model-hook-marker ${event.kind}`;
  // Numbered by position, so a chat drawn again (resumed, reloaded) gets the same ids.
  el.id = `model-hook-marker-${document.querySelectorAll('.model-hook-marker').length}`;
  el.dataset['kind'] = event.kind;
  el.dataset['hook'] = event.hook;
  el.setAttribute('role', 'note');
  el.setAttribute('aria-label', event.text);
  el.textContent = event.text;
  return el;
}

/** Lets `message` be described by the marks just above it (the hooks' marks on this reply). */
export function describeByMarkers(message: HTMLElement): void {
  const ids: string[] = [];
  for (let el = message.previousElementSibling; el?.classList.contains('model-hook-marker'); el = el.previousElementSibling) ids.unshift(el.id);
  if (ids.length > 0) message.setAttribute('aria-describedby', ids.join(' '));
}
