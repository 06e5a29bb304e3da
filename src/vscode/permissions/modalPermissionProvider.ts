import * as vscode from 'vscode';
import type { PermissionAnswer, PermissionProvider, PermissionRequest } from '../../hooks/hookRunTypes';
import path from 'node:path';
import { addAllowRule } from './allowRuleEdit';
import { assertNoLinkBelow, readFileNoFollow, writeFileNoFollow } from '../../shared/noFollowFile';
import {
  PermissionButtons,
  permissionButtons,
  permissionDetail,
  permissionQuestion,
  permissionRulePicks,
  type PermissionRulePick,
} from '../../presentation/permissionText';
import { ProposedChangeDiff, type ProposedChangeView } from './proposedChangeDiff';
import { reviewInDiff } from './proposedChangeReview';
import { SerialQueue } from '../../shared/serialQueue';
import { thrownMessage } from '../../shared/describeThrown';
import { raceAbort } from '../../shared/raceAbort';

/** Shows the popup; resolves with the clicked button (the close affordance when closed), or undefined. Injectable for tests. */
export type PermissionDialog = (message: string, options: vscode.MessageOptions, ...buttons: vscode.MessageItem[]) => Thenable<vscode.MessageItem | undefined>;

/** Shows a proposed Write/Edit beside the popup; disposing the view closes it. Injectable for tests. */
export type ShowProposedChange = (request: PermissionRequest) => Promise<ProposedChangeView | undefined>;

/** The "Always Allow…" picker; resolves undefined when dismissed. Injectable for tests. */
export type RulePicker = (picks: readonly PermissionRulePick[], signal: AbortSignal) => Promise<PermissionRulePick | undefined>;

export interface ModalPermissionProviderOptions {
  /** Default: a modal `showWarningMessage`. */
  readonly dialog?: PermissionDialog;
  /** Default: a diff editor beside, for Write and Edit. */
  readonly showProposedChange?: ShowProposedChange;
  /** Default: a QuickPick. */
  readonly pickRule?: RulePicker;
  /**
   * Where "Always Allow" writes its rule; default `<first workspace folder>/.claude/settings.local.json`
   * in a trusted workspace. Undefined = no Always Allow (rules are then kept for the session, in memory).
   */
  readonly localSettingsFile?: () => vscode.Uri | undefined;
  /** True while a popup is open or queued (the status bar's "waiting for approval"). */
  readonly onWaitingChanged?: (waiting: boolean) => void;
  readonly log?: vscode.LogOutputChannel;
}

/**
 * The `PermissionProvider` in VS Code: a modal warning naming the tool and agent, with the
 * input, the reason and who asked, and at most four buttons (permissionText.ts). A hook's ask
 * gets Allow / Deny; a rule's ask also gets Allow for This Session and Always Allow (which
 * writes the rule to `.claude/settings.local.json`). A file rule's "Always Allow…" picks the
 * folder's rule or the file's, for good or for the session. A Write/Edit shows its diff
 * beside; "Review Diff…" closes the popup and waits for Allow / Deny in the diff's title bar;
 * closing that diff, or dismissing the picker, brings the popup back. Deny is the popup's
 * close button, so closing it is Deny. Requests queue and show one at a time. An abort
 * settles the request as deny at once (VS Code cannot close a modal from code; the popup's
 * late answer is then ignored).
 */
export class ModalPermissionProvider implements PermissionProvider {
  private readonly queue: SerialQueue;
  private readonly dialog: PermissionDialog;
  private readonly showProposedChange: ShowProposedChange;
  private readonly pickRule: RulePicker;
  private readonly localSettingsFile: () => vscode.Uri | undefined;

  constructor(private readonly options: ModalPermissionProviderOptions = {}) {
    this.queue = new SerialQueue((waiting) => options.onWaitingChanged?.(waiting));
    this.dialog = options.dialog ?? ((message, opts, ...buttons) => vscode.window.showWarningMessage(message, opts, ...buttons));
    this.showProposedChange = options.showProposedChange ?? ((request) => ProposedChangeDiff.show(request));
    this.pickRule = options.pickRule ?? quickPickRule;
    this.localSettingsFile = options.localSettingsFile ?? defaultLocalSettingsFile;
  }

  /** Requests waiting or showing (for tests and the status bar). */
  get pending(): number {
    return this.queue.size;
  }

  requestPermission(request: PermissionRequest, signal: AbortSignal): Promise<PermissionAnswer> {
    const cancelled: PermissionAnswer = { decision: 'deny', decidedBy: 'user', reason: 'cancelled before the user answered' };
    return this.queue.run(
      signal,
      () => this.ask(request, signal, cancelled),
      () => cancelled,
    );
  }

  private async ask(request: PermissionRequest, signal: AbortSignal, cancelled: PermissionAnswer): Promise<PermissionAnswer> {
    const settingsFile = this.localSettingsFile();
    const settingsName = settingsFile ? vscode.workspace.asRelativePath(settingsFile) : undefined;
    // Each turn shows the popup once; Review Diff… closed unanswered, or a dismissed picker, asks again.
    for (;;) {
      let view: ProposedChangeView | undefined;
      try {
        view = await this.showProposedChange(request).catch((error: unknown) => {
          this.options.log?.warn(`approval: could not show the proposed change: ${String(error)}`);
          return undefined;
        });
        if (signal.aborted) return cancelled;
        const choice = await this.popup(request, settingsName, settingsFile !== undefined, view !== undefined, signal);
        if (signal.aborted) return cancelled;
        if (choice === PermissionButtons.reviewDiff && view) {
          const verdict = await reviewInDiff(view, signal);
          if (signal.aborted) return cancelled;
          if (verdict === 'allow') return { decision: 'allow', scope: 'once', decidedBy: 'user', reason: 'allowed in the diff' };
          if (verdict === 'deny') return { decision: 'deny', decidedBy: 'user', reason: 'denied in the diff' };
          continue;
        }
        if ((choice === PermissionButtons.alwaysAllowPick || choice === PermissionButtons.allowSessionPick) && request.suggestedRule) {
          const pick = await this.pickRule(permissionRulePicks(request.suggestedRule, settingsName), signal);
          if (signal.aborted) return cancelled;
          if (!pick) continue;
          return await this.grant(pick.rule, pick.scope, pick.scope === 'always' ? settingsFile : undefined);
        }
        return await this.answer(request, choice, settingsFile);
      } finally {
        view?.dispose();
      }
    }
  }

  /** The modal; resolves with the clicked button's title (Deny when closed), undefined on abort. */
  private async popup(
    request: PermissionRequest,
    settingsName: string | undefined,
    canWriteRule: boolean,
    reviewable: boolean,
    signal: AbortSignal,
  ): Promise<string | undefined> {
    // Deny is the close affordance: VS Code then adds no Cancel of its own, and Escape is Deny.
    const items = permissionButtons(request, canWriteRule, reviewable).map((title): vscode.MessageItem =>
      title === PermissionButtons.deny ? { title, isCloseAffordance: true } : { title },
    );
    const detail = permissionDetail(request, canWriteRule ? settingsName : null, reviewable);
    // A modal cannot be closed from code: on abort, stop waiting for it and answer cancelled.
    const choice = await raceAbort(Promise.resolve(this.dialog(permissionQuestion(request), { modal: true, detail }, ...items)), signal).catch(
      (error: unknown) => {
        if (signal.aborted) return undefined;
        throw error;
      },
    );
    return choice?.title;
  }

  /** Allows with `rule` remembered for the session, or for good when `settingsFile` is given (written there). */
  private async grant(rule: string, scope: 'session' | 'always', settingsFile: vscode.Uri | undefined): Promise<PermissionAnswer> {
    if (scope === 'session') return { decision: 'allow', scope, rule, decidedBy: 'user', reason: `allowed for this session: ${rule}` };
    if (settingsFile) {
      try {
        await writeAllowRule(settingsFile, rule);
        this.options.log?.info(`approval: added ${rule} to ${settingsFile.fsPath}`);
      } catch (error) {
        // The user said yes: allow this call even if the rule could not be saved.
        this.options.log?.error(`approval: could not add ${rule} to ${settingsFile.fsPath}: ${String(error)}`);
        void vscode.window.showErrorMessage(`Hookwise could not save the rule ${rule}: ${thrownMessage(error)}`);
      }
    }
    return { decision: 'allow', scope, rule, decidedBy: 'user', reason: `always allowed: ${rule}` };
  }

  private async answer(request: PermissionRequest, choice: string | undefined, settingsFile: vscode.Uri | undefined): Promise<PermissionAnswer> {
    switch (choice) {
      case PermissionButtons.allow:
        return { decision: 'allow', scope: 'once', decidedBy: 'user' };
      case PermissionButtons.allowSession:
        return {
          decision: 'allow',
          scope: 'session',
          decidedBy: 'user',
          reason: request.suggestedRule ? `allowed for this session: ${request.suggestedRule}` : 'allowed for this session',
        };
      case PermissionButtons.alwaysAllow: {
        const rule = request.suggestedRule;
        if (!rule) return { decision: 'allow', scope: 'always', decidedBy: 'user' };
        const { rule: _same, ...answer } = await this.grant(rule, 'always', settingsFile);
        return answer;
      }
      case PermissionButtons.deny:
        return { decision: 'deny', decidedBy: 'user', reason: 'denied by the user' };
      default:
        return { decision: 'deny', decidedBy: 'user', reason: 'the approval popup was closed' };
    }
  }
}

/** The default picker: a QuickPick that an abort hides. */
async function quickPickRule(picks: readonly PermissionRulePick[], signal: AbortSignal): Promise<PermissionRulePick | undefined> {
  const cancel = new vscode.CancellationTokenSource();
  const onAbort = (): void => cancel.cancel();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    return await vscode.window.showQuickPick(
      picks,
      { title: 'Allow with a rule', placeHolder: 'Which rule, and for how long?', ignoreFocusOut: true },
      cancel.token,
    );
  } finally {
    signal.removeEventListener('abort', onAbort);
    cancel.dispose();
  }
}

/** An untrusted workspace's files are never written: no file, so no "Always Allow". */
function defaultLocalSettingsFile(): vscode.Uri | undefined {
  if (!vscode.workspace.isTrusted) return undefined;
  const folder = vscode.workspace.workspaceFolders?.[0];
  return folder ? vscode.Uri.joinPath(folder.uri, '.claude', 'settings.local.json') : undefined;
}

/**
 * Adds `rule` to the file's permissions.allow, creating the file when missing; comments survive.
 * The rule goes only into the file named: a symlink at it or at its `.claude` folder (a
 * repository's link to `~/.claude/settings.json`), or a hard link, is refused with a message
 * naming the link (noFollowFile.ts), so a repository cannot redirect the person's "Always Allow".
 */
export async function writeAllowRule(file: vscode.Uri, rule: string): Promise<void> {
  // The folder that holds `.claude/`: the person opened it; what is below it is the repository's.
  const root = path.dirname(path.dirname(file.fsPath));
  await assertNoLinkBelow(root, file.fsPath);
  const text = await readFileNoFollow(file.fsPath);
  const next = addAllowRule(text, rule);
  if (next === text) return;
  await writeFileNoFollow(root, file.fsPath, next);
}
