import * as vscode from 'vscode';
import type { PermissionAnswer, PermissionProvider, PermissionRequest } from '../../hooks/hookRunTypes';
import path from 'node:path';
import { addAllowRule } from './allowRuleEdit';
import { assertNoLinkBelow, readFileNoFollow, writeFileNoFollow } from '../../shared/noFollowFile';
import { PermissionButtons, permissionButtons, permissionDetail, permissionQuestion } from '../../presentation/permissionText';
import { ProposedChangeDiff } from './proposedChangeDiff';
import { SerialQueue } from '../../shared/serialQueue';
import { thrownMessage } from '../../shared/describeThrown';
import { raceAbort } from '../../shared/raceAbort';

/** Shows the popup; resolves with the clicked button, or undefined when it was closed. Injectable for tests. */
export type PermissionDialog = (message: string, options: vscode.MessageOptions, ...buttons: string[]) => Thenable<string | undefined>;

/** Shows a proposed Write/Edit beside the popup; the returned disposable closes it. Injectable for tests. */
export type ShowProposedChange = (request: PermissionRequest) => Promise<vscode.Disposable | undefined>;

export interface ModalPermissionProviderOptions {
  /** Default: a modal `showWarningMessage`. */
  readonly dialog?: PermissionDialog;
  /** Default: a diff editor beside, for Write and Edit. */
  readonly showProposedChange?: ShowProposedChange;
  /** Where "Always Allow" writes its rule; default `<first workspace folder>/.claude/settings.local.json`. Undefined = no Always Allow. */
  readonly localSettingsFile?: () => vscode.Uri | undefined;
  /** True while a popup is open or queued (the status bar's "waiting for approval"). */
  readonly onWaitingChanged?: (waiting: boolean) => void;
  readonly log?: vscode.LogOutputChannel;
}

/**
 * The `PermissionProvider` in VS Code: a modal warning naming the tool and agent, with the
 * input, the reason and who asked. A hook's ask gets Allow / Deny; a rule's ask also gets
 * Allow for This Session and Always Allow (which writes the suggested rule to
 * `.claude/settings.local.json`). Closing the popup is Deny. Requests queue and show one at
 * a time. An abort settles the request as deny at once (VS Code cannot close a modal from
 * code; the popup's late answer is then ignored).
 */
export class ModalPermissionProvider implements PermissionProvider {
  private readonly queue: SerialQueue;
  private readonly dialog: PermissionDialog;
  private readonly showProposedChange: ShowProposedChange;
  private readonly localSettingsFile: () => vscode.Uri | undefined;

  constructor(private readonly options: ModalPermissionProviderOptions = {}) {
    this.queue = new SerialQueue((waiting) => options.onWaitingChanged?.(waiting));
    this.dialog = options.dialog ?? ((message, opts, ...buttons) => vscode.window.showWarningMessage(message, opts, ...buttons));
    this.showProposedChange = options.showProposedChange ?? ((request) => ProposedChangeDiff.show(request));
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
    const buttons = permissionButtons(request, settingsFile !== undefined);
    let diff: vscode.Disposable | undefined;
    try {
      diff = await this.showProposedChange(request).catch((error: unknown) => {
        this.options.log?.warn(`approval: could not show the proposed change: ${String(error)}`);
        return undefined;
      });
      if (signal.aborted) return cancelled;
      const detail = permissionDetail(request, settingsFile ? vscode.workspace.asRelativePath(settingsFile) : undefined);
      // A modal cannot be closed from code: on abort, stop waiting for it and answer cancelled.
      const choice = await raceAbort(Promise.resolve(this.dialog(permissionQuestion(request), { modal: true, detail }, ...buttons)), signal).catch(
        (error: unknown) => {
          if (signal.aborted) return undefined;
          throw error;
        },
      );
      if (signal.aborted) return cancelled;
      return await this.answer(request, choice, settingsFile);
    } finally {
      diff?.dispose();
    }
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
        if (rule && settingsFile) {
          try {
            await writeAllowRule(settingsFile, rule);
            this.options.log?.info(`approval: added ${rule} to ${settingsFile.fsPath}`);
          } catch (error) {
            // The user said yes: allow this call even if the rule could not be saved.
            this.options.log?.error(`approval: could not add ${rule} to ${settingsFile.fsPath}: ${String(error)}`);
            void vscode.window.showErrorMessage(`Hookwise could not save the rule ${rule}: ${thrownMessage(error)}`);
          }
        }
        return { decision: 'allow', scope: 'always', decidedBy: 'user', ...(rule ? { reason: `always allowed: ${rule}` } : {}) };
      }
      case PermissionButtons.deny:
        return { decision: 'deny', decidedBy: 'user', reason: 'denied by the user' };
      default:
        return { decision: 'deny', decidedBy: 'user', reason: 'the approval popup was closed' };
    }
  }
}

function defaultLocalSettingsFile(): vscode.Uri | undefined {
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
