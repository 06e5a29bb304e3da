import type { FromWebviewMessage, MentionItem } from '../../src/shared/webviewProtocol';

/**
 * `#` completion in the prompt: typing `#` lists `#file`, `#selection`, `#problems`; after
 * `#file:` the extension searches the workspace's files. A listbox under the input, driven
 * from the textarea (aria-activedescendant), so it works with the keyboard and screen readers.
 */
export interface Mentions {
  /** Call from the textarea's keydown first; true when the key was used by the list. */
  handleKey(e: KeyboardEvent): boolean;
  /** The extension's answer. */
  showResults(requestId: number, items: readonly MentionItem[]): void;
}

/** The `#token` being typed just before the caret, if any. */
export function mentionAt(text: string, caret: number): { start: number; query: string } | undefined {
  const m = /(^|\s)#([\w:./"-]*)$/.exec(text.slice(0, caret));
  if (!m) return undefined;
  return { start: caret - (m[2] ?? '').length - 1, query: m[2] ?? '' };
}

export function createMentions(input: HTMLTextAreaElement, list: HTMLElement, send: (m: FromWebviewMessage) => void): Mentions {
  let requestId = 0;
  let items: readonly MentionItem[] = [];
  let active = 0;
  let token: { start: number; query: string } | undefined;

  const close = (): void => {
    list.hidden = true;
    items = [];
    input.removeAttribute('aria-activedescendant');
  };

  const render = (): void => {
    list.replaceChildren();
    items.forEach((item, i) => {
      const option = document.createElement('div');
      option.id = `mention-${i}`;
      option.className = `mention${i === active ? ' active' : ''}`;
      option.setAttribute('role', 'option');
      option.setAttribute('aria-selected', String(i === active));
      const label = document.createElement('span');
      label.textContent = item.label;
      const detail = document.createElement('span');
      detail.className = 'mention-detail';
      detail.textContent = item.detail;
      option.append(label, detail);
      option.addEventListener('mousedown', (e) => {
        e.preventDefault();
        accept(i);
      });
      list.append(option);
    });
    list.hidden = items.length === 0;
    if (items.length > 0) input.setAttribute('aria-activedescendant', `mention-${active}`);
    else input.removeAttribute('aria-activedescendant');
  };

  const accept = (index: number): void => {
    const item = items[index];
    if (!item || !token) return close();
    const caret = input.selectionStart ?? input.value.length;
    input.value = input.value.slice(0, token.start) + item.insert + input.value.slice(caret);
    const at = token.start + item.insert.length;
    input.setSelectionRange(at, at);
    input.dispatchEvent(new Event('input'));
  };

  input.addEventListener('input', () => {
    token = mentionAt(input.value, input.selectionStart ?? input.value.length);
    if (!token) return close();
    send({ type: 'mentionQuery', requestId: ++requestId, query: token.query });
  });
  input.addEventListener('blur', () => setTimeout(close, 100));

  return {
    handleKey(e) {
      if (list.hidden || items.length === 0) return false;
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        active = (active + (e.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length;
        render();
      } else if (e.key === 'Enter' || e.key === 'Tab') accept(active);
      else if (e.key === 'Escape') close();
      else return false;
      e.preventDefault();
      return true;
    },
    showResults(id, next) {
      // Only the answer to the latest query counts; the token may be gone meanwhile.
      if (id !== requestId || !token) return;
      items = next;
      active = 0;
      render();
    },
  };
}
