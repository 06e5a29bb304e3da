import * as vscode from 'vscode';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AgentEvent } from '../agent/agentEvents';
import { HookwiseRuntime } from '../agent/hookwiseRuntime';
import type { PermissionMode } from '../agent/permissionMode';
import type { Session } from '../agent/session';
import { readTranscript } from '../agent/transcript';
import { transcriptDirFor } from '../agent/transcriptLocation';
import type { HookRunObserver, HookRunRecord, PermissionProvider } from '../hooks/hookRunTypes';
import { testHookAction } from '../hooks/hookTester';
import type { HistoryEntry } from '../shared/webviewProtocol';
import type { ModelResolution } from './model/modelFromSettings';
import { modelFromSettings, SwitchableModelClient } from './model/modelFromSettings';
import { API_KEY_SECRET } from './model/apiKey';

const MAIN = { agentId: 'main', parentAgentId: null, agentType: 'main' } as const;

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
 * The agent inside the extension host: one HookwiseRuntime for the workspace, one session
 * at a time (New Chat ends it with `clear`; History resumes a transcript), the model from
 * settings (switchable live), and Stop that aborts the model, tools and running hooks.
 * Transcripts live where the CLI keeps them, so CLI sessions show in History too.
 */
export class AgentController implements vscode.Disposable {
  readonly runtime: HookwiseRuntime;
  readonly model = new SwitchableModelClient();
  private session: Session | undefined;
  /** How the next session starts (SessionStart `source`): after New Chat it is `clear`. */
  private nextSource: 'startup' | 'clear' = 'startup';
  /** Set while the current session has not fired SessionStart yet. */
  private pendingStart: 'startup' | 'clear' | 'resume' | undefined;
  private running: AbortController | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly projectDir: string;
  private readonly transcriptDir: string;

  constructor(private readonly deps: AgentControllerDeps) {
    this.projectDir = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? os.homedir();
    this.transcriptDir = transcriptDirFor(this.projectDir, process.env);
    const agentSettings = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('hookwise');
    this.runtime = new HookwiseRuntime({
      projectDir: this.projectDir,
      homeDir: os.homedir(),
      model: this.model,
      observers: deps.observers,
      permissionProvider: deps.permissionProvider,
      askFallback: agentSettings().get<'allow' | 'deny'>('permissions.askFallback', 'deny'),
      transcriptDir: this.transcriptDir,
      limits: () => ({ maxSteps: agentSettings().get<number>('agent.maxSteps', 50), maxTokens: 2_000_000, maxWallTimeMs: 30 * 60_000 }),
      maxSubagentDepth: () => agentSettings().get<number>('agent.maxSubagentDepth', 2),
    });
    this.runtime.runner.addObserver({ onHookFinished: (r) => this.session?.transcriptWriter.writeHookRun(r) });
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('hookwise.model')) void this.reloadModel();
      }),
      deps.context.secrets.onDidChange((e) => {
        if (e.key === API_KEY_SECRET) void this.reloadModel();
      }),
    );
    void this.reloadModel();
    void this.loadAgents();
  }

  /** True while a prompt runs. */
  get busy(): boolean {
    return this.running !== undefined;
  }

  /** Re-reads the model settings; the chat header follows. */
  async reloadModel(): Promise<void> {
    const resolution = await modelFromSettings({
      workspaceRoot: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
      extensionUri: this.deps.context.extensionUri,
      apiKey: this.deps.apiKey,
      ...(this.deps.createLm ? { createLm: this.deps.createLm } : {}),
    });
    this.model.set(resolution);
    if (!resolution.ok) this.deps.log.info(`model: ${resolution.problem}`);
    this.deps.onModelChanged(this.model.label);
  }

  private async loadAgents(): Promise<void> {
    const problems = await this.runtime.loadAgents([
      { dir: path.join(os.homedir(), '.claude', 'agents'), displayDir: '~/.claude/agents' },
      { dir: path.join(this.projectDir, '.claude', 'agents'), displayDir: '.claude/agents' },
    ]);
    for (const p of problems) this.deps.log.warn(`agent file ${p.file} ignored: ${p.message}`);
  }

  /**
   * Sends a prompt: starts a session first when there is none (SessionStart). Returns false
   * when no model is configured (the caller shows what to do).
   */
  async submit(prompt: string): Promise<boolean> {
    if (this.running) {
      void vscode.window.showInformationMessage('Hookwise is still working on the last prompt. Press Stop first.');
      return true;
    }
    if (!this.model.configured) return false;
    const controller = new AbortController();
    this.running = controller;
    this.deps.onBusyChanged(true);
    try {
      if (this.deps.configReady) {
        const ready = await Promise.race([this.deps.configReady.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), CONFIG_READY_TIMEOUT_MS))]);
        if (!ready) this.deps.log.warn('the hook configuration had not loaded after 10 s; running with what is registered');
      }
      const session = await this.ensureSession(controller.signal);
      const result = await session.submit(prompt, controller.signal);
      if (result.status === 'failed') this.deps.onAgentEvent({ type: 'systemMessage', agent: MAIN, text: `The agent failed: ${result.reason ?? 'unknown error'}`, source: 'Hookwise' });
      else if (result.status === 'stopped' && result.reason) this.deps.onAgentEvent({ type: 'systemMessage', agent: MAIN, text: `Stopped: ${result.reason}`, source: 'Hookwise' });
    } catch (error) {
      this.deps.log.error(`prompt failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      this.deps.onAgentEvent({ type: 'systemMessage', agent: MAIN, text: `Hookwise hit an internal error: ${error instanceof Error ? error.message : String(error)}`, source: 'Hookwise' });
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
    const old = this.session;
    this.session = undefined;
    this.nextSource = 'clear';
    await old?.end('clear');
  }

  /** Past sessions of this workspace from their transcripts, newest first. */
  listSessions(): HistoryEntry[] {
    let files: string[];
    try {
      files = readdirSync(this.transcriptDir).filter((f) => f.endsWith('.jsonl'));
    } catch {
      return [];
    }
    return files
      .map((f) => {
        const file = path.join(this.transcriptDir, f);
        const stat = statSync(file);
        return { id: f.slice(0, -'.jsonl'.length), title: firstPrompt(file) ?? '(no prompt)', updatedAt: stat.mtimeMs, detail: `${Math.max(1, Math.round(stat.size / 1024))} KB` };
      })
      .sort((a, b) => b.updatedAt - a.updatedAt)
      .slice(0, 100);
  }

  /** Resumes a past session: its conversation comes back, SessionStart says `resume`, and `replay` redraws it. */
  async resume(id: string, replay: (event: AgentEvent | { readonly type: 'userPrompt'; readonly text: string }) => void): Promise<void> {
    await this.newSession();
    const file = path.join(this.transcriptDir, `${id}.jsonl`);
    const loaded = readTranscript(file);
    for (const s of loaded.skipped) this.deps.log.warn(`${path.basename(file)} line ${s.line} skipped: ${s.reason}`);
    this.session = this.createSession(id, loaded.messages);
    this.pendingStart = 'resume';
    const results = new Map(loaded.messages.flatMap((m) => (m.role === 'tool' ? [[m.toolCallId, m] as const] : [])));
    for (const m of loaded.messages) {
      if (m.role === 'user' && !m.content.startsWith('<system-reminder>')) replay({ type: 'userPrompt', text: m.content });
      if (m.role === 'assistant') {
        if (m.content) replay({ type: 'text', agent: MAIN, delta: m.content });
        replay({ type: 'assistantMessage', agent: MAIN, text: m.content, step: 0 });
        for (const call of m.toolCalls ?? []) {
          const result = results.get(call.id);
          replay({ type: 'toolCall', agent: MAIN, toolUseId: call.id, toolName: call.name, input: safeJson(call.argumentsText), summary: call.name });
          replay({ type: 'toolStatus', agent: MAIN, toolUseId: call.id, status: result?.isError ? 'failed' : 'done', ...(result ? { result: result.content, isError: result.isError ?? false } : {}) });
        }
      }
    }
    if (loaded.skipped.length > 0) replay({ type: 'systemMessage', agent: MAIN, text: `${loaded.skipped.length} damaged transcript line(s) were skipped (see the Hookwise log).`, source: 'Hookwise' });
  }

  /** Re-runs one hook with the input it had, reporting the new run to the observers (the tree). */
  async rerunHook(record: HookRunRecord): Promise<void> {
    const registration = this.runtime.registry.list().find((r) => r.id === record.hookId);
    if (!registration) {
      void vscode.window.showWarningMessage(`That hook is no longer configured (${record.hookLabel}).`);
      return;
    }
    const rerun: HookRunRecord = { ...record, runId: `${record.runId}-rerun-${Date.now()}`, startedAt: Date.now(), status: 'running', outcome: undefined, raw: undefined, error: undefined, durationMs: undefined, permission: undefined };
    for (const o of this.deps.observers) o.onHookStarted?.(rerun);
    const tested = await testHookAction(registration.action, record.input, {
      cwd: typeof record.input.cwd === 'string' ? record.input.cwd : this.projectDir,
      projectDir: this.projectDir,
      sessionId: record.sessionId,
      event: record.event,
      ...(registration.timeoutMs ? { timeoutMs: registration.timeoutMs } : {}),
    });
    const r = tested.result;
    const decision = r.outcome.decision;
    const status = tested.timedOut ? 'timed-out' : r.status === 'failed' ? 'failed' : r.status === 'cancelled' ? 'cancelled' : decision === 'deny' || decision === 'stop' || decision === 'continue' ? 'blocked' : decision === 'ask' ? 'asked' : 'ok';
    const done: HookRunRecord = { ...rerun, status, durationMs: tested.durationMs, outcome: r.outcome, ...(r.raw ? { raw: r.raw } : {}), ...(r.error ? { error: r.error } : {}) };
    for (const o of this.deps.observers) o.onHookFinished?.(done);
  }

  private async ensureSession(signal: AbortSignal): Promise<Session> {
    if (!this.session) {
      this.session = this.createSession();
      this.pendingStart = this.nextSource;
      this.nextSource = 'startup';
    }
    const source = this.pendingStart;
    this.pendingStart = undefined;
    if (source) await this.session.start(source, signal);
    return this.session;
  }

  private createSession(sessionId?: string, history?: Parameters<HookwiseRuntime['createSession']>[0]['history']): Session {
    const settings = vscode.workspace.getConfiguration('hookwise');
    const mode = settings.get<PermissionMode>('permissions.mode', 'default');
    const idleSeconds = settings.get<number>('notifications.idleSeconds', 60);
    return this.runtime.createSession({
      permissionMode: mode,
      trusted: vscode.workspace.isTrusted,
      emit: this.deps.onAgentEvent,
      compactionBudgetTokens: settings.get<number>('compaction.contextBudgetTokens', 100_000),
      ...(idleSeconds > 0 ? { idleNotificationMs: idleSeconds * 1000 } : {}),
      ...(sessionId ? { sessionId } : {}),
      ...(history ? { history } : {}),
    });
  }

  /** Compacts the current session on demand (PreCompact `manual`). */
  async compact(): Promise<string> {
    if (!this.session) return 'There is no conversation to compact yet.';
    const result = await this.session.compact('manual', new AbortController().signal);
    return result.status === 'compacted' ? `Compacted: ${result.summarized} messages summarized.` : `Not compacted: ${result.reason}.`;
  }

  dispose(): void {
    this.stop();
    void this.session?.end('other');
    for (const d of this.disposables) d.dispose();
  }
}

function firstPrompt(file: string): string | undefined {
  try {
    const head = readFileSync(file, 'utf8').slice(0, 64 * 1024);
    for (const line of head.split('\n')) {
      if (!line.includes('"type":"user"')) continue;
      const entry = JSON.parse(line) as { content?: unknown };
      if (typeof entry.content === 'string' && !entry.content.startsWith('<system-reminder>')) return entry.content.length > 80 ? `${entry.content.slice(0, 80)}…` : entry.content;
    }
  } catch {
    // A damaged transcript still lists, with no title.
  }
  return undefined;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
