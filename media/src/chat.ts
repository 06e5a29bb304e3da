import type { ChatEvent, FromWebviewMessage, ToWebviewMessage } from '../../src/shared/webviewProtocol';
import { createChatHeader } from './chatHeader';
import { installChatKeys } from './chatKeys';
import { createContextBar } from './contextBar';
import { assistantActions, createAnnouncer, enableKeyboardNavigation, noteElement, reasoningBlock, subagentSection, userMessage } from './conversation';
import { enableCodeBlockActions, renderMarkdown } from './markdown';
import { createHistoryPanel } from './historyPanel';
import { createMentions } from './mentions';
import { renderMemoryFiles } from './memoryFilesLine';
import { describeByMarkers, modelHookMarker } from './modelHookMarker';
import { showNotice } from './noticeBar';
import { createPromptHistory } from './promptHistory';
import { createSlashCompletion } from './slashCompletion';
import { createToolCard, setToolCardHookStatus, updateToolCard, type ToolCard } from './toolCard';
import { attachCheckpoint, checkpointOf, renderEditSummary, renderFileDiff } from './editReview';

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
const header = createChatHeader({
  modelLabel,
  sessionTitle: $<HTMLElement>('session-title'),
  meter: $<HTMLElement>('context-meter'),
  setupLine: $<HTMLElement>('setup-line'),
});
const history = createHistoryPanel($<HTMLElement>('history-panel'), send, () => prompt.focus());
const sentPrompts = createPromptHistory();
const announce = createAnnouncer($<HTMLElement>('status'));
const contextBar = createContextBar($<HTMLElement>('attachments'), document.body, (m) => send(m));
const mentions = createMentions(prompt, $<HTMLElement>('mention-list'), (m) => send(m));
const commands = createSlashCompletion(prompt, $<HTMLElement>('command-list'), (m) => send(m));

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
    describeByMarkers(el);
    view.streaming = { el, text: '' };
  }
  return view.streaming;
}

function note(container: HTMLElement, className: string, text: string, label?: string): void {
  append(container, noteElement(className, text, label));
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
      if (!header.hasTitle) header.setTitle(event.text);
      sentPrompts.add(event.text);
      // Edit and Retry go back to the prompt's checkpoint first (the host confirms when files
      // would be restored); a prompt without one (older than the checkpoints) is only resent.
      const node: HTMLElement = userMessage(event.text, event.attachments, {
        copy: copyText,
        edit: (text) => {
          const checkpointId = checkpointOf(node);
          if (checkpointId !== undefined) return send({ type: 'restoreCheckpoint', checkpointId, then: 'edit', prompt: text });
          setPrompt(text);
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
      const section = subagentSection(`Subagent ${agent.agentType}${event.description ? ` · ${event.description}` : ''}`);
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
    case 'modelHookMarker':
      closeStreaming(agentView(event.agentId));
      append(agentView(event.agentId).container, modelHookMarker(event));
      return;
    case 'usage':
      header.addTokens(event.inputTokens + event.outputTokens);
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
        const label = event.status === 'cancelled' ? 'Cancelled' : event.status === 'failed' ? 'Failed' : 'Ended';
        note(view.container, event.status === 'failed' ? 'error' : 'system', event.reason ?? `after ${event.steps} step(s)`, label);
        if (live && event.agentId === 'main') announce(`${label}: ${event.reason ?? ''}`);
      }
      return;
    }
  }
}

/** Tool statuses read out to screen readers (the others change too fast to be useful). */
const ANNOUNCED = new Set(['waiting-approval', 'denied', 'failed', 'cancelled']);
/** False while `init` replays the log: history is not announced. */
let live = true;

function reset(): void {
  for (const child of Array.from(messages.children)) if (child !== empty) child.remove();
  empty.hidden = false;
  agents = new Map();
  cards = new Map();
  dirty.clear();
  sentPrompts.clear();
  header.reset();
}

function setBusy(value: boolean): void {
  const changed = busy !== value;
  busy = value;
  sendButton.hidden = busy;
  stopButton.hidden = !busy;
  messages.setAttribute('aria-busy', String(busy));
  if (changed && live) announce(busy ? 'Hookwise is working' : 'Hookwise is done');
}

function submit(): void {
  const text = prompt.value.trim();
  if (!text || busy) return;
  const withSelection = contextBar.includeEditorSelection;
  submitText(text, withSelection);
  // The offered selection went with this prompt: it does not ride along with the next ones.
  if (withSelection) contextBar.editorSelectionSent();
  setPrompt('', false);
}

/** Replaces the input's text (Edit, recall, a draft from the extension): no completion list stays open over it. */
function setPrompt(text: string, focus = true): void {
  prompt.value = text;
  commands.close();
  mentions.close();
  vscode.setState({ draft: text });
  if (focus) {
    prompt.focus();
    prompt.setSelectionRange(text.length, text.length);
  }
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
      header.setModel(message.modelLabel);
      setBusy(message.busy);
      showNotice(noticeEl, message.notice, send);
      for (const event of message.events) applyEvent(event);
      contextBar.setItems(message.attachments ?? []);
      contextBar.setEditorSelection(message.editorSelection);
      if (message.contextUsage) header.setUsage(message.contextUsage.usedTokens, message.contextUsage.windowTokens);
      live = true;
      scrollToBottom();
      return;
    case 'agentEvent':
      return applyEvent(message.event);
    case 'sessionReset':
      return reset();
    case 'history':
      return history.show(message.sessions);
    case 'busy':
      return setBusy(message.busy);
    case 'modelLabel':
      return header.setModel(message.label);
    case 'notice':
      showNotice(noticeEl, message.notice, send);
      return;
    case 'setDraft':
      return setPrompt(message.text);
    case 'attachments':
      return contextBar.setItems(message.items);
    case 'editorSelection':
      contextBar.setEditorSelection(message.attachment);
      return;
    case 'mentionResults':
      mentions.showResults(message.requestId, message.items);
      return;
    case 'commandResults':
      commands.showResults(message.requestId, message.items);
      return;
    case 'memoryFiles':
      renderMemoryFiles($<HTMLElement>('memory-files'), message.files, send);
      return;
    case 'contextUsage':
      header.setUsage(message.usedTokens, message.windowTokens);
      return;
  }
});

composer.addEventListener('submit', (e) => {
  e.preventDefault();
  submit();
});
installChatKeys({
  prompt,
  lists: [commands, mentions],
  sentPrompts,
  isBusy: () => busy,
  submit,
  stop: () => {
    send({ type: 'stop' });
    announce('Stopping');
  },
  setPrompt,
});
prompt.addEventListener('input', () => vscode.setState({ draft: prompt.value }));
stopButton.addEventListener('click', () => send({ type: 'stop' }));
$<HTMLButtonElement>('new-chat').addEventListener('click', () => send({ type: 'newChat' }));
$<HTMLButtonElement>('open-setup').addEventListener('click', () => send({ type: 'openSetup' }));
$<HTMLButtonElement>('history').addEventListener('click', () => send({ type: 'showHistory' }));
$<HTMLButtonElement>('add-context').addEventListener('click', () => send({ type: 'addContext' }));
modelLabel.addEventListener('click', () => send({ type: 'pickModel' }));
enableKeyboardNavigation(messages);
enableCodeBlockActions(messages, send, announce);

prompt.value = vscode.getState()?.draft ?? '';
setBusy(false);
send({ type: 'ready' });
// Only when the chat has the focus: one loading while the person types elsewhere must not take their keys.
if (document.hasFocus()) prompt.focus();
