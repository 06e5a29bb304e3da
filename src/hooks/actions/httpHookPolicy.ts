/**
 * The settings that limit http hooks, merged across settings files as Claude Code does:
 * `allowedHttpHookUrls` (absent = any URL; present = only URLs matching one pattern, so an
 * empty list blocks every http hook) and `httpHookAllowedEnvVars` (absent = no limit;
 * present = each hook's `allowedEnvVars` is narrowed to it). Arrays from every file are
 * concatenated; a list present in any file applies.
 */
export interface HttpHookPolicy {
  readonly allowedUrls?: readonly string[];
  readonly allowedEnvVars?: readonly string[];
}

/** Most patterns kept (a settings file is bounded anyway; this bounds the per-hook check). */
const MAX_PATTERNS = 1000;

/** A URL pattern with `*` wildcards (any run of characters) as an anchored regex. */
function patternRegex(pattern: string): RegExp {
  const escaped = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${escaped}$`);
}

/** True when `url` may be called under `policy`: no list, or a pattern matching the whole URL. */
export function httpUrlAllowed(url: string, policy: HttpHookPolicy): boolean {
  if (policy.allowedUrls === undefined) return true;
  return policy.allowedUrls.slice(0, MAX_PATTERNS).some((pattern) => patternRegex(pattern).test(url));
}

/** The variables a hook's headers may read: its own list, narrowed by the settings' list when there is one. */
export function effectiveAllowedEnvVars(handlerList: readonly string[] | undefined, policy: HttpHookPolicy): string[] {
  const own = handlerList ?? [];
  if (policy.allowedEnvVars === undefined) return [...own];
  const limit = new Set(policy.allowedEnvVars);
  return own.filter((name) => limit.has(name));
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

/** Adds one file's lists to a merged policy (concatenation; a list present anywhere applies). */
export function mergeHttpHookPolicy(into: HttpHookPolicy, add: HttpHookPolicy): HttpHookPolicy {
  return {
    ...(into.allowedUrls !== undefined || add.allowedUrls !== undefined ? { allowedUrls: [...(into.allowedUrls ?? []), ...(add.allowedUrls ?? [])] } : {}),
    ...(into.allowedEnvVars !== undefined || add.allowedEnvVars !== undefined
      ? { allowedEnvVars: [...(into.allowedEnvVars ?? []), ...(add.allowedEnvVars ?? [])] }
      : {}),
  };
}
