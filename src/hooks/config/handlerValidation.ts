import type { z } from 'zod';
import { HANDLER_SCHEMAS, HANDLER_TYPES, type HookHandlerConfig } from './hookConfigSchema';
import { describeValue, type DiagnosticSink } from '../../configFiles/diagnosticSink';
import type { JsonSegment } from '../../configFiles/jsonPath';
import { isPlainObject } from '../../shared/jsonObject';

/** Claude Code handler fields Hookwise does not implement yet; accepted with a warning. */
const LATER_CLAUDE_FIELDS = new Set(['asyncRewake', 'continueOnBlock']);
/** Claude Code handler types Hookwise does not run. */
const LATER_CLAUDE_TYPES = new Set(['mcp_tool']);
const INTERNAL_TYPES = new Set(['callback', 'function']);

/** Seconds at or above which a timeout was probably meant in milliseconds. */
export const MILLISECOND_TIMEOUT_THRESHOLD = 1000;

/**
 * Longest hook timeout in seconds: Claude Code's (600 s since 2.1.3). A longer one is loaded
 * as this, with a warning; without a cap, values past Node's 32-bit timer limit fired at once.
 */
export const MAX_HOOK_TIMEOUT_SECONDS = 600;

/**
 * Validates one handler. Returns the parsed handler, or undefined (with diagnostics) when
 * it must be skipped. Warnings (milliseconds-looking timeout, unknown fields) keep it.
 */
export function validateHandler(input: unknown, at: readonly JsonSegment[], sink: DiagnosticSink): HookHandlerConfig | undefined {
  if (!isPlainObject(input)) {
    sink.report('error', 'wrongType', at, `a hook must be an object like {"type": "command", "command": "…"}, got ${describeValue(input)}; it is skipped`);
    return undefined;
  }
  const raw = withSeedForms(input);
  const type = raw.type;
  if (type === undefined) {
    sink.report('error', 'wrongType', [...at, 'type'], 'missing required field "type" (command, prompt, agent or http); this hook is skipped');
    return undefined;
  }
  if (typeof type !== 'string' || !(HANDLER_TYPES as readonly string[]).includes(type)) {
    const why =
      typeof type === 'string' && LATER_CLAUDE_TYPES.has(type)
        ? ` ("${type}" hooks are a newer Claude Code feature Hookwise does not run yet)`
        : typeof type === 'string' && INTERNAL_TYPES.has(type)
          ? ' ("callback" and "function" are internal to Claude Code)'
          : '';
    sink.report(
      'error',
      'unknownHandlerType',
      [...at, 'type'],
      `unknown hook type ${typeof type === 'string' ? JSON.stringify(type) : describeValue(type)}; expected "command", "prompt", "agent" or "http"${why}; this hook is skipped`,
    );
    return undefined;
  }
  const schema = HANDLER_SCHEMAS[type as keyof typeof HANDLER_SCHEMAS];
  const parsed = schema.safeParse(withUsableTimeout(raw, at, sink));
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      sink.report('error', 'wrongType', [...at, ...(issue.path as JsonSegment[])], `${describeIssue(issue, raw)}; this hook is skipped`);
    }
    return undefined;
  }
  const known = new Set(Object.keys(schema.shape));
  for (const key of Object.keys(raw)) {
    if (known.has(key)) continue;
    if (LATER_CLAUDE_FIELDS.has(key))
      sink.report('warning', 'unsupportedField', [...at, key], `"${key}" is a Claude Code option Hookwise does not support yet; it is ignored`, { key: true });
    else if (key === 'matcher')
      // The commonest misplacement: the hook then runs for every tool, which the author did not mean.
      sink.report(
        'warning',
        'unknownField',
        [...at, key],
        `"matcher" belongs on the matcher group, beside "hooks", not inside a handler; here it is ignored and this hook runs for every match of its group`,
        { key: true },
      );
    else sink.report('warning', 'unknownField', [...at, key], `unknown field "${key}" for a ${type} hook; it is ignored`, { key: true });
  }
  return parsed.data;
}

/**
 * The alternate handler spellings (docs/hooks.md "Other spellings"): no `type` but a `command` is a
 * command hook; `timeout_secs` is `timeout` (Claude's `timeout` wins when both are given).
 */
function withSeedForms(raw: Record<string, unknown>): Record<string, unknown> {
  if (raw.type !== undefined && raw.timeout_secs === undefined) return raw;
  const out: Record<string, unknown> = { ...raw };
  if (out.type === undefined && typeof out.command === 'string') out.type = 'command';
  if (out.timeout_secs !== undefined) {
    if (out.timeout === undefined) out.timeout = out.timeout_secs;
    delete out.timeout_secs;
  }
  return out;
}

/**
 * A timeout the runner can honour, decided here so the warning names the file and the JSON
 * path: not a finite positive number → dropped (the hook's default applies; skipping the
 * whole hook would silently drop a policy); above {@link MAX_HOOK_TIMEOUT_SECONDS} → capped.
 * Non-numbers are left to the schema, which reports them as errors.
 */
function withUsableTimeout(raw: Record<string, unknown>, at: readonly JsonSegment[], sink: DiagnosticSink): Record<string, unknown> {
  const timeout = raw.timeout;
  if (typeof timeout !== 'number') return raw;
  const where = [...at, 'timeout'];
  if (!Number.isFinite(timeout) || timeout <= 0) {
    sink.report(
      'warning',
      'timeoutOutOfRange',
      where,
      `timeout must be a positive number of seconds, got ${String(timeout)}; the hook's default timeout is used`,
    );
    const { timeout: _dropped, ...rest } = raw;
    return rest;
  }
  if (timeout <= MAX_HOOK_TIMEOUT_SECONDS) return raw;
  if (timeout >= MILLISECOND_TIMEOUT_THRESHOLD)
    sink.report('warning', 'timeoutInMilliseconds', where, millisecondsMessage(timeout), { suggestion: String(timeout / 1000) });
  else
    sink.report(
      'warning',
      'timeoutOutOfRange',
      where,
      `timeout ${timeout} s is over the ${MAX_HOOK_TIMEOUT_SECONDS} s maximum; loaded as ${MAX_HOOK_TIMEOUT_SECONDS}`,
    );
  return { ...raw, timeout: MAX_HOOK_TIMEOUT_SECONDS };
}

/** `timeout is in seconds; 30000 s is 8.3 hours — did you mean 30? (loaded as 600, the maximum)` */
export function millisecondsMessage(seconds: number): string {
  const span = seconds >= 86400 ? `${round1(seconds / 86400)} days` : seconds >= 3600 ? `${round1(seconds / 3600)} hours` : `${round1(seconds / 60)} minutes`;
  return `timeout is in seconds; ${seconds} s is ${span} — did you mean ${round1(seconds / 1000)}? (loaded as ${MAX_HOOK_TIMEOUT_SECONDS}, the maximum)`;
}

function round1(n: number): string {
  return String(Math.round(n * 10) / 10);
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

const EXPECTED_NAMES: Record<string, string> = {
  number: 'a number',
  string: 'a string',
  boolean: 'true or false',
  int: 'an integer',
  array: 'an array',
  object: 'an object',
};

/** A zod issue as a sentence about the user's value. */
function describeIssue(issue: z.core.$ZodIssue, raw: unknown): string {
  const field = issue.path.length > 0 ? `"${issue.path.map(String).join('.')}"` : 'the hook';
  const value = valueAt(raw, issue.path);
  switch (issue.code) {
    case 'invalid_type': {
      if (value === undefined) return `missing required field ${field}`;
      const expected = EXPECTED_NAMES[issue.expected] ?? issue.expected;
      const unit = issue.path[issue.path.length - 1] === 'timeout' ? ' (seconds)' : '';
      return `${field} must be ${expected}${unit}, got ${describeValue(value)}`;
    }
    case 'too_small':
      return issue.origin === 'string'
        ? `${field} must not be empty`
        : `${field} must be ${issue.inclusive ? 'at least' : 'greater than'} ${String(issue.minimum)}, got ${describeValue(value)}`;
    default:
      return `${field}: ${issue.message}`;
  }
}
