import type { CompletionList } from './completionList';
import { caretOnEdgeLine, type PromptHistory } from './promptHistory';

/**
 * The chat's keys, like the chats users know: Enter sends (Shift+Enter adds a line), Up in
 * an empty input recalls the last prompt sent (Up again: the one before; Down goes forward),
 * Escape stops a running turn from anywhere in the chat unless something open used it (a
 * completion list, the History panel), and focusing the chat lands in the prompt. The
 * completion lists see every key first.
 */
export interface ChatKeysOptions {
  readonly prompt: HTMLTextAreaElement;
  readonly lists: readonly CompletionList[];
  readonly sentPrompts: PromptHistory;
  readonly isBusy: () => boolean;
  readonly submit: () => void;
  readonly stop: () => void;
  /** Puts `text` in the input (and closes the completion lists). */
  readonly setPrompt: (text: string) => void;
}

export function installChatKeys(o: ChatKeysOptions): void {
  const { prompt } = o;
  prompt.addEventListener('keydown', (e) => {
    if (o.lists.some((list) => list.handleKey(e))) return;
    // Never send mid-IME composition.
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      o.submit();
    } else if ((e.key === 'ArrowUp' || e.key === 'ArrowDown') && !e.shiftKey && !e.altKey && !e.ctrlKey && !e.metaKey) recall(e);
  });

  const recall = (e: KeyboardEvent): void => {
    const up = e.key === 'ArrowUp';
    const caret = prompt.selectionStart ?? 0;
    // Within a multi-line prompt the arrows still move between its lines.
    if (prompt.selectionEnd !== caret || !caretOnEdgeLine(prompt.value, caret, up ? 'first' : 'last')) return;
    const text = up ? o.sentPrompts.older(prompt.value) : o.sentPrompts.newer(prompt.value);
    if (text === undefined) return;
    e.preventDefault();
    o.setPrompt(text);
  };

  document.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape' || e.defaultPrevented || !o.isBusy()) return;
    e.preventDefault();
    o.stop();
  });
  // A click inside the chat focuses what was clicked (or starts a text selection): only a
  // focus from outside (Open Chat, its shortcut) moves to the prompt.
  let pointerDown = false;
  window.addEventListener('pointerdown', () => (pointerDown = true), true);
  window.addEventListener('pointerup', () => (pointerDown = false), true);
  window.addEventListener('focus', () => {
    if (!pointerDown && (document.activeElement === document.body || document.activeElement === null)) prompt.focus();
  });
}
