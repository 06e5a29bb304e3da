import type { AgentEvent } from './agentEvents';
import type { HookRunRecord } from '../hooks/hookRunTypes';

/**
 * Sees every session of a SessionManager from creation to end, with its agent events and its
 * hook runs (re-runs of a hook excluded: they are the user's experiment, not the session's).
 * The OpenTelemetry export listens here (src/telemetry). Must be cheap and must not throw.
 */
export interface SessionObserver {
  sessionStarted(sessionId: string): void;
  agentEvent(sessionId: string, event: AgentEvent): void;
  hookFinished(record: HookRunRecord): void;
  hookAskResolved(record: HookRunRecord): void;
  /** After the session's SessionEnd hooks ran. */
  sessionEnded(sessionId: string, reason: string): void;
}
