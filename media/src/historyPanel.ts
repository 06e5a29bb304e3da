import type { FromWebviewMessage, HistoryEntry } from '../../src/shared/webviewProtocol';
import { filterSessions, historyWhen } from './historySearch';

/**
 * The History panel under the header: past sessions, newest first, each with the date of
 * its last activity, and a search box that narrows the list as one types (title, detail or
 * date). Enter in the search box resumes the first match; Escape closes the panel.
 */
export interface HistoryPanel {
  show(sessions: readonly HistoryEntry[]): void;
  hide(): void;
}

export function createHistoryPanel(panel: HTMLElement, send: (m: FromWebviewMessage) => void, onClosed: () => void): HistoryPanel {
  const hide = (): void => {
    panel.hidden = true;
    onClosed();
  };
  const resume = (s: HistoryEntry): void => {
    hide();
    send({ type: 'resumeSession', id: s.id });
  };
  panel.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape') return;
    // Handled here: Escape closes the panel and does not also stop a running turn.
    e.preventDefault();
    hide();
  });

  const show = (sessions: readonly HistoryEntry[]): void => {
    const now = Date.now();
    const whenOf = new Map(sessions.map((s) => [s.id, historyWhen(s.updatedAt, now)]));
    const when = (s: HistoryEntry): string => whenOf.get(s.id) ?? '';
    panel.replaceChildren();
    const heading = document.createElement('div');
    heading.className = 'history-heading';
    heading.textContent = sessions.length ? 'Past sessions' : 'No past sessions yet';
    const close = document.createElement('button');
    close.type = 'button';
    close.className = 'icon-button';
    close.textContent = 'Close';
    close.setAttribute('aria-label', 'Close history');
    close.addEventListener('click', hide);
    heading.append(close);
    const search = document.createElement('input');
    search.type = 'search';
    search.className = 'history-search';
    search.placeholder = 'Search past sessions';
    search.setAttribute('aria-label', 'Search past sessions by title or date');
    const list = document.createElement('ul');
    const status = document.createElement('div');
    status.className = 'history-none';
    status.setAttribute('role', 'status');
    let shown: HistoryEntry[] = [];
    const render = (): void => {
      shown = filterSessions(sessions, search.value, when);
      list.replaceChildren(...shown.map((s) => entry(s, when(s), () => resume(s))));
      status.textContent = sessions.length > 0 && shown.length === 0 ? 'No session matches.' : '';
    };
    search.addEventListener('input', render);
    search.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && shown[0]) {
        e.preventDefault();
        resume(shown[0]);
      } else if (e.key === 'ArrowDown') {
        e.preventDefault();
        list.querySelector('button')?.focus();
      }
    });
    render();
    panel.append(heading, ...(sessions.length > 0 ? [search, status] : []), list);
    panel.hidden = false;
    (sessions.length > 0 ? search : close).focus();
  };
  return { show, hide };
}

/** One past session: its title and, beside it, when it was last active. */
function entry(s: HistoryEntry, when: string, onClick: () => void): HTMLElement {
  const item = document.createElement('li');
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'history-entry';
  const title = document.createElement('span');
  title.className = 'history-title';
  title.textContent = s.title;
  const date = document.createElement('span');
  date.className = 'history-when';
  date.textContent = when;
  button.append(title, date);
  button.title = `${new Date(s.updatedAt).toLocaleString()}${s.detail ? ` · ${s.detail}` : ''}`;
  button.setAttribute('aria-label', `Resume "${s.title}" from ${when}`);
  button.addEventListener('click', onClick);
  item.append(button);
  return item;
}
