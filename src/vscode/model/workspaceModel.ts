import * as vscode from 'vscode';
import { API_KEY_SECRET } from './apiKey';
import { ModelApprovals } from './modelApprovals';
import { approvalId, approvalProblem, modalApprovalPrompt, type ApprovalPrompt } from './modelApprovalPrompts';
import { modelFromSettings, SwitchableModelClient, type ModelResolution, type PlaygroundGate } from './modelFromSettings';

/** What the workspace's model is resolved from. */
export interface WorkspaceModelDeps {
  readonly context: vscode.ExtensionContext;
  readonly log: vscode.LogOutputChannel;
  readonly apiKey: () => Promise<string | undefined>;
  readonly createLm?: (name: string) => Promise<ModelResolution>;
  /** Called with the model's label after every reload (the chat header). */
  readonly onModelChanged: (label: string) => void;
  /** Asks about a workspace's model setting; default: a native modal. */
  readonly approvalPrompt?: ApprovalPrompt;
  /** Why a playground script cannot play now (a tour whose project hooks are off). */
  readonly playgroundGate?: PlaygroundGate;
}

/** At most this many questions per approval round (provider, then endpoint). */
const MAX_QUESTIONS = 3;

/**
 * The agent's model as the settings say, kept current: `client` is handed to the runtime
 * once and switches underneath when `hookwise.model.*`, the API key or workspace trust changes.
 * A workspace's provider or endpoint that needs a person's answer leaves the model unavailable
 * until `approvePending` asks (when a prompt is sent) or the review command does.
 */
export class WorkspaceModel implements vscode.Disposable {
  readonly client = new SwitchableModelClient();
  readonly approvals: ModelApprovals;
  private readonly disposables: vscode.Disposable[];
  /** Questions declined in this window: not asked again until the person asks for it. */
  private readonly refused = new Set<string>();
  private generation = 0;
  private asking: Promise<boolean> | undefined;

  constructor(private readonly deps: WorkspaceModelDeps) {
    this.approvals = new ModelApprovals(deps.context);
    this.disposables = [
      vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('hookwise.model') && void this.reload()),
      deps.context.secrets.onDidChange((e) => e.key === API_KEY_SECRET && void this.reload()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => void this.reload()),
    ];
    void this.reload();
  }

  /** Re-reads the model settings. Overlapping reloads settle in order: the last one started wins. */
  async reload(): Promise<void> {
    const generation = ++this.generation;
    const { context, apiKey, createLm, log } = this.deps;
    const resolution = await modelFromSettings({
      workspaceRoot: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
      extensionUri: context.extensionUri,
      apiKey,
      ...(createLm ? { createLm } : {}),
      approvals: this.approvals,
      trusted: vscode.workspace.isTrusted,
      onIgnored: (message) => log.info(`model: ${message}`),
      ...(this.deps.playgroundGate ? { playgroundGate: this.deps.playgroundGate } : {}),
    });
    if (generation !== this.generation) return;
    const declined = !resolution.ok && resolution.approval !== undefined && this.refused.has(approvalId(resolution.approval));
    this.client.set(declined && resolution.approval ? { ...resolution, problem: approvalProblem(resolution.approval, true) } : resolution);
    if (!resolution.ok) log.info(`model: ${this.client.configurationProblem}`);
    this.deps.onModelChanged(this.client.label);
  }

  /**
   * Asks about the workspace's model settings that wait for an answer (provider first, then the
   * endpoint), then reloads. Without `force`, a question declined in this window is not asked
   * again. `force` (the review command) also forgets this workspace's provider answer, so it is
   * asked afresh. Resolves whether a model is configured afterwards.
   */
  approvePending(options: { readonly force?: boolean } = {}): Promise<boolean> {
    this.asking ??= this.ask(options.force === true).finally(() => (this.asking = undefined));
    return this.asking;
  }

  private async ask(force: boolean): Promise<boolean> {
    if (force) {
      this.refused.clear();
      await this.approvals.setProviderChoice(undefined);
      await this.reload();
    }
    const prompt = this.deps.approvalPrompt ?? modalApprovalPrompt;
    for (let i = 0; i < MAX_QUESTIONS; i++) {
      const pending = this.client.pendingApproval;
      if (this.client.configured || pending === undefined || this.refused.has(approvalId(pending))) break;
      const allowed = await prompt(pending).catch((error: unknown) => {
        this.deps.log.warn(`model: the approval question failed (${String(error)}); nothing is sent`);
        return false;
      });
      this.deps.log.info(`model: ${approvalId(pending)} ${allowed ? 'allowed' : 'declined'} by the user`);
      if (pending.kind === 'provider') await this.approvals.setProviderChoice({ provider: pending.workspaceProvider, use: allowed });
      else if (allowed) await this.approvals.approveEndpoint(pending.origin, pending.keyFingerprint);
      else this.refused.add(approvalId(pending));
      await this.reload();
    }
    return this.client.configured;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
