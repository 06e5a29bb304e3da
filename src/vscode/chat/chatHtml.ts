import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';

/** The webview's HTML: a nonce CSP, our bundled script and stylesheet, nothing remote. */
export function chatHtml(webview: vscode.Webview, mediaRoot: vscode.Uri, distMedia: vscode.Uri): string {
  const nonce = randomBytes(16).toString('base64');
  const script = webview.asWebviewUri(vscode.Uri.joinPath(distMedia, 'chat.js'));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(mediaRoot, 'chat.css'));
  const highlight = webview.asWebviewUri(vscode.Uri.joinPath(mediaRoot, 'codeHighlight.css'));
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
<link rel="stylesheet" href="${highlight.toString()}">
<title>Hookwise Chat</title>
</head>
<body>
<header class="header" role="toolbar" aria-label="Chat actions">
  <div class="header-main">
    <button id="model-label" class="model-label icon-button" type="button" title="Model: click to pick another" aria-label="Model: No model. Pick a model">No model</button>
    <span id="session-title" class="session-title" title="Session"></span>
  </div>
  <div class="header-actions">
    <span id="context-meter" class="context-meter" role="meter" aria-label="Context window used" aria-valuemin="0" aria-valuemax="100" aria-valuenow="0" hidden><span class="context-meter-bar"></span><span class="context-meter-text"></span></span>
    <button id="history" class="icon-button" type="button" aria-label="History: past sessions" title="History">History</button>
    <button id="new-chat" class="icon-button" type="button" aria-label="New Chat" title="New Chat">New Chat</button>
  </div>
</header>
<nav id="memory-files" class="memory-files" aria-label="Memory files in use" hidden></nav>
<div id="history-panel" class="history-panel" hidden role="dialog" aria-label="Past sessions"></div>
<main id="messages" class="messages" role="log" aria-live="polite" aria-relevant="additions text" aria-label="Conversation" tabindex="-1">
  <div id="empty" class="empty">
    <h2>Hookwise</h2>
    <p>A coding agent where every step runs through your hooks. Ask it something.</p>
    <p id="setup-line"><button id="open-setup" class="link-button" type="button">Choose a model…</button></p>
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
