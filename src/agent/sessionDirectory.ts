import type { HookDisposable } from '../hooks/hookRegistry';

/**
 * Sessions by id, for a built-in provider's hooks (a hook gets only its event's context, whose
 * `session_id` names the session). Held weakly: a session nobody uses any more is not kept
 * alive by being listed.
 */
export class SessionDirectory<S extends { readonly id: string }> {
  private readonly sessions = new Map<string, WeakRef<S>>();

  /** Lists `session` until disposed (or collected). */
  add(session: S): HookDisposable {
    for (const [id, ref] of this.sessions) if (ref.deref() === undefined) this.sessions.delete(id);
    const ref = new WeakRef(session);
    this.sessions.set(session.id, ref);
    return { dispose: () => void (this.sessions.get(session.id) === ref && this.sessions.delete(session.id)) };
  }

  get(sessionId: string): S | undefined {
    return this.sessions.get(sessionId)?.deref();
  }
}
