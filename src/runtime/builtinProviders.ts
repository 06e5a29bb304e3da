import type { CompactingSessions } from '../agent/compactionProvider';
import { compactionProvider } from '../agent/compactionProvider';
import type { AgentLimits } from '../agent/defaultLimits';
import { limitsProvider } from '../agent/defaultLimits';
import type { MemoryLoadingSession } from '../agent/memoryProvider';
import { memoryProvider } from '../agent/memoryProvider';
import type { SessionDirectory } from '../agent/sessionDirectory';
import type { TaskListSession } from '../agent/taskReminderProvider';
import { taskReminderProvider } from '../agent/taskReminderProvider';
import { ALWAYS_ON_BUILTINS } from '../hooks/config/builtinSwitches';
import type { HookDisposable } from '../hooks/hookRegistry';
import type { HookProvider, HooksApi } from '../hooks/hooksApi';

interface Entry {
  readonly provider: HookProvider;
  installed: HookDisposable | undefined;
}

/**
 * The agent's own capabilities (limits, compaction, memory, task reminders), installed as hook providers through the
 * same public `hooks.use(provider)` an extension calls: their hooks show in Hook Runs as
 * `code: <name>` (built-in runs that decide nothing are hidden unless Show Built-in Hooks).
 * Each configuration decides again which are on: a provider named in `hookwise.hooks.disabled`
 * is uninstalled (and installed again once the switch is gone), except the always-on ones.
 */
export class BuiltinProviders implements HookDisposable {
  private readonly entries: Entry[];

  constructor(
    private readonly hooks: HooksApi,
    providers: readonly HookProvider[],
  ) {
    this.entries = providers.map((provider) => ({ provider, installed: hooks.use(provider) }));
  }

  /** Switches the providers named in `disabled` off and every other one (back) on. */
  apply(disabled: ReadonlySet<string> | undefined): void {
    for (const entry of this.entries) {
      const name = entry.provider.name;
      const off = disabled !== undefined && disabled.has(name) && !ALWAYS_ON_BUILTINS.has(name);
      if (off && entry.installed) {
        entry.installed.dispose();
        entry.installed = undefined;
      } else if (!off && !entry.installed) entry.installed = this.hooks.use(entry.provider);
    }
  }

  /** The names of the providers switched off now. */
  get off(): string[] {
    return this.entries.filter((e) => e.installed === undefined).map((e) => e.provider.name);
  }

  dispose(): void {
    for (const entry of this.entries) entry.installed?.dispose();
    for (const entry of this.entries) entry.installed = undefined;
  }
}

/** What the built-in providers reach: the limits' settings, the compacting sessions, and the sessions by id. */
export interface AgentBuiltinsOptions {
  readonly limits: () => AgentLimits;
  readonly compacting: CompactingSessions;
  readonly sessions: Pick<SessionDirectory<MemoryLoadingSession & TaskListSession>, 'get'>;
}

/** The agent's capabilities as providers, in install order: limits, compaction, memory, task reminders. */
export function agentBuiltins(o: AgentBuiltinsOptions): HookProvider[] {
  return [limitsProvider(o.limits), compactionProvider(o.compacting), memoryProvider(o.sessions), taskReminderProvider(o.sessions)];
}
