/**
 * Where a hook came from, shown wherever its decision is shown (docs/hooks.md §6): a config file
 * and the JSON path of the handler inside it, VS Code settings, or code registered through
 * the TypeScript API.
 */
export type HookSource =
  | {
      readonly kind: 'file';
      /**
       * Which configuration layer the file belongs to, decided by WHERE the loader found the
       * file (home directory, a workspace folder, a CLI flag), never derived from `displayFile`.
       */
      readonly scope: HookSourceScope;
      /** Absolute path of the file. */
      readonly file: string;
      /** Short path for display, e.g. `.claude/settings.json` or `~/.claude/settings.json`. */
      readonly displayFile: string;
      /** JSON path of the handler, e.g. `hooks.PreToolUse[0].hooks[1]`. */
      readonly jsonPath: string;
      /** The skill whose SKILL.md frontmatter defines the hook (scopes userSkill/projectSkill). */
      readonly skill?: string;
      /** Set for a plugin's hooks: its root and data directory are given to its command hooks. */
      readonly plugin?: { readonly name: string; readonly root: string; readonly dataDir: string; readonly managed?: true };
      /** The hook's switch id in `hookwise.hooks.disabled`, set by the loader for a hook (hookSwitches.ts hookIdentityId); not part of the label. */
      readonly switchId?: string;
      /** Set for another agent's file: that agent's name (`Copilot`), shown before the file in every label. */
      readonly format?: string;
    }
  | {
      readonly kind: 'settings';
      /** VS Code settings layer of `hookwise.hooks`. */
      readonly scope: 'user' | 'workspace' | 'workspaceFolder';
      /** Settings file when known (for "Go to Hook Definition"). */
      readonly file?: string;
      readonly jsonPath: string;
      /** The hook's switch id in `hookwise.hooks.disabled` (hookSwitches.ts hookIdentityId). */
      readonly switchId?: string;
    }
  | {
      readonly kind: 'code';
      /** Who registered it, e.g. `built-in: max steps` or a provider name. */
      readonly label: string;
    };

/**
 * The configuration layers of docs/hooks.md §6, in merge order. Agent files are split by where their
 * directory is: `userAgent` = `~/.claude/agents`, `projectAgent` = a workspace folder's
 * `.claude/agents` (docs/security.md).
 */
export type HookSourceScope =
  'user' | 'project' | 'local' | 'flag' | 'managed' | 'userAgent' | 'projectAgent' | 'userSkill' | 'projectSkill' | 'plugin' | 'projectPlugin';

/**
 * Per file scope, whether it lives in the workspace. A Record, so a new scope cannot be added
 * without deciding here; `flag` is a file the user named on the command line.
 */
const FILE_SCOPE_IS_PROJECT: Readonly<Record<HookSourceScope, boolean>> = {
  user: false,
  userAgent: false,
  userSkill: false,
  flag: false,
  managed: false,
  project: true,
  local: true,
  projectAgent: true,
  projectSkill: true,
  // A plugin installed by the user or named with --plugin-dir; one inside the workspace is projectPlugin.
  plugin: false,
  projectPlugin: true,
};

/**
 * True for sources inside the workspace, which need trust and approval before they run.
 * Decided from the typed scope only; anything unrecognised (e.g. data from an older
 * version) counts as project, so a mistake holds a hook instead of running it.
 */
export function isProjectSource(source: HookSource): boolean {
  if (source.kind === 'file') return FILE_SCOPE_IS_PROJECT[source.scope] ?? true;
  if (source.kind === 'settings') return source.scope !== 'user';
  return false;
}

/** Shown next to the source of a hook whose plugin the managed policy force-enables. */
export const MANAGED_PLUGIN_NOTE = 'plugin enabled by managed policy';

/** True for a hook of a plugin the managed policy force-enables (`enabledPlugins`): the policy vouches for it like for its own hooks. */
export function isManagedPluginSource(source: HookSource): boolean {
  return source.kind === 'file' && source.plugin?.managed === true;
}

/**
 * One-line description of a source, e.g. `.claude/settings.json › hooks.PreToolUse[0].hooks[1]`,
 * `Copilot .github/hooks/guard.json › hooks.preToolUse[0]`, `Cline .clinerules/hooks/PreToolUse` (the script is the hook),
 * `workspace settings › hookwise.hooks.Stop[0].hooks[0]` or `code: built-in: max steps`.
 */
export function describeSource(source: HookSource): string {
  if (source.kind === 'code') return source.label;
  // A whole file can be the hook (a Cline script): it has no path inside.
  return source.jsonPath === '' ? sourceDocumentLabel(source) : `${sourceDocumentLabel(source)} › ${source.jsonPath}`;
}

/** The document part of {@link describeSource}: `.claude/settings.json`, `skill tidy › SKILL.md`, `workspace settings`. */
export function sourceDocumentLabel(source: Exclude<HookSource, { kind: 'code' }>): string {
  if (source.kind === 'file')
    return source.skill !== undefined
      ? `skill ${source.skill} › SKILL.md`
      : source.format !== undefined
        ? `${source.format} ${source.displayFile}`
        : source.displayFile;
  return source.scope === 'user' ? 'user settings' : source.scope === 'workspace' ? 'workspace settings' : 'folder settings';
}
