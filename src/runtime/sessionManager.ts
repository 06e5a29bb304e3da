import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ConfigChange, ConfigChangeVerdict } from '../agent/configChange';
import type { HookDisposable } from '../hooks/hookRegistry';
import type { HookRunRecord } from '../hooks/hookRunTypes';
import type { ModelMessage } from '../model/modelClient';
import type { HookwiseRuntime } from './hookwiseRuntime';
import type { Session } from '../agent/session';
import type { SessionObserver } from '../agent/sessionObserver';
import type { SessionSummary } from '../agent/sessionList';
import { listSessions } from '../agent/sessionList';
import type { AgentDefinitionProblem } from '../agent/subagents/agentDefinitions';
import { readTranscript } from '../agent/transcriptReader';
import { describeThrown } from '../shared/describeThrown';

/** How each new session is made (everything but its id and history), read when it is created. */
export type SessionSettings = Omit<Parameters<HookwiseRuntime['createSession']>[0], 'sessionId' | 'history'>;

/** What a session manager works with. */
export interface SessionManagerOptions {
  readonly runtime: HookwiseRuntime;
  /** Workspace root: its `.claude/agents` and, in messages, the project a session belongs to. */
  readonly projectDir: string;
  readonly homeDir: string;
  /** This project's transcripts (see transcriptDirFor). */
  readonly transcriptDir: string;
  /** Called for each new session, so a changed setting applies from the next session on. */
  readonly settings: () => SessionSettings;
  /** Who sees each session's lifecycle, events and hook runs (the OpenTelemetry export); read at each call, so it can change. */
  readonly observer?: () => SessionObserver | undefined;
}

/** A resumed session, ready for its first prompt; or why it could not be resumed. */
export type ResumeResult =
  | {
      readonly ok: true;
      readonly session: Session;
      /** The conversation it continues (see replayEvents to redraw it). */
      readonly messages: readonly ModelMessage[];
      /** One line per damaged transcript line that was skipped, e.g. `x.jsonl line 7 skipped: …`. */
      readonly notices: readonly string[];
    }
  | { readonly ok: false; readonly error: string };

/**
 * The session lifecycle shared by the CLI and the extension: one current session at a time,
 * created on the first prompt with SessionStart fired once (`startup`, `clear` after
 * {@link clear}, `resume` after {@link resume}), ended with SessionEnd; its transcript records
 * every hook run. Also lists past sessions, loads the subagent folders, and re-runs a hook
 * through the runner.
 */
export class SessionManager {
  private session: Session | undefined;
  /** How the next fresh session starts: after a clear it is `clear`. */
  private nextSource: 'startup' | 'clear' = 'startup';
  /** Set while the current session has not fired SessionStart yet. */
  private pendingStart: 'startup' | 'clear' | 'resume' | undefined;
  /** Inputs of re-runs in flight: a re-run is the user's experiment, not part of any session's transcript. */
  private readonly rerunInputs = new WeakSet<object>();
  private readonly observer: HookDisposable;

  constructor(private readonly o: SessionManagerOptions) {
    this.observer = o.runtime.runner.addObserver({
      onHookFinished: (record) => {
        if (this.rerunInputs.has(record.input)) return;
        this.session?.transcriptWriter.writeHookRun(record);
        o.observer?.()?.hookFinished(record);
      },
      onAskResolved: (record) => {
        if (!this.rerunInputs.has(record.input)) o.observer?.()?.hookAskResolved(record);
      },
    });
  }

  /** The current session, if one was created or resumed and not cleared since. */
  get current(): Session | undefined {
    return this.session;
  }

  /**
   * Loads subagent types from `~/.claude/agents` and the project's `.claude/agents`, and skills
   * from `~/.claude/skills` and `.claude/skills`; returns the files it ignored.
   */
  async loadAgents(): Promise<AgentDefinitionProblem[]> {
    const [agents, skills] = await Promise.all([
      this.o.runtime.loadAgents([
        { dir: path.join(this.o.homeDir, '.claude', 'agents'), displayDir: '~/.claude/agents' },
        { dir: path.join(this.o.projectDir, '.claude', 'agents'), displayDir: '.claude/agents' },
      ]),
      this.o.runtime.loadSkills([
        { dir: path.join(this.o.homeDir, '.claude', 'skills'), displayDir: '~/.claude/skills', scope: 'user' },
        { dir: path.join(this.o.projectDir, '.claude', 'skills'), displayDir: '.claude/skills', scope: 'project' },
      ]),
    ]);
    return [...agents, ...skills];
  }

  /**
   * The session the next prompt goes to: created when there is none, its SessionStart fired
   * the first time — after Setup hooks when `setup` is given (`hookwise --init`).
   */
  async ensureStarted(signal: AbortSignal, setup?: 'init' | 'maintenance'): Promise<Session> {
    if (!this.session) {
      this.session = this.create();
      this.pendingStart = this.nextSource;
      this.nextSource = 'startup';
    }
    const session = this.session;
    const source = this.pendingStart;
    this.pendingStart = undefined;
    if (source && setup) await session.setup(setup, signal);
    if (source) await session.start(source, signal);
    return session;
  }

  /**
   * Asks the current session's ConfigChange hooks whether a reloaded configuration may be
   * applied; with no session, it applies. The caller keeps the old configuration on `apply: false`.
   */
  configChanging(changes: readonly ConfigChange[], signal?: AbortSignal): Promise<ConfigChangeVerdict> {
    return this.session && changes.length > 0 ? this.session.configChanging(changes, signal) : Promise.resolve({ apply: true });
  }

  /** Tells the current session's DirectoryAdded hooks that `directory` joined the workspace (no session: nothing to tell). */
  async directoryAdded(directory: string, signal?: AbortSignal): Promise<void> {
    await this.session?.directoryAdded(directory, signal);
  }

  /** Compacts the current session on demand (PreCompact `manual`); says what happened. */
  async compactNow(signal: AbortSignal): Promise<string> {
    const result = await this.current?.compact('manual', signal);
    if (!result) return 'There is no conversation to compact yet.';
    return result.status === 'compacted' ? `Compacted: ${result.summarized} messages summarized.` : `Not compacted: ${result.reason}.`;
  }

  /** New chat: ends the current session (SessionEnd `clear`); the next prompt starts a fresh one with SessionStart `clear`. */
  async clear(): Promise<void> {
    const old = this.session;
    // Detached first: nothing of the ending session lands in the next one's transcript.
    this.session = undefined;
    this.pendingStart = undefined;
    this.nextSource = 'clear';
    if (!old) return;
    await old.end('clear');
    this.o.observer?.()?.sessionEnded(old.id, 'clear');
  }

  /**
   * Makes the past session `id` current (the current one is cleared first): its transcript's
   * conversation comes back and its next prompt fires SessionStart `resume`. A missing or
   * unreadable transcript leaves the current session as it was and says why.
   */
  async resume(id: string): Promise<ResumeResult> {
    const file = path.join(this.o.transcriptDir, `${id}.jsonl`);
    // The id names a file in the transcript folder: a path would read (and append to) a file elsewhere.
    if (id === '' || id === '.' || id === '..' || /[/\\\0]/.test(id))
      return { ok: false, error: `no session ${id} for ${this.o.projectDir}: a session id is a file name, not a path` };
    if (!existsSync(file)) return { ok: false, error: `no session ${id} for ${this.o.projectDir} (looked for ${file})` };
    let loaded: ReturnType<typeof readTranscript>;
    try {
      loaded = readTranscript(file);
    } catch (error) {
      return { ok: false, error: `cannot read session ${id} (${file}): ${describeThrown(error)}` };
    }
    await this.clear();
    const session = this.create(id, loaded.messages);
    this.session = session;
    this.pendingStart = 'resume';
    const notices = loaded.skipped.map((s) => `${path.basename(file)} line ${s.line} skipped: ${s.reason}`);
    return { ok: true, session, messages: loaded.messages, notices };
  }

  /** Ends the current session (SessionEnd with `reason`); its SessionEnd hooks still land in its transcript. */
  async end(reason: 'clear' | 'prompt_input_exit' | 'logout' | 'other'): Promise<void> {
    const session = this.session;
    if (!session) return;
    try {
      await session.end(reason);
    } finally {
      if (this.session === session) this.session = undefined;
      this.pendingStart = undefined;
      this.o.observer?.()?.sessionEnded(session.id, reason);
    }
  }

  /** Past sessions of this project, newest first (at most 100). */
  list(): SessionSummary[] {
    return listSessions(this.o.transcriptDir);
  }

  /**
   * "Re-run with This Input": the hook of `record` runs again with the input it had, through
   * the runner, so observers (the Hook Runs tree) see it start and finish once, beside the
   * original. Resolves to the new record, or undefined when that hook is no longer configured.
   */
  async rerun(record: HookRunRecord, signal?: AbortSignal): Promise<HookRunRecord | undefined> {
    // A copy: its identity marks this re-run's records (the original's may still be reported).
    const input = { ...record.input };
    this.rerunInputs.add(input);
    try {
      return await this.o.runtime.runner.rerun(record.hookId, input, { event: record.event, occurrenceId: record.occurrenceId, ...(signal ? { signal } : {}) });
    } finally {
      this.rerunInputs.delete(input);
    }
  }

  /** Stops recording hook runs; the caller ends the session first. */
  dispose(): void {
    this.observer.dispose();
  }

  private create(sessionId?: string, history?: readonly ModelMessage[]): Session {
    const settings = this.o.settings();
    const id = sessionId ?? randomUUID();
    const observer = this.o.observer;
    // The observer sees the session's events with its id (the events themselves carry only the agent).
    const emit: SessionSettings['emit'] = observer
      ? (event) => {
          settings.emit(event);
          observer()?.agentEvent(id, event);
        }
      : settings.emit;
    observer?.()?.sessionStarted(id);
    return this.o.runtime.createSession({ ...settings, emit, sessionId: id, ...(history ? { history } : {}) });
  }
}
