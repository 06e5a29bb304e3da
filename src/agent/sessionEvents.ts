import { forEvent } from '../hooks/hookContext';
import type { HookEnvelope } from '../hooks/hookContext';
import { safeTimerDelay } from '../shared/timerDelay';
import type { AgentEventListener } from './agentEvents';
import { emitSystemMessages } from './agentEvents';
import type { ConfigChange, ConfigChangeVerdict } from './configChange';
import type { FileChangeKind } from './fileWatch';
import type { HookDispatcher } from './hookDispatcher';
import { hookSpecificValues } from './hookSpecificFields';
import type { MemoryFile } from './memory/memoryFiles';
import { MAIN } from './sessionHooks';
import type { SessionHookRun } from './sessionHooks';

/** What the session lends its side events (it stays the owner of the watch and the background work). */
export interface SessionEventsDeps {
  readonly hooks: HookDispatcher;
  readonly emit: AgentEventListener;
  readonly runHooks: SessionHookRun;
  readonly envelope: () => HookEnvelope;
  /** `CLAUDE_ENV_FILE` for FileChanged hooks. */
  readonly envFile: string;
  /** True once SessionEnd started: no more side events. */
  readonly ended: () => boolean;
  /** Watch more paths (FileChanged `watchPaths`). */
  readonly watch: (paths: readonly unknown[]) => void;
  /** Work SessionEnd waits for (within its budget); it must never reject. */
  readonly track: (work: Promise<unknown>) => void;
  /** Fire Notification `idle_prompt` after this long without a prompt; 0 = never. */
  readonly idleNotificationMs: number;
}

/**
 * The session's own events outside a prompt: InstructionsLoaded for memory, ConfigChange,
 * DirectoryAdded, FileChanged and the idle Notification. Owns the idle timer (`clearIdle`
 * releases it); the session owns everything else these use.
 */
export class SessionEvents {
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(private readonly d: SessionEventsDeps) {}

  /**
   * InstructionsLoaded for each memory file (observation only, as in Claude Code). `reason`
   * replaces each file's own `load_reason` (`compact`: memory reloaded after a compaction).
   */
  async instructionsLoaded(files: readonly MemoryFile[], reason: 'compact' | undefined, signal?: AbortSignal): Promise<void> {
    if (files.length === 0 || this.d.hooks.hasHooks?.('InstructionsLoaded') === false) return;
    for (const file of files) {
      const input = forEvent('InstructionsLoaded', this.d.envelope(), {
        file_path: file.path,
        memory_type: file.memoryType,
        load_reason: reason ?? file.loadReason,
        ...(file.globs ? { globs: [...file.globs] } : {}),
        ...(file.triggerFilePath ? { trigger_file_path: file.triggerFilePath } : {}),
        ...(file.parentPath ? { parent_file_path: file.parentPath } : {}),
      });
      emitSystemMessages(this.d.emit, MAIN, await this.d.runHooks('InstructionsLoaded', input, signal));
    }
  }

  /**
   * ConfigChange, once per changed source, before the new configuration is applied (the
   * hooks of the configuration in force run). A block (exit 2, `decision: "block"`) keeps the
   * old configuration, except for policy settings, which always apply (Claude Code too).
   */
  async configChanging(changes: readonly ConfigChange[], signal?: AbortSignal): Promise<ConfigChangeVerdict> {
    if (this.d.ended() || this.d.hooks.hasHooks?.('ConfigChange') === false) return { apply: true };
    for (const change of changes) {
      const input = forEvent('ConfigChange', this.d.envelope(), { source: change.source, ...(change.filePath ? { file_path: change.filePath } : {}) });
      const result = await this.d.runHooks('ConfigChange', input, signal);
      emitSystemMessages(this.d.emit, MAIN, result);
      if ((result.decision === 'deny' || result.decision === 'stop') && change.source !== 'policy_settings') {
        const reason = result.reason ?? 'blocked by a ConfigChange hook';
        this.d.emit({
          type: 'systemMessage',
          agent: MAIN,
          text: `The configuration change (${change.source}) was not applied: ${reason}`,
          source: 'ConfigChange',
        });
        return { apply: false, reason, source: change.source };
      }
    }
    return { apply: true };
  }

  /** DirectoryAdded: a folder joined the workspace (a VS Code workspace folder). Observation only. */
  async directoryAdded(directory: string, signal?: AbortSignal): Promise<void> {
    if (this.d.ended() || this.d.hooks.hasHooks?.('DirectoryAdded') === false) return;
    const result = await this.d.runHooks('DirectoryAdded', forEvent('DirectoryAdded', this.d.envelope(), { directory, source: 'register_repo_root' }), signal);
    emitSystemMessages(this.d.emit, MAIN, result);
  }

  /** A watched file changed: FileChanged hooks run (matcher = the file name) and may watch more paths. */
  fileChanged(file: string, kind: FileChangeKind): void {
    if (this.d.ended() || this.d.hooks.hasHooks?.('FileChanged') === false) return;
    const work = this.d
      .runHooks('FileChanged', forEvent('FileChanged', this.d.envelope(), { file_path: file, event: kind }), undefined, {
        CLAUDE_ENV_FILE: this.d.envFile,
      })
      .then((result) => {
        emitSystemMessages(this.d.emit, MAIN, result);
        this.d.watch(hookSpecificValues(result, 'watchPaths').flat());
      })
      .catch(() => undefined);
    this.d.track(work);
  }

  /** After a turn: tell Notification hooks when the user has not answered for a while. */
  armIdle(): void {
    const ms = this.d.idleNotificationMs;
    if (ms <= 0 || this.d.ended()) return;
    this.idleTimer = setTimeout(
      () => {
        this.idleTimer = undefined;
        void this.d.runHooks(
          'Notification',
          forEvent('Notification', this.d.envelope(), { message: 'Hookwise is waiting for your input', notification_type: 'idle_prompt' }),
        );
      },
      safeTimerDelay(ms, 0),
    ); // a setting: never past Node's timer limit, where it would fire at once
    // An idle reminder must never keep a headless process alive.
    this.idleTimer.unref?.();
  }

  /** Cancels a pending idle Notification (a prompt came, or the session ends). */
  clearIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }
}
