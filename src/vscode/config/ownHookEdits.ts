import * as vscode from 'vscode';
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { settingsHookKeys } from '../../hooks/config/hookDefinitionKeys';

/** What the watcher needs: where approvals go. */
export interface OwnHookEditsOptions {
  /** Approves hooks with these definitions once a load finds them in `file` (ProjectHookApprovalFlow.approveSaved). */
  readonly approve: (file: string, keys: ReadonlySet<string>) => void;
  readonly log?: vscode.LogOutputChannel;
  /** How long a save waits for the file's text on disk; default 1 s. */
  readonly readTimeoutMs?: number;
}

interface Tracked {
  /** Definition keys this document has seen on disk: when opened, and just before each save. */
  readonly fromDisk: Set<string>;
  /** False once a change since the last save was made while the document was not in the active editor. */
  typedHere: boolean;
}

/**
 * "Your own edits don't ask you again": a hook in a project `.claude/settings.json` or
 * `.claude/settings.local.json` (at a workspace folder's root) that the person typed in this
 * window's editor and saved is approved by that save. What counts as theirs is what the save
 * added: definitions that were neither in the document when it was opened nor in the file on
 * disk just before the save. So a hook the agent (its Write/Edit tools write the file, never
 * the editor), a git pull or another process put in the file still asks, even when the
 * person saves the file afterwards; and a save approves nothing when the document changed
 * while it was not in the active editor (another extension editing it, or a reload from disk
 * in a background tab).
 */
export class OwnHookEdits implements vscode.Disposable {
  private readonly tracked = new Map<string, Tracked>();
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly o: OwnHookEditsOptions) {
    for (const document of vscode.workspace.textDocuments) this.track(document);
    this.subscriptions = [
      vscode.workspace.onDidOpenTextDocument((document) => this.track(document)),
      vscode.workspace.onDidCloseTextDocument((document) => this.tracked.delete(document.uri.toString())),
      vscode.workspace.onDidChangeTextDocument((e) => this.changed(e)),
      vscode.workspace.onWillSaveTextDocument((e) => {
        const entry = this.tracked.get(e.document.uri.toString());
        if (entry) e.waitUntil(this.willSave(e.document, entry));
      }),
      vscode.workspace.onDidSaveTextDocument((document) => this.saved(document)),
    ];
  }

  private track(document: vscode.TextDocument): void {
    if (!isProjectHookFile(document.uri)) return;
    this.o.log?.trace(`watching ${document.uri.fsPath} for your own hook edits`);
    // A document already dirty when first seen holds text of unknown origin: it counts as from disk.
    this.tracked.set(document.uri.toString(), { fromDisk: settingsHookKeys(document.getText()), typedHere: true });
  }

  private changed(e: vscode.TextDocumentChangeEvent): void {
    const entry = this.tracked.get(e.document.uri.toString());
    // The content event comes before the dirty flag settles, so a reload from disk cannot be told
    // apart from typing here: what was on disk is read just before the save instead.
    if (!entry || e.contentChanges.length === 0 || vscode.window.activeTextEditor?.document === e.document) return;
    entry.typedHere = false;
    // Once the dirty flag has settled: a change that left the document clean was a background tab
    // following its file on disk, which the save reads as disk content anyway; only an edit that
    // leaves foreign text unsaved in the document keeps this save from approving anything.
    setImmediate(() => {
      if (!e.document.isDirty && this.tracked.get(e.document.uri.toString()) === entry) entry.typedHere = true;
    });
  }

  /**
   * Just before a save: what is on disk now is not the person's typing, whoever wrote it; what
   * the document adds to it is, and is approved now, before the write, so the reload the write
   * causes already finds it approved.
   */
  private async willSave(document: vscode.TextDocument, entry: Tracked): Promise<void> {
    try {
      const text = await readFile(document.uri.fsPath, { encoding: 'utf8', signal: AbortSignal.timeout(this.o.readTimeoutMs ?? 1000) });
      for (const key of settingsHookKeys(text)) entry.fromDisk.add(key);
    } catch (error) {
      // A missing file has nothing on disk; an unreadable one makes this save approve nothing.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') entry.typedHere = false;
    }
    const mine = new Set([...settingsHookKeys(document.getText())].filter((k) => !entry.fromDisk.has(k)));
    this.o.log?.trace(`saving ${document.uri.fsPath}: ${mine.size} hook(s) new since on disk, typed here: ${entry.typedHere}`);
    if (mine.size === 0) return;
    if (!entry.typedHere) {
      this.o.log?.info(`${document.uri.fsPath} changed outside the active editor before this save: its new hooks still need approval`);
      return;
    }
    this.o.log?.info(`${mine.size} hook(s) you saved in ${document.uri.fsPath} are approved by that save`);
    this.o.approve(path.resolve(document.uri.fsPath), mine);
  }

  /** After the save: its text is on disk now. */
  private saved(document: vscode.TextDocument): void {
    const entry = this.tracked.get(document.uri.toString());
    if (!entry) return;
    for (const key of settingsHookKeys(document.getText())) entry.fromDisk.add(key);
    entry.typedHere = true;
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.tracked.clear();
  }
}

/** `.claude/settings.json` or `.claude/settings.local.json` directly in a workspace folder (the project layers). */
export function isProjectHookFile(uri: vscode.Uri): boolean {
  if (uri.scheme !== 'file') return false;
  const name = path.basename(uri.fsPath);
  if (name !== 'settings.json' && name !== 'settings.local.json') return false;
  const claude = path.dirname(uri.fsPath);
  if (path.basename(claude) !== '.claude') return false;
  const root = path.resolve(path.dirname(claude));
  return (vscode.workspace.workspaceFolders ?? []).some((f) => f.uri.scheme === 'file' && path.resolve(f.uri.fsPath) === root);
}
