import type { HookRunRecord } from '../hookRunTypes';
import type { ExplainSession } from './explainHooks';

/**
 * The session state behind occurrence `occurrenceId`, from the session's records in arrival
 * order (Hook Runs): its own runs, and the runs that came before it (a `once` hook among them
 * was spent). Runs after it are ignored, so explaining an old occurrence says what held then.
 * `skills`: the skills the session has loaded (HookRunner.skillsOf).
 */
export function explainSessionOf(occurrenceId: string, sessionRecords: Iterable<HookRunRecord>, skills?: ReadonlySet<string>): ExplainSession {
  const ran: HookRunRecord[] = [];
  const before: HookRunRecord[] = [];
  let seen = false;
  for (const r of sessionRecords) {
    if (r.occurrenceId === occurrenceId) {
      seen = true;
      ran.push(r);
    } else if (!seen) before.push(r);
  }
  return { ran, before, ...(skills !== undefined ? { skills } : {}) };
}
