import * as vscode from 'vscode';
import type { ChatAttachment } from '../../shared/webviewProtocol';
import { ChatContext, toAttachment, type EditorSelectionSnapshot } from './chatContext';
import type { ContextItem } from './contextAttachment';

/**
 * The selection of the editor the user last worked in, kept while the chat has focus: the
 * chat offers it as an attachment and Insert at Cursor writes there. It is kept only while
 * that editor is still on screen: once its tab is closed or replaced, the selection is
 * dropped, so an earlier selection the user no longer sees never rides along with a prompt.
 * Reports each change (at most every 150 ms while typing) through `onChange`.
 */
export class EditorSelectionTracker implements vscode.Disposable {
  private selection: EditorSelectionSnapshot | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly disposables: vscode.Disposable[];

  constructor(private readonly onChange: () => void) {
    this.disposables = [
      vscode.window.onDidChangeTextEditorSelection((e) => this.track(e.textEditor)),
      // No active text editor: the chat (in an editor tab) or another kind of editor took the
      // group; the selection stays only while its editor is still visible beside it.
      vscode.window.onDidChangeActiveTextEditor((editor) => (editor ? this.track(editor) : this.dropIfHidden())),
      vscode.window.onDidChangeVisibleTextEditors(() => this.dropIfHidden()),
      vscode.workspace.onDidCloseTextDocument(() => this.dropIfHidden()),
      { dispose: () => clearTimeout(this.timer) },
    ];
    if (vscode.window.activeTextEditor) this.track(vscode.window.activeTextEditor);
  }

  /** The editor and selection last seen (undefined before any). */
  get snapshot(): EditorSelectionSnapshot | undefined {
    return this.selection;
  }

  /** Takes `editor`'s selection now, without waiting (Add Selection to Chat). */
  trackNow(editor: vscode.TextEditor): void {
    clearTimeout(this.timer);
    this.selection = { uri: editor.document.uri, range: editor.selection };
    this.onChange();
  }

  /** The selection as the chip the chat offers, if there is a non-empty one. */
  offered(): { attachment?: ChatAttachment } {
    const item = this.items()[0];
    return item ? { attachment: toAttachment('editor-selection', item) } : {};
  }

  /** The selected text of the editor the user last worked in (also when the chat has focus). */
  items(): ContextItem[] {
    const snapshot = this.selection;
    if (!snapshot || snapshot.range.isEmpty) return [];
    const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === snapshot.uri.toString());
    const item = document ? ChatContext.selectionItem(document, snapshot.range) : undefined;
    return item ? [item] : [];
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }

  /** Forgets the selection when no visible editor shows its document any more. */
  private dropIfHidden(): void {
    const uri = this.selection?.uri.toString();
    if (uri === undefined || vscode.window.visibleTextEditors.some((e) => e.document.uri.toString() === uri)) return;
    // A pending track() of the editor that replaced it still runs.
    this.selection = undefined;
    this.onChange();
  }

  private track(editor: vscode.TextEditor): void {
    if (editor.document.uri.scheme === 'output') return;
    clearTimeout(this.timer);
    // Selection changes come with every keystroke: tell the webviews at most every 150 ms.
    this.timer = setTimeout(() => this.trackNow(editor), 150);
  }
}
