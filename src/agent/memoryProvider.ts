import { BUILTIN_PROVIDERS } from '../hooks/config/builtinSwitches';
import type { HookDisposable } from '../hooks/hookRegistry';
import type { HookProvider } from '../hooks/hooksApi';

/** What the memory hook needs of a session: loading what a file tool's call brings in (Session.loadFileToolMemory). */
export interface MemoryLoadingSession {
  readonly id: string;
  /** Loads the memory of the file a PostToolUse `input` names; the text for the model, or undefined. */
  loadFileToolMemory(input: Readonly<Record<string, unknown>>, signal: AbortSignal): Promise<string | undefined>;
}

/**
 * The sessions the memory hook can reach, by session id (the hook gets only its event's
 * context). Held weakly: a session nobody uses any more is not kept alive by being listed.
 */
export class MemorySessions {
  private readonly sessions = new Map<string, WeakRef<MemoryLoadingSession>>();

  /** Lists `session` until disposed (or collected). */
  add(session: MemoryLoadingSession): HookDisposable {
    for (const [id, ref] of this.sessions) if (ref.deref() === undefined) this.sessions.delete(id);
    const ref = new WeakRef(session);
    this.sessions.set(session.id, ref);
    return { dispose: () => void (this.sessions.get(session.id) === ref && this.sessions.delete(session.id)) };
  }

  get(sessionId: string): MemoryLoadingSession | undefined {
    return this.sessions.get(sessionId)?.deref();
  }
}

/** Name (and switch id in `hookwise.hooks.disabled`) of the built-in memory provider. */
export const BUILTIN_MEMORY = BUILTIN_PROVIDERS.memory;
/** The registration id of its hook: a prompt's attached files load memory only while it is registered. */
export const BUILTIN_MEMORY_ID = 'builtin.memory';

/** The file tools whose target loads memory (lazyMemory.ts FILE_TOOLS). */
export const MEMORY_TOOLS_MATCHER = 'Read|Edit|MultiEdit|Write|NotebookEdit';

/**
 * Last of the PostToolUse hooks (the limits' mirror image), so memory loads after every other
 * PostToolUse hook, where it loaded before it was a provider: InstructionsLoaded fires after
 * them and the memory note follows their context. `runsAfterDecision` keeps a deny or stop of
 * those hooks from skipping it: the file was read either way.
 */
export const MEMORY_PRIORITY = -1000;

/** An approval question about an import outside the project waits for a person. */
const MEMORY_TIMEOUT_MS = 30 * 60_000;

/**
 * Lazy memory loading as a hook provider: one PostToolUse hook on the file tools that loads
 * the nested CLAUDE.md files and the `paths:` rules the file brings in, fires InstructionsLoaded
 * for each (as the agent that ran the tool), and hands the model the memory note as an injected
 * `<system-reminder>` message, exactly as before it was a provider. Installed by the runtime;
 * switched off by `built-in memory` in `hookwise.hooks.disabled` (then a prompt's attached files
 * load no nested memory either); replaced by a PostToolUse hook of one's own that adds context.
 */
export function memoryProvider(sessions: MemorySessions): HookProvider {
  return {
    name: BUILTIN_MEMORY,
    registerHooks(hooks) {
      hooks.onPostToolUse(
        async (ctx, action) => {
          const note = await sessions.get(ctx.session_id)?.loadFileToolMemory(ctx, action.signal);
          return note === undefined ? undefined : { messagesToInject: [{ role: 'user', content: `<system-reminder>\n${note}\n</system-reminder>` }] };
        },
        {
          id: BUILTIN_MEMORY_ID,
          label: 'built-in: memory',
          matcher: MEMORY_TOOLS_MATCHER,
          priority: MEMORY_PRIORITY,
          runsAfterDecision: true,
          timeoutMs: MEMORY_TIMEOUT_MS,
        },
      );
    },
  };
}
