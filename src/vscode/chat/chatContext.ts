import * as vscode from 'vscode';
import type { ChatAttachment } from '../../shared/webviewProtocol';
import {
  attachmentDetail,
  attachmentLabel,
  formatFile,
  formatFolder,
  formatProblems,
  formatSelection,
  formatTerminal,
  systemReminder,
  type ContextItem,
  type ContextProblem,
} from './contextAttachment';
import type { TerminalOutputRecorder } from './terminalOutput';

/** Files larger than this are not attached (the model gets a note instead). */
const MAX_FILE_BYTES = 2_000_000;
/** Attachments pending at most; more are refused with a message. */
const MAX_PENDING = 50;
/** Entries of a folder listed at most. */
const MAX_FOLDER_ENTRIES = 500;

/** The active editor's selection as last seen (kept because a chat in an editor tab makes `activeTextEditor` undefined). */
export interface EditorSelectionSnapshot {
  readonly uri: vscode.Uri;
  readonly range: vscode.Range;
}

/**
 * The attachments of the next prompt, on the extension side: what "Add Context…", `#file`,
 * `#selection`, `#problems`, a dropped file and **Add Selection to Chat** collected. The
 * webview shows them as chips (`list()`); on send they are resolved to the reminder texts the
 * model gets (file contents are read then, so the model sees the current text) and cleared.
 */
export class ChatContext {
  private items: { readonly id: string; readonly item: ContextItem }[] = [];
  private counter = 0;

  constructor(private readonly terminals?: TerminalOutputRecorder) {}

  /** The chips, in the order added. */
  list(): ChatAttachment[] {
    return this.items.map(({ id, item }) => toAttachment(id, item));
  }

  /** Adds an item (a file already attached with the same range is not added twice). Returns false when the list is full. */
  add(item: ContextItem): boolean {
    if (this.items.some((e) => sameItem(e.item, item))) return true;
    if (this.items.length >= MAX_PENDING) return false;
    this.items.push({ id: `c${++this.counter}`, item });
    return true;
  }

  remove(id: string): void {
    this.items = this.items.filter((e) => e.id !== id);
  }

  /** Takes the pending items (the list is empty afterwards). */
  take(): ContextItem[] {
    const taken = this.items.map((e) => e.item);
    this.items = [];
    return taken;
  }

  /** The current selection of `editor` as an item; undefined when nothing is selected. */
  static selectionItem(document: vscode.TextDocument, range: vscode.Range): ContextItem | undefined {
    if (range.isEmpty) return undefined;
    // A selection ending at column 0 of the next line covers whole lines: do not count that line.
    const endLine = range.end.character === 0 && range.end.line > range.start.line ? range.end.line - 1 : range.end.line;
    return {
      kind: 'selection',
      path: document.uri.scheme === 'file' ? document.uri.fsPath : document.uri.toString(),
      displayPath: vscode.workspace.asRelativePath(document.uri, false),
      startLine: range.start.line + 1,
      endLine: endLine + 1,
      text: document.getText(range),
    };
  }

  /** A file or folder the user picked or dropped. */
  static async uriItem(uri: vscode.Uri): Promise<ContextItem | undefined> {
    try {
      const stat = await vscode.workspace.fs.stat(uri);
      const path = uri.scheme === 'file' ? uri.fsPath : uri.toString();
      const displayPath = vscode.workspace.asRelativePath(uri, false);
      return stat.type & vscode.FileType.Directory ? { kind: 'folder', path, displayPath } : { kind: 'file', path, displayPath };
    } catch {
      return undefined;
    }
  }

  /** The Problems list now (errors and warnings first). */
  static problemsItem(): ContextItem {
    const problems: ContextProblem[] = [];
    for (const [uri, diagnostics] of vscode.languages.getDiagnostics())
      for (const d of diagnostics)
        problems.push({
          file: uri.scheme === 'file' ? uri.fsPath : uri.toString(),
          line: d.range.start.line + 1,
          column: d.range.start.character + 1,
          severity: SEVERITY[d.severity],
          message: d.message,
          ...(d.source ? { source: d.source } : {}),
          ...(d.code !== undefined ? { code: typeof d.code === 'object' ? String(d.code.value) : String(d.code) } : {}),
        });
    problems.sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
    return { kind: 'problems', problems };
  }

  /** The last command output of a terminal, when shell integration recorded one. */
  terminalItem(terminal: vscode.Terminal): ContextItem | undefined {
    const last = this.terminals?.lastOutput(terminal);
    return last ? { kind: 'terminal', name: terminal.name, ...(last.command ? { command: last.command } : {}), output: last.output } : undefined;
  }

  /** Terminals with a recorded output, for "Add Context…". */
  terminalsWithOutput(): vscode.Terminal[] {
    return vscode.window.terminals.filter((t) => this.terminals?.lastOutput(t) !== undefined);
  }
}

/** The Read deny (or ask) rule that keeps a file from the model, or undefined (the workspace's permission rules). */
export type ReadPolicy = (absPath: string) => string | undefined;

/**
 * The reminder texts the model gets for `items`, in order (files read now; unreadable files
 * become a note). A file, folder or selection that a Read deny or ask rule covers is not
 * attached, as Claude Code refuses an `@file` of a denied path; `refused` lists them.
 * `attachedFiles` gets the path of each file attached (its nested memory loads as for a read).
 */
export async function resolveContext(
  items: readonly ContextItem[],
  readDenied?: ReadPolicy,
  refused: string[] = [],
  attachedFiles: string[] = [],
): Promise<string[]> {
  const out: string[] = [];
  for (const item of items) {
    const rule = 'path' in item && readDenied ? readDenied(item.path) : undefined;
    if (rule !== undefined && 'path' in item) {
      refused.push(`${item.displayPath} (${rule})`);
      out.push(systemReminder(`The user attached ${item.path}, but the permission rule ${rule} does not allow reading it; it was not attached.`));
      continue;
    }
    switch (item.kind) {
      case 'selection':
        out.push(systemReminder(formatSelection(item.path, item.startLine, item.endLine, item.text)));
        break;
      case 'file': {
        const text = await readText(item.path);
        if (typeof text === 'string') {
          out.push(...formatFile(item.path, text, item.startLine, item.endLine).map(systemReminder));
          attachedFiles.push(item.path);
        } else out.push(systemReminder(`The user attached ${item.path}, but it could not be read: ${text.error}`));
        break;
      }
      case 'folder': {
        const entries = await listFolder(item.path);
        out.push(...formatFolder(item.path, entries).map(systemReminder));
        break;
      }
      case 'problems':
        out.push(systemReminder(formatProblems(item.problems)));
        break;
      case 'terminal':
        out.push(systemReminder(formatTerminal(item.name, item.command, item.output)));
        break;
    }
  }
  return out;
}

/** The chip of an item. */
export function toAttachment(id: string, item: ContextItem): ChatAttachment {
  return { id, kind: item.kind, label: attachmentLabel(item), detail: attachmentDetail(item) };
}

function sameItem(a: ContextItem, b: ContextItem): boolean {
  if (a.kind !== b.kind) return false;
  if ((a.kind === 'file' || a.kind === 'folder') && (b.kind === 'file' || b.kind === 'folder')) return a.path === b.path;
  if (a.kind === 'selection' && b.kind === 'selection') return a.path === b.path && a.startLine === b.startLine && a.endLine === b.endLine;
  return a.kind === 'problems';
}

async function readText(path: string): Promise<string | { error: string }> {
  try {
    const uri = toUri(path);
    const stat = await vscode.workspace.fs.stat(uri);
    if (stat.size > MAX_FILE_BYTES) return { error: `it is larger than ${MAX_FILE_BYTES} bytes` };
    // An open editor's text wins over the disk: the user may not have saved.
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (open) return open.getText();
    const bytes = await vscode.workspace.fs.readFile(uri);
    if (bytes.includes(0)) return { error: 'it is a binary file' };
    return new TextDecoder().decode(bytes);
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

async function listFolder(path: string): Promise<string[]> {
  try {
    const entries = await vscode.workspace.fs.readDirectory(toUri(path));
    const names = entries.map(([name, type]) => (type & vscode.FileType.Directory ? `${name}/` : name)).sort();
    return names.length > MAX_FOLDER_ENTRIES ? [...names.slice(0, MAX_FOLDER_ENTRIES), `… ${names.length - MAX_FOLDER_ENTRIES} more`] : names;
  } catch (error) {
    return [`(cannot list: ${error instanceof Error ? error.message : String(error)})`];
  }
}

function toUri(path: string): vscode.Uri {
  return /^[a-z][a-z0-9+.-]+:\/\//i.test(path) ? vscode.Uri.parse(path) : vscode.Uri.file(path);
}

const SEVERITY: Record<vscode.DiagnosticSeverity, ContextProblem['severity']> = {
  [vscode.DiagnosticSeverity.Error]: 'error',
  [vscode.DiagnosticSeverity.Warning]: 'warning',
  [vscode.DiagnosticSeverity.Information]: 'info',
  [vscode.DiagnosticSeverity.Hint]: 'hint',
};
const SEVERITY_ORDER: Record<ContextProblem['severity'], number> = { error: 0, warning: 1, info: 2, hint: 3 };
