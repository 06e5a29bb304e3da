import { getNodeValue, parseTree, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { findExcessNesting, MAX_CONFIG_DEPTH } from '../../configFiles/configLimits';
import { DiagnosticSink, describeValue } from '../../configFiles/diagnosticSink';
import type { JsonSegment } from '../../configFiles/jsonPath';
import { jsoncLocator, type NodeLocator } from '../../configFiles/nodeLocator';
import { isPlainObject } from '../../shared/jsonObject';
import type { HookEvent } from '../hookEvent';
import type { FormatBinding, FormatHookEntry, HookFormatId } from './hookFormat';

/** Most entries read per event in one file (a hooks file with thousands is not written by hand). */
export const MAX_FORMAT_ENTRIES = 200;
/** Longest command string accepted. */
export const MAX_COMMAND_CHARS = 16_000;

/** The wording of the two whole-file errors: what the text should be and what ignoring it costs. */
export interface JsonFileWording {
  /** What the top level must be, e.g. `JSON object`. */
  readonly shape: string;
  /** The consequence, e.g. `this Cursor hooks file is ignored entirely until it is fixed`. */
  readonly ignored: string;
}

/** A JSON(C) text read as an object, with a sink placing diagnostics in it (`text` has a BOM blanked, `locator` finds paths in it). */
export type JsonObjectRead =
  | {
      readonly ok: true;
      readonly value: Record<string, unknown>;
      readonly sink: DiagnosticSink;
      readonly text: string;
      readonly locator: NodeLocator;
    }
  | { readonly ok: false; readonly sink: DiagnosticSink };

/**
 * Parses a JSON(C) configuration text (comments and trailing commas are fine), for the `.claude`
 * settings reader and the other agents' hooks files alike: nesting past MAX_CONFIG_DEPTH is
 * refused before parsing (one `tooDeep` error), a text that is not an object is one `notJson`
 * error, syntax errors inside an object are reported and the rest is read. An empty text is `{}`.
 */
export function readJsonObjectText(rawText: string, where: { readonly file?: string; readonly displayFile: string }, wording: JsonFileWording): JsonObjectRead {
  // A BOM becomes a space: same length, so every offset, line and column stays true to the file.
  const text = rawText.replace(/^\uFEFF/, ' ');
  const tooDeep = findExcessNesting(text);
  if (tooDeep !== undefined) {
    // The JSON parser recurses per level: refuse before it overflows the stack (docs/security.md).
    const sink = new DiagnosticSink({ ...where, text });
    sink.reportAt('error', 'tooDeep', tooDeep, 1, `nested deeper than ${MAX_CONFIG_DEPTH} levels here; ${wording.ignored}`);
    return { ok: false, sink };
  }
  const errors: ParseError[] = [];
  const root = text.trim() === '' ? undefined : parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  const locator = jsoncLocator(root);
  const sink = new DiagnosticSink({ ...where, text, locator });
  if (text.trim() === '') return { ok: true, value: {}, sink, text, locator };
  if (!root || root.type !== 'object') {
    const first = errors[0];
    const detail = first
      ? `${printParseErrorCode(first.error)} at this position`
      : `the top level is ${describeValue(root ? getNodeValue(root) : undefined)}, not an object`;
    sink.reportAt('error', 'notJson', first?.offset ?? 0, first?.length ?? 0, `not a ${wording.shape} (${detail}); ${wording.ignored}`);
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
  return { ok: true, value: getNodeValue(root) as Record<string, unknown>, sink, text, locator };
}

/** A foreign JSON hooks file, parsed within the `.claude` bounds, with a sink placing diagnostics in it. */
export type FormatJsonRead =
  { readonly ok: true; readonly value: Record<string, unknown>; readonly sink: DiagnosticSink } | { readonly ok: false; readonly sink: DiagnosticSink };

/**
 * Parses a JSON(C) hooks file of another agent within the bounds of the `.claude` files
 * ({@link readJsonObjectText}). `what` names the format in messages, e.g. `Copilot hooks file`.
 */
export function readFormatJson(rawText: string, where: { readonly file: string; readonly displayFile: string }, what: string): FormatJsonRead {
  return readJsonObjectText(rawText, where, { shape: 'JSON object', ignored: `this ${what} is ignored entirely until it is fixed` });
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

/** What one event of a `{"hooks": {"<event>": [entry, …]}}` file means (Copilot, Cursor, Windsurf). */
export interface CommandEventRule {
  /** The Hookwise event it fires on. */
  readonly event: HookEvent;
  /** What its matcher tests; absent = the agent ignores a matcher on this event. */
  readonly matches?: string;
  /** Something about the whole event that does not carry over (a warning on its list). */
  readonly note?: string;
}

/** The format's own fields of one entry, beside the common ones. */
export interface CommandEntryExtras {
  readonly options?: Readonly<Record<string, string | number | boolean>>;
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string>>;
}

/** How one format's command entries read: its events and where its fields differ from the others'. */
export interface CommandEntryRules<R extends CommandEventRule> {
  readonly format: HookFormatId;
  /** `Copilot`, in messages. */
  readonly name: string;
  readonly events: Readonly<Record<string, R>>;
  /** Events of the agent with no Hookwise equivalent, and why. */
  readonly noEquivalent: Readonly<Record<string, string>>;
  /** Entry keys Hookwise knows (the rest are warned about). */
  readonly keys: ReadonlySet<string>;
  /** A valid entry, shown when one is not an object. */
  readonly example: string;
  /** The warning for a `type` that is not a command, undefined for a command; absent when the format has no `type`. */
  readonly typeWarning?: (type: unknown) => string | undefined;
  /** Keys naming the command on this platform, first found wins; and the diagnostic when none does. */
  readonly command: (windows: boolean) => {
    readonly keys: readonly string[];
    readonly missing: readonly ['error' | 'warning', 'wrongType' | 'notCarriedOver', string];
  };
  /** Keys of text Hookwise shows nowhere (`description`, `comment`): only their type is checked. */
  readonly textKeys?: readonly string[];
  /** Keys of the time limit in seconds, the first present wins; absent when the format has none. */
  readonly timeoutKeys?: readonly string[];
  /** The warning for a matcher on an event whose matcher the agent ignores; absent when the format has no matcher. */
  readonly ignoredMatcher?: (nativeEvent: string) => string;
  /** The format's own fields, read after the common ones. */
  readonly extras: (raw: Record<string, unknown>, nativeEvent: string, rule: R, at: readonly JsonSegment[], sink: DiagnosticSink) => CommandEntryExtras;
}

/**
 * The hooks of every event list of `value.hooks` ({@link readEventLists}): an event the format
 * does not know, or one with no Hookwise equivalent, is a warning and its hooks do not run; each
 * entry is read by {@link readCommandEntry}.
 */
export function readCommandEntries<R extends CommandEventRule>(
  value: Record<string, unknown>,
  sink: DiagnosticSink,
  rules: CommandEntryRules<R>,
): FormatHookEntry[] {
  const hooks: FormatHookEntry[] = [];
  for (const list of readEventLists(value, sink)) {
    const rule = rules.events[list.name];
    if (rule === undefined) {
      const why = rules.noEquivalent[list.name];
      sink.report(
        'warning',
        why !== undefined ? 'notCarriedOver' : 'unknownEvent',
        ['hooks', list.name],
        why !== undefined
          ? `${rules.name}'s ${list.name} is not carried over: ${why}; its hooks do not run`
          : `"${list.name}" is not a ${rules.name} hook event; its hooks do not run`,
        { key: true },
      );
      continue;
    }
    if (rule.note !== undefined) sink.report('warning', 'notCarriedOver', ['hooks', list.name], `${list.name}: ${rule.note}`, { key: true });
    for (const { value: raw, path: at } of list.entries) {
      const entry = readCommandEntry(raw, list.name, rule, at, sink, rules);
      if (entry !== undefined) hooks.push(entry);
    }
  }
  return hooks;
}

/**
 * One command entry: not an object, a `type` other than a command, or no command is a diagnostic
 * and no hook; unknown keys are warnings; the command, time limit (seconds, as ms) and matcher are
 * read, then the format's own fields.
 */
export function readCommandEntry<R extends CommandEventRule>(
  raw: unknown,
  nativeEvent: string,
  rule: R,
  at: JsonSegment[],
  sink: DiagnosticSink,
  rules: CommandEntryRules<R>,
): FormatHookEntry | undefined {
  if (!isPlainObject(raw)) {
    sink.report('error', 'wrongType', at, `a ${rules.name} hook must be an object like ${rules.example}, got ${describeValue(raw)}; it is skipped`);
    return undefined;
  }
  if (rules.typeWarning !== undefined && handlerType(raw, at, sink) === undefined) return undefined;
  const typeWarning = rules.typeWarning?.(raw.type);
  if (typeWarning !== undefined) {
    sink.report('warning', 'notCarriedOver', [...at, 'type'], typeWarning);
    return undefined;
  }
  warnUnknownKeys(raw, rules.keys, at, sink, rules.name);
  const windows = process.platform === 'win32';
  const { keys, missing } = rules.command(windows);
  let command: string | undefined;
  const read = new Set<string>();
  for (const key of keys) {
    read.add(key);
    command = stringField(raw, key, at, sink);
    if (command !== undefined) break;
  }
  // The keys not read (the other platform's command, a fallback): a wrong type there is still an error.
  const others = [...rules.command(!windows).keys, ...keys, ...(rules.textKeys ?? [])].filter((k) => !read.has(k));
  checkTextFields(raw, [...new Set(others)], at, sink);
  if (command === undefined || command.trim() === '') {
    sink.report(missing[0], missing[1], at, missing[2]);
    return undefined;
  }
  const timeoutKeys = rules.timeoutKeys;
  const seconds = timeoutKeys && positiveNumberField(raw, timeoutKeys.find((k) => raw[k] !== undefined) ?? (timeoutKeys[0] as string), at, sink);
  const matcher = rules.ignoredMatcher && stringField(raw, 'matcher', at, sink);
  if (matcher !== undefined && rule.matches === undefined)
    sink.report('warning', 'ignoredMatcher', [...at, 'matcher'], (rules.ignoredMatcher as (e: string) => string)(nativeEvent), { key: true });
  const { options, cwd, env } = rules.extras(raw, nativeEvent, rule, at, sink);
  const binding: FormatBinding = {
    format: rules.format,
    nativeEvent,
    ...(matcher !== undefined && rule.matches !== undefined ? { matcher } : {}),
    ...(seconds !== undefined ? { timeoutMs: Math.round(seconds * 1000) } : {}),
    ...(options !== undefined && Object.keys(options).length > 0 ? { options } : {}),
  };
  return { event: rule.event, binding, command, ...(cwd !== undefined ? { cwd } : {}), ...(env !== undefined ? { env } : {}), path: at };
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

/**
 * A hook's `type`: `command` when absent, the string as written, or undefined when it is not a
 * string (an error says so and the hook is skipped).
 */
export function handlerType(entry: Record<string, unknown>, at: readonly JsonSegment[], sink: DiagnosticSink): string | undefined {
  const raw = entry.type;
  if (raw === undefined) return 'command';
  if (typeof raw === 'string') return raw;
  sink.report('error', 'wrongType', [...at, 'type'], `"type" must be a string like "command", got ${describeValue(raw)}; this hook is skipped`);
  return undefined;
}

/** Checks the type of string fields Hookwise does not use here (a description, another platform's command): a wrong one is an error. */
export function checkTextFields(entry: Record<string, unknown>, keys: readonly string[], at: readonly JsonSegment[], sink: DiagnosticSink): void {
  for (const key of keys) stringField(entry, key, at, sink);
}

/** A positive number field (a time limit): undefined when absent or invalid (an error says so). */
export function positiveNumberField(entry: Record<string, unknown>, key: string, at: readonly JsonSegment[], sink: DiagnosticSink): number | undefined {
  const raw = entry[key];
  if (raw === undefined) return undefined;
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
