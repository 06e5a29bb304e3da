import * as vscode from 'vscode';
import { ChatViewProvider } from './vscode/chat/chatViewProvider';
import { HookRunsTreeProvider } from './vscode/tree/hookRunsTreeProvider';

/** What `activate` returns: a small surface for integration tests and other extensions. */
export interface HookwiseApi {
  readonly log: vscode.LogOutputChannel;
}

/** Wires the services and registers views and commands. Holds no logic of its own. */
export function activate(context: vscode.ExtensionContext): HookwiseApi {
  const log = vscode.window.createOutputChannel('Hookwise', { log: true });
  context.subscriptions.push(log);

  const chat = new ChatViewProvider(context.extensionUri);
  context.subscriptions.push(vscode.window.registerWebviewViewProvider(ChatViewProvider.viewId, chat, { webviewOptions: { retainContextWhenHidden: true } }));

  const runs = new HookRunsTreeProvider();
  context.subscriptions.push(runs, vscode.window.createTreeView(HookRunsTreeProvider.viewId, { treeDataProvider: runs, showCollapseAll: true }));

  context.subscriptions.push(vscode.commands.registerCommand('hookwise.openChat', () => chat.reveal()));

  log.info(`Hookwise ${context.extension.packageJSON.version as string} activated in ${vscode.env.appName} ${vscode.version}`);
  return { log };
}

/** Everything is owned by `context.subscriptions`; nothing else to release. */
export function deactivate(): void {}
