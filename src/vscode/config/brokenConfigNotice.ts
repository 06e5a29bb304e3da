import * as vscode from 'vscode';
import { configWarnings } from '../../hooks/config/configNotices';
import { brokenFileNotice, type BrokenConfigFile } from '../../hooks/config/lastGoodConfig';
import type { ChatNoticeAction } from '../chat/chatViewProvider';
import type { HookConfigChange } from './hookConfigService';

/** The chat's notice area, as far as this needs it. */
export interface NoticeSurface {
  showNotice(text: string, actions?: readonly ChatNoticeAction[]): Promise<string | undefined>;
  clearNotice(): void;
}

/**
 * Says, in the status bar and in the chat, while a hook config file is broken: "project hooks
 * from `.claude/settings.json`: last good version in force, the file has an error", or loudly that
 * its hooks are not in force when no good version is known; both link to the error. Gone once
 * every file reads cleanly again.
 */
export class BrokenConfigNotice implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly disposables: vscode.Disposable[] = [];
  private shownKey = '';
  private chatNoticeOurs = false;

  constructor(
    onDidChange: vscode.Event<HookConfigChange>,
    private readonly chat: NoticeSurface | undefined,
    current?: HookConfigChange,
  ) {
    this.item = vscode.window.createStatusBarItem('hookwise.configHealth', vscode.StatusBarAlignment.Left, 49);
    this.item.name = 'Hookwise hook configuration';
    this.disposables.push(
      this.item,
      onDidChange((change) => this.update(change.config.brokenFiles ?? [])),
    );
    if (current) this.update(current.config.brokenFiles ?? []);
  }

  private files: readonly BrokenConfigFile[] = [];

  /** The status bar text ('' while hidden), for tests. */
  get text(): string {
    return this.files.length === 0 ? '' : this.item.text;
  }

  /** What clicking the item does (opens the error), for tests. */
  get link(): vscode.Command | undefined {
    return this.files.length === 0 ? undefined : (this.item.command as vscode.Command | undefined);
  }

  /** The tooltip, for tests. */
  get tooltip(): string {
    return this.files.length === 0 ? '' : String(this.item.tooltip ?? '');
  }

  private update(files: readonly BrokenConfigFile[]): void {
    this.files = files;
    const key = JSON.stringify(files.map((f) => [f.file, f.inForce, f.error.line, f.error.message]));
    if (key === this.shownKey) return;
    this.shownKey = key;
    if (files.length === 0) {
      this.item.hide();
      if (this.chatNoticeOurs) this.chat?.clearNotice();
      this.chatNoticeOurs = false;
      return;
    }
    const first = files[0] as BrokenConfigFile;
    const lost = files.some((f) => f.inForce === 'none');
    const sentences = files.map(brokenFileNotice);
    this.item.text = `${lost ? '$(error)' : '$(warning)'} Hookwise: ${sentences[0]?.replace(/`/g, '') ?? ''}${files.length > 1 ? ` (+${files.length - 1})` : ''}`;
    this.item.tooltip = `${sentences.join('\n')}\n\nClick to open the error.`;
    this.item.backgroundColor = new vscode.ThemeColor(lost ? 'statusBarItem.errorBackground' : 'statusBarItem.warningBackground');
    // The built-in vscode.open: no command of ours to register (the extension and tests may both show this).
    this.item.command = {
      command: 'vscode.open',
      title: 'Show the error',
      arguments: [vscode.Uri.file(first.file), { selection: errorRange(first), preview: false }],
    };
    this.item.accessibilityInformation = { label: sentences.join('. ') };
    this.item.show();
    if (!this.chat) return;
    this.chatNoticeOurs = true;
    void this.chat.showNotice(`Hookwise: ${sentences.join('; ')}.`, [{ id: 'show', label: 'Show Error' }]).then((action) => {
      if (action === 'show') void showError(this.files, first.file);
      else if (action === undefined) this.chatNoticeOurs = false;
    });
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}

/** Where the error is, as an empty range at its start. */
function errorRange(broken: BrokenConfigFile): vscode.Range {
  const at = new vscode.Position(Math.max(0, (broken.error.line ?? 1) - 1), Math.max(0, (broken.error.column ?? 1) - 1));
  return new vscode.Range(at, at);
}

/** Opens `file` (default: the first broken one) at its first error. */
async function showError(files: readonly BrokenConfigFile[], file: unknown): Promise<void> {
  const broken = files.find((f) => f.file === file) ?? files[0];
  if (!broken) return;
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(broken.file));
  await vscode.window.showTextDocument(doc, { selection: errorRange(broken), preview: false });
}

/**
 * Keeps the configuration's warnings (a broken file and which version is in force, a switch whose
 * hook changed or vanished) as the message at the top of a view, e.g. Hook Runs; none = no message.
 */
export function showConfigWarnings(view: { message?: string | undefined }, onDidChange: vscode.Event<HookConfigChange>): vscode.Disposable {
  return onDidChange((change) => {
    const warnings = configWarnings(change.config);
    view.message = warnings.length > 0 ? `⚠ ${warnings.map((w) => w.replace(/`/g, '')).join(' · ')}` : undefined;
  });
}
