import { BUILTIN_PROVIDERS } from '../hooks/config/builtinSwitches';
import type { HookProvider } from '../hooks/hooksApi';
import type { SessionDirectory } from './sessionDirectory';

/** What the memory hook needs of a session: loading what a file tool's call brings in (Session.loadFileToolMemory). */
export interface MemoryLoadingSession {
  readonly id: string;
  /** Loads the memory of the file a PostToolUse `input` names; the text for the model, or undefined. */
  loadFileToolMemory(input: Readonly<Record<string, unknown>>, signal: AbortSignal): Promise<string | undefined>;
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
export function memoryProvider(sessions: Pick<SessionDirectory<MemoryLoadingSession>, 'get'>): HookProvider {
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
