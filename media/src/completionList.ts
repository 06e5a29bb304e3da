import type { MentionItem } from '../../src/shared/webviewProtocol';

/**
 * A completion listbox under the prompt (`#` mentions, `/` commands): driven from the textarea
 * with aria-activedescendant, so it works with the keyboard and screen readers. The owner says
 * which token is being typed and how to ask the extension for items; accepting an item replaces
 * the token up to the caret.
 */
export interface CompletionList {
  /** Call from the textarea's keydown first; true when the key was used by the list. */
  handleKey(e: KeyboardEvent): boolean;
  /** The extension's answer to the query numbered `requestId`. */
  showResults(requestId: number, items: readonly MentionItem[]): void;
  /** Closes the list and drops answers still on their way (the prompt was sent or replaced). */
  close(): void;
}

/** The token being typed: where it starts in the text and the query sent for it. */
export interface CompletionToken {
  readonly start: number;
  readonly query: string;
}

export interface CompletionListOptions {
  readonly input: HTMLTextAreaElement;
  readonly list: HTMLElement;
  /** Prefix of the option ids (`mention`, `command`): two lists share one textarea. */
  readonly idPrefix: string;
  /** The token before the caret, or undefined when none is being typed. */
  readonly tokenAt: (text: string, caret: number) => CompletionToken | undefined;
  /** Asks the extension for the items of `query`. */
  readonly request: (requestId: number, query: string) => void;
}

export function createCompletionList(o: CompletionListOptions): CompletionList {
  const { input, list, idPrefix } = o;
  let requestId = 0;
  let items: readonly MentionItem[] = [];
  let active = 0;
  let token: CompletionToken | undefined;

  const clearActive = (): void => {
    // Only this list's option: the other list may own the attribute.
    if (input.getAttribute('aria-activedescendant')?.startsWith(`${idPrefix}-`)) input.removeAttribute('aria-activedescendant');
  };

  const close = (): void => {
    list.hidden = true;
    items = [];
    token = undefined;
    clearActive();
  };

  const render = (): void => {
    list.replaceChildren();
    items.forEach((item, i) => {
      const option = document.createElement('div');
      option.id = `${idPrefix}-${i}`;
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
    if (items.length > 0) input.setAttribute('aria-activedescendant', `${idPrefix}-${active}`);
    else clearActive();
  };

  const accept = (index: number): void => {
    const item = items[index];
    if (!item || !token) return close();
    const caret = input.selectionStart ?? input.value.length;
    input.value = input.value.slice(0, token.start) + item.insert + input.value.slice(caret);
    const at = token.start + item.insert.length;
    input.setSelectionRange(at, at);
    // The new text is read again: a finished token closes the list, a partial one queries on.
    input.dispatchEvent(new Event('input'));
  };

  input.addEventListener('input', () => {
    token = o.tokenAt(input.value, input.selectionStart ?? input.value.length);
    if (!token) return close();
    o.request(++requestId, token.query);
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
      // Only the answer to the latest query counts, and only while its token is still being typed.
      if (id !== requestId || !token) return;
      items = next;
      active = 0;
      render();
    },
    close,
  };
}
