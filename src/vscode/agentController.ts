import * as vscode from 'vscode';
import os from 'node:os';
import type { AgentEvent } from '../agent/agentEvents';
import type { Session } from '../agent/session';
import type { ModelMessage } from '../model/modelClient';
import { HookwiseRuntime } from '../runtime/hookwiseRuntime';
import { toHistoryEntry } from '../agent/sessionList';
import { SessionManager } from '../runtime/sessionManager';
import type { VscodeTelemetry } from './telemetrySettings';
import { MAIN_AGENT } from '../agent/sessionReplay';
import { transcriptDirFor } from '../agent/transcriptLocation';
import type { HookRunObserver, HookRunRecord, PermissionProvider } from '../hooks/hookRunTypes';
import type { HistoryEntry } from '../shared/webviewProtocol';
import type { ModelResolution, PlaygroundGate, SwitchableModelClient } from './model/modelFromSettings';
import { WorkspaceModel } from './model/workspaceModel';
import { runtimeSettingsFromVscode, sessionSettingsFromVscode } from './agentSettings';
import { CachedLimits } from './narrowedSetting';
import { describeThrown, thrownStack } from '../shared/describeThrown';
import { waitForConfig } from './configReady';
import { guessUserSettingsFile, workspaceSettingsFile } from './config/settingsLayers';
import { createBuiltinTools } from '../agent/tools/builtinTools';
import { RipgrepLocator } from '../agent/tools/ripgrep';
import { shippedRipgrepCandidates } from './shippedRipgrep';
import { workspaceMemoryPins } from './permissions/memoryApprovalPins';
import { parseBuiltinCommand, runBuiltinCommand, type BuiltinInvocation } from '../runtime/builtinCommands';
import type { AnyAgentTool } from '../agent/tools/tool';
import type { WorkspaceBoundary } from '../agent/workspaceBoundary';
import { currentWorkspaceBoundary, offerOutsideFolders } from './agentBoundary';
import type { ProcessLauncher } from '../shared/processLauncher';

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
  /** How command hooks start processes (the extension's is on its spawn helper); default the lean launcher. */
  readonly hookLauncher?: ProcessLauncher;
  /** Settles once the first hook configuration is applied: no prompt runs before the hooks are in place. */
  readonly configReady?: Promise<unknown>;
  /** Tools offered besides the built-in ones (e.g. enabled VS Code tools), read when a session starts. */
  readonly extraTools?: () => readonly AnyAgentTool[];
  /** The OpenTelemetry export; the controller disposes it after the last session ended. */
  readonly telemetry?: VscodeTelemetry;
  /** Why a playground script cannot play now (a tour whose project hooks are off). */
  readonly playgroundGate?: PlaygroundGate;
}

/**
 * The agent in the extension host, as VS Code wiring: one HookwiseRuntime for the workspace,
 * its sessions in the SessionManager the CLI uses too (so CLI sessions show in History), the
 * model and settings from VS Code, and Stop that aborts the model, tools and running hooks.
 */
export class AgentController implements vscode.Disposable {
  readonly runtime: HookwiseRuntime;
  readonly sessions: SessionManager;
  /**
   * The workspace root the runtime works in (agentBoundary.ts: the first folder, else the home
   * directory; for a `.code-workspace` file, not a folder it lists outside its own folder unless
   * the person accepted that).
   */
  readonly projectDir: string;
  /** How the root was chosen; the folders a workspace file adds outside itself. */
  readonly boundary: WorkspaceBoundary;
  private readonly models: WorkspaceModel;
  /** The runaway limits, read again after each configuration change. */
  private readonly limits = new CachedLimits();
  private running: AbortController | undefined;
  /** The outside-folders question is asked once per window, at the first prompt. */
  private boundaryOffered = false;

  constructor(private readonly deps: AgentControllerDeps) {
    this.boundary = currentWorkspaceBoundary(deps.context.globalState);
    const projectDir = this.boundary.projectDir;
    this.projectDir = projectDir;
    const transcriptDir = transcriptDirFor(projectDir, process.env);
    const { observers, permissionProvider } = deps;
    this.models = new WorkspaceModel(deps);
    // Grep and Glob run on the rg VS Code ships (never a path a workspace could set), then rg on PATH.
    const ripgrep = new RipgrepLocator({ candidates: shippedRipgrepCandidates(vscode.env.appRoot), onDiagnostic: (message) => deps.log.warn(message) });
    this.runtime = new HookwiseRuntime({
      projectDir,
      homeDir: os.homedir(),
      model: this.models.client,
      observers,
      permissionProvider,
      transcriptDir,
      protectedFiles: editorSettingsFiles(deps.context),
      // A memory file outside the project asks once in the modal; the yes is kept for this workspace.
      memoryApprovals: workspaceMemoryPins(deps.context.workspaceState),
      ripgrep,
      ...(deps.hookLauncher ? { launchers: { hooks: deps.hookLauncher } } : {}),
      ...runtimeSettingsFromVscode(this.limits),
    });
    this.sessions = new SessionManager({
      runtime: this.runtime,
      projectDir,
      homeDir: os.homedir(),
      transcriptDir,
      settings: () => {
        const settings = sessionSettingsFromVscode(deps.onAgentEvent);
        const extra = deps.extraTools?.() ?? [];
        return extra.length === 0 ? settings : { ...settings, tools: [...(settings.tools ?? createBuiltinTools({ ripgrep })), ...extra] };
      },
      ...(deps.telemetry ? { observer: () => deps.telemetry?.observer } : {}),
    });
  }

  /** The agent's model (switches when the settings change). */
  get model(): SwitchableModelClient {
    return this.models.client;
  }

  /** Re-reads the model settings; the chat header follows. */
  reloadModel(): Promise<void> {
    return this.models.reload();
  }

  /**
   * "Review Workspace Model Settings…": asks afresh about this workspace's provider and
   * endpoint (also ones declined before). Resolves whether a model is configured afterwards.
   */
  reviewWorkspaceModel(): Promise<boolean> {
    return this.models.approvePending({ force: true });
  }

  /**
   * Sends a prompt (the first one of a session fires SessionStart), with the texts of its
   * attachments (`files`: the attached files, whose nested memory loads). Returns false when no
   * model is configured (the caller shows what to do).
   */
  async submit(prompt: string, attachments: readonly string[] = [], files: readonly string[] = []): Promise<boolean> {
    if (this.running) {
      void vscode.window.showInformationMessage('Hookwise is still working on the last prompt. Press Stop first.');
      return true;
    }
    // Built-ins (/hooks, /mcp…) come before custom commands; only /compact needs the model.
    const builtin = parseBuiltinCommand(prompt);
    if (builtin && (this.model.configured || builtin.name !== 'compact')) return this.runBuiltin(builtin);
    // A workspace's model setting waiting for an answer is asked about now, when the person acts.
    if (!this.model.configured && !(await this.models.approvePending())) return false;
    if (!this.boundaryOffered) {
      this.boundaryOffered = true;
      // Accepting reloads the window: this prompt is not sent into a root about to change.
      if (await offerOutsideFolders(this.boundary, this.deps.context.globalState)) return true;
    }
    const controller = (this.running = new AbortController());
    this.deps.onBusyChanged(true);
    try {
      await waitForConfig(this.deps.configReady, this.deps.log);
      const session = await this.sessions.ensureStarted(controller.signal);
      // Nothing to add for a failed or stopped run: its runEnded event already shows in the chat ("Failed: …").
      await session.submit(prompt, controller.signal, attachments, files);
    } catch (error) {
      this.deps.log.error(`prompt failed: ${thrownStack(error)}`);
      this.say(`Hookwise hit an internal error: ${describeThrown(error)}`);
    } finally {
      this.running = undefined;
      this.deps.onBusyChanged(false);
    }
    return true;
  }

  /** Runs a built-in slash command and shows its text in the chat as a notice. */
  private async runBuiltin(builtin: BuiltinInvocation): Promise<boolean> {
    const controller = (this.running = new AbortController());
    this.deps.onBusyChanged(true);
    try {
      await waitForConfig(this.deps.configReady, this.deps.log);
      this.say((await runBuiltinCommand(builtin, this, controller.signal)).text);
    } catch (error) {
      this.deps.log.error(`/${builtin.name} failed: ${thrownStack(error)}`);
      this.say(`/${builtin.name} failed: ${describeThrown(error)}`);
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
    return this.sessions.list().map(toHistoryEntry);
  }

  /**
   * Makes the past session `id` current (its next prompt fires SessionStart `resume`) and
   * returns its conversation for the caller to redraw; undefined, after a warning, when it
   * cannot be resumed. Damaged transcript lines go to the log and are counted. `reopen` is
   * the chat coming back after a window reload: it gives way to a prompt sent meanwhile (its
   * session is not ended under it), and a session that cannot be resumed is only logged.
   */
  async resumeSession(
    id: string,
    options?: { readonly reopen?: boolean },
  ): Promise<{ readonly session: Session; readonly messages: readonly ModelMessage[]; readonly skippedLines: number } | undefined> {
    if (!options?.reopen) this.stop();
    // The session takes its permission rules and mode from the configuration when it is made: wait for the first load.
    await waitForConfig(this.deps.configReady, this.deps.log);
    if (options?.reopen && (this.sessions.current || this.running)) return undefined;
    const resumed = await this.sessions.resume(id);
    if (!resumed.ok && options?.reopen) return void this.deps.log.warn(`chat: the open chat was not reopened: ${resumed.error}`);
    if (!resumed.ok) return void vscode.window.showWarningMessage(`Hookwise: ${resumed.error}`);
    for (const notice of resumed.notices) this.deps.log.warn(notice);
    return { session: resumed.session, messages: resumed.messages, skippedLines: resumed.notices.length };
  }

  /** Re-runs one hook with the input it had; the runner reports the new run to the observers (the tree). */
  async rerunHook(record: HookRunRecord): Promise<void> {
    if (!(await this.sessions.rerun(record))) void vscode.window.showWarningMessage(`That hook is no longer configured (${record.hookLabel}).`);
  }

  /** Compacts the current session on demand (PreCompact `manual`). */
  compact(): Promise<string> {
    return this.sessions.compactNow(new AbortController().signal);
  }

  dispose(): void {
    this.stop();
    // MCP servers (and their process groups) stop after the session's SessionEnd hooks.
    void this.sessions
      .end('other')
      .finally(() => this.sessions.dispose())
      .finally(() => this.deps.telemetry?.dispose())
      .finally(() => this.runtime.dispose());
    this.models.dispose();
    this.limits.dispose();
  }

  private say(text: string): void {
    this.deps.onAgentEvent({ type: 'systemMessage', agent: MAIN_AGENT, text, source: 'Hookwise' });
  }
}

/**
 * VS Code's user and workspace settings files: they can carry `hookwise.hooks` even when they
 * hold none yet, so the agent writing them (to add a hook of its own) always asks.
 */
function editorSettingsFiles(context: vscode.ExtensionContext): string[] {
  return [guessUserSettingsFile(context.globalStorageUri), workspaceSettingsFile()?.file].filter((f): f is string => f !== undefined);
}
