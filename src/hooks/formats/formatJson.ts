import { getNodeValue, parseTree, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { findExcessNesting, MAX_CONFIG_DEPTH } from '../../configFiles/configLimits';
import { DiagnosticSink, describeValue } from '../../configFiles/diagnosticSink';
import type { JsonSegment } from '../../configFiles/jsonPath';
import { jsoncLocator } from '../../configFiles/nodeLocator';
import { isPlainObject } from '../../shared/jsonObject';

/** Most entries read per event in one file (a hooks file with thousands is not written by hand). */
export const MAX_FORMAT_ENTRIES = 200;
/** Longest command string accepted. */
export const MAX_COMMAND_CHARS = 16_000;

/** A foreign JSON hooks file, parsed within the `.claude` bounds, with a sink placing diagnostics in it. */
export type FormatJsonRead =
  { readonly ok: true; readonly value: Record<string, unknown>; readonly sink: DiagnosticSink } | { readonly ok: false; readonly sink: DiagnosticSink };

/**
 * Parses a JSON(C) hooks file of another agent the way claudeSettingsReader.ts does: nesting past
 * MAX_CONFIG_DEPTH is refused before parsing (one `tooDeep` error), a text that is not an object
 * is one `notJson` error naming the file, syntax errors inside an object are reported and the rest
 * is read. `what` names the format in messages, e.g. `Copilot hooks file`.
 */
export function readFormatJson(rawText: string, where: { readonly file: string; readonly displayFile: string }, what: string): FormatJsonRead {
  const text = rawText.replace(/^\uFEFF/, ' ');
  const tooDeep = findExcessNesting(text);
  if (tooDeep !== undefined) {
    const sink = new DiagnosticSink({ ...where, text });
    sink.reportAt('error', 'tooDeep', tooDeep, 1, `nested deeper than ${MAX_CONFIG_DEPTH} levels here; this ${what} is ignored entirely until it is fixed`);
    return { ok: false, sink };
  }
  const errors: ParseError[] = [];
  const root = text.trim() === '' ? undefined : parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  const sink = new DiagnosticSink({ ...where, text, locator: jsoncLocator(root) });
  if (text.trim() === '') return { ok: true, value: {}, sink };
  if (!root || root.type !== 'object') {
    const first = errors[0];
    const detail = first
      ? `${printParseErrorCode(first.error)} at this position`
      : `the top level is ${describeValue(root ? getNodeValue(root) : undefined)}, not an object`;
    sink.reportAt(
      'error',
      'notJson',
      first?.offset ?? 0,
      first?.length ?? 0,
      `not a JSON object (${detail}); this ${what} is ignored entirely until it is fixed`,
    );
    return { ok: false, sink };
  }
  for (const error of errors)
    sink.reportAt(
      'error',
      'syntaxError',
      error.offset,
      error.length,
      `JSON syntax error: ${printParseErrorCode(error.error)}; the rest of the file is still read`,
    );
  return { ok: true, value: getNodeValue(root) as Record<string, unknown>, sink };
}

/** One `"<event>": [entry, …]` list of a `{"hooks": {...}}` file, with its path. */
export interface EventList {
  readonly name: string;
  readonly entries: { readonly value: unknown; readonly path: JsonSegment[] }[];
}

/**
 * The event lists of `value.hooks` (Copilot, Cursor, Windsurf share this shape): a missing `hooks`
 * gives none; a wrong type is an error; an event whose value is not an array is an error and
 * skipped; more than MAX_FORMAT_ENTRIES entries are reported and cut.
 */
export function readEventLists(value: Record<string, unknown>, sink: DiagnosticSink): EventList[] {
  const hooks = value.hooks;
  if (hooks === undefined) return [];
  if (!isPlainObject(hooks)) {
    sink.report(
      'error',
      'wrongType',
      ['hooks'],
      `"hooks" must be an object of event names to arrays of hooks, got ${describeValue(hooks)}; no hook of this file loads`,
    );
    return [];
  }
  const lists: EventList[] = [];
  for (const [name, raw] of Object.entries(hooks)) {
    if (!Array.isArray(raw)) {
      sink.report('error', 'wrongType', ['hooks', name], `"${name}" must be an array of hooks, got ${describeValue(raw)}; it is skipped`);
      continue;
    }
    if (raw.length > MAX_FORMAT_ENTRIES)
      sink.report('error', 'tooLarge', ['hooks', name], `${raw.length} hooks; only the first ${MAX_FORMAT_ENTRIES} are read`);
    lists.push({ name, entries: raw.slice(0, MAX_FORMAT_ENTRIES).map((v: unknown, i) => ({ value: v, path: ['hooks', name, i] })) });
  }
  return lists;
}

/** A string field: undefined when absent; a wrong type or an over-long value is an error (and undefined). */
export function stringField(entry: Record<string, unknown>, key: string, at: readonly JsonSegment[], sink: DiagnosticSink): string | undefined {
  const raw = entry[key];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string') {
    sink.report('error', 'wrongType', [...at, key], `"${key}" must be a string, got ${describeValue(raw)}; it is ignored`);
    return undefined;
  }
  if (raw.length > MAX_COMMAND_CHARS) {
    sink.report('error', 'tooLarge', [...at, key], `"${key}" is ${raw.length} characters, over ${MAX_COMMAND_CHARS}; it is ignored`);
    return undefined;
  }
  return raw;
}

/** A positive number field (a time limit): undefined when absent or invalid (an error says so). */
export function positiveNumberField(entry: Record<string, unknown>, key: string, at: readonly JsonSegment[], sink: DiagnosticSink): number | undefined {
  const raw = entry[key];
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'number' || !Number.isFinite(raw) || raw <= 0) {
    sink.report('error', 'wrongType', [...at, key], `"${key}" must be a positive number, got ${describeValue(raw)}; the default applies`);
    return undefined;
  }
  return raw;
}

/** A boolean field: undefined when absent or invalid (an error says so). */
export function booleanField(entry: Record<string, unknown>, key: string, at: readonly JsonSegment[], sink: DiagnosticSink): boolean | undefined {
  const raw = entry[key];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'boolean') {
    sink.report('error', 'wrongType', [...at, key], `"${key}" must be true or false, got ${describeValue(raw)}; it is ignored`);
    return undefined;
  }
  return raw;
}

/** A `{name: string}` map (env): undefined when absent; wrong entries are errors and skipped. */
export function stringMapField(
  entry: Record<string, unknown>,
  key: string,
  at: readonly JsonSegment[],
  sink: DiagnosticSink,
): Record<string, string> | undefined {
  const raw = entry[key];
  if (raw === undefined) return undefined;
  if (!isPlainObject(raw)) {
    sink.report('error', 'wrongType', [...at, key], `"${key}" must be an object of strings, got ${describeValue(raw)}; it is ignored`);
    return undefined;
  }
  const out: Record<string, string> = {};
  for (const [name, v] of Object.entries(raw)) {
    if (typeof v === 'string') out[name] = v;
    else sink.report('error', 'wrongType', [...at, key, name], `must be a string, got ${describeValue(v)}; it is ignored`);
  }
  return out;
}

/** Warns for every key of `entry` not in `known` (a field Hookwise does not read is never dropped silently). */
export function warnUnknownKeys(
  entry: Record<string, unknown>,
  known: ReadonlySet<string>,
  at: readonly JsonSegment[],
  sink: DiagnosticSink,
  format: string,
): void {
  for (const key of Object.keys(entry))
    if (!known.has(key))
      sink.report('warning', 'notCarriedOver', [...at, key], `"${key}" is not a ${format} hook field Hookwise knows; it is ignored`, { key: true });
}
