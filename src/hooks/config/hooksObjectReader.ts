import { HOOK_EVENTS, isHookEvent, isKnownClaudeEvent, MATCHER_FIELD, type HookEvent } from '../hookEvent';
import { closestName } from './configDiagnostic';
import { describeValue, isPlainObject, type DiagnosticSink } from './diagnosticSink';
import { validateHandler } from './handlerValidation';
import type { HookHandlerConfig } from './hookConfigSchema';
import type { JsonSegment } from './jsonPath';
import { checkMatcher } from './matcherCheck';

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
    if (!isHookEvent(name)) {
      reportUnknownEvent(name, eventPath, sink);
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
    const event = options.mapEvent ? options.mapEvent(name) : name;
    groups.forEach((group, g) => entries.push(...readGroup(group, event, [...eventPath, g], sink)));
  }
  return entries;
}

function reportUnknownEvent(name: string, at: readonly JsonSegment[], sink: DiagnosticSink): void {
  // A Claude Code event with no meaning here (teammates, worktrees, …): accepted, never fired (README lists them).
  if (isKnownClaudeEvent(name)) return;
  const suggestion = closestName(name, HOOK_EVENTS);
  const hint = suggestion ? ` — did you mean "${suggestion}"?` : `; known events: ${HOOK_EVENTS.join(', ')}`;
  sink.report('error', 'unknownEvent', at, `unknown event "${name}"${hint} Its hooks are skipped`, { key: true, ...(suggestion ? { suggestion } : {}) });
}

function readGroup(group: unknown, event: HookEvent, at: readonly JsonSegment[], sink: DiagnosticSink): RawHookEntry[] {
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
  const handlers = group.hooks;
  if (handlers === undefined) {
    sink.report('error', 'wrongType', [...at, 'hooks'], 'missing required field "hooks" (an array of handlers); this group is skipped');
    return [];
  }
  if (!Array.isArray(handlers)) {
    sink.report('error', 'wrongType', [...at, 'hooks'], `"hooks" must be an array of handlers, got ${describeValue(handlers)}; this group is skipped`);
    return [];
  }
  const entries: RawHookEntry[] = [];
  handlers.forEach((raw, h) => {
    const path = [...at, 'hooks', h];
    const handler = validateHandler(raw, path, sink);
    if (!handler || handler.enabled === false) return;
    entries.push({ event, ...(matcher !== undefined ? { matcher } : {}), handler, path });
  });
  return entries;
}
