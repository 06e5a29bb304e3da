import * as vscode from 'vscode';
import * as path from 'node:path';
import { isProjectSource, type HookSource } from '../../configFiles/hookSource';
import { hookReviewMarkdown } from '../../hooks/config/approvalReview';
import { approvedHashesAfter, type ApprovalSubject, type HeldHook, type TrustPolicy } from '../../hooks/config/hookApproval';
import { hookDefinitionKey as definitionKey } from '../../hooks/config/hookDefinitionKeys';
import { describeLoadedHook, type LoadedHook } from '../../hooks/config/loadedHook';
import type { HookConfigChange } from './hookConfigService';
import { ApprovalStore, approvalDetail, askApproval, MAX_DETAIL_HOOKS, type TrustPrompts, type WorkspaceTrustSource } from './projectHookTrust';
import { ReviewDocuments } from './reviewDocuments';

/** The one flow's button: approves the listed hooks, then VS Code's Workspace Trust editor opens. */
export const TRUST_AND_ALLOW = 'Trust and Allow Hooks';

/** What the approval flow needs from the service. */
export interface ApprovalFlowOptions {
  readonly log: vscode.LogOutputChannel;
  /** `context.workspaceState`: approved project-hook hashes live here. */
  readonly workspaceState: vscode.Memento;
  readonly trust: WorkspaceTrustSource;
  readonly prompts: TrustPrompts;
  /** The generation in force. */
  readonly latest: () => HookConfigChange | undefined;
  /** Reloads now, so an approval takes effect. */
  readonly reload: () => Promise<HookConfigChange | undefined>;
}

/**
 * The trust flow of project hooks: which may run (trusted workspace, approved content), the
 * approval modal for new or changed ones (one at a time, declined ones not asked again this
 * session), "Review Project Hooks", and hooks the user wrote with "Add Hook…" or typed and
 * saved in this window's editor (ownHookEdits.ts): approved on the load that finds them.
 */
export class ProjectHookApprovalFlow implements vscode.Disposable {
  private readonly approvals: ApprovalStore;
  /** The full approval review ("Review All…"): every hook with every field. */
  private readonly reviews = new ReviewDocuments('hookwise-hook-review');
  /**
   * Hooks the user just wrote with "Add Hook…" or "Convert Hooks…", by where they were written and
   * their definition ({@link writtenKey}): approved on the load that finds them there, and only
   * there (the same definition in another file, such as the converted original, stays as it was).
   */
  private readonly written = new Set<string>();
  /** Per settings file (absolute path): definition keys the user saved there from the editor, approved on the load that finds them in that file. */
  private readonly saved = new Map<string, Set<string>>();
  /** Hashes declined or revoked this session: not asked again until "Review Project Hooks". */
  private readonly declined = new Set<string>();
  private prompting = false;
  private recheckAfterPrompt = false;
  private untrustedNoticeShown = false;
  private disposed = false;

  constructor(private readonly o: ApprovalFlowOptions) {
    this.approvals = new ApprovalStore(o.workspaceState);
  }

  /** Approves these hashes (un-declining them); takes effect on the next reload. */
  async approve(hashes: readonly string[]): Promise<void> {
    for (const hash of hashes) this.declined.delete(hash);
    await this.approvals.set([...new Set([...this.approvals.get(), ...hashes])]);
  }

  /** Approves a hook the user wrote with "Add Hook…" into `place` once a load finds it there (its key includes its pinned scripts' content). */
  approveWritten(hook: Pick<ApprovalSubject, 'event' | 'matcher' | 'handler'>, place: WrittenPlace): void {
    this.written.add(writtenKey(place, definitionKey(hook)));
  }

  /**
   * Approves the hooks with these definitions once a load finds them in `file` (the user typed
   * them and is saving the file in this window's editor). Replaces what an earlier save of the
   * file left unmatched (a save that failed), and reloads in case the file is already written.
   */
  approveSaved(file: string, keys: ReadonlySet<string>): void {
    if (keys.size === 0) return;
    this.saved.set(file, new Set(keys));
    void this.o.reload();
  }

  /** The trust policy for a loaded configuration; first approves the just-written or just-saved hooks it finds. */
  policyFor(hooks: readonly LoadedHook[]): TrustPolicy {
    const trusted = this.o.trust.isTrusted;
    const justApproved = trusted && (this.written.size > 0 || this.saved.size > 0) ? this.approveWrittenHooks(hooks) : [];
    // The store's write finishes later: this load already counts the hooks just approved.
    const approved = new Set([...this.approvals.get(), ...justApproved]);
    return { trusted, isApproved: (hook) => approved.has(hook.hash) };
  }

  /** After an apply: the untrusted notice (once) and the approval modal for held hooks not declined. */
  afterApply(held: readonly HeldHook[]): void {
    const untrusted = held.filter((h) => h.why === 'untrusted').length;
    if (untrusted > 0 && !this.untrustedNoticeShown) {
      this.untrustedNoticeShown = true;
      this.o.prompts.untrusted(untrusted);
    }
    if (held.some((h) => h.why === 'unapproved' && !this.declined.has(h.hook.hash))) void this.promptForApproval();
  }

  /** "Hookwise: Review Project Hooks": every project hook, approved or not; allow all or turn all off. */
  async reviewProjectHooks(): Promise<void> {
    const change = this.o.latest() ?? (await this.o.reload());
    const project = (change?.config.hooks ?? []).filter((h) => isProjectSource(h.source));
    if (!this.o.trust.isTrusted && project.length > 0) {
      this.o.prompts.untrusted(project.length);
      return;
    }
    if (project.length === 0) {
      void vscode.window.showInformationMessage('Hookwise: this workspace has no project hooks.');
      return;
    }
    const approved = new Set(this.approvals.get());
    this.logHookList('Project hooks under review:', project);
    const choice = await askApproval(
      this.o.prompts.approve,
      {
        message: `Hookwise: ${project.length} project hook${project.length === 1 ? '' : 's'} in this workspace. Allow them to run?`,
        detail: approvalDetail(project, approved, this.approvals.records()),
        offerRevoke: true,
        complete: project.length <= MAX_DETAIL_HOOKS,
        openReview: () =>
          this.reviews.show('Project hooks', hookReviewMarkdown('Project hooks in this workspace', project, approved, this.approvals.records())),
      },
      this.o.log,
    );
    if (choice === 'allow') {
      for (const hook of project) this.declined.delete(hook.hash);
      await this.approvals.set(approvedHashesAfter(approved, project, change?.config.hooks ?? []), project);
      this.o.log.info(`approved ${project.length} project hook(s)`);
    } else if (choice === 'revoke') {
      for (const hook of project) this.declined.add(hook.hash);
      await this.approvals.set([]);
      this.o.log.info('project hooks turned off (approvals revoked)');
    } else {
      return;
    }
    await this.o.reload();
  }

  /**
   * "Trust…" (the chat's Restricted Mode notice, "Hookwise: Trust Folder and Allow Its Hooks…"):
   * one question lists the project hooks and, on "Trust and Allow Hooks", approves exactly
   * them, then VS Code's Workspace Trust editor trusts the folder. The grant's reload finds them
   * approved, so no second popup follows. Resolves false when the person cancelled.
   * Already trusted: the review of the project hooks instead.
   */
  async trustAndApprove(): Promise<boolean> {
    if (this.o.trust.isTrusted) {
      await this.reviewProjectHooks();
      return true;
    }
    const change = this.o.latest() ?? (await this.o.reload());
    const project = (change?.config.hooks ?? []).filter((h) => isProjectSource(h.source));
    if (project.length > 0) {
      const n = project.length;
      const title = 'Project hooks of this folder';
      this.logHookList('Project hooks to allow with trusting the folder:', project);
      const choice = await askApproval(
        this.o.prompts.approve,
        {
          message: `Hookwise: trust this folder and allow its ${n} project hook${n === 1 ? '' : 's'} to run?`,
          detail: `${approvalDetail(project, undefined, this.approvals.records())}\nVS Code's Workspace Trust then opens: its Trust button trusts the folder for every extension.`,
          offerRevoke: false,
          allowLabel: TRUST_AND_ALLOW,
          complete: n <= MAX_DETAIL_HOOKS,
          openReview: () => this.reviews.show(title, hookReviewMarkdown(title, project, undefined, this.approvals.records())),
        },
        this.o.log,
      );
      if (this.disposed || choice !== 'allow') return false;
      // Approved now, in force once the folder is trusted: the hooks as they are now, nothing else.
      for (const hook of project) this.declined.delete(hook.hash);
      await this.approvals.set([...new Set([...this.approvals.get(), ...project.map((h) => h.hash)])], project);
      this.o.log.info(`approved ${n} project hook(s); they run once the folder is trusted`);
    }
    await this.o.trust.requestTrust?.();
    return true;
  }

  /** Asks about the project hooks that are new or changed since the last approval (one modal at a time). */
  private async promptForApproval(): Promise<void> {
    if (this.prompting) {
      this.recheckAfterPrompt = true;
      return;
    }
    const change = this.o.latest();
    const pending = (change?.applied.held ?? []).filter((h) => h.why === 'unapproved').map((h) => h.hook);
    if (!change || pending.length === 0 || pending.every((h) => this.declined.has(h.hash))) return;
    this.prompting = true;
    try {
      await this.askAbout(pending, change);
    } finally {
      this.prompting = false;
    }
    if (this.recheckAfterPrompt) {
      this.recheckAfterPrompt = false;
      void this.promptForApproval();
    }
  }

  private async askAbout(pending: LoadedHook[], change: HookConfigChange): Promise<void> {
    this.logHookList('Project hooks awaiting approval:', pending);
    const n = pending.length;
    const title = 'Project hooks awaiting approval';
    const choice = await askApproval(
      this.o.prompts.approve,
      {
        message: `Hookwise: allow ${n} new or changed project hook${n === 1 ? '' : 's'} to run in this workspace?`,
        detail: approvalDetail(pending, undefined, this.approvals.records()),
        offerRevoke: false,
        complete: n <= MAX_DETAIL_HOOKS,
        openReview: () => this.reviews.show(title, hookReviewMarkdown(title, pending, undefined, this.approvals.records())),
      },
      this.o.log,
    );
    if (this.disposed) return;
    if (choice === 'allow') {
      await this.approvals.set(approvedHashesAfter(this.approvals.get(), pending, this.o.latest()?.config.hooks ?? change.config.hooks), pending);
      this.o.log.info(`approved ${n} project hook(s)`);
      await this.o.reload();
    } else {
      for (const hook of pending) this.declined.add(hook.hash);
      this.o.log.info(`${n} project hook(s) declined; they stay off`);
      this.o.prompts.declined();
    }
  }

  /** Consumes `written` and `saved`: a loaded project hook with a just-written definition is approved with its pinned scripts. */
  private approveWrittenHooks(hooks: readonly LoadedHook[]): string[] {
    const savedIn = (h: LoadedHook): Set<string> | undefined => (h.source.kind === 'file' ? this.saved.get(path.resolve(h.source.file)) : undefined);
    const writtenHere = (h: LoadedHook): string | undefined => {
      const place = placeOf(h.source);
      return place && writtenKey(place, definitionKey(h));
    };
    const matched = hooks.filter((h) => isProjectSource(h.source) && (this.written.has(writtenHere(h) ?? '') || savedIn(h)?.has(definitionKey(h))));
    if (matched.length === 0) return [];
    for (const hook of matched) {
      this.written.delete(writtenHere(hook) ?? '');
      const saved = savedIn(hook);
      saved?.delete(definitionKey(hook));
      if (saved?.size === 0 && hook.source.kind === 'file') this.saved.delete(path.resolve(hook.source.file));
      this.declined.delete(hook.hash);
    }
    // ApprovalStore.set updates the hashes after the records: policyFor counts these at once.
    void this.approvals.set([...new Set([...this.approvals.get(), ...matched.map((h) => h.hash)])], matched);
    return matched.map((h) => h.hash);
  }

  private logHookList(title: string, hooks: readonly LoadedHook[]): void {
    this.o.log.info([title, ...hooks.map((h) => `  ${describeLoadedHook(h)}`)].join('\n'));
  }

  dispose(): void {
    this.disposed = true;
    this.reviews.dispose();
  }
}

/** Where a hook was written: a settings file, or `hookwise.hooks` in the workspace's VS Code settings. */
export type WrittenPlace = { readonly file: string } | { readonly workspaceSettings: true };

function writtenKey(place: WrittenPlace, definition: string): string {
  return `${'file' in place ? `file:${path.resolve(place.file)}` : 'workspace-settings'}\0${definition}`;
}

/** The place a loaded hook came from, in {@link WrittenPlace} terms; undefined for hooks no one writes (code, user settings). */
function placeOf(source: HookSource): WrittenPlace | undefined {
  if (source.kind === 'file') return { file: source.file };
  if (source.kind === 'settings' && source.scope !== 'user') return { workspaceSettings: true };
  return undefined;
}
