import * as vscode from 'vscode';
import { ChatContext } from './chatContext';
import type { ContextItem } from './contextAttachment';
import type { EditorSelectionTracker } from './editorSelectionTracker';

/**
 * **Add Context…**: a quick pick of files and folders, the selection, the Problems list, a
 * terminal's last output. Resolves with the items picked ([] when cancelled).
 */
export async function pickContextItems(context: ChatContext, selection: EditorSelectionTracker): Promise<ContextItem[]> {
  type Pick = vscode.QuickPickItem & { readonly run: () => Promise<ContextItem[]> | ContextItem[] };
  const editor = selection.snapshot;
  const picks: Pick[] = [
    { label: '$(file) Files and Folders…', detail: 'Attach files or a folder listing', run: () => pickUris() },
    ...(editor && !editor.range.isEmpty
      ? [{ label: '$(selection) Selection', detail: vscode.workspace.asRelativePath(editor.uri, false), run: () => selection.items() }]
      : []),
    { label: '$(warning) Problems', detail: 'The Problems list (errors and warnings)', run: () => [ChatContext.problemsItem()] },
    ...context.terminalsWithOutput().map((t) => ({
      label: `$(terminal) Terminal: ${t.name}`,
      detail: 'The last command and its output',
      run: () => {
        const item = context.terminalItem(t);
        return item ? [item] : [];
      },
    })),
  ];
  const pick = await vscode.window.showQuickPick(picks, { title: 'Add Context', placeHolder: 'What should the agent see with your next prompt?' });
  return pick ? await pick.run() : [];
}

async function pickUris(): Promise<ContextItem[]> {
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
