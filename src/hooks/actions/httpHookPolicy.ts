import { isManagedPluginSource, isProjectSource, type HookSource } from '../../configFiles/hookSource';
import { compileHttpUrlPattern, parseHttpHookTarget, type HttpUrlPattern } from './httpUrlPattern';

/** One settings file's `allowedHttpHookUrls` / `httpHookAllowedEnvVars` as written (each absent when not set). */
export interface HttpHookSettings {
  readonly allowedUrls?: readonly string[];
  readonly allowedEnvVars?: readonly string[];
}

/**
 * Who set a list, and so whose hooks it binds: the managed policy's lists bind every hook, the
 * user's (`~/.claude/settings.json`, a CLI `--settings` file) bind user and project hooks, the
 * workspace's (`.claude/settings.json`, `.claude/settings.local.json`) bind only the workspace's
 * own hooks — a repository may narrow what its hooks call, never block or strip a user's hook.
 */
export type HttpPolicyLayer = 'managed' | 'user' | 'project';

/** One list and the file that set it (named in refusals). */
export interface HttpHookList {
  readonly layer: HttpPolicyLayer;
  readonly file: string;
  readonly entries: readonly string[];
}

/**
 * The lists of every settings file that sets them. Each list is a limit of its own: a hook's URL
 * must match a pattern of every list that binds it, and its headers may use only names in every
 * such `httpHookAllowedEnvVars` — the intersection, so a lower file can remove entries but never
 * add one (Claude Code concatenates the files' arrays; Hookwise is stricter).
 */
export interface HttpHookPolicy {
  readonly urlLists: readonly HttpHookList[];
  readonly envVarLists: readonly HttpHookList[];
}

/** The policy of no settings: any URL, any name the hook lists. */
export const NO_HTTP_HOOK_POLICY: HttpHookPolicy = { urlLists: [], envVarLists: [] };

/** Most patterns or names kept per list (a settings file is bounded anyway; this bounds the per-hook check). */
const MAX_ENTRIES = 1000;

const LAYER_RANK: Readonly<Record<HttpPolicyLayer, number>> = { managed: 0, user: 1, project: 2 };

/** The layer of a settings file that sets the lists: a CLI `--settings` file is the user's own, `settings.local.json` is the workspace's. */
export function httpPolicyLayerOfFile(scope: 'user' | 'project' | 'local' | 'flag' | 'managed'): HttpPolicyLayer {
  return scope === 'managed' ? 'managed' : scope === 'user' || scope === 'flag' ? 'user' : 'project';
}

/** The layer of a hook: the policy's own and its force-enabled plugins', the user's, or the workspace's (trust decides the same split). */
export function httpPolicyLayerOfHook(source: HookSource): HttpPolicyLayer {
  if ((source.kind === 'file' && source.scope === 'managed') || isManagedPluginSource(source)) return 'managed';
  return isProjectSource(source) ? 'project' : 'user';
}

/** Adds one settings file's lists (the order of files does not matter: every list applies on its own). */
export function addHttpHookSettings(into: HttpHookPolicy, add: HttpHookSettings, layer: HttpPolicyLayer, file: string): HttpHookPolicy {
  return {
    urlLists: add.allowedUrls !== undefined ? [...into.urlLists, { layer, file, entries: add.allowedUrls.slice(0, MAX_ENTRIES) }] : into.urlLists,
    envVarLists:
      add.allowedEnvVars !== undefined ? [...into.envVarLists, { layer, file, entries: add.allowedEnvVars.slice(0, MAX_ENTRIES) }] : into.envVarLists,
  };
}

/** True when a list set in `list.layer` binds a hook from `hookLayer` (lists bind their own layer and every layer below it). */
function binds(list: HttpHookList, hookLayer: HttpPolicyLayer): boolean {
  return LAYER_RANK[list.layer] <= LAYER_RANK[hookLayer];
}

/** Compiled patterns by text (undefined = not a pattern); cleared when it grows past a bound, since settings are reloaded many times. */
const compiledPatterns = new Map<string, HttpUrlPattern | undefined>();

function compiled(text: string): HttpUrlPattern | undefined {
  if (compiledPatterns.has(text)) return compiledPatterns.get(text);
  if (compiledPatterns.size >= 4 * MAX_ENTRIES) compiledPatterns.clear();
  const pattern = compileHttpUrlPattern(text);
  const value = 'matches' in pattern ? pattern : undefined;
  compiledPatterns.set(text, value);
  return value;
}

/** Whether an http hook may be called, and when not, a sentence naming the rule. */
export type HttpUrlVerdict = { readonly allowed: true } | { readonly allowed: false; readonly reason: string };

/**
 * Decides whether a hook from `hookLayer` may POST to `url`: never with user info, an invalid
 * URL or a scheme other than http(s); with lists, only when the parsed URL matches a pattern of
 * every list that binds the hook, and no `%2F`/`%5C` hides a separator from the path check.
 */
export function checkHttpHookUrl(url: string, policy: HttpHookPolicy, hookLayer: HttpPolicyLayer): HttpUrlVerdict {
  const parsed = parseHttpHookTarget(url);
  if (!parsed.ok) return { allowed: false, reason: parsed.reason };
  const { target } = parsed;
  const lists = policy.urlLists.filter((list) => binds(list, hookLayer));
  if (lists.length === 0) return { allowed: true };
  if (target.encodedSeparator)
    return {
      allowed: false,
      reason: `the path of ${target.href} holds an encoded / or \\ (%2F, %5C) that a server may read as a separator, so allowedHttpHookUrls (${lists[0]?.file}) cannot check it`,
    };
  for (const list of lists) {
    if (list.entries.length === 0) return { allowed: false, reason: `allowedHttpHookUrls is empty in ${list.file}, which blocks every http hook` };
    const patterns = list.entries.map(compiled).filter((p): p is HttpUrlPattern => p !== undefined);
    if (!patterns.some((p) => p.matches(target))) {
      const shown = list.entries.slice(0, 5).join(', ') + (list.entries.length > 5 ? ', …' : '');
      return { allowed: false, reason: `${target.href} matches none of allowedHttpHookUrls in ${list.file} (${shown})` };
    }
  }
  return { allowed: true };
}

/** The variables a hook's headers may read: its own list, narrowed by every `httpHookAllowedEnvVars` that binds it. */
export function effectiveAllowedEnvVars(handlerList: readonly string[] | undefined, policy: HttpHookPolicy, hookLayer: HttpPolicyLayer): string[] {
  const limits = policy.envVarLists.filter((list) => binds(list, hookLayer)).map((list) => new Set(list.entries));
  return (handlerList ?? []).filter((name) => limits.every((limit) => limit.has(name)));
}

const ENV_REF = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g;

/**
 * Expands `$VAR` and `${VAR}` in a header value: names in `allowed` get their value from
 * `env` (empty when unset), every other name becomes the empty string, as in Claude Code —
 * a header can never leak a variable the hook did not list.
 */
export function expandHeaderValue(value: string, allowed: ReadonlySet<string>, env: Readonly<Record<string, string | undefined>>): string {
  return value.replace(ENV_REF, (_match, braced: string | undefined, bare: string | undefined) => {
    const name = (braced ?? bare) as string;
    return allowed.has(name) ? (env[name] ?? '') : '';
  });
}
