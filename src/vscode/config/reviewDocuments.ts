import * as vscode from 'vscode';

/**
 * Read-only markdown documents for approval reviews (every project hook or MCP server being
 * approved, with every field): virtual, so nothing is written to disk and closing one never
 * asks to save; scrollable and searchable like any editor. One instance per URI scheme.
 */
export class ReviewDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly registration: vscode.Disposable;

  constructor(private readonly scheme: string) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(scheme, this);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.path) ?? '';
  }

  /** Shows `markdown` as `<name>.md` beside the active editor (replacing an open review of that name); resolves with the document. */
  async show(name: string, markdown: string): Promise<vscode.TextDocument> {
    const uri = vscode.Uri.from({ scheme: this.scheme, path: `/${name}.md` });
    this.texts.set(uri.path, markdown);
    this.changed.fire(uri);
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: true });
    return document;
  }

  dispose(): void {
    this.registration.dispose();
    this.changed.dispose();
  }
}
