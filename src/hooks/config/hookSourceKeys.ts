/** Which configuration sources the loader reads (`hookwise.hooks.sources`). */
export const HOOK_SOURCE_KEYS = ['user', 'claudeUser', 'project', 'local', 'workspace', 'agents', 'plugins'] as const;
/** One selectable source: VS Code user settings, `~/.claude/settings.json`, `.claude/settings.json`, `.claude/settings.local.json`, workspace/folder settings, agent files, plugins' hooks files. */
export type HookSourceKey = (typeof HOOK_SOURCE_KEYS)[number];
