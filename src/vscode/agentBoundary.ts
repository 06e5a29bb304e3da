import os from 'node:os';
import * as vscode from 'vscode';
import { boundaryApprovalKey, decideWorkspaceBoundary, type WorkspaceBoundary } from '../agent/workspaceBoundary';
import { mementoPins } from './mementoPins';

/** globalState key: the approval keys (workspace file + outside folders) the person accepted. */
const ACCEPTED_KEY = 'hookwise.workspaceBoundary.accepted';
/** Accepted workspace files kept; the oldest go first. */
const MAX_ACCEPTED = 200;

/** Shows the modal; resolves with the clicked button, or undefined when it was closed. Injectable for tests. */
export type BoundaryDialog = (message: string, options: vscode.MessageOptions, ...buttons: string[]) => Thenable<string | undefined>;

/** The buttons of the outside-folders modal. */
export const BoundaryButtons = { accept: 'Let the Agent In (Reload)', keepOutside: 'Keep Outside' } as const;

/**
 * The agent's root in this window (workspaceBoundary.ts decides): the first folder the person
 * opened, but for a `.code-workspace` file only folders inside the file's own folder, unless the
 * person accepted the folders it lists outside it (kept in `state`, per file and folder list).
 */
export function currentWorkspaceBoundary(state: vscode.Memento): WorkspaceBoundary {
  const file = vscode.workspace.workspaceFile;
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
  const accepted = mementoPins(state, ACCEPTED_KEY, MAX_ACCEPTED);
  return decideWorkspaceBoundary({ workspaceFile: file?.scheme === 'file' ? file.fsPath : undefined, folders, homeDir: os.homedir() }, (key) =>
    accepted.has(key),
  );
}

/**
 * Asks once per window, when the workspace file lists folders outside its own folder that the
 * person has not accepted: a modal names them and the root the agent keeps. Accepting pins that
 * file with exactly that list and reloads the window (the root is fixed for a window's life);
 * anything else keeps them outside. Resolves true when the person accepted. Never throws.
 * `dialog` and `reload` are injectable for tests.
 */
export async function offerOutsideFolders(
  boundary: WorkspaceBoundary,
  state: vscode.Memento,
  dialog: BoundaryDialog = (message, options, ...buttons) => vscode.window.showWarningMessage(message, options, ...buttons),
  reload: () => Thenable<unknown> = () => vscode.commands.executeCommand('workbench.action.reloadWindow'),
): Promise<boolean> {
  if (boundary.approved || boundary.outsideFolders.length === 0 || boundary.workspaceFile === undefined) return false;
  const detail = [
    `The workspace file ${boundary.workspaceFile} adds folders outside its own folder:`,
    ...boundary.outsideFolders.map((f) => `  ${f}`),
    '',
    `Hookwise's agent works in ${boundary.projectDir}; its file tools treat these folders as outside the workspace (a repository's own workspace file must not widen what the agent may read).`,
    'Let the agent work in them? The window reloads; a different folder list asks again.',
  ].join('\n');
  let choice: string | undefined;
  try {
    choice = await dialog(
      'Let Hookwise work in folders outside this workspace file’s folder?',
      { modal: true, detail },
      BoundaryButtons.accept,
      BoundaryButtons.keepOutside,
    );
  } catch {
    return false; // a host that refuses dialogs: nothing is accepted by accident
  }
  if (choice !== BoundaryButtons.accept) return false;
  const key = boundaryApprovalKey(boundary.workspaceFile, boundary.outsideFolders);
  await mementoPins(state, ACCEPTED_KEY, MAX_ACCEPTED).add(key);
  await reload();
  return true;
}
