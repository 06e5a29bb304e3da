import type { ConfigDiagnostic } from '../../configFiles/configDiagnostic';

/**
 * The agent's own capabilities are built-in hook providers (src/agent/*Provider.ts,
 * defaultLimits.ts); their hooks carry the source `code: <name>`, and `name` is their switch id
 * in `hookwise.hooks.disabled`. Only the user's settings can switch one off: a workspace value
 * naming one is ignored like any id naming none of the project's hooks (workspaceNarrowing.ts).
 */
export const BUILTIN_PROVIDERS = Object.freeze({
  compaction: 'built-in compaction',
  limits: 'built-in limits',
  memory: 'built-in memory',
  taskReminders: 'built-in task reminders',
});

/**
 * Built-in providers that never switch off: the step, token and time limits are what ends a
 * runaway loop, so a switch must not silently remove them (fail safe). They are raised by
 * their settings (`hookwise.agent.maxSteps`) and tightened by adding a hook of one's own.
 */
export const ALWAYS_ON_BUILTINS: ReadonlySet<string> = new Set([BUILTIN_PROVIDERS.limits]);

/**
 * A switch id as typed on a command line: `builtin.compaction` (or `builtin:compaction`) is the
 * built-in provider `built-in compaction`, which has a space in it; any other id is kept as it is.
 */
export function switchIdOf(typed: string): string {
  const id = typed.trim();
  const key = /^builtin[.:]([A-Za-z]+)$/.exec(id)?.[1];
  const name = key !== undefined && Object.hasOwn(BUILTIN_PROVIDERS, key) ? (BUILTIN_PROVIDERS as Readonly<Record<string, string>>)[key] : undefined;
  return name ?? id;
}

/** True for the source label of a built-in provider's hooks (`built-in compaction`, …). */
export function isBuiltinProviderLabel(label: string): boolean {
  return (Object.values(BUILTIN_PROVIDERS) as readonly string[]).includes(label);
}

/** The user's switch ids minus the always-on built-ins, with a warning for each one dropped. */
export function withoutAlwaysOn(ids: readonly string[], file: string | undefined): { ids: string[]; diagnostics: ConfigDiagnostic[] } {
  const diagnostics: ConfigDiagnostic[] = [];
  const kept = ids.filter((id) => {
    if (!ALWAYS_ON_BUILTINS.has(id)) return true;
    diagnostics.push({
      ...(file !== undefined ? { file } : {}),
      displayFile: 'user settings',
      jsonPath: 'hookwise.hooks.disabled',
      severity: 'warning',
      code: 'cannotLoosen',
      message: `"${id}" cannot be switched off: the step, token and time limits end a runaway agent, so they always run. Raise hookwise.agent.maxSteps instead, or add a hook of your own for a stricter limit.`,
    });
    return false;
  });
  return { ids: kept, diagnostics };
}
