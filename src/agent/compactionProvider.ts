import type { HookProvider } from '../hooks/hooksApi';
import type { Summarizer } from './compaction';
import { SessionDirectory } from './sessionDirectory';

/** What the compaction hook needs of a session: its automatic compaction (Session.autoCompact). */
export interface CompactingSession {
  readonly id: string;
  autoCompact(signal: AbortSignal, summarizer?: Summarizer): Promise<void>;
}

/** The compaction provider in effect: its name and summarizer (none = the session's model with Hookwise's prompt). */
export interface ActiveCompaction {
  readonly name: string;
  readonly summarize?: Summarizer | undefined;
}

/** Why `/compact` and the retry after a context-length refusal did not compact while no compaction provider is installed. */
export const COMPACTION_OFF_REASON =
  'compaction is switched off ("built-in compaction" is in hookwise.hooks.disabled) and no other compaction provider is installed';

/** A registration's id, as the registry lists them in run order. */
interface Listed {
  readonly id: string;
}

/** The sessions a compaction hook reaches by id (held weakly), and the compaction providers installed. */
export class CompactingSessions extends SessionDirectory<CompactingSession> {
  /** Compaction providers by the id of their BeforeStep hook; one counts while that hook is registered. */
  private readonly compactors = new Map<string, ActiveCompaction>();
  private installs = 0;

  /** `registered` lists the BeforeStep hooks in run order (the registry's `select('BeforeStep')`). */
  constructor(private readonly registered: () => readonly Listed[] = () => []) {
    super();
  }

  /** Notes a provider's hook id (one per installation, since a provider may be installed twice). */
  hookIdFor(compaction: ActiveCompaction, builtin: boolean): string {
    const id = builtin ? BUILTIN_COMPACTION_ID : `compaction.${compaction.name}#${++this.installs}`;
    this.compactors.set(id, compaction);
    return id;
  }

  /**
   * The compaction provider in effect: the first installed one in run order (the one whose
   * hook compacts first before a step); undefined when none is installed (the built-in is
   * switched off and nothing replaced it). `/compact` and the retry after a context-length
   * refusal use it, so a switch or a replacement applies to them as to the automatic one.
   */
  active(): ActiveCompaction | undefined {
    const live = new Set<string>();
    let first: ActiveCompaction | undefined;
    for (const { id } of this.registered()) {
      const compaction = this.compactors.get(id);
      if (compaction === undefined) continue;
      live.add(id);
      first ??= compaction;
    }
    // An uninstalled replacement never comes back under its id (the built-in's is kept for its next install).
    for (const id of this.compactors.keys()) if (!live.has(id) && id !== BUILTIN_COMPACTION_ID) this.compactors.delete(id);
    return first;
  }
}

/** Name (and switch id in `hookwise.hooks.disabled`) of the built-in compaction provider. */
export const BUILTIN_COMPACTION = 'built-in compaction';
const BUILTIN_COMPACTION_ID = 'builtin.compaction';

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
 * `/compact` and the retry after a context-length refusal go through the provider in effect
 * ({@link CompactingSessions.active}): its summarizer writes the summary, and with none
 * installed they do not compact and say why ({@link COMPACTION_OFF_REASON}).
 */
export function compactionProvider(sessions: CompactingSessions, options: CompactionProviderOptions = {}): HookProvider {
  const name = options.name ?? BUILTIN_COMPACTION;
  const builtin = options.name === undefined;
  const summarize = options.summarize;
  return {
    name,
    registerHooks(hooks) {
      const id = sessions.hookIdFor({ name, ...(summarize ? { summarize } : {}) }, builtin);
      hooks.onBeforeStep(
        async (ctx, action) => {
          await sessions.get(ctx.session_id)?.autoCompact(action.signal, summarize);
        },
        {
          label: builtin ? 'built-in: compaction' : `${name}: compaction`,
          priority: COMPACTION_PRIORITY,
          agentType: 'main',
          timeoutMs: COMPACTION_TIMEOUT_MS,
          id,
        },
      );
    },
  };
}
