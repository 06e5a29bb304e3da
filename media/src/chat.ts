import type { ChatEvent, FromWebviewMessage, HistoryEntry, Notice, ToWebviewMessage } from '../../src/shared/webviewProtocol';
import { renderMarkdown } from './markdown';
import { createToolCard, updateToolCard, type ToolCard } from './toolCard';
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

/** Per-agent rendering state: where its work goes and the assistant text streaming in. */
interface AgentView {
  readonly container: HTMLElement;
  streaming?: { readonly el: HTMLElement; text: string };
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
  if (!view.streaming) return;
  renderMarkdown(view.streaming.el, view.streaming.text);
  dirty.delete(view);
  view.streaming = undefined;
}

function assistantBlock(view: AgentView): { el: HTMLElement; text: string } {
  if (!view.streaming) {
    const el = document.createElement('div');
    el.className = 'message assistant markdown';
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
    cards.set(toolUseId, card);
    append(view.container, card.root);
  }
  return card;
}

function applyEvent(event: ChatEvent): void {
  switch (event.type) {
    case 'userPrompt': {
      const el = document.createElement('div');
      el.className = 'message user';
      el.textContent = event.text;
      append(messages, el);
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
    case 'toolStatus':
      updateToolCard(cardFor(event.agentId, event.toolUseId), event);
      return;
    case 'systemMessage': {
      const view = agentView(event.agentId);
      closeStreaming(view);
      note(view.container, event.source === 'UserPromptSubmit' ? 'blocked' : 'system', event.text, event.source ?? 'Hook');
      return;
    }
    case 'usage':
      modelLabel.dataset['tokens'] = String(Number(modelLabel.dataset['tokens'] ?? 0) + event.inputTokens + event.outputTokens);
      modelLabel.title = `Model · ${modelLabel.dataset['tokens']} tokens this chat`;
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
      }
      return;
    }
  }
}

function reset(): void {
  for (const child of Array.from(messages.children)) if (child !== empty) child.remove();
  empty.hidden = false;
  agents = new Map();
  cards = new Map();
  dirty.clear();
  modelLabel.dataset['tokens'] = '0';
}

function setBusy(value: boolean): void {
  busy = value;
  sendButton.hidden = busy;
  stopButton.hidden = !busy;
  messages.setAttribute('aria-busy', String(busy));
}

function setModel(label: string): void {
  modelLabel.textContent = label || 'No model';
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
  send({ type: 'submit', prompt: text });
  applyEvent({ type: 'userPrompt', text });
  prompt.value = '';
  vscode.setState({ draft: '' });
  scrollToBottom();
}

window.addEventListener('message', (e: MessageEvent<ToWebviewMessage>) => {
  const message = e.data;
  switch (message.type) {
    case 'init':
      reset();
      setModel(message.modelLabel);
      setBusy(message.busy);
      showNotice(message.notice);
      for (const event of message.events) applyEvent(event);
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
  }
});

composer.addEventListener('submit', (e) => {
  e.preventDefault();
  submit();
});
prompt.addEventListener('keydown', (e) => {
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
historyPanel.addEventListener('keydown', (e) => {
  if (e.key === 'Escape') hideHistory();
});
messages.addEventListener('click', (e) => {
  const button = (e.target as HTMLElement).closest<HTMLButtonElement>('button[data-action="copy-code"]');
  if (!button) return;
  const code = button.parentElement?.querySelector('pre')?.textContent ?? '';
  send({ type: 'copyText', text: code });
  button.textContent = 'Copied';
  setTimeout(() => (button.textContent = 'Copy'), 1500);
});

prompt.value = vscode.getState()?.draft ?? '';
setBusy(false);
send({ type: 'ready' });
prompt.focus();
