import { ALWAYS_ON_BUILTINS } from '../hooks/config/builtinSwitches';
import type { HookDisposable } from '../hooks/hookRegistry';
import type { HookProvider, HooksApi } from '../hooks/hooksApi';

interface Entry {
  readonly provider: HookProvider;
  installed: HookDisposable | undefined;
}

/**
 * The agent's own capabilities (limits, compaction), installed as hook providers through the
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
