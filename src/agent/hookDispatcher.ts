import type { HookEvent } from '../hooks/hookEvent';
import type { AskAnswer } from '../hooks/hookRunRecords';
import type { BackgroundHookOutput, HookEventResult } from '../hooks/hookRunTypes';

/** Options of one dispatch, as the HookRunner takes them. */
export interface DispatchOptions {
  readonly signal?: AbortSignal;
  readonly validateUpdatedInput?: (
    input: Readonly<Record<string, unknown>>,
    written?: Readonly<Record<string, unknown>>,
  ) => { ok: true } | { ok: false; error: string };
  /** Extra environment for command hooks of this run (SessionStart gets `CLAUDE_ENV_FILE`). */
  readonly env?: Readonly<Record<string, string>>;
  /** The agent run's metadata, for Metadata matchers (set by `runDispatcher`). */
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/**
 * The slice of the HookRunner the agent uses: run one event and get the merged result (an
 * `ask` in it is data, for the permission gate).
 * The loop depends on this port, so its unit tests can count dispatches.
 */
export interface HookDispatcher {
  run(event: HookEvent, input: Readonly<Record<string, unknown>>, options?: DispatchOptions): Promise<HookEventResult>;
  /** True when some registration listens to `event` (lets the loop skip building inputs). */
  hasHooks?(event: HookEvent): boolean;
  /** What background (`async`) hooks of the session said since the last call; taken once. */
  takeBackgroundOutput?(sessionId: string): readonly BackgroundHookOutput[];
  /** Records how the permission gate answered a result's ask (the runner reports it to its observers). */
  recordAskAnswer?(result: HookEventResult, answer: AskAnswer): HookEventResult;
  /** Turns on a skill's SKILL.md hooks for the rest of the session (the Skill tool calls it). */
  activateSkill?(sessionId: string, skill: string): void;
}
