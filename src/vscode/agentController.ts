import * as vscode from 'vscode';
import os from 'node:os';
import type { AgentEvent } from '../agent/agentEvents';
import { HookwiseRuntime } from '../agent/hookwiseRuntime';
import { SessionManager } from '../agent/sessionManager';
import { MAIN_AGENT, replayEvents, type ReplayEvent } from '../agent/sessionReplay';
import { transcriptDirFor } from '../agent/transcriptLocation';
import { raceAbort } from '../shared/raceAbort';
import type { HookRunObserver, HookRunRecord, PermissionProvider } from '../hooks/hookRunTypes';
import type { HistoryEntry } from '../shared/webviewProtocol';
import { modelFromSettings, SwitchableModelClient, type ModelResolution } from './model/modelFromSettings';
import { API_KEY_SECRET } from './model/apiKey';
import { runtimeSettingsFromVscode, sessionSettingsFromVscode } from './agentSettings';
import { describeThrown, thrownStack } from '../shared/describeThrown';

/** What the controller talks to; each piece is owned by the extension's subscriptions. */
export interface AgentControllerDeps {
  readonly context: vscode.ExtensionContext;
  readonly log: vscode.LogOutputChannel;
  readonly permissionProvider: PermissionProvider;
  /** Hook run observers (the tree). */
  readonly observers: readonly HookRunObserver[];
  /** Every agent event (chat, status bar, tree). */
  readonly onAgentEvent: (event: AgentEvent) => void;
  readonly onBusyChanged: (busy: boolean) => void;
  readonly onModelChanged: (label: string) => void;
  readonly apiKey: () => Promise<string | undefined>;
  readonly createLm?: (name: string) => Promise<ModelResolution>;
  /** Settles once the first hook configuration is applied: no prompt runs before the hooks are in place. */
  readonly configReady?: Promise<unknown>;
}

/** How long a prompt waits for the first config load before running anyway (it is logged). */
const CONFIG_READY_TIMEOUT_MS = 10_000;

/**
 * The agent in the extension host, as VS Code wiring: one HookwiseRuntime for the workspace,
 * its sessions in the SessionManager the CLI uses too (so CLI sessions show in History), the
 * model and settings from VS Code, and Stop that aborts the model, tools and running hooks.
 */
export class AgentController implements vscode.Disposable {
  readonly runtime: HookwiseRuntime;
  readonly sessions: SessionManager;
  readonly model = new SwitchableModelClient();
  private running: AbortController | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly deps: AgentControllerDeps) {
    const projectDir = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? os.homedir();
    const transcriptDir = transcriptDirFor(projectDir, process.env);
    const { observers, permissionProvider } = deps;
    this.runtime = new HookwiseRuntime({
      projectDir,
      homeDir: os.homedir(),
      model: this.model,
      observers,
      permissionProvider,
      transcriptDir,
      ...runtimeSettingsFromVscode(),
    });
    this.sessions = new SessionManager({
      runtime: this.runtime,
      projectDir,
      homeDir: os.homedir(),
      transcriptDir,
      settings: () => sessionSettingsFromVscode(deps.onAgentEvent),
    });
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('hookwise.model') && void this.reloadModel()),
      deps.context.secrets.onDidChange((e) => e.key === API_KEY_SECRET && void this.reloadModel()),
    );
    void this.reloadModel();
  }

  /** True while a prompt runs. */
  get busy(): boolean {
    return this.running !== undefined;
  }

  /** Re-reads the model settings; the chat header follows. */
  async reloadModel(): Promise<void> {
    const { context, apiKey, createLm } = this.deps;
    const resolution = await modelFromSettings({
      workspaceRoot: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
      extensionUri: context.extensionUri,
      apiKey,
      ...(createLm ? { createLm } : {}),
    });
    this.model.set(resolution);
    if (!resolution.ok) this.deps.log.info(`model: ${resolution.problem}`);
    this.deps.onModelChanged(this.model.label);
  }

  /** Sends a prompt (the first one of a session fires SessionStart). Returns false when no model is configured (the caller shows what to do). */
  async submit(prompt: string): Promise<boolean> {
    if (this.running) {
      void vscode.window.showInformationMessage('Hookwise is still working on the last prompt. Press Stop first.');
      return true;
    }
    if (!this.model.configured) return false;
    const controller = (this.running = new AbortController());
    this.deps.onBusyChanged(true);
    try {
      const ready =
        this.deps.configReady &&
        (await raceAbort(this.deps.configReady, AbortSignal.timeout(CONFIG_READY_TIMEOUT_MS)).then(
          () => true,
          () => false,
        ));
      if (ready === false) this.deps.log.warn('the hook configuration had not loaded after 10 s; running with what is registered');
      const session = await this.sessions.ensureStarted(controller.signal);
      const result = await session.submit(prompt, controller.signal);
      if (result.status === 'failed') this.say(`The agent failed: ${result.reason ?? 'unknown error'}`);
      else if (result.status === 'stopped' && result.reason) this.say(`Stopped: ${result.reason}`);
    } catch (error) {
      this.deps.log.error(`prompt failed: ${thrownStack(error)}`);
      this.say(`Hookwise hit an internal error: ${describeThrown(error)}`);
    } finally {
      this.running = undefined;
      this.deps.onBusyChanged(false);
    }
    return true;
  }

  /** Stop: aborts the model stream, running tools and running hooks at once. */
  stop(): void {
    this.running?.abort(new Error('Stopped by the user'));
  }

  /** New Chat: ends the session (SessionEnd `clear`); the next prompt starts a fresh one. */
  async newSession(): Promise<void> {
    this.stop();
    await this.sessions.clear();
  }

  /** Past sessions of this workspace from their transcripts, newest first. */
  listSessions(): HistoryEntry[] {
    return this.sessions
      .list()
      .map((s) => ({ id: s.id, title: s.title ?? '(no prompt)', updatedAt: s.updatedAt, detail: `${Math.max(1, Math.round(s.sizeBytes / 1024))} KB` }));
  }

  /** Resumes a past session: its conversation comes back, SessionStart says `resume`, and `replay` redraws it. */
  async resume(id: string, replay: (event: ReplayEvent) => void): Promise<void> {
    this.stop();
    const resumed = await this.sessions.resume(id);
    if (!resumed.ok) return void vscode.window.showWarningMessage(`Hookwise: ${resumed.error}`);
    for (const notice of resumed.notices) this.deps.log.warn(notice);
    for (const event of replayEvents(resumed.messages)) replay(event);
    if (resumed.notices.length > 0)
      replay({
        type: 'systemMessage',
        agent: MAIN_AGENT,
        text: `${resumed.notices.length} damaged transcript line(s) were skipped (see the Hookwise log).`,
        source: 'Hookwise',
      });
  }

  /** Re-runs one hook with the input it had; the runner reports the new run to the observers (the tree). */
  async rerunHook(record: HookRunRecord): Promise<void> {
    if (!(await this.sessions.rerun(record))) void vscode.window.showWarningMessage(`That hook is no longer configured (${record.hookLabel}).`);
  }

  /** Compacts the current session on demand (PreCompact `manual`). */
  async compact(): Promise<string> {
    const result = await this.sessions.current?.compact('manual', new AbortController().signal);
    if (!result) return 'There is no conversation to compact yet.';
    return result.status === 'compacted' ? `Compacted: ${result.summarized} messages summarized.` : `Not compacted: ${result.reason}.`;
  }

  dispose(): void {
    this.stop();
    void this.sessions.end('other').finally(() => this.sessions.dispose());
    for (const d of this.disposables) d.dispose();
  }

  private say(text: string): void {
    this.deps.onAgentEvent({ type: 'systemMessage', agent: MAIN_AGENT, text, source: 'Hookwise' });
  }
}
