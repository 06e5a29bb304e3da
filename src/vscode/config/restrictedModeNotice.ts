import * as vscode from 'vscode';
import type { NoticeSurface } from './brokenConfigNotice';
import type { HookConfigChange } from './hookConfigService';
import { TRUST_WORKSPACE_COMMAND, type WorkspaceTrustSource } from './projectHookTrust';
import { projectHooksState, restrictedModeText } from './projectHooksState';

/** The Trust button's label on the chat's notice. */
export const TRUST_ACTION_LABEL = 'Trust…';

/**
 * In Restricted Mode the chat says that the project hooks are off, why, and offers Trust: the
 * one flow of projectHookApprovalFlow.ts (list the hooks, allow them, then VS Code trusts the
 * folder). Shown after each applied generation while untrusted (again after a cancelled Trust),
 * cleared by the first generation applied once the folder is trusted.
 */
export class RestrictedModeNotice implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private shownText = '';
  private latest: HookConfigChange | undefined;

  constructor(
    onDidChange: vscode.Event<HookConfigChange>,
    private readonly chat: NoticeSurface,
    private readonly trust: WorkspaceTrustSource,
    current?: HookConfigChange,
  ) {
    // Cleared by the first generation applied after the grant (not the grant itself): once the notice is
    // gone, the hooks allowed with Trust are in force.
    this.disposables.push(onDidChange((change) => this.update(change)));
    if (current) this.update(current);
  }

  /** The notice's text while shown ('' otherwise), for tests. */
  get text(): string {
    return this.shownText;
  }

  private update(change: HookConfigChange): void {
    this.latest = change;
    if (this.trust.isTrusted) return this.clear();
    const text = restrictedModeText(projectHooksState(change, false));
    if (text === this.shownText) return;
    this.shownText = text;
    void this.chat.showNotice(text, [{ id: 'trust', label: TRUST_ACTION_LABEL }]).then(async (action) => {
      if (this.shownText !== text) return;
      // Replaced by another notice, or answered: shown again on the next change while still untrusted.
      this.shownText = '';
      if (action !== 'trust') return;
      await vscode.commands.executeCommand(TRUST_WORKSPACE_COMMAND);
      // Cancelled, or VS Code's Trust not pressed yet: the notice stays (the grant's reload clears it).
      if (!this.trust.isTrusted && this.latest) this.update(this.latest);
    });
  }

  private clear(): void {
    if (this.shownText === '') return;
    this.shownText = '';
    this.chat.clearNotice();
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
