import * as vscode from 'vscode';
import { describeLoadedHook, type LoadedHook } from '../../hooks/config/loadedHook';

/**
 * The VS Code side of spec §6 trust: where Workspace Trust comes from, where approved
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

/** Approved project-hook content hashes, per workspace (`context.workspaceState`). */
export class ApprovalStore {
  constructor(private readonly state: vscode.Memento) {}

  /** The approved hashes; anything malformed in storage counts as nothing approved. */
  get(): string[] {
    const value = this.state.get<unknown>(APPROVED_HOOKS_KEY);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  }

  set(hashes: readonly string[]): Thenable<void> {
    return this.state.update(APPROVED_HOOKS_KEY, [...hashes]);
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
    const choice = offerRevoke ? await vscode.window.showWarningMessage(message, { modal: true, detail }, ALLOW, REVOKE) : await vscode.window.showWarningMessage(message, { modal: true, detail }, ALLOW);
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
    log.warn(`the project hook approval dialog failed (${error instanceof Error ? error.message : String(error)}); the hooks stay off`);
    return 'cancel';
  }
}

/** Most hooks listed in the modal; the rest are summarized (the full list goes to the log). */
const MAX_DETAIL_LINES = 25;

/** The modal's detail: one line per hook (`describeLoadedHook`), marked when `approved` says so. */
export function approvalDetail(hooks: readonly LoadedHook[], approved?: ReadonlySet<string>): string {
  const lines = hooks.slice(0, MAX_DETAIL_LINES).map((hook) => {
    const mark = approved === undefined ? '' : approved.has(hook.hash) ? '[allowed] ' : '[off] ';
    return `${mark}${describeLoadedHook(hook)}`;
  });
  if (hooks.length > MAX_DETAIL_LINES) lines.push(`…and ${hooks.length - MAX_DETAIL_LINES} more (listed in the Hookwise log)`);
  return lines.join('\n');
}
