import type { ChatToolStatus } from '../../src/shared/webviewProtocol';
import { renderInlineMarkdown } from './markdown';

/** The DOM of one tool call card, kept so status updates touch only what changed. */
export interface ToolCard {
  readonly root: HTMLElement;
  readonly toolName: string;
  readonly status: HTMLElement;
  readonly verdict: HTMLElement;
  /** A running hook's statusMessage ("Checking the command…"), hidden when none runs. */
  readonly hookStatus: HTMLElement;
  readonly input: HTMLElement;
  readonly inputDetails: HTMLDetailsElement;
  readonly result: HTMLElement;
  readonly resultDetails: HTMLDetailsElement;
  /** Where a subagent spawned by this (Agent) call renders its work. */
  readonly children: HTMLElement;
}

const STATUS_TEXT: Record<ChatToolStatus, string> = {
  validating: 'checking',
  'waiting-approval': 'waiting for approval',
  running: 'running',
  done: 'done',
  denied: 'denied',
  failed: 'failed',
  // The word Hook Runs uses for the hooks a Stop cut short.
  cancelled: 'cancelled',
};

/** Creates a card for a tool call: name, one-line summary, status, expandable input and result. */
export function createToolCard(toolName: string, summary: string, input: string): ToolCard {
  const root = el('section', 'tool-card');
  root.setAttribute('aria-label', `Tool call ${toolName}${summary ? `: ${summary}` : ''}`);
  const header = el('div', 'tool-header');
  const name = el('span', 'tool-name');
  name.textContent = toolName;
  const summaryEl = el('span', 'tool-summary');
  summaryEl.textContent = summary && summary !== toolName ? summary : '';
  summaryEl.title = summary;
  const status = el('span', 'tool-status');
  header.append(name, summaryEl, status);

  const verdict = el('div', 'tool-verdict');
  verdict.hidden = true;
  const hookStatus = el('div', 'tool-hook-status');
  hookStatus.setAttribute('role', 'status');
  hookStatus.hidden = true;

  const inputDetails = document.createElement('details');
  inputDetails.className = 'tool-section';
  const inputSummary = document.createElement('summary');
  inputSummary.textContent = 'Input';
  const inputPre = el('pre', 'tool-pre');
  inputPre.textContent = input;
  inputDetails.append(inputSummary, inputPre);

  const resultDetails = document.createElement('details');
  resultDetails.className = 'tool-section';
  resultDetails.hidden = true;
  const resultSummary = document.createElement('summary');
  resultSummary.textContent = 'Result';
  const resultPre = el('pre', 'tool-pre');
  resultDetails.append(resultSummary, resultPre);

  const children = el('div', 'subagents');
  root.append(header, hookStatus, verdict, inputDetails, resultDetails, children);
  const card: ToolCard = { root, toolName, status, verdict, hookStatus, input: inputPre, inputDetails, result: resultPre, resultDetails, children };
  setCardStatus(card, 'validating');
  return card;
}

/** Updates a card; undefined fields keep their current value. */
export function updateToolCard(
  card: ToolCard,
  update: { status: ChatToolStatus; input?: string; result?: string; isError?: boolean; verdict?: string; verdictBlocks?: boolean },
): void {
  setCardStatus(card, update.status);
  // A finished call has no hook running for it any more (a missed clear must not linger).
  if (update.status === 'done' || update.status === 'denied' || update.status === 'failed' || update.status === 'cancelled')
    setToolCardHookStatus(card, undefined);
  if (update.input !== undefined) card.input.textContent = update.input;
  if (update.result !== undefined) {
    card.result.textContent = update.result;
    card.resultDetails.hidden = false;
    card.resultDetails.classList.toggle('error', update.isError === true);
  }
  if (update.verdict !== undefined) {
    renderInlineMarkdown(card.verdict, update.verdict);
    card.verdict.hidden = false;
    card.verdict.classList.toggle('blocks', update.verdictBlocks === true);
  }
}

/** Shows a running hook's statusMessage on the card, or hides it (`text` undefined). */
export function setToolCardHookStatus(card: ToolCard, text: string | undefined): void {
  card.hookStatus.textContent = text ?? '';
  card.hookStatus.hidden = text === undefined;
}

function setCardStatus(card: ToolCard, status: ChatToolStatus): void {
  card.status.textContent = STATUS_TEXT[status];
  card.status.dataset['status'] = status;
  card.root.dataset['status'] = status;
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  return node;
}
