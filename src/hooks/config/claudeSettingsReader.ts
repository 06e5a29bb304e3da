import { DiagnosticSink, describeValue } from '../../configFiles/diagnosticSink';
import { readHooksObject, type RawHookEntry } from './hooksObjectReader';
import type { JsonSegment } from '../../configFiles/jsonPath';
import { readJsonObjectText } from '../formats/formatJson';
import { parsePermissionRule, type PermissionBehavior, type PermissionRule } from '../../permissions/permissionRules';
import type { ConfigDiagnostic } from '../../configFiles/configDiagnostic';
import type { HttpHookSettings } from '../actions/httpHookPolicy';
import { compileHttpUrlPattern } from '../actions/httpUrlPattern';
import { isPlainObject } from '../../shared/jsonObject';

/** What one Claude settings file contributes. */
export interface ClaudeSettingsContent {
  readonly hooks: RawHookEntry[];
  /** `disableAllHooks` as written (undefined when absent or invalid). */
  readonly disableAllHooks?: boolean;
  /** Where `disableAllHooks` is (a warning, message empty, the loader fills in when it cannot apply to every hook). */
  readonly disableAllHooksAt?: ConfigDiagnostic;
  /** Managed-policy switches as written (they take effect only in the managed file). */
  readonly policy: PolicySwitches;
  readonly permissionRules: { readonly behavior: PermissionBehavior; readonly rule: PermissionRule; readonly path: readonly JsonSegment[] }[];
  readonly defaultMode?: string;
  readonly additionalDirectories: string[];
  /** `allowedHttpHookUrls` / `httpHookAllowedEnvVars` as written (absent when not set or invalid). */
  readonly httpPolicy?: HttpHookSettings;
  /**
   * The boolean `enabledPlugins` entries, each with a warning placed at it (message empty) that the
   * loader fills in when the managed policy overrides the entry. Other values are the plugin loader's to report.
   */
  readonly enabledPlugins?: readonly EnabledPluginEntry[];
  /** What in `enabledPlugins` is not a `true`/`false` entry, for the plugin loader to report (once, naming the place). */
  readonly enabledPluginProblems?: readonly EnabledPluginProblem[];
  readonly diagnostics: ConfigDiagnostic[];
}

/** One `"name@marketplace": true|false` entry of `enabledPlugins`. */
export interface EnabledPluginEntry {
  readonly id: string;
  readonly on: boolean;
  readonly at: ConfigDiagnostic;
}

/** A part of `enabledPlugins` that is ignored: `jsonPath` like `enabledPlugins["x@m"]`. */
export interface EnabledPluginProblem {
  readonly jsonPath: string;
  readonly message: string;
}

/** Switches Claude Code honours only in managed settings. */
export interface PolicySwitches {
  /** Only the managed file's hooks run, and those of plugins it force-enables (other plugin and agent/skill frontmatter hooks are skipped). */
  readonly allowManagedHooksOnly?: boolean;
  /** Only the managed file's permission rules apply. */
  readonly allowManagedPermissionRulesOnly?: boolean;
  /** `permissions.disableBypassPermissionsMode: "disable"`: bypassPermissions cannot be used. */
  readonly disableBypassPermissionsMode?: boolean;
}

const PERMISSION_MODES = new Set(['default', 'acceptEdits', 'plan', 'bypassPermissions', 'dontAsk']);

/**
 * Reads a Claude settings file (JSONC: comments and trailing commas are fine). A text that is
 * not a JSON object contributes nothing and yields one error; syntax errors inside an object
 * are reported and the recoverable part still loads; each bad entry is skipped on its own.
 * Nesting over MAX_CONFIG_DEPTH makes the whole file one `tooDeep` error.
 */
export function readClaudeSettingsText(rawText: string, where: { readonly file?: string; readonly displayFile: string }): ClaudeSettingsContent {
  const empty = (diagnostics: ConfigDiagnostic[]): ClaudeSettingsContent => ({
    hooks: [],
    permissionRules: [],
    additionalDirectories: [],
    policy: {},
    diagnostics,
  });
  if (rawText.trim() === '') return empty([]);
  const read = readJsonObjectText(rawText, where, {
    shape: 'JSON settings object',
    ignored: 'this file is ignored entirely — none of its hooks or permissions load until it is fixed',
  });
  if (!read.ok) return empty(read.sink.diagnostics);
  const { value, sink, text, locator } = read;

  let disableAllHooks: boolean | undefined;
  if (value.disableAllHooks !== undefined) {
    if (typeof value.disableAllHooks === 'boolean') disableAllHooks = value.disableAllHooks;
    else
      sink.report(
        'error',
        'wrongType',
        ['disableAllHooks'],
        `"disableAllHooks" must be true or false, got ${describeValue(value.disableAllHooks)}; it is ignored`,
      );
  }
  const hooks = readHooksObject(value.hooks, ['hooks'], sink);
  const permissions = readPermissions(value.permissions, sink);
  const allowedUrls = readStringList(value, 'allowedHttpHookUrls', 'URL patterns like "https://hooks.example.com/*"', sink);
  const allowedEnvVars = readStringList(value, 'httpHookAllowedEnvVars', 'variable names like "MY_TOKEN"', sink);
  const httpPolicy: HttpHookSettings | undefined =
    allowedUrls !== undefined || allowedEnvVars !== undefined
      ? { ...(allowedUrls !== undefined ? { allowedUrls } : {}), ...(allowedEnvVars !== undefined ? { allowedEnvVars } : {}) }
      : undefined;
  return {
    hooks,
    ...(disableAllHooks !== undefined ? { disableAllHooks } : {}),
    ...(disableAllHooks === true ? { disableAllHooksAt: placeAt(['disableAllHooks'], new DiagnosticSink({ ...where, text, locator })) } : {}),
    ...permissions,
    ...(httpPolicy !== undefined ? { httpPolicy } : {}),
    policy: readPolicySwitches(value, sink),
    ...readEnabledPlugins(value.enabledPlugins, new DiagnosticSink({ ...where, text, locator })),
    diagnostics: sink.diagnostics,
  };
}

/** A warning placed at `at` with an empty message, for the loader to fill in (undefined when the sink cannot place it). */
function placeAt(at: readonly JsonSegment[], places: DiagnosticSink): ConfigDiagnostic | undefined {
  places.report('warning', 'cannotLoosen', [...at], '');
  return places.diagnostics[places.diagnostics.length - 1];
}

/** Bound on `enabledPlugins` entries kept from one file (the plugin loader reads at most MAX_PLUGINS anyway). */
const MAX_PLUGIN_ENTRIES = 1000;

function readEnabledPlugins(value: unknown, places: DiagnosticSink): Pick<ClaudeSettingsContent, 'enabledPlugins' | 'enabledPluginProblems'> {
  if (value === undefined) return {};
  if (!isPlainObject(value))
    return { enabledPluginProblems: [{ jsonPath: 'enabledPlugins', message: 'must be an object like {"name@marketplace": true}; it is ignored' }] };
  const out: EnabledPluginEntry[] = [];
  const problems: EnabledPluginProblem[] = [];
  for (const [id, on] of Object.entries(value)) {
    if (typeof on !== 'boolean') {
      problems.push({ jsonPath: `enabledPlugins["${id}"]`, message: 'must be true or false; it is ignored' });
      continue;
    }
    if (out.length >= MAX_PLUGIN_ENTRIES) break;
    places.report('warning', 'overriddenByPolicy', ['enabledPlugins', id], '');
    const at = places.diagnostics[places.diagnostics.length - 1];
    if (at !== undefined) out.push({ id, on, at });
  }
  return { enabledPlugins: out, ...(problems.length > 0 ? { enabledPluginProblems: problems } : {}) };
}

/**
 * A top-level array of strings. A wrong type is an error and, for the URL allowlist, counts as
 * an empty list: a broken allowlist must block, never open every URL (docs/security.md).
 */
function readStringList(
  value: Record<string, unknown>,
  key: 'allowedHttpHookUrls' | 'httpHookAllowedEnvVars',
  what: string,
  sink: DiagnosticSink,
): string[] | undefined {
  const raw = value[key];
  if (raw === undefined) return undefined;
  const failClosed = key === 'allowedHttpHookUrls';
  if (!Array.isArray(raw)) {
    sink.report(
      'error',
      'wrongType',
      [key],
      `"${key}" must be an array of ${what}, got ${describeValue(raw)}; ${failClosed ? 'every http hook is blocked until it is fixed' : 'headers may use no variables until it is fixed'}`,
    );
    return [];
  }
  const list: string[] = [];
  raw.forEach((item: unknown, i) => {
    if (typeof item !== 'string') {
      sink.report('error', 'wrongType', [key, i], `must be a string, got ${describeValue(item)}; it is skipped`);
      return;
    }
    list.push(item);
    const pattern = failClosed ? compileHttpUrlPattern(item) : undefined;
    // Kept in the list (so the list still counts as set), but it matches no URL.
    if (pattern !== undefined && 'invalid' in pattern)
      sink.report('warning', 'invalidUrlPattern', [key, i], `${JSON.stringify(item)} is not a URL pattern (${pattern.invalid}); it matches no URL`);
  });
  return list;
}

function readPolicySwitches(value: Record<string, unknown>, sink: DiagnosticSink): PolicySwitches {
  const flag = (key: 'allowManagedHooksOnly' | 'allowManagedPermissionRulesOnly'): { [k: string]: boolean } => {
    const raw = value[key];
    if (raw === undefined) return {};
    if (typeof raw === 'boolean') return { [key]: raw };
    sink.report('error', 'wrongType', [key], `"${key}" must be true or false, got ${describeValue(raw)}; it is ignored`);
    return {};
  };
  const permissions = isPlainObject(value.permissions) ? value.permissions : {};
  const bypass = permissions.disableBypassPermissionsMode;
  if (bypass !== undefined && bypass !== 'disable')
    sink.report(
      'error',
      'wrongType',
      ['permissions', 'disableBypassPermissionsMode'],
      `"disableBypassPermissionsMode" can only be "disable", got ${describeValue(bypass)}; it is ignored`,
    );
  return {
    ...flag('allowManagedHooksOnly'),
    ...flag('allowManagedPermissionRulesOnly'),
    ...(bypass === 'disable' ? { disableBypassPermissionsMode: true } : {}),
  };
}

function readPermissions(raw: unknown, sink: DiagnosticSink): Pick<ClaudeSettingsContent, 'permissionRules' | 'defaultMode' | 'additionalDirectories'> {
  const result: { permissionRules: ClaudeSettingsContent['permissionRules']; defaultMode?: string; additionalDirectories: string[] } = {
    permissionRules: [],
    additionalDirectories: [],
  };
  if (raw === undefined) return result;
  if (!isPlainObject(raw)) {
    sink.report('error', 'wrongType', ['permissions'], `"permissions" must be an object with allow/ask/deny arrays, got ${describeValue(raw)}; it is ignored`);
    return result;
  }
  for (const behavior of ['allow', 'deny', 'ask'] as const) {
    const list = raw[behavior];
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      sink.report(
        'error',
        'wrongType',
        ['permissions', behavior],
        `"permissions.${behavior}" must be an array of rules, got ${describeValue(list)}; it is ignored`,
      );
      continue;
    }
    list.forEach((text: unknown, i) => {
      const at = ['permissions', behavior, i];
      if (typeof text !== 'string') {
        sink.report('error', 'wrongType', at, `a permission rule must be a string like "Bash(npm test:*)", got ${describeValue(text)}; it is skipped`);
        return;
      }
      const parsed = parsePermissionRule(text);
      if (!parsed.ok) {
        sink.report('error', 'invalidPermissionRule', at, `${parsed.message}; it is skipped`);
        return;
      }
      if (parsed.rule.inert)
        sink.report(
          'warning',
          'invalidPermissionRule',
          at,
          `${JSON.stringify(text)}: Hookwise does not evaluate "${parsed.rule.toolName}(…)" specifiers yet; the rule never matches`,
        );
      result.permissionRules.push({ behavior, rule: parsed.rule, path: at });
    });
  }
  if (raw.defaultMode !== undefined) {
    if (typeof raw.defaultMode === 'string' && PERMISSION_MODES.has(raw.defaultMode)) result.defaultMode = raw.defaultMode;
    else
      sink.report(
        'error',
        'wrongType',
        ['permissions', 'defaultMode'],
        `"defaultMode" must be one of ${[...PERMISSION_MODES].join(', ')}, got ${describeValue(raw.defaultMode)}; it is ignored`,
      );
  }
  const dirs = raw.additionalDirectories;
  if (Array.isArray(dirs)) result.additionalDirectories.push(...dirs.filter((d): d is string => typeof d === 'string'));
  else if (dirs !== undefined)
    sink.report(
      'error',
      'wrongType',
      ['permissions', 'additionalDirectories'],
      `"additionalDirectories" must be an array of paths, got ${describeValue(dirs)}; it is ignored`,
    );
  return result;
}
