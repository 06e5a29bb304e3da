import { formatTokens, noModel } from './headerText';

/**
 * The chat's header and empty state: the model label (with the tokens used this chat), the
 * session title, the context meter, and the empty chat's "Choose a model…" link, which shows
 * only while no model is chosen.
 */
export interface ChatHeader {
  setModel(label: string): void;
  addTokens(tokens: number): void;
  /** The session title from its first prompt (one line, at most 60 characters). */
  setTitle(text: string): void;
  readonly hasTitle: boolean;
  /** The context meter: tokens of the last model call against the budget (hidden while 0). */
  setUsage(used: number, window: number): void;
  /** A new conversation: no title, no tokens, no meter. */
  reset(): void;
}

export interface ChatHeaderElements {
  readonly modelLabel: HTMLElement;
  readonly sessionTitle: HTMLElement;
  readonly meter: HTMLElement;
  /** The empty chat's "Choose a model…" line. */
  readonly setupLine: HTMLElement;
}

export function createChatHeader(el: ChatHeaderElements): ChatHeader {
  const { modelLabel, sessionTitle, meter, setupLine } = el;

  const setTitle = (text: string): void => {
    const line = text.split('\n')[0]?.trim() ?? '';
    sessionTitle.textContent = line.length > 60 ? `${line.slice(0, 59)}…` : line;
    sessionTitle.title = line ? `Session: ${line}` : '';
  };

  const setUsage = (used: number, window: number): void => {
    meter.hidden = window <= 0 || used <= 0;
    if (meter.hidden) return;
    const percent = Math.min(100, Math.round((used / window) * 100));
    meter.setAttribute('aria-valuenow', String(percent));
    meter.setAttribute('aria-valuetext', `${used.toLocaleString()} of ${window.toLocaleString()} tokens (${percent}%)`);
    meter.title = `Context: ${used.toLocaleString()} / ${window.toLocaleString()} tokens (the conversation is compacted at the budget)`;
    meter.style.setProperty('--used', `${percent}%`);
    meter.classList.toggle('high', percent >= 80);
    const text = meter.querySelector<HTMLElement>('.context-meter-text');
    if (text) text.textContent = `${formatTokens(used)} / ${formatTokens(window)}`;
  };

  return {
    setModel(label) {
      modelLabel.textContent = label || 'No model';
      modelLabel.setAttribute('aria-label', `Model: ${label || 'No model'}. Pick a model`);
      // The full name on hover: a narrow header may cut it short.
      modelLabel.title = `Model: ${label || 'none'} · click to pick another`;
      setupLine.hidden = !noModel(label);
    },
    addTokens(tokens) {
      modelLabel.dataset['tokens'] = String(Number(modelLabel.dataset['tokens'] ?? 0) + tokens);
      modelLabel.title = `Model: ${modelLabel.textContent ?? ''} · ${modelLabel.dataset['tokens']} tokens this chat · click to pick another`;
    },
    setTitle,
    get hasTitle() {
      return Boolean(sessionTitle.textContent);
    },
    setUsage,
    reset() {
      modelLabel.dataset['tokens'] = '0';
      setTitle('');
      setUsage(0, 0);
    },
  };
}
