import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';

/**
 * The "Chat" webview view in the Hookwise container. This first slice renders the input
 * and a greeting; the conversation protocol arrives with the chat issue.
 */
export class ChatViewProvider implements vscode.WebviewViewProvider {
  static readonly viewId = 'hookwise.chat';
  private view: vscode.WebviewView | undefined;

  constructor(private readonly extensionUri: vscode.Uri) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    view.webview.options = { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'media'), vscode.Uri.joinPath(this.extensionUri, 'dist', 'media')] };
    view.webview.html = this.html(view.webview);
  }

  /** Reveals the view, focusing its input. */
  async reveal(): Promise<void> {
    await vscode.commands.executeCommand(`${ChatViewProvider.viewId}.focus`);
    this.view?.show(false);
  }

  private html(webview: vscode.Webview): string {
    // A nonce allows only our own inline script to run (strict CSP, no remote resources).
    const nonce = randomBytes(16).toString('base64');
    return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${webview.cspSource} 'nonce-${nonce}'; script-src 'nonce-${nonce}';">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<style nonce="${nonce}">
  body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); padding: 8px; }
  textarea { width: 100%; box-sizing: border-box; background: var(--vscode-input-background); color: var(--vscode-input-foreground); border: 1px solid var(--vscode-input-border, transparent); }
</style>
</head>
<body>
<h2 id="title">Hookwise</h2>
<p>A coding agent where every step runs through your hooks.</p>
<textarea id="prompt" rows="3" placeholder="Ask Hookwise…" aria-label="Prompt"></textarea>
<script nonce="${nonce}">acquireVsCodeApi();</script>
</body>
</html>`;
  }
}
