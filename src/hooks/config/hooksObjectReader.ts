import { HOOK_EVENTS, isKnownClaudeEvent, MATCHER_FIELD, type HookEvent } from '../hookEvent';
import { resolveEventName } from '../hookAliases';
import { TOOL_EVENTS } from '../hookCondition';
import { closestName } from '../../configFiles/configDiagnostic';
import { describeValue, type DiagnosticSink } from '../../configFiles/diagnosticSink';
import { validateHandler } from './handlerValidation';
import type { HookHandlerConfig } from './hookConfigSchema';
import type { JsonSegment } from '../../configFiles/jsonPath';
import { checkMatcher } from './matcherCheck';
import { isPlainObject } from '../../shared/jsonObject';

const GROUP_KEYS = new Set(['matcher', 'hooks']);

/** One handler found in a hooks object, before source tagging. */
export interface RawHookEntry {
  readonly event: HookEvent;
  readonly matcher?: string;
  readonly handler: HookHandlerConfig;
  /** Segments of the handler relative to the document root, e.g. `['hooks', 'PreToolUse', 0, 'hooks', 1]`. */
  readonly path: readonly JsonSegment[];
}

/** How to read one hooks object. */
export interface HooksObjectOptions {
  /** Rename events (agent files: `Stop` → `SubagentStop`). */
  readonly mapEvent?: (event: HookEvent) => HookEvent;
  /** Keys to skip silently (VS Code nests `hookwise.hooks.enabled`/`.sources` into the `hookwise.hooks` value). */
  readonly ignoreKeys?: ReadonlySet<string>;
  /** Honour `once` (agent files); elsewhere it is ignored with a warning, as Claude Code ignores it in settings files. */
  readonly allowOnce?: boolean;
}

/**
 * Reads a Claude `hooks` object entry by entry: every bad event, group or handler is
 * reported and skipped, the rest still loads. `enabled: false` handlers are dropped silently.
 */
export function readHooksObject(value: unknown, at: readonly JsonSegment[], sink: DiagnosticSink, options: HooksObjectOptions = {}): RawHookEntry[] {
  const entries: RawHookEntry[] = [];
  if (value === undefined || value === null) return entries;
  if (!isPlainObject(value)) {
    sink.report(
      'error',
      'wrongType',
      at,
      `hooks must be an object of event names, like {"PreToolUse": [...]}, got ${describeValue(value)}; no hooks are read from it`,
    );
    return entries;
  }
  for (const [name, groups] of Object.entries(value)) {
    if (options.ignoreKeys?.has(name)) continue;
    const eventPath = [...at, name];
    // Claude's names, and the alternate spellings (camelCase, snake_case, BeforeToolUse…; see hookAliases.ts).
    const resolved = resolveEventName(name);
    if (resolved === undefined) {
      reportUnknownEvent(name, eventPath, sink);
      continue;
    }
    const event = options.mapEvent ? options.mapEvent(resolved) : resolved;
    if (isPlainObject(groups)) {
      // The named-map form (an alternate spelling): {"security-check": {"command": "…", "matcher": "Bash"}, "audit-log": "echo …"}.
      for (const [hookName, item] of Object.entries(groups)) entries.push(...readGroup(asGroup(item), event, [...eventPath, hookName], sink, options));
      continue;
    }
    if (!Array.isArray(groups)) {
      sink.report(
        'error',
        'wrongType',
        eventPath,
        `${name} must be an array of matcher groups like [{"matcher": "…", "hooks": [...]}], got ${describeValue(groups)}; its hooks are skipped`,
      );
      continue;
    }
    groups.forEach((group, g) => entries.push(...readGroup(asGroup(group), event, [...eventPath, g], sink, options)));
  }
  return entries;
}

/** Marks a group made from a shorthand: its handler sits at the group's own path. */
const SHORTHAND = Symbol('shorthand');

/**
 * A group entry as a matcher group: a command string, or a handler object without `hooks`
 * (its `matcher` is the group's), becomes a one-handler group. Anything else is returned as is.
 */
function asGroup(item: unknown): unknown {
  if (typeof item === 'string') return { hooks: [item], [SHORTHAND]: true };
  if (isPlainObject(item) && item.hooks === undefined && (typeof item.command === 'string' || typeof item.type === 'string')) {
    const { matcher, ...handler } = item;
    return { ...(matcher !== undefined ? { matcher } : {}), hooks: [handler], [SHORTHAND]: true };
  }
  return item;
}

function reportUnknownEvent(name: string, at: readonly JsonSegment[], sink: DiagnosticSink): void {
  // A Claude Code event with no meaning here (teammates, worktrees, …): accepted, never fired (docs/hooks.md lists them).
  if (isKnownClaudeEvent(name)) return;
  const suggestion = closestName(name, HOOK_EVENTS);
  const hint = suggestion ? ` — did you mean "${suggestion}"?` : `; known events: ${HOOK_EVENTS.join(', ')}`;
  // A warning, as in Claude Code since 2.1.101: one unknown key must not cost the file its other hooks.
  sink.report('warning', 'unknownEvent', at, `unknown event "${name}"${hint} Its hooks are skipped; the rest of the file loads`, {
    key: true,
    ...(suggestion ? { suggestion } : {}),
  });
}

function readGroup(group: unknown, event: HookEvent, at: readonly JsonSegment[], sink: DiagnosticSink, options: HooksObjectOptions): RawHookEntry[] {
  const shorthand = isPlainObject(group) && (group as Record<PropertyKey, unknown>)[SHORTHAND] === true;
  if (!isPlainObject(group)) {
    sink.report(
      'error',
      'wrongType',
      at,
      `a matcher group must be an object like {"matcher": "Bash", "hooks": [...]}, got ${describeValue(group)}; it is skipped`,
    );
    return [];
  }
  const matcher = group.matcher;
  if (matcher !== undefined && typeof matcher !== 'string') {
    sink.report('error', 'wrongType', [...at, 'matcher'], `"matcher" must be a string, got ${describeValue(matcher)}; this group is skipped`);
    return [];
  }
  if (matcher !== undefined) {
    const check = checkMatcher(matcher);
    if (check.error) {
      sink.report('error', 'invalidMatcher', [...at, 'matcher'], check.error);
      return [];
    }
    if (check.warning) sink.report('warning', 'suspiciousMatcher', [...at, 'matcher'], check.warning);
    if (matcher !== '' && matcher !== '*' && MATCHER_FIELD[event] === undefined) {
      sink.report(
        'warning',
        'ignoredMatcher',
        [...at, 'matcher'],
        `${event} has no matcher field, so this matcher is ignored and the group runs for every ${event}`,
      );
    }
  }
  for (const key of Object.keys(group)) {
    if (!GROUP_KEYS.has(key))
      sink.report('warning', 'unknownField', [...at, key], `unknown field "${key}" in a matcher group; it is ignored (handlers go inside "hooks")`, {
        key: true,
      });
  }
  // Alternate spellings: "hooks": "cmd" or "hooks": ["cmd", …].
  const handlers = typeof group.hooks === 'string' ? [group.hooks] : group.hooks;
  if (handlers === undefined) {
    sink.report('error', 'wrongType', [...at, 'hooks'], 'missing required field "hooks" (an array of handlers); this group is skipped');
    return [];
  }
  if (!Array.isArray(handlers)) {
    sink.report('error', 'wrongType', [...at, 'hooks'], `"hooks" must be an array of handlers, got ${describeValue(handlers)}; this group is skipped`);
    return [];
  }
  const entries: RawHookEntry[] = [];
  handlers.forEach((raw: unknown, h) => {
    const path = shorthand ? [...at] : [...at, 'hooks', h];
    const validated = validateHandler(typeof raw === 'string' ? { type: 'command', command: raw } : raw, path, sink);
    if (!validated || validated.enabled === false) return;
    const handler = checkEventFields(validated, event, path, sink, options);
    if (!handler) return;
    entries.push({ event, ...(matcher !== undefined ? { matcher } : {}), handler, path });
  });
  return entries;
}

/**
 * `if` and `once` checks that depend on the event and the source: an `if` outside the tool
 * events can never hold (Claude Code never runs such a hook), so the hook is skipped with a
 * warning; `once` outside agent files is dropped with a warning (Claude Code ignores it there).
 */
function checkEventFields(
  handler: HookHandlerConfig,
  event: HookEvent,
  at: readonly JsonSegment[],
  sink: DiagnosticSink,
  options: HooksObjectOptions,
): HookHandlerConfig | undefined {
  if (handler.if !== undefined && !TOOL_EVENTS.has(event)) {
    sink.report(
      'warning',
      'ignoredCondition',
      [...at, 'if'],
      `"if" only applies to tool events (${[...TOOL_EVENTS].join(', ')}); on ${event} it never holds, so this hook is skipped`,
      { key: true },
    );
    return undefined;
  }
  if (handler.once !== undefined && options.allowOnce !== true) {
    sink.report(
      'warning',
      'ignoredOnce',
      [...at, 'once'],
      '"once" is honoured only in agent files (.claude/agents/*.md); in settings it is ignored and the hook runs every time',
      { key: true },
    );
    const { once: _ignored, ...rest } = handler;
    return rest as HookHandlerConfig;
  }
  return handler;
}
