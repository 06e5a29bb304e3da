import type { HookDisposable } from '../hooks/hookRegistry';
import type { HookProvider } from '../hooks/hooksApi';
import type { Summarizer } from './compaction';

/** What the compaction hook needs of a session: its automatic compaction (Session.autoCompact). */
export interface CompactingSession {
  readonly id: string;
  autoCompact(signal: AbortSignal, summarizer?: Summarizer): Promise<void>;
}

/**
 * The sessions a compaction hook can reach, by session id (the hook gets only its event's
 * context). Held weakly: a session nobody uses any more is not kept alive by being listed.
 */
export class CompactingSessions {
  private readonly sessions = new Map<string, WeakRef<CompactingSession>>();

  /** Lists `session` until disposed (or collected). */
  add(session: CompactingSession): HookDisposable {
    for (const [id, ref] of this.sessions) if (ref.deref() === undefined) this.sessions.delete(id);
    const ref = new WeakRef(session);
    this.sessions.set(session.id, ref);
    return { dispose: () => void (this.sessions.get(session.id) === ref && this.sessions.delete(session.id)) };
  }

  get(sessionId: string): CompactingSession | undefined {
    return this.sessions.get(sessionId)?.deref();
  }
}

/** Name (and switch id in `hookwise.hooks.disabled`) of the built-in compaction provider. */
export const BUILTIN_COMPACTION = 'built-in compaction';

/**
 * Runs after every other BeforeStep hook (a limit or a user's hook that ends the run first
 * saves the summary's model call), so the conversation is compacted just before the step's
 * BeforeInference and model call, where it used to be compacted.
 */
export const COMPACTION_PRIORITY = -1000;

/** A summary is one model call over a long conversation: more than a hook's usual minute. */
const COMPACTION_TIMEOUT_MS = 15 * 60_000;

/** Options of {@link compactionProvider}. */
export interface CompactionProviderOptions {
  /** The provider's name: its hooks' source in Hook Runs and its switch id. Default {@link BUILTIN_COMPACTION}. */
  readonly name?: string;
  /** Writes the summary; default the session's model with Hookwise's summary prompt. */
  readonly summarize?: Summarizer;
}

/**
 * Automatic compaction as a hook provider: one BeforeStep hook of the main agent that, when
 * the conversation is over the context window's threshold or the budget, runs PreCompact,
 * replaces the older turns by a summary, then PostCompact and SessionStart `compact`, exactly
 * as before it was a provider. The built-in one (no options) is installed by the runtime and
 * can be switched off (`hookwise.hooks.disabled`: `built-in compaction`); an extension
 * replaces it by installing its own with `summarize` through `hooks.use(provider)`.
 * `/compact` and the retry after a context-length refusal stay the session's own.
 */
export function compactionProvider(sessions: CompactingSessions, options: CompactionProviderOptions = {}): HookProvider {
  const name = options.name ?? BUILTIN_COMPACTION;
  const builtin = options.name === undefined;
  const summarize = options.summarize;
  return {
    name,
    registerHooks(hooks) {
      hooks.onBeforeStep(
        async (ctx, action) => {
          await sessions.get(ctx.session_id)?.autoCompact(action.signal, summarize);
        },
        {
          label: builtin ? 'built-in: compaction' : `${name}: compaction`,
          priority: COMPACTION_PRIORITY,
          agentType: 'main',
          timeoutMs: COMPACTION_TIMEOUT_MS,
          ...(builtin ? { id: 'builtin.compaction' } : {}),
        },
      );
    },
  };
}
