import type { HookEventResult } from '../hooks/hookRunTypes';
import { parseBoundedJson } from '../shared/boundedJson';

/**
 * The values of one `hookSpecificOutput` key that an event's successful hooks printed, in
 * registration order (e.g. SessionStart `watchPaths`, PermissionDenied `retry`). The output
 * schema keeps only the fields every event shares; the 2026 events' own fields are read from
 * the records here, so a hook that printed nothing costs nothing.
 */
export function hookSpecificValues(result: HookEventResult, key: string): unknown[] {
  const values: unknown[] = [];
  for (const record of result.records) {
    if (record.status !== 'ok' && record.status !== 'blocked') continue;
    const stdout = record.raw?.stdout.trim();
    if (!stdout?.startsWith('{')) continue;
    const parsed = parseBoundedJson(stdout);
    if (!parsed.ok || parsed.value === null || typeof parsed.value !== 'object') continue;
    const specific = (parsed.value as { hookSpecificOutput?: unknown }).hookSpecificOutput;
    if (specific === null || typeof specific !== 'object') continue;
    const value = (specific as Record<string, unknown>)[key];
    if (value !== undefined) values.push(value);
  }
  return values;
}
