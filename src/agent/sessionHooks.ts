import type { HookEventResult } from '../hooks/hookRunTypes';
import type { HookEvent } from '../hooks/hookEvent';

/** The main agent's identity in every hook input and event of a session. */
export const MAIN = { agentId: 'main', parentAgentId: null, agentType: 'main' } as const;

/**
 * Runs one of a session's own events (SessionStart, PreCompact, FileChanged…); an `ask` in it
 * is settled by the main agent's permission gate before the result comes back.
 */
export type SessionHookRun = (
  event: HookEvent,
  input: Readonly<Record<string, unknown>>,
  signal?: AbortSignal,
  env?: Readonly<Record<string, string>>,
) => Promise<HookEventResult>;
