import * as vscode from 'vscode';
import { describeThrown } from '../../shared/describeThrown';
import { randomBytes } from 'node:crypto';
import type { AgentEvent } from '../../agent/agentEvents';
import {
  parseFromWebview,
  type ChatAttachment,
  type ChatEvent,
  type FromWebviewMessage,
  type HistoryEntry,
  type MentionItem,
  type Notice,
  type ToWebviewMessage,
} from '../../shared/webviewProtocol';
import { ChatContext, resolveContext, toAttachment, type EditorSelectionSnapshot, type ReadPolicy } from './chatContext';

/** What the edit review buttons send (Open Diff, Keep / Undo, Restore Checkpoint). */
export type EditReviewRequest = Extract<FromWebviewMessage, { type: 'openDiff' | 'reviewEdits' | 'restoreCheckpoint' }>;
import { ChatEventLog } from './chatEventLog';
import { projectAgentEvent } from './chatEventProjection';
import type { ToolHookStatusUpdate } from './toolHookStatus';
import type { ContextItem } from './contextAttachment';
import { MENTION_WORDS, parseMentions } from './promptMentions';
import type { TerminalOutputRecorder } from './terminalOutput';

/** A prompt as sent: the user's text and the reminder texts of its attachments (they go before it, to the model only). */
export interface ChatSubmission {
  readonly prompt: string;
  readonly context: readonly string[];
  /** The files attached (absolute paths): their nested CLAUDE.md and `paths:` rules load as for a read. */
  readonly files?: readonly string[];
}

/** One webview showing the chat (the side bar view or an editor tab); all show the same conversation. */
interface Surface {
  readonly webview: vscode.Webview;
  ready: boolean;
  /** History answers that arrived before `ready` (`init` does not carry them). */
  readonly queue: ToWebviewMessage[];
  readonly disposables: vscode.Disposable[];
}

/** Files found per `#file:` completion request. */
const MAX_MENTION_RESULTS = 20;

/** A button on a chat notice. */
export interface ChatNoticeAction {
  readonly id: string;
  readonly label: string;
}

/**
 * The chat: the "Chat" webview view and, on **Open Chat in Editor**, a webview panel in an
 * editor tab, both rendered by the same code and kept in sync (every message goes to every
 * surface). It renders what the composition root posts (agent events, busy state, model
 * label, notices) and reports what the user does through `onDid…` events; it holds no agent
 * logic. It owns the prompt's attachments (`ChatContext`). Messages posted before a webview
 * said `ready` are not lost: state goes out in the `init` answer to `ready`.
 */
export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  static readonly viewId = 'hookwise.chat';

  private readonly disposables: vscode.Disposable[] = [];
  private view: vscode.WebviewView | undefined;
  private panel: vscode.WebviewPanel | undefined;
  private readonly surfaces = new Map<vscode.Webview, Surface>();
  /** The surface that asked for History: the list opens there only. */
  private historyTarget: Surface | undefined;
  private readonly eventLog = new ChatEventLog();
  /** The attachments of the next prompt. */
  readonly context: ChatContext;
  private selection: EditorSelectionSnapshot | undefined;
  private selectionTimer: ReturnType<typeof setTimeout> | undefined;
  private usage: { usedTokens: number; windowTokens: number } | undefined;
  private readPolicy: ReadPolicy | undefined;
  private modelLabel = '';
  /** Every slash command for `/` completion (built-in, custom, plugin); absent = none offered. */
  private commandSource: (() => Promise<readonly MentionItem[]>) | undefined;
  /** The memory files shown under the model label; only these may be opened from the chat. */
  private memoryFiles: readonly { readonly path: string; readonly label: string }[] = [];
  private busy = false;
  private notice: { readonly notice: Notice; readonly resolve: (actionId: string | undefined) => void } | undefined;
  private noticeCounter = 0;

  private readonly submitted = this.register(new vscode.EventEmitter<ChatSubmission>());
  private readonly modelPick = this.register(new vscode.EventEmitter<void>());
  private readonly stopped = this.register(new vscode.EventEmitter<void>());
  private readonly newChat = this.register(new vscode.EventEmitter<void>());
  private readonly historyRequested = this.register(new vscode.EventEmitter<void>());
  private readonly resumeRequested = this.register(new vscode.EventEmitter<string>());
  private readonly setupRequested = this.register(new vscode.EventEmitter<void>());
  private readonly editReviewRequested = this.register(new vscode.EventEmitter<EditReviewRequest>());

  /** The user sent a prompt (already shown in the chat as the user's message, with its attachments). */
  readonly onDidSubmit = this.submitted.event;
  /** The user clicked the model name in the header. */
  readonly onDidRequestModelPick = this.modelPick.event;
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

  /** `log` receives dropped (invalid) webview messages; `terminals` records terminal output for "Add Context…". */
  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log?: vscode.LogOutputChannel,
    terminals?: TerminalOutputRecorder,
  ) {
    this.context = new ChatContext(terminals);
    this.disposables.push(
      vscode.window.onDidChangeTextEditorSelection((e) => this.trackSelection(e.textEditor)),
      vscode.window.onDidChangeActiveTextEditor((editor) => editor && this.trackSelection(editor)),
      { dispose: () => clearTimeout(this.selectionTimer) },
    );
    if (vscode.window.activeTextEditor) this.trackSelection(vscode.window.activeTextEditor);
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    if (this.view) this.detach(this.view.webview);
    this.view = view;
    this.attach(view.webview, view.onDidDispose, () => {
      if (this.view === view) this.view = undefined;
    });
  }

  /** **Hookwise: Open Chat in Editor**: the same conversation in an editor tab (revealed if already open). */
  openInEditor(): void {
    if (this.panel) return this.panel.reveal();
    const panel = vscode.window.createWebviewPanel(
      'hookwise.chatEditor',
      'Hookwise Chat',
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      { retainContextWhenHidden: true },
    );
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'hookwise.svg');
    this.panel = panel;
    this.attach(panel.webview, panel.onDidDispose, () => {
      if (this.panel === panel) this.panel = undefined;
    });
  }

  /** True while the chat is open in an editor tab. */
  get isOpenInEditor(): boolean {
    return this.panel !== undefined;
  }

  /** Shows one agent event (hook runs are ignored: the tree shows them). */
  postAgentEvent(event: AgentEvent): void {
    const chatEvent = projectAgentEvent(event);
    if (chatEvent) this.postChatEvent(chatEvent);
    // The meter: what the main agent's last model call took (prompt + answer) against the compaction budget.
    if (event.type === 'usage' && event.agent.parentAgentId === null) {
      const budget = vscode.workspace.getConfiguration('hookwise').get<number>('compaction.contextBudgetTokens', 100_000);
      this.setContextUsage(event.inputTokens + event.outputTokens, budget);
    }
  }

  /**
   * Shows (or clears) a running hook's statusMessage on its tool card. Not kept in the event
   * log: a chat reopened later must not show a hook as still running.
   */
  postHookStatus(update: ToolHookStatusUpdate): void {
    this.post({ type: 'agentEvent', event: { type: 'hookStatus', ...update } });
  }

  /** Adds an attachment to the next prompt (Add Selection to Chat, Add Context…) and shows its chip. */
  addContext(item: ContextItem): void {
    if (!this.context.add(item)) void vscode.window.showWarningMessage('Hookwise: too many attachments for one prompt; send or remove some first.');
    this.post({ type: 'attachments', items: this.context.list() });
  }

  /** **Add Context…**: a quick pick of files and folders, the selection, the Problems list, a terminal's last output. */
  async pickContext(): Promise<void> {
    type Pick = vscode.QuickPickItem & { readonly run: () => Promise<ContextItem[]> | ContextItem[] };
    const editor = this.selectionEditor();
    const picks: Pick[] = [
      { label: '$(file) Files and Folders…', detail: 'Attach files or a folder listing', run: () => this.pickUris() },
      ...(editor && this.selection && !this.selection.range.isEmpty
        ? [{ label: '$(selection) Selection', detail: vscode.workspace.asRelativePath(editor.uri, false), run: () => this.selectionItems() }]
        : []),
      { label: '$(warning) Problems', detail: 'The Problems list (errors and warnings)', run: () => [ChatContext.problemsItem()] },
      ...this.context.terminalsWithOutput().map((t) => ({
        label: `$(terminal) Terminal: ${t.name}`,
        detail: 'The last command and its output',
        run: () => {
          const item = this.context.terminalItem(t);
          return item ? [item] : [];
        },
      })),
    ];
    const pick = await vscode.window.showQuickPick(picks, { title: 'Add Context', placeHolder: 'What should the agent see with your next prompt?' });
    if (!pick) return;
    for (const item of await pick.run()) this.addContext(item);
  }

  /** **Add Selection to Chat**: attaches the active editor's selection and reveals the chat. */
  async addSelectionToChat(): Promise<boolean> {
    const editor = vscode.window.activeTextEditor;
    if (editor) this.trackSelectionNow(editor);
    const items = this.selectionItems();
    if (items.length === 0) {
      void vscode.window.showInformationMessage('Hookwise: select some text in an editor first.');
      return false;
    }
    for (const item of items) this.addContext(item);
    if (this.panel) this.panel.reveal(undefined, false);
    else await this.reveal();
    return true;
  }

  /** The permission rules attachments obey: a file a Read deny/ask rule covers is not sent to the model. */
  setReadPolicy(policy: ReadPolicy): void {
    this.readPolicy = policy;
  }

  /** Shows the context-window meter: tokens of the last model call of this session and the budget (0 = unknown). */
  setContextUsage(usedTokens: number, windowTokens: number): void {
    this.usage = { usedTokens, windowTokens };
    this.post({ type: 'contextUsage', usedTokens, windowTokens });
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
    this.submitted.fire({ prompt: text, context: [] });
  }

  /** Puts `text` in the prompt box (the prompt a Restore Checkpoint took back). */
  setDraft(text: string): void {
    this.post({ type: 'setDraft', text });
  }

  /** Clears the conversation (New Chat done, or before replaying a resumed session). */
  resetSession(): void {
    this.eventLog.clear();
    this.usage = undefined;
    this.post({ type: 'sessionReset' });
  }

  /** Answers a History request with the past sessions, newest first (shown where History was pressed). */
  showHistory(sessions: readonly HistoryEntry[]): void {
    this.post({ type: 'history', sessions: [...sessions] }, this.historyTarget);
  }

  /** Where `/` completion gets the commands (label `/name`, detail its description, insert `/name `). */
  setCommandSource(source: () => Promise<readonly MentionItem[]>): void {
    this.commandSource = source;
  }

  /** The memory files the session uses (CLAUDE.md, rules…): a line of links under the model label; [] hides it. */
  setMemoryFiles(files: readonly { readonly path: string; readonly label: string }[]): void {
    this.memoryFiles = files;
    this.post({ type: 'memoryFiles', files: [...files] });
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

  /** True once a webview answered the handshake (for tests). */
  get isReady(): boolean {
    return [...this.surfaces.values()].some((s) => s.ready);
  }

  dispose(): void {
    this.settleNotice(undefined);
    for (const webview of [...this.surfaces.keys()]) this.detach(webview);
    this.panel?.dispose();
    for (const d of this.disposables.splice(0)) d.dispose();
  }

  private attach(webview: vscode.Webview, onDidDispose: vscode.Event<void>, onDisposed: () => void): void {
    const surface: Surface = { webview, ready: false, queue: [], disposables: [] };
    this.surfaces.set(webview, surface);
    const mediaRoot = vscode.Uri.joinPath(this.extensionUri, 'media');
    const distMedia = vscode.Uri.joinPath(this.extensionUri, 'dist', 'media');
    // Only our own assets may load; nothing from the workspace or the network.
    webview.options = { enableScripts: true, localResourceRoots: [mediaRoot, distMedia] };
    webview.html = chatHtml(webview, mediaRoot, distMedia);
    surface.disposables.push(
      webview.onDidReceiveMessage((data: unknown) => this.receive(surface, data)),
      onDidDispose(() => {
        onDisposed();
        this.detach(webview);
      }),
    );
  }

  private detach(webview: vscode.Webview): void {
    const surface = this.surfaces.get(webview);
    if (!surface) return;
    this.surfaces.delete(webview);
    if (this.historyTarget === surface) this.historyTarget = undefined;
    for (const d of surface.disposables.splice(0)) d.dispose();
  }

  private postChatEvent(event: ChatEvent): void {
    this.eventLog.add(event);
    // Before `ready` the event is in the log, which `init` carries; no need to queue it too.
    this.post({ type: 'agentEvent', event });
  }

  private post(message: ToWebviewMessage, only?: Surface): void {
    for (const surface of only ? [only] : this.surfaces.values()) {
      // Before `ready`, state goes out with `init`; of the rest only History answers matter.
      if (surface.ready) void surface.webview.postMessage(message);
      else if (message.type === 'history') surface.queue.push(message);
    }
  }

  private receive(surface: Surface, data: unknown): void {
    const parsed = parseFromWebview(data);
    if (!parsed.ok) {
      this.log?.warn(`chat: dropped an invalid webview message (${parsed.error})`);
      return;
    }
    const message = parsed.message;
    switch (message.type) {
      case 'ready': {
        surface.ready = true;
        const attachments = this.context.list();
        const offered = this.offeredSelection().attachment;
        void surface.webview.postMessage({
          type: 'init',
          modelLabel: this.modelLabel,
          busy: this.busy,
          events: this.eventLog.snapshot(),
          ...(this.notice ? { notice: this.notice.notice } : {}),
          ...(attachments.length > 0 ? { attachments } : {}),
          ...(offered ? { editorSelection: offered } : {}),
          ...(this.usage ? { contextUsage: this.usage } : {}),
        } satisfies ToWebviewMessage);
        if (this.memoryFiles.length > 0) void surface.webview.postMessage({ type: 'memoryFiles', files: [...this.memoryFiles] } satisfies ToWebviewMessage);
        for (const queued of surface.queue.splice(0)) void surface.webview.postMessage(queued);
        return;
      }
      case 'submit':
        void this.submit(message);
        return;
      case 'addContext':
        void this.pickContext();
        return;
      case 'removeAttachment':
        this.context.remove(message.id);
        this.post({ type: 'attachments', items: this.context.list() });
        return;
      case 'dropUris':
        void this.attachDropped(message.uris);
        return;
      case 'mentionQuery':
        void this.answerMention(surface, message.requestId, message.query);
        return;
      case 'commandQuery':
        void this.answerCommands(surface, message.requestId, message.query);
        return;
      case 'openMemoryFile':
        // Only a file the chat listed: a webview message must not open arbitrary paths.
        if (this.memoryFiles.some((f) => f.path === message.path)) void vscode.window.showTextDocument(vscode.Uri.file(message.path));
        return;
      case 'insertCode':
        void this.insertCode(message.text);
        return;
      case 'pickModel':
        this.modelPick.fire();
        return;
      case 'stop':
        this.stopped.fire();
        return;
      case 'newChat':
        this.newChat.fire();
        return;
      case 'showHistory':
        this.historyTarget = surface;
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

  /** Shows the prompt with its chips everywhere, then hands it on with the attachments' texts. */
  private async submit(message: Extract<FromWebviewMessage, { type: 'submit' }>): Promise<void> {
    const items = this.context.take();
    if (message.includeEditorSelection !== false) items.unshift(...this.selectionItems());
    for (const mention of parseMentions(message.prompt)) {
      if (mention.kind === 'selection') items.push(...this.selectionItems());
      else if (mention.kind === 'problems') items.push(ChatContext.problemsItem());
      else {
        const uri = resolveWorkspacePath(mention.path);
        const item = uri ? await ChatContext.uriItem(uri) : undefined;
        if (item?.kind === 'file' && mention.startLine !== undefined)
          items.push({ ...item, startLine: mention.startLine, endLine: mention.endLine ?? mention.startLine });
        else if (item) items.push(item);
      }
    }
    const unique = dedupe(items);
    const attachments: ChatAttachment[] = unique.map((item, i) => toAttachment(`sent${i}`, item));
    this.post({ type: 'attachments', items: this.context.list() });
    this.postChatEvent({ type: 'userPrompt', text: message.prompt, ...(attachments.length > 0 ? { attachments } : {}) });
    let context: string[] = [];
    const refused: string[] = [];
    const files: string[] = [];
    try {
      context = await resolveContext(unique, this.readPolicy, refused, files);
    } catch (error) {
      this.log?.warn(`chat: attachments could not be read (${String(error)})`);
    }
    if (refused.length > 0) void vscode.window.showWarningMessage(`Hookwise: not attached, a permission rule denies reading: ${refused.join(', ')}`);
    this.submitted.fire({ prompt: message.prompt, context, files });
  }

  private async attachDropped(uris: readonly string[]): Promise<void> {
    for (const raw of uris) {
      let uri: vscode.Uri;
      try {
        uri = vscode.Uri.parse(raw.trim(), true);
      } catch {
        continue;
      }
      // Only files the editor can open: no web links.
      if (uri.scheme === 'http' || uri.scheme === 'https') continue;
      const item = await ChatContext.uriItem(uri);
      if (item) this.addContext(item);
      else this.log?.warn(`chat: dropped ${raw} cannot be attached (not found)`);
    }
  }

  private async answerCommands(surface: Surface, requestId: number, query: string): Promise<void> {
    let all: readonly MentionItem[] = [];
    try {
      all = (await this.commandSource?.()) ?? [];
    } catch (error) {
      this.log?.warn(`chat: slash commands could not be listed (${describeThrown(error)})`);
    }
    const q = query.toLowerCase();
    const items = all.filter((c) => c.label.slice(1).toLowerCase().startsWith(q)).slice(0, MAX_MENTION_RESULTS);
    this.post({ type: 'commandResults', requestId, items }, surface);
  }

  private async answerMention(surface: Surface, requestId: number, query: string): Promise<void> {
    const items: MentionItem[] = MENTION_WORDS.filter((w) => w.label.startsWith(`#${query}`)).map((w) => ({
      label: w.label,
      detail: w.detail,
      insert: w.insert,
    }));
    const fileQuery = /^file:(.*)$/.exec(query)?.[1];
    if (fileQuery !== undefined) {
      // Letters, digits and path characters only: the query becomes a glob.
      const safe = fileQuery.replace(/[^\w./-]/g, '');
      const uris = await vscode.workspace.findFiles(safe ? `**/*${safe}*` : '**/*', '**/{node_modules,.git}/**', MAX_MENTION_RESULTS);
      for (const uri of uris) {
        const rel = vscode.workspace.asRelativePath(uri, false);
        items.push({ label: rel, detail: 'file', insert: `#file:${/\s/.test(rel) ? `"${rel}"` : rel} ` });
      }
    }
    this.post({ type: 'mentionResults', requestId, items }, surface);
  }

  /** Insert at Cursor: replaces the selection of the editor the user last worked in. */
  private async insertCode(text: string): Promise<void> {
    const editor = this.selectionEditor();
    const target = editor ? vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === editor.uri.toString()) : undefined;
    if (!target) {
      void vscode.window.showInformationMessage('Hookwise: open an editor to insert the code into.');
      return;
    }
    await target.edit((b) => b.replace(target.selection, text));
  }

  private trackSelection(editor: vscode.TextEditor): void {
    if (editor.document.uri.scheme === 'output') return;
    clearTimeout(this.selectionTimer);
    // Selection changes come with every keystroke: tell the webviews at most every 150 ms.
    this.selectionTimer = setTimeout(() => this.trackSelectionNow(editor), 150);
  }

  private trackSelectionNow(editor: vscode.TextEditor): void {
    clearTimeout(this.selectionTimer);
    this.selection = { uri: editor.document.uri, range: editor.selection };
    this.post({ type: 'editorSelection', ...this.offeredSelection() });
  }

  private offeredSelection(): { attachment?: ChatAttachment } {
    const item = this.selectionItems()[0];
    return item ? { attachment: toAttachment('editor-selection', item) } : {};
  }

  /** The selected text of the editor the user last worked in (also when the chat has focus). */
  private selectionItems(): ContextItem[] {
    const snapshot = this.selection;
    if (!snapshot || snapshot.range.isEmpty) return [];
    const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === snapshot.uri.toString());
    const item = document ? ChatContext.selectionItem(document, snapshot.range) : undefined;
    return item ? [item] : [];
  }

  private selectionEditor(): EditorSelectionSnapshot | undefined {
    return this.selection;
  }

  private async pickUris(): Promise<ContextItem[]> {
    const uris = await vscode.window.showOpenDialog({
      canSelectFiles: true,
      canSelectFolders: true,
      canSelectMany: true,
      openLabel: 'Attach',
      ...(vscode.workspace.workspaceFolders?.[0] ? { defaultUri: vscode.workspace.workspaceFolders[0].uri } : {}),
    });
    const items: ContextItem[] = [];
    for (const uri of uris ?? []) {
      const item = await ChatContext.uriItem(uri);
      if (item) items.push(item);
    }
    return items;
  }

  private register<T extends vscode.Disposable>(value: T): T {
    this.disposables.push(value);
    return value;
  }
}

/** A `#file:` path: absolute, or relative to the first workspace folder. */
function resolveWorkspacePath(path: string): vscode.Uri | undefined {
  if (/^(\/|[a-zA-Z]:[\\/])/.test(path)) return vscode.Uri.file(path);
  const folder = vscode.workspace.workspaceFolders?.[0];
  return folder ? vscode.Uri.joinPath(folder.uri, path) : undefined;
}

function dedupe(items: readonly ContextItem[]): ContextItem[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key =
      item.kind === 'problems'
        ? 'problems'
        : item.kind === 'terminal'
          ? `t:${item.name}:${item.output.length}`
          : JSON.stringify([item.kind, item.path, 'startLine' in item ? item.startLine : 0, 'endLine' in item ? item.endLine : 0]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
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
  <button id="model-label" class="model-label icon-button" type="button" title="Model: click to pick another" aria-label="Model: No model. Pick a model">No model</button>
  <span id="session-title" class="session-title" title="Session"></span>
  <span class="spacer"></span>
  <span id="context-meter" class="context-meter" role="meter" aria-label="Context window used" aria-valuemin="0" aria-valuemax="100" aria-valuenow="0" hidden><span class="context-meter-bar"></span><span class="context-meter-text"></span></span>
  <button id="history" class="icon-button" type="button" aria-label="History: past sessions" title="History">History</button>
  <button id="new-chat" class="icon-button" type="button" aria-label="New Chat" title="New Chat">New Chat</button>
</header>
<nav id="memory-files" class="memory-files" aria-label="Memory files in use" hidden></nav>
<div id="history-panel" class="history-panel" hidden role="dialog" aria-label="Past sessions"></div>
<main id="messages" class="messages" role="log" aria-live="polite" aria-relevant="additions text" aria-label="Conversation" tabindex="-1">
  <div id="empty" class="empty">
    <h2>Hookwise</h2>
    <p>A coding agent where every step runs through your hooks. Ask it something.</p>
    <p><button id="open-setup" class="link-button" type="button">Choose a model…</button></p>
  </div>
</main>
<div id="status" class="visually-hidden" role="status" aria-live="polite"></div>
<div id="notice" class="notice" role="status" hidden></div>
<form id="composer" class="composer" aria-label="Send a prompt">
  <div id="attachments" class="attachments" role="list" aria-label="Attached context" hidden></div>
  <div id="mention-list" class="mention-list" role="listbox" aria-label="Mentions" hidden></div>
  <div id="command-list" class="mention-list" role="listbox" aria-label="Slash commands" hidden></div>
  <textarea id="prompt" rows="3" placeholder="Ask Hookwise…" aria-label="Prompt (Enter sends, Shift+Enter adds a line, # mentions context)" aria-autocomplete="list" aria-controls="mention-list"></textarea>
  <div class="composer-buttons">
    <button id="add-context" type="button" class="secondary" aria-label="Add Context: files, folders, selection, problems, terminal output" title="Add Context…">Add Context…</button>
    <span class="spacer"></span>
    <button id="send" type="submit" class="primary" aria-label="Send">Send</button>
    <button id="stop" type="button" class="secondary" aria-label="Stop the agent" hidden>Stop</button>
  </div>
</form>
<script nonce="${nonce}" src="${script.toString()}"></script>
</body>
</html>`;
}
