import path from 'node:path';
import * as vscode from 'vscode';
import { formatConfigDiagnostic, lineStarts, offsetToLineColumn, type ConfigDiagnostic } from '../../configFiles/configDiagnostic';

/**
 * Shows the loader's diagnostics where users look: the Problems panel (one
 * `DiagnosticCollection('hookwise')` for `.claude/*.json`, agent files and settings files
 * whose path is known) and the "Hookwise" log (every diagnostic, file or not). A file that is
 * not JSON at all also gets a one-time warning notification, because all its hooks are off.
 */

/** The warning for a file that is not JSON; returns true when the user chose "Open File". */
export type NotJsonWarning = (message: string) => Thenable<boolean>;

/** Default NotJsonWarning: a warning notification with an "Open File" button. */
export const showNotJsonWarning: NotJsonWarning = async (message) => (await vscode.window.showWarningMessage(message, 'Open File')) === 'Open File';

/** The text of a file as the loader read it, to turn offsets into editor ranges. */
export type SourceTextLookup = (file: string) => string | undefined;

/** Maps one ConfigDiagnostic to an editor diagnostic (offset/length when the text is known, else line/column). */
export function toVscodeDiagnostic(d: ConfigDiagnostic, text: string | undefined): vscode.Diagnostic {
  let range: vscode.Range;
  if (text !== undefined && d.offset !== undefined) {
    const starts = lineStarts(text);
    const start = offsetToLineColumn(starts, d.offset);
    const end = offsetToLineColumn(starts, d.offset + Math.max(d.length ?? 0, 0));
    range = new vscode.Range(start.line - 1, start.column - 1, end.line - 1, end.column - 1);
  } else if (d.line !== undefined) {
    const pos = new vscode.Position(d.line - 1, Math.max((d.column ?? 1) - 1, 0));
    range = new vscode.Range(pos, pos);
  } else {
    range = new vscode.Range(0, 0, 0, 0);
  }
  const where = d.jsonPath ? `${d.jsonPath}: ` : '';
  const diagnostic = new vscode.Diagnostic(
    range,
    `${where}${d.message}`,
    d.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning,
  );
  diagnostic.source = 'Hookwise';
  diagnostic.code = d.code;
  return diagnostic;
}

/** Publishes each load's diagnostics, replacing the previous load's. Owns its DiagnosticCollection. */
export class ConfigDiagnosticsPublisher implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('hookwise');
  /** Files already warned about this session: one notification per broken file, not one per save. */
  private readonly warnedNotJson = new Set<string>();
  /** Log lines of the previous load, so an unchanged problem is not logged again on every reload. */
  private previousLines = new Set<string>();

  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly warnNotJson: NotJsonWarning = showNotJsonWarning,
  ) {}

  /** Replaces the Problems entries with `diagnostics`, logs new ones, warns once per non-JSON file. */
  publish(diagnostics: readonly ConfigDiagnostic[], textOf: SourceTextLookup): void {
    const byFile = new Map<string, vscode.Diagnostic[]>();
    const lines = new Set<string>();
    // Files whose last good version is in force (lastGoodConfig.ts): the warning must not say their hooks are off.
    const lastGood = new Set(diagnostics.filter((d) => d.code === 'lastGoodInForce' && d.severity === 'warning').map((d) => d.file));
    for (const d of diagnostics) {
      const line = formatConfigDiagnostic(d);
      lines.add(line);
      if (!this.previousLines.has(line)) {
        if (d.severity === 'error') this.log.error(line);
        else this.log.warn(line);
      }
      if (d.file !== undefined && path.isAbsolute(d.file)) {
        const list = byFile.get(d.file) ?? [];
        list.push(toVscodeDiagnostic(d, textOf(d.file)));
        byFile.set(d.file, list);
      }
      if (d.code === 'notJson' && d.file !== undefined) this.warnOnce(d, lastGood.has(d.file));
    }
    this.previousLines = lines;
    this.collection.clear();
    this.collection.set([...byFile].map(([file, list]) => [vscode.Uri.file(file), list]));
  }

  private warnOnce(d: ConfigDiagnostic, lastGoodInForce: boolean): void {
    const file = d.file as string;
    if (this.warnedNotJson.has(file)) return;
    this.warnedNotJson.add(file);
    const at = d.line !== undefined ? ` (line ${d.line})` : '';
    const message = lastGoodInForce
      ? `Hookwise: ${d.displayFile} is not valid JSON${at}. Its last good version stays in force until you fix it.`
      : `Hookwise ignored ${d.displayFile}: not valid JSON${at}. Its hooks are off until you fix it.`;
    void Promise.resolve(this.warnNotJson(message)).then(
      async (open) => {
        if (!open) return;
        const pos = new vscode.Position(Math.max((d.line ?? 1) - 1, 0), Math.max((d.column ?? 1) - 1, 0));
        await vscode.window.showTextDocument(vscode.Uri.file(file), { selection: new vscode.Range(pos, pos) });
      },
      (error: unknown) => this.log.warn(`could not show the warning for ${d.displayFile}: ${String(error)}`),
    );
  }

  dispose(): void {
    this.collection.dispose();
  }
}
