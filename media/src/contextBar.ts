import type { ChatAttachment, FromWebviewMessage } from '../../src/shared/webviewProtocol';

/**
 * The attachments row above the prompt: chips for what the next prompt carries (removable),
 * the active editor's selection offered as a dashed chip (removable: it is then left out of
 * the next prompt; sent once: a later prompt carries it only after the selection changed),
 * and files dropped on the chat. The extension keeps the list; the row
 * only shows it and reports clicks.
 */
export interface ContextBar {
  setItems(items: readonly ChatAttachment[]): void;
  setEditorSelection(attachment: ChatAttachment | undefined): void;
  /** Whether the offered selection goes with the next prompt (false once its chip was removed). */
  readonly includeEditorSelection: boolean;
  /** The offered selection went with a prompt: its chip leaves until the selection changes. */
  editorSelectionSent(): void;
}

export function createContextBar(root: HTMLElement, dropTarget: HTMLElement, send: (m: FromWebviewMessage) => void): ContextBar {
  let items: readonly ChatAttachment[] = [];
  let offered: ChatAttachment | undefined;
  /** The offered selection the user dismissed (by its label): it stays out until the selection changes. */
  let dismissed: string | undefined;

  const render = (): void => {
    root.replaceChildren();
    const showOffered = offered && offered.label !== dismissed && !items.some((i) => i.detail === offered?.detail);
    if (showOffered && offered) root.append(chip(offered, true, () => ((dismissed = offered?.label), render())));
    for (const item of items) root.append(chip(item, false, () => send({ type: 'removeAttachment', id: item.id })));
    root.hidden = root.childElementCount === 0;
  };

  // Drops: VS Code hands a webview the dragged explorer items as a URI list (hold Shift to drop into a webview).
  dropTarget.addEventListener('dragover', (e) => {
    if (!e.dataTransfer) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
    dropTarget.classList.add('drop-target');
  });
  dropTarget.addEventListener('dragleave', () => dropTarget.classList.remove('drop-target'));
  dropTarget.addEventListener('drop', (e) => {
    dropTarget.classList.remove('drop-target');
    const data = e.dataTransfer;
    if (!data) return;
    const text = data.getData('application/vnd.code.uri-list') || data.getData('text/uri-list') || data.getData('text/plain');
    const uris = text
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#'))
      .slice(0, 50);
    if (uris.length === 0) return;
    e.preventDefault();
    send({ type: 'dropUris', uris });
  });

  return {
    setItems(next) {
      items = next;
      render();
    },
    setEditorSelection(attachment) {
      if (attachment?.label !== offered?.label) dismissed = undefined;
      offered = attachment;
      render();
    },
    get includeEditorSelection() {
      return offered !== undefined && offered.label !== dismissed;
    },
    editorSelectionSent() {
      dismissed = offered?.label;
      render();
    },
  };
}

/** One chip: icon word, label, × button; the whole chip is a list item named by its detail. */
export function chip(item: ChatAttachment, offered: boolean, onRemove?: () => void): HTMLElement {
  const el = document.createElement('span');
  el.className = `chip chip-${item.kind}${offered ? ' offered' : ''}`;
  el.setAttribute('role', 'listitem');
  el.title = offered ? `${item.detail} (sent with the next prompt; remove to leave it out)` : item.detail;
  const label = document.createElement('span');
  label.className = 'chip-label';
  label.textContent = item.label;
  label.setAttribute('aria-label', offered ? `Current selection: ${item.detail}` : item.detail);
  el.append(label);
  if (onRemove) {
    const remove = document.createElement('button');
    remove.type = 'button';
    remove.className = 'chip-remove';
    remove.textContent = '×';
    remove.setAttribute('aria-label', `Remove ${item.label}`);
    remove.addEventListener('click', onRemove);
    el.append(remove);
  }
  return el;
}
