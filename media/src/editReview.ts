import type { ChatEvent, EditedFile, FromWebviewMessage } from '../../src/shared/webviewProtocol';
import type { ToolCard } from './toolCard';

/**
 * Reviewable edits in the chat webview: the inline diff of a Write/Edit card, the summary of
 * the files a turn changed (Keep / Undo per file and for all, Open Diff), and the Restore
 * Checkpoint button under each user message. The extension does the work and sends the
 * summary again after every action; this file only draws and forwards clicks.
 */

type Send = (message: FromWebviewMessage) => void;
type FileDiff = Extract<ChatEvent, { type: 'fileDiff' }>;
type EditSummary = Extract<ChatEvent, { type: 'editSummary' }>;

const SIGN: Record<FileDiff['lines'][number]['kind'], string> = { context: ' ', removed: '-', added: '+', gap: '' };

/** Shows a call's change in its card, above any subagent it spawned; a second diff for the card replaces the first. */
export function renderFileDiff(card: ToolCard, event: FileDiff, send: Send): void {
  card.root.querySelector(':scope > .edit-diff')?.remove();
  const box = el('div', 'edit-diff');
  box.setAttribute('role', 'group');
  box.setAttribute('aria-label', `Changes to ${event.label}: ${event.added} added, ${event.removed} removed`);
  const header = el('div', 'edit-diff-header');
  const title = el('span', 'edit-diff-title');
  title.textContent = event.label;
  title.title = event.path;
  header.append(
    title,
    counts(event.added, event.removed),
    button('Open Diff', `Open Diff: the change to ${event.label} in a diff editor`, () => send({ type: 'openDiff', toolUseId: event.toolUseId })),
  );
  box.append(header);
  if (event.note) {
    const note = el('div', 'edit-diff-note');
    note.textContent = event.note;
    box.append(note);
  } else {
    const pre = el('pre', 'edit-diff-lines');
    // It scrolls, so it must be reachable by keyboard.
    pre.tabIndex = 0;
    pre.setAttribute('aria-label', `Diff of ${event.label}`);
    for (const line of event.lines) {
      const row = el('div', `diff-${line.kind}`);
      row.textContent = line.kind === 'gap' ? '…' : `${SIGN[line.kind]} ${line.text}`;
      if (line.kind === 'added' || line.kind === 'removed')
        row.setAttribute('aria-label', `${line.kind} line ${line.newLine ?? line.oldLine ?? ''}: ${line.text}`);
      pre.append(row);
    }
    box.append(pre);
    if (event.truncated) {
      const more = el('div', 'edit-diff-note');
      more.textContent = 'Diff cut here: Open Diff shows all of it.';
      box.append(more);
    }
  }
  card.root.insertBefore(box, card.children);
}

/** Gives a user message (the `index`-th, else the latest without one) a Restore Checkpoint button for `checkpointId`. */
export function attachCheckpoint(messages: HTMLElement, checkpointId: number, send: Send, index?: number): void {
  const users = Array.from(messages.querySelectorAll<HTMLElement>(':scope > .message.user'));
  const target = index !== undefined ? users[index] : users.reverse().find((m) => m.dataset['checkpoint'] === undefined);
  if (!target || target.dataset['checkpoint'] !== undefined) return;
  target.dataset['checkpoint'] = String(checkpointId);
  const bar = el('div', 'checkpoint-bar');
  bar.append(
    button('Restore Checkpoint', 'Restore Checkpoint: put back the files the agent changed since this message and cut the conversation here', () =>
      send({ type: 'restoreCheckpoint', checkpointId }),
    ),
  );
  target.after(bar);
}

/** Draws (or redraws in place) the summary of the files a turn changed. */
export function renderEditSummary(messages: HTMLElement, event: EditSummary, send: Send, append: (node: HTMLElement) => void): void {
  const section = el('section', 'edit-summary');
  section.dataset['checkpoint'] = String(event.checkpointId);
  const pending = event.files.filter((f) => f.state === 'pending' || f.state === 'kept');
  section.setAttribute('aria-label', `${event.files.length} file(s) changed in this turn`);
  const header = el('div', 'edit-summary-header');
  const title = el('span', 'edit-summary-title');
  title.textContent = `${event.files.length} file${event.files.length === 1 ? '' : 's'} changed`;
  header.append(title);
  if (event.files.some((f) => f.state === 'pending'))
    header.append(button('Keep All', 'Keep all changes of this turn', () => send({ type: 'reviewEdits', action: 'keep', checkpointId: event.checkpointId })));
  if (pending.length > 0)
    header.append(button('Undo All', 'Undo all changes of this turn', () => send({ type: 'reviewEdits', action: 'undo', checkpointId: event.checkpointId })));
  const list = el('ul', 'edit-summary-files');
  for (const file of event.files) list.append(fileRow(file, event.checkpointId, send));
  section.append(header, list);

  const existing = messages.querySelector(`.edit-summary[data-checkpoint="${event.checkpointId}"]`);
  if (existing) {
    // Keep focus where the user clicked: the same button of the redrawn row, or the summary.
    const focused =
      document.activeElement instanceof HTMLElement && existing.contains(document.activeElement) ? document.activeElement.getAttribute('aria-label') : null;
    existing.replaceWith(section);
    if (focused !== null) (section.querySelector<HTMLElement>(`[aria-label="${CSS.escape(focused)}"]`) ?? title).focus();
    return;
  }
  append(section);
}

const STATE_TEXT: Record<EditedFile['state'], string> = { pending: '', kept: 'kept', undone: 'undone', conflict: 'not undone: changed since' };
const CHANGE_TEXT: Record<EditedFile['change'], string> = { created: 'new', modified: 'modified', deleted: 'deleted' };

function fileRow(file: EditedFile, checkpointId: number, send: Send): HTMLElement {
  const row = el('li', 'edit-file');
  row.dataset['state'] = file.state;
  const name = el('span', 'edit-file-name');
  name.textContent = file.label;
  name.title = file.path;
  const change = el('span', 'edit-file-change');
  change.textContent = CHANGE_TEXT[file.change];
  row.append(name, change);
  if (file.added !== undefined && file.removed !== undefined) row.append(counts(file.added, file.removed));
  const state = el('span', 'edit-file-state');
  state.textContent = STATE_TEXT[file.state];
  row.append(state);
  if (file.state !== 'undone') row.append(button('Open Diff', `Open Diff of ${file.label}`, () => send({ type: 'openDiff', checkpointId, path: file.path })));
  if (file.state === 'pending')
    row.append(button('Keep', `Keep the change to ${file.label}`, () => send({ type: 'reviewEdits', action: 'keep', checkpointId, path: file.path })));
  if ((file.state === 'pending' || file.state === 'kept') && !file.note)
    row.append(button('Undo', `Undo the change to ${file.label}`, () => send({ type: 'reviewEdits', action: 'undo', checkpointId, path: file.path })));
  if (file.note) {
    const note = el('div', 'edit-file-note');
    note.textContent = file.note;
    row.append(note);
  }
  return row;
}

function counts(added: number, removed: number): HTMLElement {
  const span = el('span', 'edit-counts');
  const plus = el('span', 'edit-added');
  plus.textContent = `+${added}`;
  const minus = el('span', 'edit-removed');
  minus.textContent = `−${removed}`;
  span.append(plus, minus);
  span.setAttribute('aria-label', `${added} added, ${removed} removed`);
  return span;
}

function button(text: string, label: string, onClick: () => void): HTMLButtonElement {
  const b = el('button', 'secondary edit-action');
  b.type = 'button';
  b.textContent = text;
  b.setAttribute('aria-label', label);
  b.title = label;
  b.addEventListener('click', onClick);
  return b;
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  return node;
}

/** The checkpoint a user message got (Restore Checkpoint), if any. */
export function checkpointOf(message: HTMLElement): number | undefined {
  const id = Number(message.dataset['checkpoint']);
  return Number.isInteger(id) && id > 0 ? id : undefined;
}
