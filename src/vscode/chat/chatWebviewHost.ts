import * as vscode from 'vscode';
import { parseFromWebview, type FromWebviewMessage, type ToWebviewMessage } from '../../shared/webviewProtocol';
import { chatHtml } from './chatHtml';

/** One webview showing the chat (the side bar view or an editor tab); all show the same conversation. */
export interface ChatSurface {
  readonly webview: vscode.Webview;
  ready: boolean;
  /** History answers that arrived before `ready` (`init` does not carry them). */
  readonly queue: ToWebviewMessage[];
  readonly disposables: vscode.Disposable[];
}

/** What the host needs from the chat: the state a webview gets on `ready`, and the other messages. */
export interface ChatWebviewHostOptions {
  readonly extensionUri: vscode.Uri;
  /** Receives dropped (invalid) webview messages. */
  readonly log?: vscode.LogOutputChannel | undefined;
  /** The messages a webview that said `ready` gets first (`init` and what it does not carry). */
  readonly initMessages: () => readonly ToWebviewMessage[];
  /** Every valid message but `ready`, with the surface it came from. */
  readonly onMessage: (message: Exclude<FromWebviewMessage, { type: 'ready' }>, surface: ChatSurface) => void;
  /** A surface went away (its view or tab was closed, or the host was disposed). */
  readonly onDetached?: (surface: ChatSurface) => void;
}

/**
 * The chat's webviews: the "Chat" view and the editor tab opened by **Open Chat in Editor**.
 * Sets their HTML and CSP, posts to every surface (or one), parses what they send, and keeps
 * the `ready` handshake: before it a webview gets nothing but queued History answers, and on
 * it the chat's state. Knows nothing of the conversation itself.
 */
export class ChatWebviewHost implements vscode.Disposable {
  static readonly viewId = 'hookwise.chat';

  private view: vscode.WebviewView | undefined;
  private panel: vscode.WebviewPanel | undefined;
  private readonly surfaces = new Map<vscode.Webview, ChatSurface>();

  constructor(private readonly options: ChatWebviewHostOptions) {}

  /** Takes over the side bar view (a re-created view replaces the old one). */
  resolveWebviewView(view: vscode.WebviewView): void {
    if (this.view) this.detach(this.view.webview);
    this.view = view;
    this.attach(view.webview, view.onDidDispose, () => {
      if (this.view === view) this.view = undefined;
    });
  }

  /** Opens the chat in an editor tab, or reveals the tab already open. */
  openInEditor(): void {
    if (this.panel) return this.panel.reveal();
    const panel = vscode.window.createWebviewPanel(
      'hookwise.chatEditor',
      'Hookwise Chat',
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      { retainContextWhenHidden: true },
    );
    panel.iconPath = vscode.Uri.joinPath(this.options.extensionUri, 'media', 'hookwise.svg');
    this.panel = panel;
    this.attach(panel.webview, panel.onDidDispose, () => {
      if (this.panel === panel) this.panel = undefined;
    });
  }

  /** True while the chat is open in an editor tab. */
  get isOpenInEditor(): boolean {
    return this.panel !== undefined;
  }

  /** True once a webview answered the handshake. */
  get isReady(): boolean {
    return [...this.surfaces.values()].some((s) => s.ready);
  }

  /** True while `surface` is still shown. */
  isAttached(surface: ChatSurface): boolean {
    return this.surfaces.get(surface.webview) === surface;
  }

  /** Brings the chat forward: the editor tab when open, else the view. */
  async reveal(): Promise<void> {
    if (this.panel) return this.panel.reveal(undefined, false);
    await this.revealView();
  }

  /**
   * Reveals the view and focuses its input. One focus only: a second one (`view.show(false)`
   * after the focus command) moved the focus out of the webview and back while the user was
   * already typing, and the keys in between were lost.
   */
  async revealView(): Promise<void> {
    await vscode.commands.executeCommand(`${ChatWebviewHost.viewId}.focus`);
    if (this.view !== undefined && !this.view.visible) this.view.show(false);
  }

  /** Sends `message` to every surface, or to `only`. */
  post(message: ToWebviewMessage, only?: ChatSurface): void {
    for (const surface of only ? [only] : this.surfaces.values()) {
      // Before `ready`, state goes out with `init`; of the rest only History answers matter.
      if (surface.ready) void surface.webview.postMessage(message);
      else if (message.type === 'history') surface.queue.push(message);
    }
  }

  dispose(): void {
    for (const webview of [...this.surfaces.keys()]) this.detach(webview);
    this.panel?.dispose();
  }

  private attach(webview: vscode.Webview, onDidDispose: vscode.Event<void>, onDisposed: () => void): void {
    const surface: ChatSurface = { webview, ready: false, queue: [], disposables: [] };
    this.surfaces.set(webview, surface);
    const mediaRoot = vscode.Uri.joinPath(this.options.extensionUri, 'media');
    const distMedia = vscode.Uri.joinPath(this.options.extensionUri, 'dist', 'media');
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
    this.options.onDetached?.(surface);
    for (const d of surface.disposables.splice(0)) d.dispose();
  }

  private receive(surface: ChatSurface, data: unknown): void {
    const parsed = parseFromWebview(data);
    if (!parsed.ok) {
      this.options.log?.warn(`chat: dropped an invalid webview message (${parsed.error})`);
      return;
    }
    const message = parsed.message;
    if (message.type !== 'ready') return this.options.onMessage(message, surface);
    surface.ready = true;
    for (const initial of this.options.initMessages()) void surface.webview.postMessage(initial);
    for (const queued of surface.queue.splice(0)) void surface.webview.postMessage(queued);
  }
}
