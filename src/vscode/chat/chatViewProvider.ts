import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import type { AgentEvent } from '../../agent/agentEvents';
import { parseFromWebview, type ChatEvent, type FromWebviewMessage, type HistoryEntry, type Notice, type ToWebviewMessage } from '../../shared/webviewProtocol';

/** What the edit review buttons send (Open Diff, Keep / Undo, Restore Checkpoint). */
export type EditReviewRequest = Extract<FromWebviewMessage, { type: 'openDiff' | 'reviewEdits' | 'restoreCheckpoint' }>;
import { ChatEventLog } from './chatEventLog';
import { projectAgentEvent } from './chatEventProjection';

/** A button on a chat notice. */
export interface ChatNoticeAction {
  readonly id: string;
  readonly label: string;
}

/**
 * The "Chat" webview view. It renders what the composition root posts (agent events, busy
 * state, model label, notices) and reports what the user does through `onDid…` events; it
 * holds no agent logic. Messages posted before the webview said `ready` are not lost: state
 * (events since New Chat, busy, label, notice) goes out in the `init` answer to `ready`, and
 * the few transient messages are queued.
 */
export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  static readonly viewId = 'hookwise.chat';

  private readonly disposables: vscode.Disposable[] = [];
  private view: vscode.WebviewView | undefined;
  private viewDisposables: vscode.Disposable[] = [];
  private ready = false;
  private queue: ToWebviewMessage[] = [];
  private readonly eventLog = new ChatEventLog();
  private modelLabel = '';
  private busy = false;
  private notice: { readonly notice: Notice; readonly resolve: (actionId: string | undefined) => void } | undefined;
  private noticeCounter = 0;

  private readonly submitted = this.register(new vscode.EventEmitter<string>());
  private readonly stopped = this.register(new vscode.EventEmitter<void>());
  private readonly newChat = this.register(new vscode.EventEmitter<void>());
  private readonly historyRequested = this.register(new vscode.EventEmitter<void>());
  private readonly resumeRequested = this.register(new vscode.EventEmitter<string>());
  private readonly setupRequested = this.register(new vscode.EventEmitter<void>());
  private readonly editReviewRequested = this.register(new vscode.EventEmitter<EditReviewRequest>());

  /** The user sent a prompt (already shown in the chat as the user's message). */
  readonly onDidSubmit = this.submitted.event;
  /** The user pressed Stop: abort the model, tools and running hooks. */
  readonly onDidStop = this.stopped.event;
  /** The user pressed New Chat. Call `resetSession()` once the new session exists. */
  readonly onDidRequestNewChat = this.newChat.event;
  /** The user pressed History. Answer with `showHistory(entries)`. */
  readonly onDidRequestHistory = this.historyRequested.event;
  /** The user picked a past session to resume (its id from `showHistory`). */
  readonly onDidResumeSession = this.resumeRequested.event;
  /** The user asked to set up a model (link in the header / empty state). */
  readonly onDidRequestSetup = this.setupRequested.event;
  /** The user pressed Open Diff, Keep, Undo or Restore Checkpoint (see src/vscode/chat/editReview.ts). */
  readonly onDidRequestEditReview = this.editReviewRequested.event;

  /** `log` receives dropped (invalid) webview messages; `maxEvents` bounds the replay log. */
  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log?: vscode.LogOutputChannel,
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    this.disposeView();
    this.view = view;
    this.ready = false;
    const mediaRoot = vscode.Uri.joinPath(this.extensionUri, 'media');
    const distMedia = vscode.Uri.joinPath(this.extensionUri, 'dist', 'media');
    // Only our own assets may load; nothing from the workspace or the network.
    view.webview.options = { enableScripts: true, localResourceRoots: [mediaRoot, distMedia] };
    view.webview.html = chatHtml(view.webview, mediaRoot, distMedia);
    this.viewDisposables.push(
      view.webview.onDidReceiveMessage((data: unknown) => this.receive(data)),
      view.onDidDispose(() => {
        if (this.view === view) {
          this.view = undefined;
          this.ready = false;
          this.disposeView();
        }
      }),
    );
  }

  /** Shows one agent event (hook runs are ignored: the tree shows them). */
  postAgentEvent(event: AgentEvent): void {
    const chatEvent = projectAgentEvent(event);
    if (chatEvent) this.postChatEvent(chatEvent);
  }

  /** Shows a user's prompt as a message (for replaying a resumed session; submits add their own). */
  addUserPrompt(text: string): void {
    this.postChatEvent({ type: 'userPrompt', text });
  }

  /** Shows an edit review event (an inline diff, a turn's changed files, a checkpoint); kept for a re-created view. */
  postEditEvent(event: ChatEvent): void {
    this.postChatEvent(event);
  }

  /** Puts `text` in the prompt box (the prompt a Restore Checkpoint took back). */
  setDraft(text: string): void {
    this.post({ type: 'setDraft', text });
  }

  /** Clears the conversation (New Chat done, or before replaying a resumed session). */
  resetSession(): void {
    this.eventLog.clear();
    this.post({ type: 'sessionReset' });
  }

  /** Answers a History request with the past sessions, newest first. */
  showHistory(sessions: readonly HistoryEntry[]): void {
    this.post({ type: 'history', sessions: [...sessions] });
  }

  /** Sets the label in the header, e.g. `gpt-4.1 · openai-compatible` or `Playground (scripted)`. */
  setModelLabel(label: string): void {
    this.modelLabel = label;
    this.post({ type: 'modelLabel', label });
  }

  /** While busy the input shows Stop instead of Send and the message list is aria-busy. */
  setBusy(busy: boolean): void {
    if (this.busy === busy) return;
    this.busy = busy;
    this.post({ type: 'busy', busy });
  }

  /**
   * Shows a notice above the input (one at a time; a new one replaces the old, which then
   * resolves undefined). Resolves with the id of the clicked action, or undefined when the
   * notice was cleared or replaced.
   */
  showNotice(text: string, actions: readonly ChatNoticeAction[] = []): Promise<string | undefined> {
    this.settleNotice(undefined);
    const notice: Notice = { id: `n${++this.noticeCounter}`, text, actions: actions.map((a) => ({ id: a.id, label: a.label })) };
    return new Promise((resolve) => {
      this.notice = { notice, resolve };
      this.post({ type: 'notice', notice });
    });
  }

  /** Removes the notice, if any (its promise resolves undefined). */
  clearNotice(): void {
    if (!this.notice) return;
    this.settleNotice(undefined);
    this.post({ type: 'notice' });
  }

  /** Reveals the view and focuses its input. */
  async reveal(): Promise<void> {
    await vscode.commands.executeCommand(`${ChatViewProvider.viewId}.focus`);
    this.view?.show(false);
  }

  /** True once the current webview answered the handshake (for tests). */
  get isReady(): boolean {
    return this.ready;
  }

  dispose(): void {
    this.settleNotice(undefined);
    this.disposeView();
    for (const d of this.disposables.splice(0)) d.dispose();
  }

  private postChatEvent(event: ChatEvent): void {
    this.eventLog.add(event);
    // Before `ready` the event is in the log, which `init` carries; no need to queue it too.
    if (this.ready) void this.view?.webview.postMessage({ type: 'agentEvent', event } satisfies ToWebviewMessage);
  }

  private post(message: ToWebviewMessage): void {
    if (!this.ready || !this.view) {
      // State messages are re-sent by `init` anyway; keep only what `init` does not carry.
      if (message.type === 'history') this.queue.push(message);
      return;
    }
    void this.view.webview.postMessage(message);
  }

  private receive(data: unknown): void {
    const parsed = parseFromWebview(data);
    if (!parsed.ok) {
      this.log?.warn(`chat: dropped an invalid webview message (${parsed.error})`);
      return;
    }
    const message = parsed.message;
    switch (message.type) {
      case 'ready':
        this.ready = true;
        void this.view?.webview.postMessage({
          type: 'init',
          modelLabel: this.modelLabel,
          busy: this.busy,
          events: this.eventLog.snapshot(),
          ...(this.notice ? { notice: this.notice.notice } : {}),
        } satisfies ToWebviewMessage);
        for (const queued of this.queue.splice(0)) void this.view?.webview.postMessage(queued);
        return;
      case 'submit':
        this.eventLog.add({ type: 'userPrompt', text: message.prompt });
        this.submitted.fire(message.prompt);
        return;
      case 'stop':
        this.stopped.fire();
        return;
      case 'newChat':
        this.newChat.fire();
        return;
      case 'showHistory':
        this.historyRequested.fire();
        return;
      case 'resumeSession':
        this.resumeRequested.fire(message.id);
        return;
      case 'openSetup':
        this.setupRequested.fire();
        return;
      case 'noticeAction':
        if (this.notice?.notice.id === message.noticeId) {
          this.settleNotice(message.actionId);
          this.post({ type: 'notice' });
        }
        return;
      case 'copyText':
        void vscode.env.clipboard.writeText(message.text);
        return;
      case 'openDiff':
      case 'reviewEdits':
      case 'restoreCheckpoint':
        this.editReviewRequested.fire(message);
        return;
    }
  }

  private settleNotice(actionId: string | undefined): void {
    const current = this.notice;
    this.notice = undefined;
    current?.resolve(actionId);
  }

  private disposeView(): void {
    for (const d of this.viewDisposables.splice(0)) d.dispose();
    this.queue = [];
  }

  private register<T extends vscode.Disposable>(value: T): T {
    this.disposables.push(value);
    return value;
  }
}

/** The webview's HTML: a nonce CSP, our bundled script and stylesheet, nothing remote. */
function chatHtml(webview: vscode.Webview, mediaRoot: vscode.Uri, distMedia: vscode.Uri): string {
  const nonce = randomBytes(16).toString('base64');
  const script = webview.asWebviewUri(vscode.Uri.joinPath(distMedia, 'chat.js'));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(mediaRoot, 'chat.css'));
  const csp = [
    "default-src 'none'",
    `style-src ${webview.cspSource}`,
    `script-src 'nonce-${nonce}'`,
    `img-src ${webview.cspSource} data:`,
    `font-src ${webview.cspSource}`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${style.toString()}">
<title>Hookwise Chat</title>
</head>
<body>
<header class="header" role="toolbar" aria-label="Chat actions">
  <span id="model-label" class="model-label" title="Model">No model</span>
  <span class="spacer"></span>
  <button id="history" class="icon-button" type="button" aria-label="History: past sessions" title="History">History</button>
  <button id="new-chat" class="icon-button" type="button" aria-label="New Chat" title="New Chat">New Chat</button>
</header>
<div id="history-panel" class="history-panel" hidden role="dialog" aria-label="Past sessions"></div>
<main id="messages" class="messages" role="log" aria-live="polite" aria-relevant="additions text" aria-label="Conversation">
  <div id="empty" class="empty">
    <h2>Hookwise</h2>
    <p>A coding agent where every step runs through your hooks. Ask it something.</p>
    <p><button id="open-setup" class="link-button" type="button">Choose a model…</button></p>
  </div>
</main>
<div id="notice" class="notice" role="status" hidden></div>
<form id="composer" class="composer" aria-label="Send a prompt">
  <textarea id="prompt" rows="3" placeholder="Ask Hookwise…" aria-label="Prompt (Enter sends, Shift+Enter adds a line)"></textarea>
  <div class="composer-buttons">
    <button id="send" type="submit" class="primary" aria-label="Send">Send</button>
    <button id="stop" type="button" class="secondary" aria-label="Stop the agent" hidden>Stop</button>
  </div>
</form>
<script nonce="${nonce}" src="${script.toString()}"></script>
</body>
</html>`;
}
