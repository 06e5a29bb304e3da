import * as vscode from 'vscode';
import type { AgentEvent } from '../../agent/agentEvents';
import type { ChatEvent, HistoryEntry, MentionItem, ToWebviewMessage } from '../../shared/webviewProtocol';
import { ChatContext, type ReadPolicy } from './chatContext';
import { ChatEventLog } from './chatEventLog';
import { projectAgentEvent } from './chatEventProjection';
import { ChatNotice, type ChatNoticeAction } from './chatNotice';
import { ChatRequests } from './chatRequests';
import { ChatWebviewHost, type ChatSurface } from './chatWebviewHost';
import type { ContextItem } from './contextAttachment';
import { pickContextItems } from './contextPicker';
import { EditorSelectionTracker } from './editorSelectionTracker';
import { dispatchChatMessage, type ChatMessageHandlers } from './handlers/chatMessageHandlers';
import { completionHandlers } from './handlers/completionHandlers';
import { composerHandlers } from './handlers/composerHandlers';
import { requestHandlers } from './handlers/requestHandlers';
import type { TerminalOutputRecorder } from './terminalOutput';
import type { ToolHookStatusUpdate } from './toolHookStatus';

// Kept where callers outside the chat folder import it from.
export type { ChatNoticeAction } from './chatNotice';

/**
 * The chat: the "Chat" webview view and, on **Open Chat in Editor**, a webview panel in an
 * editor tab, both rendered by the same code and kept in sync (every message goes to every
 * surface; see ChatWebviewHost). It renders what the composition root posts (agent events,
 * busy state, model label, notices) and reports what the user does through `onDid…` events;
 * it holds no agent logic. Each webview message has its handler (handlers/). It owns the
 * prompt's attachments (`ChatContext`). Messages posted before a webview said `ready` are
 * not lost: state goes out in the `init` answer to `ready`.
 */
export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  static readonly viewId = ChatWebviewHost.viewId;

  private readonly host: ChatWebviewHost;
  private readonly requests = new ChatRequests();
  private readonly selection: EditorSelectionTracker;
  private readonly notices = new ChatNotice();
  /** The surface that asked for History: the list opens there only. */
  private historyTarget: ChatSurface | undefined;
  private readonly eventLog = new ChatEventLog();
  /** The attachments of the next prompt. */
  readonly context: ChatContext;
  private usage: { usedTokens: number; windowTokens: number } | undefined;
  private readPolicy: ReadPolicy | undefined;
  private modelLabel = '';
  /** Every slash command for `/` completion (built-in, custom, plugin); absent = none offered. */
  private commandSource: (() => Promise<readonly MentionItem[]>) | undefined;
  /** The memory files shown under the model label; only these may be opened from the chat. */
  private memoryFiles: readonly { readonly path: string; readonly label: string }[] = [];
  private busy = false;
  private readonly conversationChanged = new vscode.EventEmitter<void>();

  /** The user sent a prompt (already shown in the chat as the user's message, with its attachments). */
  readonly onDidSubmit = this.requests.submitted.event;
  /** The user clicked the model name in the header. */
  readonly onDidRequestModelPick = this.requests.modelPick.event;
  /** The user pressed Stop: abort the model, tools and running hooks. */
  readonly onDidStop = this.requests.stopped.event;
  /** The user pressed New Chat. Call `resetSession()` once the new session exists. */
  readonly onDidRequestNewChat = this.requests.newChat.event;
  /** The user pressed History. Answer with `showHistory(entries)`. */
  readonly onDidRequestHistory = this.requests.historyRequested.event;
  /** The user picked a past session to resume (its id from `showHistory`). */
  readonly onDidResumeSession = this.requests.resumeRequested.event;
  /** The user asked to set up a model (link in the header / empty state). */
  readonly onDidRequestSetup = this.requests.setupRequested.event;
  /** The user pressed Open Diff, Keep, Undo or Restore Checkpoint (see src/vscode/chat/editReview.ts). */
  readonly onDidRequestEditReview = this.requests.editReviewRequested.event;
  /** The conversation shown changed (an event was added, it was reset or restored): see `conversation()`. */
  readonly onDidChangeConversation = this.conversationChanged.event;

  /** `log` receives dropped (invalid) webview messages; `terminals` records terminal output for "Add Context…". */
  constructor(
    extensionUri: vscode.Uri,
    private readonly log?: vscode.LogOutputChannel,
    terminals?: TerminalOutputRecorder,
  ) {
    this.context = new ChatContext(terminals);
    // Changes reach the webviews through the host, created next; the first one comes after a timer at the earliest.
    this.selection = new EditorSelectionTracker(() => this.host.post({ type: 'editorSelection', ...this.selection.offered() }));
    const handlers = this.handlers();
    this.host = new ChatWebviewHost({
      extensionUri,
      log,
      initMessages: () => this.initMessages(),
      onMessage: (message, surface) => dispatchChatMessage(handlers, message, surface),
      onDetached: (surface) => {
        if (this.historyTarget === surface) this.historyTarget = undefined;
      },
    });
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.host.resolveWebviewView(view);
  }

  /** **Hookwise: Open Chat in Editor**: the same conversation in an editor tab (revealed if already open). */
  openInEditor(): void {
    this.host.openInEditor();
  }

  /** True while the chat is open in an editor tab. */
  get isOpenInEditor(): boolean {
    return this.host.isOpenInEditor;
  }

  /** Shows one agent event (hook runs are ignored: the tree shows them). */
  postAgentEvent(event: AgentEvent): void {
    const chatEvent = projectAgentEvent(event);
    if (chatEvent) this.postChatEvent(chatEvent);
    // The meter: what the main agent's last model call took (prompt + answer) against the compaction budget.
    if (event.type === 'usage' && event.agent.parentAgentId === null) this.setContextUsage(event.inputTokens + event.outputTokens, contextBudget());
  }

  /**
   * Shows (or clears) a running hook's statusMessage on its tool card. Not kept in the event
   * log: a chat reopened later must not show a hook as still running.
   */
  postHookStatus(update: ToolHookStatusUpdate): void {
    this.host.post({ type: 'agentEvent', event: { type: 'hookStatus', ...update } });
  }

  /** Adds an attachment to the next prompt (Add Selection to Chat, Add Context…) and shows its chip. */
  addContext(item: ContextItem): void {
    if (!this.context.add(item)) void vscode.window.showWarningMessage('Hookwise: too many attachments for one prompt; send or remove some first.');
    this.host.post({ type: 'attachments', items: this.context.list() });
  }

  /** **Add Context…**: a quick pick of files and folders, the selection, the Problems list, a terminal's last output. */
  async pickContext(): Promise<void> {
    for (const item of await pickContextItems(this.context, this.selection)) this.addContext(item);
  }

  /** **Add Selection to Chat**: attaches the active editor's selection and reveals the chat. */
  async addSelectionToChat(): Promise<boolean> {
    const editor = vscode.window.activeTextEditor;
    if (editor) this.selection.trackNow(editor);
    const items = this.selection.items();
    if (items.length === 0) {
      void vscode.window.showInformationMessage('Hookwise: select some text in an editor first.');
      return false;
    }
    for (const item of items) this.addContext(item);
    await this.host.reveal();
    return true;
  }

  /** The permission rules attachments obey: a file a Read deny/ask rule covers is not sent to the model. */
  setReadPolicy(policy: ReadPolicy): void {
    this.readPolicy = policy;
  }

  /** Shows the context-window meter: tokens of the last model call of this session and the budget (0 = unknown). */
  setContextUsage(usedTokens: number, windowTokens: number): void {
    this.usage = { usedTokens, windowTokens };
    this.host.post({ type: 'contextUsage', usedTokens, windowTokens });
  }

  /** Shows a user's prompt as a message (for replaying a resumed session; submits add their own). */
  addUserPrompt(text: string): void {
    this.postChatEvent({ type: 'userPrompt', text });
  }

  /** Shows an edit review event (an inline diff, a turn's changed files, a checkpoint); kept for a re-created view. */
  postEditEvent(event: ChatEvent): void {
    this.postChatEvent(event);
  }

  /** Sends `text` as the next prompt, without the attachments staged for the next one (Retry after a rewind). */
  resubmit(text: string): void {
    this.postChatEvent({ type: 'userPrompt', text });
    this.requests.submitted.fire({ prompt: text, context: [] });
  }

  /** Puts `text` in the prompt box (the prompt a Restore Checkpoint took back). */
  setDraft(text: string): void {
    this.host.post({ type: 'setDraft', text });
  }

  /** Clears the conversation (New Chat done, or before replaying a resumed session). */
  resetSession(): void {
    this.eventLog.clear();
    this.usage = undefined;
    this.host.post({ type: 'sessionReset' });
    this.conversationChanged.fire();
  }

  /** The conversation as shown since the last reset, oldest first (what a display record keeps). */
  conversation(): ChatEvent[] {
    return this.eventLog.snapshot();
  }

  /**
   * Replaces the conversation with `events` (a resumed or reloaded chat), with the context
   * meter of its last main-agent model call. Every webview redraws it at once, as on `init`,
   * so a long chat is not announced card by card.
   */
  restoreConversation(events: readonly ChatEvent[]): void {
    this.eventLog.clear();
    this.usage = undefined;
    for (const event of events) this.eventLog.add(event);
    const usage = [...events].reverse().find((e) => e.type === 'usage' && e.agentId === 'main');
    if (usage?.type === 'usage') {
      const budget = vscode.workspace.getConfiguration('hookwise').get<number>('compaction.contextBudgetTokens', 100_000);
      this.usage = { usedTokens: usage.inputTokens + usage.outputTokens, windowTokens: budget };
    }
    for (const message of this.initMessages()) this.host.post(message);
    this.conversationChanged.fire();
  }

  /** What the chat shows now (the events a webview replays, the context meter): tests read it. */
  shown(): { readonly events: readonly ChatEvent[]; readonly contextUsage: Readonly<{ usedTokens: number; windowTokens: number }> | undefined } {
    return { events: this.eventLog.snapshot(), contextUsage: this.usage };
  }

  /**
   * Restore Checkpoint: the chat goes back to before the checkpoint's prompt and every webview
   * is sent the shorter conversation; the cards before it keep their path, who decided and
   * diffs, and the context meter shows the last model call that is left. False when the log
   * no longer holds that prompt (then redraw from the session).
   */
  rewindTo(checkpointId: number): boolean {
    if (!this.eventLog.rewind(checkpointId)) return false;
    const used = this.eventLog.lastMainUsage();
    this.usage = used === undefined ? undefined : { usedTokens: used, windowTokens: contextBudget() };
    for (const message of this.initMessages()) this.host.post(message);
    return true;
  }

  /** Answers a History request with the past sessions, newest first (shown where History was pressed). */
  showHistory(sessions: readonly HistoryEntry[]): void {
    this.host.post({ type: 'history', sessions: [...sessions] }, this.historyTarget);
  }

  /** Where `/` completion gets the commands (label `/name`, detail its description, insert `/name `). */
  setCommandSource(source: () => Promise<readonly MentionItem[]>): void {
    this.commandSource = source;
  }

  /** The memory files the session uses (CLAUDE.md, rules…): a line of links under the model label; [] hides it. */
  setMemoryFiles(files: readonly { readonly path: string; readonly label: string }[]): void {
    this.memoryFiles = files;
    this.host.post({ type: 'memoryFiles', files: [...files] });
  }

  /** Sets the label in the header, e.g. `gpt-4.1 · openai-compatible` or `Playground (scripted)`. */
  setModelLabel(label: string): void {
    this.modelLabel = label;
    this.host.post({ type: 'modelLabel', label });
  }

  /** While busy the input shows Stop instead of Send and the message list is aria-busy. */
  setBusy(busy: boolean): void {
    if (this.busy === busy) return;
    this.busy = busy;
    this.host.post({ type: 'busy', busy });
  }

  /**
   * Shows a notice above the input (one at a time; a new one replaces the old, which then
   * resolves undefined). Resolves with the id of the clicked action, or undefined when the
   * notice was cleared or replaced.
   */
  showNotice(text: string, actions: readonly ChatNoticeAction[] = []): Promise<string | undefined> {
    const { notice, answer } = this.notices.show(text, actions);
    this.host.post({ type: 'notice', notice });
    return answer;
  }

  /** Removes the notice, if any (its promise resolves undefined). */
  clearNotice(): void {
    if (this.notices.settle(undefined)) this.host.post({ type: 'notice' });
  }

  /** Reveals the view and focuses its input. */
  async reveal(): Promise<void> {
    await this.host.revealView();
  }

  /** True once a webview answered the handshake (for tests). */
  get isReady(): boolean {
    return this.host.isReady;
  }

  dispose(): void {
    this.notices.settle(undefined);
    this.host.dispose();
    this.selection.dispose();
    this.requests.dispose();
    this.conversationChanged.dispose();
  }

  /** One handler per webview message, by concept. */
  private handlers(): ChatMessageHandlers {
    return {
      ...composerHandlers({
        context: this.context,
        selection: this.selection,
        readPolicy: () => this.readPolicy,
        addContext: (item) => this.addContext(item),
        postAttachments: () => this.host.post({ type: 'attachments', items: this.context.list() }),
        postChatEvent: (event) => this.postChatEvent(event),
        pickContext: () => this.pickContext(),
        submit: (submission) => this.requests.submitted.fire(submission),
        log: this.log,
      }),
      ...completionHandlers({ post: (message, surface) => this.host.post(message, surface), commandSource: () => this.commandSource, log: this.log }),
      ...requestHandlers({
        requests: this.requests,
        memoryFiles: () => this.memoryFiles,
        setHistoryTarget: (surface) => (this.historyTarget = surface),
        answerNotice: (noticeId, actionId) => {
          if (this.notices.answer(noticeId, actionId)) this.host.post({ type: 'notice' });
        },
      }),
    };
  }

  /** What a webview that said `ready` gets: `init` with the state, then the memory files line. */
  private initMessages(): ToWebviewMessage[] {
    const attachments = this.context.list();
    const offered = this.selection.offered().attachment;
    const notice = this.notices.notice;
    return [
      {
        type: 'init',
        modelLabel: this.modelLabel,
        busy: this.busy,
        events: this.eventLog.snapshot(),
        ...(notice ? { notice } : {}),
        ...(attachments.length > 0 ? { attachments } : {}),
        ...(offered ? { editorSelection: offered } : {}),
        ...(this.usage ? { contextUsage: this.usage } : {}),
      },
      ...(this.memoryFiles.length > 0 ? [{ type: 'memoryFiles', files: [...this.memoryFiles] } satisfies ToWebviewMessage] : []),
    ];
  }

  private postChatEvent(event: ChatEvent): void {
    this.eventLog.add(event);
    // Before `ready` the event is in the log, which `init` carries; no need to queue it too.
    this.host.post({ type: 'agentEvent', event });
    this.conversationChanged.fire();
  }
}

/** The compaction budget the context meter measures against. */
function contextBudget(): number {
  return vscode.workspace.getConfiguration('hookwise').get<number>('compaction.contextBudgetTokens', 100_000);
}
