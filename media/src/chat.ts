import type { ChatEvent, FromWebviewMessage, HistoryEntry, Notice, ToWebviewMessage } from '../../src/shared/webviewProtocol';
import { createContextBar } from './contextBar';
import { assistantActions, createAnnouncer, enableKeyboardNavigation, reasoningBlock, userMessage } from './conversation';
import { renderMarkdown } from './markdown';
import { createMentions } from './mentions';
import { createToolCard, setToolCardHookStatus, updateToolCard, type ToolCard } from './toolCard';
import { attachCheckpoint, renderEditSummary, renderFileDiff } from './editReview';

/**
 * The chat webview. It renders what the extension sends (`ToWebviewMessage`) and posts what
 * the user does (`FromWebviewMessage`); the extension validates every message it receives.
 * The extension keeps the conversation and re-sends it in `init`, so only the draft prompt
 * lives in webview state.
 */
interface WebviewState {
  readonly draft?: string;
}

const vscode = acquireVsCodeApi<WebviewState>();
const send = (message: FromWebviewMessage): void => vscode.postMessage(message);

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const messages = $<HTMLElement>('messages');
const empty = $<HTMLElement>('empty');
const prompt = $<HTMLTextAreaElement>('prompt');
const composer = $<HTMLFormElement>('composer');
const sendButton = $<HTMLButtonElement>('send');
const stopButton = $<HTMLButtonElement>('stop');
const modelLabel = $<HTMLElement>('model-label');
const noticeEl = $<HTMLElement>('notice');
const historyPanel = $<HTMLElement>('history-panel');
const sessionTitle = $<HTMLElement>('session-title');
const meter = $<HTMLElement>('context-meter');
const announce = createAnnouncer($<HTMLElement>('status'));
const contextBar = createContextBar($<HTMLElement>('attachments'), document.body, (m) => send(m));
const mentions = createMentions(prompt, $<HTMLElement>('mention-list'), (m) => send(m));

/** Per-agent rendering state: where its work goes and the assistant text streaming in. */
interface AgentView {
  readonly container: HTMLElement;
  streaming?: { readonly el: HTMLElement; text: string };
  /** Reasoning text of the current step, collapsed. */
  reasoning?: { readonly body: HTMLElement; text: string };
}

let agents = new Map<string, AgentView>();
let cards = new Map<string, ToolCard>();
let busy = false;
const dirty = new Set<AgentView>();
let frame: number | undefined;

function agentView(agentId: string): AgentView {
  let view = agents.get(agentId);
  if (!view) {
    view = { container: messages };
    agents.set(agentId, view);
  }
  return view;
}

function append(container: HTMLElement, node: HTMLElement): void {
  const stick = isNearBottom();
  empty.hidden = true;
  container.append(node);
  if (stick) scrollToBottom();
}

function isNearBottom(): boolean {
  return messages.scrollHeight - messages.scrollTop - messages.clientHeight < 80;
}

function scrollToBottom(): void {
  messages.scrollTop = messages.scrollHeight;
}

/** Streaming text is re-rendered at most once per frame, whatever the delta rate. */
function scheduleRender(view: AgentView): void {
  dirty.add(view);
  if (frame !== undefined) return;
  frame = requestAnimationFrame(() => {
    frame = undefined;
    const stick = isNearBottom();
    for (const v of dirty) if (v.streaming) renderMarkdown(v.streaming.el, v.streaming.text);
    dirty.clear();
    if (stick) scrollToBottom();
  });
}

/** Ends the agent's current text block, so what follows (a tool card) appears below it. */
function closeStreaming(view: AgentView): void {
  view.reasoning = undefined;
  if (!view.streaming) return;
  const { el, text } = view.streaming;
  renderMarkdown(el, text);
  assistantActions(el, () => text, copyText);
  dirty.delete(view);
  view.streaming = undefined;
}

function copyText(text: string): void {
  send({ type: 'copyText', text });
  announce('Copied to the clipboard');
}

function assistantBlock(view: AgentView): { el: HTMLElement; text: string } {
  if (!view.streaming) {
    const el = document.createElement('div');
    el.className = 'message assistant markdown';
    el.setAttribute('role', 'article');
    el.setAttribute('aria-label', 'Hookwise');
    el.tabIndex = -1;
    view.reasoning = undefined;
    append(view.container, el);
    view.streaming = { el, text: '' };
  }
  return view.streaming;
}

function note(container: HTMLElement, className: string, text: string, label?: string): void {
  const el = document.createElement('div');
  el.className = `note ${className}`;
  if (label) {
    const strong = document.createElement('strong');
    strong.textContent = `${label}: `;
    el.append(strong);
  }
  el.append(document.createTextNode(text));
  append(container, el);
}

function cardFor(agentId: string, toolUseId: string, toolName = 'tool', summary = '', input = ''): ToolCard {
  let card = cards.get(toolUseId);
  if (!card) {
    const view = agentView(agentId);
    closeStreaming(view);
    card = createToolCard(toolName, summary, input);
    card.root.tabIndex = -1;
    cards.set(toolUseId, card);
    append(view.container, card.root);
  }
  return card;
}

function applyEvent(event: ChatEvent): void {
  switch (event.type) {
    case 'userPrompt': {
      if (!sessionTitle.textContent) setTitle(event.text);
      // Edit and Retry go back to the prompt's checkpoint first (the host confirms when files
      // would be restored); a prompt without one (older than the checkpoints) is only resent.
      const node: HTMLElement = userMessage(event.text, event.attachments, {
        copy: copyText,
        edit: (text) => {
          const checkpointId = checkpointOf(node);
          if (checkpointId !== undefined) return send({ type: 'restoreCheckpoint', checkpointId, then: 'edit', prompt: text });
          prompt.value = text;
          prompt.focus();
          vscode.setState({ draft: text });
        },
        retry: (text) => {
          const checkpointId = checkpointOf(node);
          if (checkpointId !== undefined) send({ type: 'restoreCheckpoint', checkpointId, then: 'retry', prompt: text });
          else submitText(text, false);
        },
      });
      append(messages, node);
      return;
    }
    case 'reasoning': {
      const view = agentView(event.agentId);
      if (view.streaming) closeStreaming(view);
      if (!view.reasoning) {
        const block = reasoningBlock();
        append(view.container, block.root);
        view.reasoning = { body: block.body, text: '' };
      }
      view.reasoning.text += event.delta;
      view.reasoning.body.textContent = view.reasoning.text;
      return;
    }
    case 'runStarted': {
      const { agent } = event;
      if (agent.parentAgentId === null) {
        agents.set(agent.agentId, agents.get(agent.agentId) ?? { container: messages });
        return;
      }
      // A subagent nests under the Agent card that spawned it (else under its parent agent).
      const parentCard = event.parentToolUseId ? cards.get(event.parentToolUseId) : undefined;
      const host = parentCard?.children ?? agentView(agent.parentAgentId).container;
      const section = document.createElement('section');
      section.className = 'subagent';
      const title = document.createElement('div');
      title.className = 'subagent-title';
      title.textContent = `Subagent ${agent.agentType}${event.description ? ` · ${event.description}` : ''}`;
      section.setAttribute('aria-label', title.textContent);
      section.append(title);
      append(host, section);
      agents.set(agent.agentId, { container: section });
      return;
    }
    case 'text': {
      const view = agentView(event.agentId);
      assistantBlock(view).text += event.delta;
      scheduleRender(view);
      return;
    }
    case 'assistantMessage': {
      const view = agentView(event.agentId);
      // The final text wins over the streamed deltas (they should agree).
      if (view.streaming || event.text.trim() !== '') {
        assistantBlock(view).text = event.text;
        closeStreaming(view);
      }
      return;
    }
    case 'toolCall':
      cardFor(event.agentId, event.toolUseId, event.toolName, event.summary, event.input);
      return;
    case 'toolStatus': {
      const card = cardFor(event.agentId, event.toolUseId);
      const before = card.root.dataset['status'];
      updateToolCard(card, event);
      if (live && before !== event.status && ANNOUNCED.has(event.status))
        announce(`${card.toolName}: ${event.status.replace('-', ' ')}${event.verdict ? `. ${event.verdict}` : ''}`);
      return;
    }
    case 'hookStatus': {
      // Only for a card already shown; a status for an unknown call is dropped, not a new card.
      const card = cards.get(event.toolUseId);
      if (card) setToolCardHookStatus(card, event.text);
      return;
    }
    case 'systemMessage': {
      const view = agentView(event.agentId);
      closeStreaming(view);
      note(view.container, event.source === 'UserPromptSubmit' ? 'blocked' : 'system', event.text, event.source ?? 'Hook');
      return;
    }
    case 'usage':
      modelLabel.dataset['tokens'] = String(Number(modelLabel.dataset['tokens'] ?? 0) + event.inputTokens + event.outputTokens);
      modelLabel.title = `Model · ${modelLabel.dataset['tokens']} tokens this chat · click to pick another`;
      return;
    case 'fileDiff':
      renderFileDiff(cardFor(event.agentId, event.toolUseId), event, send);
      return;
    case 'checkpoint':
      attachCheckpoint(messages, event.checkpointId, send, event.userMessage);
      return;
    case 'editSummary':
      renderEditSummary(messages, event, send, (node) => append(messages, node));
      return;
    case 'runEnded': {
      const view = agentView(event.agentId);
      closeStreaming(view);
      if (event.status !== 'completed') {
        const label = event.status === 'cancelled' ? 'Stopped' : event.status === 'failed' ? 'Failed' : 'Ended';
        note(view.container, event.status === 'failed' ? 'error' : 'system', event.reason ?? `after ${event.steps} step(s)`, label);
        if (live && event.agentId === 'main') announce(`${label}: ${event.reason ?? ''}`);
      }
      return;
    }
  }
}

/** Tool statuses read out to screen readers (the others change too fast to be useful). */
const ANNOUNCED = new Set(['waiting-approval', 'denied', 'failed']);
/** False while `init` replays the log: history is not announced. */
let live = true;

function reset(): void {
  for (const child of Array.from(messages.children)) if (child !== empty) child.remove();
  empty.hidden = false;
  agents = new Map();
  cards = new Map();
  dirty.clear();
  modelLabel.dataset['tokens'] = '0';
  setTitle('');
  setUsage(0, 0);
}

function setTitle(text: string): void {
  const line = text.split('\n')[0]?.trim() ?? '';
  sessionTitle.textContent = line.length > 60 ? `${line.slice(0, 59)}…` : line;
  sessionTitle.title = line ? `Session: ${line}` : '';
}

/** The header's context meter: tokens of the last model call against the budget. */
function setUsage(used: number, window: number): void {
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
}

function formatTokens(n: number): string {
  return n >= 1000 ? `${(n / 1000).toFixed(n >= 10_000 ? 0 : 1)}k` : String(n);
}

function setBusy(value: boolean): void {
  const changed = busy !== value;
  busy = value;
  sendButton.hidden = busy;
  stopButton.hidden = !busy;
  messages.setAttribute('aria-busy', String(busy));
  if (changed && live) announce(busy ? 'Hookwise is working' : 'Hookwise is done');
}

function setModel(label: string): void {
  modelLabel.textContent = label || 'No model';
  modelLabel.setAttribute('aria-label', `Model: ${label || 'No model'}. Pick a model`);
}

function showNotice(notice: Notice | undefined): void {
  noticeEl.replaceChildren();
  noticeEl.hidden = !notice;
  if (!notice) return;
  const text = document.createElement('span');
  text.textContent = notice.text;
  noticeEl.append(text);
  for (const action of notice.actions) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'secondary';
    button.textContent = action.label;
    button.addEventListener('click', () => send({ type: 'noticeAction', noticeId: notice.id, actionId: action.id }));
    noticeEl.append(button);
  }
}

function showHistory(sessions: readonly HistoryEntry[]): void {
  historyPanel.replaceChildren();
  const heading = document.createElement('div');
  heading.className = 'history-heading';
  heading.textContent = sessions.length ? 'Past sessions' : 'No past sessions yet';
  const close = document.createElement('button');
  close.type = 'button';
  close.className = 'icon-button';
  close.textContent = 'Close';
  close.setAttribute('aria-label', 'Close history');
  close.addEventListener('click', hideHistory);
  heading.append(close);
  const list = document.createElement('ul');
  for (const s of sessions) {
    const item = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'history-entry';
    button.textContent = s.title;
    const when = new Date(s.updatedAt).toLocaleString();
    button.title = `${when}${s.detail ? ` · ${s.detail}` : ''}`;
    button.setAttribute('aria-label', `Resume "${s.title}" from ${when}`);
    button.addEventListener('click', () => {
      hideHistory();
      send({ type: 'resumeSession', id: s.id });
    });
    item.append(button);
    list.append(item);
  }
  historyPanel.append(heading, list);
  historyPanel.hidden = false;
  (list.querySelector('button') ?? close).focus();
}

function hideHistory(): void {
  historyPanel.hidden = true;
  prompt.focus();
}

function submit(): void {
  const text = prompt.value.trim();
  if (!text || busy) return;
  submitText(text, contextBar.includeEditorSelection);
  prompt.value = '';
  vscode.setState({ draft: '' });
}

/** The extension echoes the prompt back with its attachments, so every open chat shows it. */
/** The checkpoint a user message got (Restore Checkpoint), if any. */
function checkpointOf(message: HTMLElement): number | undefined {
  const id = Number(message.dataset['checkpoint']);
  return Number.isInteger(id) && id > 0 ? id : undefined;
}

function submitText(text: string, includeEditorSelection: boolean): void {
  if (busy) return;
  send({ type: 'submit', prompt: text, includeEditorSelection });
  scrollToBottom();
}

window.addEventListener('message', (e: MessageEvent<ToWebviewMessage>) => {
  const message = e.data;
  switch (message.type) {
    case 'init':
      live = false;
      reset();
      setModel(message.modelLabel);
      setBusy(message.busy);
      showNotice(message.notice);
      for (const event of message.events) applyEvent(event);
      contextBar.setItems(message.attachments ?? []);
      contextBar.setEditorSelection(message.editorSelection);
      if (message.contextUsage) setUsage(message.contextUsage.usedTokens, message.contextUsage.windowTokens);
      live = true;
      scrollToBottom();
      return;
    case 'agentEvent':
      applyEvent(message.event);
      return;
    case 'sessionReset':
      reset();
      return;
    case 'history':
      showHistory(message.sessions);
      return;
    case 'busy':
      setBusy(message.busy);
      return;
    case 'modelLabel':
      setModel(message.label);
      return;
    case 'notice':
      showNotice(message.notice);
      return;
    case 'setDraft':
      prompt.value = message.text;
      vscode.setState({ draft: message.text });
      prompt.focus();
      return;
    case 'attachments':
      contextBar.setItems(message.items);
      return;
    case 'editorSelection':
      contextBar.setEditorSelection(message.attachment);
      return;
    case 'mentionResults':
      mentions.showResults(message.requestId, message.items);
      return;
    case 'contextUsage':
      setUsage(message.usedTokens, message.windowTokens);
      return;
  }
});

composer.addEventListener('submit', (e) => {
  e.preventDefault();
  submit();
});
prompt.addEventListener('keydown', (e) => {
  if (mentions.handleKey(e)) return;
  // Enter sends; Shift+Enter is a new line; never send mid-IME composition.
  if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
    e.preventDefault();
    submit();
  }
});
prompt.addEventListener('input', () => vscode.setState({ draft: prompt.value }));
stopButton.addEventListener('click', () => send({ type: 'stop' }));
$<HTMLButtonElement>('new-chat').addEventListener('click', () => send({ type: 'newChat' }));
$<HTMLButtonElement>('open-setup').addEventListener('click', () => send({ type: 'openSetup' }));
$<HTMLButtonElement>('history').addEventListener('click', () => send({ type: 'showHistory' }));
$<HTMLButtonElement>('add-context').addEventListener('click', () => send({ type: 'addContext' }));
modelLabel.addEventListener('click', () => send({ type: 'pickModel' }));
enableKeyboardNavigation(messages);
historyPanel.addEventListener('keydown', (e) => {
  if (e.key === 'Escape') hideHistory();
});
messages.addEventListener('click', (e) => {
  const button = (e.target as HTMLElement).closest<HTMLButtonElement>('button[data-action="copy-code"], button[data-action="insert-code"]');
  if (!button) return;
  const code = button.closest('.code-block')?.querySelector('pre')?.textContent ?? '';
  if (button.dataset['action'] === 'insert-code') {
    send({ type: 'insertCode', text: code.replace(/\n$/, '') });
    announce('Inserted at the cursor');
    return;
  }
  send({ type: 'copyText', text: code });
  button.textContent = 'Copied';
  announce('Code copied');
  setTimeout(() => (button.textContent = 'Copy'), 1500);
});

prompt.value = vscode.getState()?.draft ?? '';
setBusy(false);
send({ type: 'ready' });
prompt.focus();
