import * as vscode from 'vscode';

/** Documents kept for re-opening; older ones are dropped (each is small, but a long session makes many). */
const MAX_DOCUMENTS = 50;

/** What a reopened tab shows once its document was dropped. */
const GONE = '# Gone\n\nThis page is no longer kept; ask for it again.';

/**
 * Read-only Markdown pages (a `TextDocumentContentProvider` on `scheme`) opened as rendered
 * previews, each in its own tab: every page gets its own URI and a *locked* Markdown preview,
 * since an unlocked one is reused for whatever Markdown is shown next in its column.
 * Without the built-in Markdown extension a page opens as a plain read-only document instead.
 */
export class MarkdownTabs implements vscode.Disposable {
  private readonly documents = new Map<string, string>();
  private readonly registration: vscode.Disposable;
  private next = 0;

  constructor(private readonly scheme: string) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(scheme, {
      provideTextDocumentContent: (uri) => this.documents.get(uri.query) ?? GONE,
    });
  }

  /**
   * Stores `markdown` as a new page named `name` (the tab reads "[Preview] name.md") and shows it
   * rendered in a new tab of the active column (`beside`: of the column to its right). Resolves with
   * the page's URI once the preview was asked for.
   */
  async open(name: string, markdown: string, { beside = false }: { readonly beside?: boolean } = {}): Promise<vscode.Uri> {
    const id = String(++this.next);
    this.documents.set(id, markdown);
    for (const key of this.documents.keys()) if (this.documents.size > MAX_DOCUMENTS) this.documents.delete(key);
    // The name is a path segment: a slash would make a folder of it.
    const uri = vscode.Uri.from({ scheme: this.scheme, path: `/${name.replace(/[/\\]/g, '-')}.md`, query: id });
    try {
      // The preview reads the page through this provider; `locked` keeps it on this page (its own tab).
      if (beside) await vscode.commands.executeCommand('markdown.showLockedPreviewToSide', uri);
      else await vscode.commands.executeCommand('markdown.showPreview', uri, undefined, { locked: true });
    } catch {
      // The Markdown extension is disabled: the source still reads well.
      const doc = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(doc, { preview: false, ...(beside ? { viewColumn: vscode.ViewColumn.Beside } : {}) });
    }
    return uri;
  }

  dispose(): void {
    this.registration.dispose();
    this.documents.clear();
  }
}
