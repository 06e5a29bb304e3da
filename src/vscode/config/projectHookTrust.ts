import * as vscode from 'vscode';
import { approvalRecordOf, approvedHookRecordSchema, describeApprovalChanges, type ApprovedHookRecord } from '../../hooks/config/approvalChanges';
import { describeLoadedHook, type LoadedHook } from '../../hooks/config/loadedHook';
import { thrownMessage } from '../../shared/describeThrown';

/**
 * The VS Code side of docs/hooks.md §6 trust: where Workspace Trust comes from, where approved
 * project-hook hashes are kept, and the dialogs. Every dialog is injectable (the integration
 * host refuses dialogs) and a dialog that throws counts as "no": nothing is approved by accident.
 */

/** Workspace Trust as the service sees it; tests inject a fixed value. */
export interface WorkspaceTrustSource {
  readonly isTrusted: boolean;
  readonly onDidGrantWorkspaceTrust: vscode.Event<void>;
}

/** VS Code's own Workspace Trust. */
export const vscodeWorkspaceTrust: WorkspaceTrustSource = {
  get isTrusted() {
    return vscode.workspace.isTrusted;
  },
  onDidGrantWorkspaceTrust: vscode.workspace.onDidGrantWorkspaceTrust,
};

/** workspaceState key of the approved project-hook hashes (string[]). */
export const APPROVED_HOOKS_KEY = 'hookwise.approvedProjectHooks';
/** workspaceState key of what each approval pinned (ApprovedHookRecord[]), to show what changed. */
export const APPROVED_HOOK_RECORDS_KEY = 'hookwise.approvedProjectHookRecords';
/** Records kept; older ones are dropped (only the "what changed" text needs them). */
const MAX_RECORDS = 500;

/**
 * Approved project-hook keys, per workspace (`context.workspaceState`). The keys decide; the
 * records only explain changes. Keys from older versions (command-only) match nothing now,
 * so those hooks are asked about once more.
 */
export class ApprovalStore {
  constructor(private readonly state: vscode.Memento) {}

  /** The approved hashes; anything malformed in storage counts as nothing approved. */
  get(): string[] {
    const value = this.state.get<unknown>(APPROVED_HOOKS_KEY);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  }

  /** What earlier approvals pinned (malformed entries are dropped). */
  records(): ApprovedHookRecord[] {
    const value = this.state.get<unknown>(APPROVED_HOOK_RECORDS_KEY);
    if (!Array.isArray(value)) return [];
    return value.flatMap((v) => {
      const parsed = approvedHookRecordSchema.safeParse(v);
      return parsed.success ? [parsed.data] : [];
    });
  }

  /**
   * Stores `hashes` as the approved set. Records are kept for hooks approved now and for
   * earlier records of removed hashes too (newest first, bounded), so a changed hook can
   * still be compared with what was approved before.
   */
  async set(hashes: readonly string[], approvedNow: readonly LoadedHook[] = []): Promise<void> {
    const fresh = approvedNow.map(approvalRecordOf);
    const freshHashes = new Set(fresh.map((r) => r.hash));
    const freshLocations = new Set(fresh.map((r) => r.location));
    const kept = this.records().filter((r) => !freshHashes.has(r.hash) && !freshLocations.has(r.location));
    await this.state.update(APPROVED_HOOK_RECORDS_KEY, [...fresh, ...kept].slice(0, MAX_RECORDS));
    await this.state.update(APPROVED_HOOKS_KEY, [...hashes]);
  }
}

/** What the approval modal returned. */
export type ApprovalChoice = 'allow' | 'revoke' | 'cancel';

/** The approval modal: `allow` only when the user explicitly chose "Allow These Hooks". */
export type ApprovalPrompt = (request: { readonly message: string; readonly detail: string; readonly offerRevoke: boolean }) => Thenable<ApprovalChoice>;

/** The dialogs of the trust flow. */
export interface TrustPrompts {
  readonly approve: ApprovalPrompt;
  /** After a decline: how to review later. */
  readonly declined: () => void;
  /** Untrusted workspace with project hooks: `count` of them are off. */
  readonly untrusted: (count: number) => void;
}

const ALLOW = 'Allow These Hooks';
const REVOKE = 'Turn Them Off';

/** The real dialogs. */
export const vscodeTrustPrompts: TrustPrompts = {
  approve: async ({ message, detail, offerRevoke }) => {
    const choice = offerRevoke
      ? await vscode.window.showWarningMessage(message, { modal: true, detail }, ALLOW, REVOKE)
      : await vscode.window.showWarningMessage(message, { modal: true, detail }, ALLOW);
    return choice === ALLOW ? 'allow' : choice === REVOKE ? 'revoke' : 'cancel';
  },
  declined: () => {
    void vscode.window.showInformationMessage('Project hooks stay off. Review them later with "Hookwise: Review Project Hooks".');
  },
  untrusted: (count) => {
    const message = `Hookwise: ${count} project hook${count === 1 ? ' is' : 's are'} off because this workspace is not trusted.`;
    void vscode.window.showInformationMessage(message, 'Manage Workspace Trust').then((choice) => {
      if (choice === 'Manage Workspace Trust') void vscode.commands.executeCommand('workbench.trust.manage');
    });
  },
};

/** Calls the approval prompt; a prompt that throws (e.g. "refused to show dialog in tests") is a decline. */
export async function askApproval(prompt: ApprovalPrompt, request: Parameters<ApprovalPrompt>[0], log: vscode.LogOutputChannel): Promise<ApprovalChoice> {
  try {
    return await prompt(request);
  } catch (error) {
    log.warn(`the project hook approval dialog failed (${thrownMessage(error)}); the hooks stay off`);
    return 'cancel';
  }
}

/** Most hooks listed in the modal; the rest are summarized (the full list goes to the log). */
const MAX_DETAIL_LINES = 25;

/**
 * The modal's detail: one line per hook (`describeLoadedHook`), marked when `approved` says so,
 * followed by what changed since its earlier approval when `records` know one
 * (`  changed: timeout 5 → 600; script .claude/hooks/check.sh changed`).
 */
export function approvalDetail(hooks: readonly LoadedHook[], approved?: ReadonlySet<string>, records: readonly ApprovedHookRecord[] = []): string {
  const lines = hooks.slice(0, MAX_DETAIL_LINES).map((hook) => {
    const mark = approved === undefined ? '' : approved.has(hook.hash) ? '[allowed] ' : '[off] ';
    const changes = approved?.has(hook.hash) ? [] : describeApprovalChanges(hook, records);
    return `${mark}${describeLoadedHook(hook)}${changes.length > 0 ? `\n    changed since approved: ${changes.join('; ')}` : ''}`;
  });
  if (hooks.length > MAX_DETAIL_LINES) lines.push(`…and ${hooks.length - MAX_DETAIL_LINES} more (listed in the Hookwise log)`);
  return lines.join('\n');
}
