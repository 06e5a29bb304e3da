import { stat } from 'node:fs/promises';
import os from 'node:os';
import * as vscode from 'vscode';
import { scriptLinks } from '../../hooks/config/hookScriptLinks';
import { formatHookStats, type HookRunStats } from '../../hooks/hookRunStats';
import type { HookLensIndex } from './hookLensIndex';

/** Command ids of the settings-file lenses (declared in package.json, hidden from the palette: they take a hook id). */
export const HookLensCommands = {
  runSample: 'hookwise.hookLens.runSample',
  showRuns: 'hookwise.hookLens.showRuns',
  disable: 'hookwise.hookLens.disable',
  enable: 'hookwise.hookLens.enable',
} as const;

/** Links checked per document: each is a stat() of a file. */
const MAX_LINKS = 200;

/**
 * Above every hook of a settings file: its run stats, **Run with Sample Input…**, **Show Runs**,
 * and **Disable** or **Enable** (or "managed — cannot be disabled"). `refresh` re-asks VS Code.
 */
export class HookCodeLensProvider implements vscode.CodeLensProvider {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;

  constructor(
    private readonly index: HookLensIndex,
    private readonly stats: HookRunStats,
  ) {}

  refresh(): void {
    this.changed.fire();
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const doc = this.index.document(document);
    if (!doc) return [];
    const now = Date.now();
    const lenses: vscode.CodeLens[] = [];
    for (const hook of doc.hooks) {
      const start = document.positionAt(hook.range.offset);
      const range = new vscode.Range(start, start);
      const state = this.index.state(hook.id);
      const args = [hook.id];
      lenses.push(
        new vscode.CodeLens(range, { title: formatHookStats(this.stats.get(hook.id), now), command: '', tooltip: `${hook.id}: ${state.text}` }),
        new vscode.CodeLens(range, { title: 'Run with Sample Input…', command: HookLensCommands.runSample, arguments: args }),
        new vscode.CodeLens(range, { title: 'Show Runs', command: HookLensCommands.showRuns, arguments: args }),
      );
      if (!state.switchable) lenses.push(new vscode.CodeLens(range, { title: 'managed — cannot be disabled', command: '' }));
      else if (state.switchedOff) lenses.push(new vscode.CodeLens(range, { title: 'Enable', command: HookLensCommands.enable, arguments: args }));
      else if (state.hook) lenses.push(new vscode.CodeLens(range, { title: 'Disable', command: HookLensCommands.disable, arguments: args }));
    }
    return lenses;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** On a hook's command (or url / prompt): its id, stats and whether it runs. */
export class HookHoverProvider implements vscode.HoverProvider {
  constructor(
    private readonly index: HookLensIndex,
    private readonly stats: HookRunStats,
  ) {}

  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const doc = this.index.document(document);
    if (!doc) return undefined;
    const offset = document.offsetAt(position);
    const hook = doc.hooks.find((h) => {
      const span = h.body ?? h.range;
      return offset >= span.offset && offset <= span.offset + span.length;
    });
    if (!hook) return undefined;
    const span = hook.body ?? hook.range;
    const state = this.index.state(hook.id);
    // Another agent's hook: its own event name first, then the Hookwise event it runs on.
    const event = hook.nativeEvent !== undefined && hook.nativeEvent !== hook.event ? `${hook.nativeEvent} → ${hook.event}` : hook.event;
    const scope = `${event}${hook.matcher ? ` [${hook.matcher}]` : ''}`;
    const md = new vscode.MarkdownString(
      [
        `**Hookwise hook** \`${hook.id.replace(/`/g, "'")}\``,
        escapeMarkdown(`${scope} · ${formatHookStats(this.stats.get(hook.id), Date.now())}`),
        escapeMarkdown(`${state.effective ? '✓' : '✗'} ${state.text}`),
      ].join('\n\n'),
    );
    return new vscode.Hover(md, new vscode.Range(document.positionAt(span.offset), document.positionAt(span.offset + span.length)));
  }
}

/** Links from a command hook's command to the script files it names (only files that exist). */
export class HookLinkProvider implements vscode.DocumentLinkProvider {
  constructor(private readonly index: HookLensIndex) {}

  async provideDocumentLinks(document: vscode.TextDocument, token: vscode.CancellationToken): Promise<vscode.DocumentLink[]> {
    const doc = this.index.document(document);
    if (!doc) return [];
    const text = document.getText();
    const candidates: { offset: number; length: number; file: string }[] = [];
    for (const hook of doc.hooks) {
      if (hook.handler.type !== 'command' || hook.body === undefined) continue;
      const literal = text.slice(hook.body.offset, hook.body.offset + hook.body.length);
      const context = { projectDir: doc.projectDir, homeDir: os.homedir(), ...(doc.pluginRoot !== undefined ? { pluginRoot: doc.pluginRoot } : {}) };
      for (const link of scriptLinks(literal, context)) candidates.push({ ...link, offset: hook.body.offset + link.offset });
      if (candidates.length >= MAX_LINKS) break;
    }
    const links: vscode.DocumentLink[] = [];
    for (const c of candidates.slice(0, MAX_LINKS)) {
      if (token.isCancellationRequested) break;
      const isFile = await stat(c.file).then(
        (s) => s.isFile(),
        () => false,
      );
      if (!isFile) continue;
      const link = new vscode.DocumentLink(new vscode.Range(document.positionAt(c.offset), document.positionAt(c.offset + c.length)), vscode.Uri.file(c.file));
      link.tooltip = `Open ${c.file}`;
      links.push(link);
    }
    return links;
  }
}

/** Text shown as is in a Markdown hover (matchers and paths contain `*`, `[`, `|`…). */
function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, (c) => `\\${c}`);
}
