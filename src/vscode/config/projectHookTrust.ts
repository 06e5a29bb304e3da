import * as vscode from 'vscode';
import { approvalRecordOf, approvedHookRecordSchema, describeApprovalChanges, type ApprovedHookRecord } from '../../hooks/config/approvalChanges';
import type { LoadedHook } from '../../hooks/config/loadedHook';
import { hookSummaryLine } from '../../hooks/config/approvalReview';
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
  /** Lets the person trust the folder (VS Code's Workspace Trust editor); resolves once it is shown, not once trusted. */
  readonly requestTrust?: () => Thenable<unknown>;
}

/** VS Code's own Workspace Trust. */
export const vscodeWorkspaceTrust: WorkspaceTrustSource = {
  get isTrusted() {
    return vscode.workspace.isTrusted;
  },
  onDidGrantWorkspaceTrust: vscode.workspace.onDidGrantWorkspaceTrust,
  // An extension cannot grant trust itself (that API is proposed only): VS Code's editor, with its Trust button, does.
  requestTrust: () => vscode.commands.executeCommand('workbench.trust.manage'),
};

/** Command id of the one flow that trusts the folder and allows its project hooks (package.json). */
export const TRUST_WORKSPACE_COMMAND = 'hookwise.trustWorkspace';

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

/** What the approval dialog is asked. */
export interface ApprovalRequest {
  readonly message: string;
  /** The modal's summary (approvalDetail). */
  readonly detail: string;
  readonly offerRevoke: boolean;
  /** The allowing button's label; default "Allow These Hooks". */
  readonly allowLabel?: string;
  /** False when `detail` could list only some hooks: "Allow" is then offered once the full review is open. */
  readonly complete: boolean;
  /** Opens the full review beside (every hook with every field, approvalReview.ts); resolves with its document. */
  readonly openReview: () => Thenable<vscode.TextDocument>;
}

/** The approval dialog: `allow` only when the user explicitly chose "Allow These Hooks". */
export type ApprovalPrompt = (request: ApprovalRequest) => Thenable<ApprovalChoice>;

/** The dialogs of the trust flow. */
export interface TrustPrompts {
  readonly approve: ApprovalPrompt;
  /** After a decline: how to review later. */
  readonly declined: () => void;
  /** Untrusted workspace with project hooks: `count` of them are off. */
  readonly untrusted: (count: number) => void;
}

const ALLOW = 'Allow These Hooks';
const TRUST = 'Trust…';
const REVOKE = 'Turn Them Off';
const REVIEW = 'Review All…';

/**
 * The modal, then — on "Review All…" — the full review beside and the same question as a
 * notification (a modal would block scrolling the review). When the modal could not list every
 * hook it offers no "Allow": a person approves only what they could see.
 */
export async function askWithReview(
  request: Pick<ApprovalRequest, 'message' | 'detail' | 'complete' | 'openReview'>,
  allow: string,
  other?: string,
): Promise<string | undefined> {
  const first = [...(request.complete ? [allow] : []), REVIEW, ...(other !== undefined ? [other] : [])];
  const choice = await vscode.window.showWarningMessage(request.message, { modal: true, detail: request.detail }, ...first);
  if (choice !== REVIEW) return choice;
  await request.openReview();
  return vscode.window.showWarningMessage(
    `${request.message} Every one is listed in the review opened beside.`,
    allow,
    ...(other !== undefined ? [other] : []),
  );
}

/** The real dialogs. */
export const vscodeTrustPrompts: TrustPrompts = {
  approve: async (request) => {
    const allow = request.allowLabel ?? ALLOW;
    const choice = await askWithReview(request, allow, request.offerRevoke ? REVOKE : undefined);
    return choice === allow ? 'allow' : choice === REVOKE ? 'revoke' : 'cancel';
  },
  declined: () => {
    void vscode.window.showInformationMessage('Project hooks stay off. Review them later with "Hookwise: Review Project Hooks".');
  },
  untrusted: (count) => {
    const message = `Hookwise: ${count} project hook${count === 1 ? ' is' : 's are'} off because this workspace is not trusted.`;
    // The same one flow as the chat's Trust button: the hooks are listed and allowed before VS Code trusts the folder.
    void vscode.window.showInformationMessage(message, TRUST).then((choice) => {
      if (choice === TRUST) void vscode.commands.executeCommand(TRUST_WORKSPACE_COMMAND);
    });
  },
};

/** Calls the approval prompt; a prompt that throws (e.g. "refused to show dialog in tests") is a decline. */
export async function askApproval(prompt: ApprovalPrompt, request: ApprovalRequest, log: vscode.LogOutputChannel): Promise<ApprovalChoice> {
  try {
    return await prompt(request);
  } catch (error) {
    log.warn(`the project hook approval dialog failed (${thrownMessage(error)}); the hooks stay off`);
    return 'cancel';
  }
}

/** Most hooks the modal lists; with more, it says how many are left and offers the full review first. */
export const MAX_DETAIL_HOOKS = 15;

/**
 * The modal's summary: one line per hook (what runs, what an http hook sends), marked when
 * `approved` says so, with what changed since its earlier approval when `records` know one.
 * At most MAX_DETAIL_HOOKS; the rest are counted and the full review lists them.
 */
export function approvalDetail(hooks: readonly LoadedHook[], approved?: ReadonlySet<string>, records: readonly ApprovedHookRecord[] = []): string {
  const lines = hooks.slice(0, MAX_DETAIL_HOOKS).map((hook) => {
    const mark = approved === undefined ? '' : approved.has(hook.hash) ? '[allowed] ' : '[off] ';
    return hookSummaryLine(hook, mark, approved?.has(hook.hash) ? [] : describeApprovalChanges(hook, records));
  });
  if (hooks.length > MAX_DETAIL_HOOKS)
    lines.push(`…and ${hooks.length - MAX_DETAIL_HOOKS} more not listed here. Choose "Review All…" to read every hook before allowing them.`);
  else lines.push('"Review All…" shows each hook with every field (headers, environment variables, pinned files).');
  return lines.join('\n');
}
