import * as vscode from 'vscode';
import * as path from 'node:path';
import type { PermissionRequest } from '../../hooks/hookRunTypes';
import { proposedContent, proposedFile } from './proposedChange';

/** An open proposed-change diff: `modified` is its right side; `reveal` focuses it (reopening it if closed); `dispose` closes it. */
export interface ProposedChangeView extends vscode.Disposable {
  readonly modified: vscode.Uri;
  reveal(): Promise<void>;
}

/** The scheme of the virtual "proposed content" documents. */
export const PROPOSED_SCHEME = 'hookwise-proposed';

/**
 * Shows a Write/Edit's proposed change in a diff editor beside the approval popup, from a
 * virtual read-only document, and closes that diff when the popup is answered. One content
 * provider serves every proposal; it is registered by `ProposedChangeDiff.register()`.
 */
export class ProposedChangeDiff implements vscode.TextDocumentContentProvider {
  private static instance: ProposedChangeDiff | undefined;
  private readonly contents = new Map<string, string>();
  private counter = 0;

  /** Registers the content provider; the returned disposable belongs to the extension context. */
  static register(): vscode.Disposable {
    const provider = new ProposedChangeDiff();
    ProposedChangeDiff.instance = provider;
    const registration = vscode.workspace.registerTextDocumentContentProvider(PROPOSED_SCHEME, provider);
    return new vscode.Disposable(() => {
      registration.dispose();
      if (ProposedChangeDiff.instance === provider) ProposedChangeDiff.instance = undefined;
    });
  }

  /**
   * Opens the diff for a Write/Edit request; resolves undefined for other tools or when not
   * registered. A relative path is the agent's: it resolves against `root` (the agent's project
   * root; default the first workspace folder), where the tool would write it.
   */
  static async show(request: PermissionRequest, root?: string): Promise<ProposedChangeView | undefined> {
    return ProposedChangeDiff.instance?.open(request, root);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.query) ?? '';
  }

  private async open(request: PermissionRequest, agentRoot?: string): Promise<ProposedChangeView | undefined> {
    const file = proposedFile(request.toolName, request.toolInput);
    if (!file) return undefined;
    const root = agentRoot ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const absolute = path.isAbsolute(file) || !root ? file : path.resolve(root, file);
    const fileUri = vscode.Uri.file(absolute);
    let current: string | undefined;
    try {
      current = new TextDecoder().decode(await vscode.workspace.fs.readFile(fileUri));
    } catch {
      current = undefined;
    }
    const proposed = proposedContent(request.toolName, request.toolInput, current);
    if (proposed === undefined) return undefined;
    const key = String(++this.counter);
    const name = path.basename(absolute);
    const right = vscode.Uri.from({ scheme: PROPOSED_SCHEME, path: `/${name}`, query: key });
    this.contents.set(key, proposed);
    let left = fileUri;
    if (current === undefined) {
      left = vscode.Uri.from({ scheme: PROPOSED_SCHEME, path: `/${name}`, query: `${key}-empty` });
      this.contents.set(`${key}-empty`, '');
    }
    const title = `${name}: proposed ${request.toolName} (${current === undefined ? 'new file' : 'current ↔ proposed'})`;
    await vscode.commands.executeCommand('vscode.diff', left, right, title, { preview: true, preserveFocus: true, viewColumn: vscode.ViewColumn.Beside });
    return {
      modified: right,
      // Same sides and title: VS Code focuses the open diff tab, or opens it again.
      reveal: async () => {
        const viewColumn = diffTabs(right)[0]?.group.viewColumn ?? vscode.ViewColumn.Beside;
        await vscode.commands.executeCommand('vscode.diff', left, right, title, { preview: false, preserveFocus: false, viewColumn });
      },
      dispose: () => {
        this.contents.delete(key);
        this.contents.delete(`${key}-empty`);
        void closeDiffTabs(right);
      },
    };
  }
}

/** The open diff tabs whose right side is `modified`. */
export function diffTabs(modified: vscode.Uri): vscode.Tab[] {
  return vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter((tab) => tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.toString() === modified.toString());
}

async function closeDiffTabs(modified: vscode.Uri): Promise<void> {
  const tabs = diffTabs(modified);
  if (tabs.length > 0) await vscode.window.tabGroups.close(tabs, true);
}
