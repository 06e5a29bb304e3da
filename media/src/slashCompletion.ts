import type { FromWebviewMessage, MentionItem } from '../../src/shared/webviewProtocol';

/**
 * `/` completion in the prompt: typing `/` at the start lists every slash command (built-in,
 * custom, plugin) with its description, narrowed as the name is typed. Same listbox pattern as
 * `#` mentions (mentions.ts): driven from the textarea with aria-activedescendant.
 */
export interface SlashCompletion {
  /** Call from the textarea's keydown first; true when the key was used by the list. */
  handleKey(e: KeyboardEvent): boolean;
  /** The extension's answer to a `commandQuery`. */
  showResults(requestId: number, items: readonly MentionItem[]): void;
}

/** The command name being typed: the prompt up to the caret is `/name` (nothing before the slash, no space yet). */
export function commandAt(text: string, caret: number): string | undefined {
  return /^\/([\w:.-]*)$/.exec(text.slice(0, caret))?.[1];
}

export function createSlashCompletion(input: HTMLTextAreaElement, list: HTMLElement, send: (m: FromWebviewMessage) => void): SlashCompletion {
  let requestId = 0;
  let items: readonly MentionItem[] = [];
  let active = 0;
  let open = false;

  const close = (): void => {
    open = false;
    list.hidden = true;
    items = [];
    if (input.getAttribute('aria-activedescendant')?.startsWith('command-')) input.removeAttribute('aria-activedescendant');
  };

  const render = (): void => {
    list.replaceChildren();
    items.forEach((item, i) => {
      const option = document.createElement('div');
      option.id = `command-${i}`;
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
    if (items.length > 0) input.setAttribute('aria-activedescendant', `command-${active}`);
  };

  const accept = (index: number): void => {
    const item = items[index];
    close();
    if (!item) return;
    const caret = input.selectionStart ?? input.value.length;
    input.value = item.insert + input.value.slice(caret);
    input.setSelectionRange(item.insert.length, item.insert.length);
    input.dispatchEvent(new Event('input'));
  };

  input.addEventListener('input', () => {
    const query = commandAt(input.value, input.selectionStart ?? input.value.length);
    if (query === undefined) return close();
    open = true;
    send({ type: 'commandQuery', requestId: ++requestId, query });
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
      // Only the answer to the latest query counts, and only while a command is still being typed.
      if (id !== requestId || !open) return;
      items = next;
      active = 0;
      render();
    },
  };
}
