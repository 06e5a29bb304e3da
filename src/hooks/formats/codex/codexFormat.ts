import path from 'node:path';
import { parse as parseToml, TomlError } from 'smol-toml';
import { DiagnosticSink, describeValue } from '../../../configFiles/diagnosticSink';
import { MAX_CONFIG_DEPTH } from '../../../configFiles/configLimits';
import { isPlainObject } from '../../../shared/jsonObject';
import { thrownMessage } from '../../../shared/describeThrown';
import type { HookEvent } from '../../hookEvent';
import type { HookMatcher } from '../../matchers/hookMatcher';
import { MATCH_ALL } from '../../matchers/hookMatcher';
import { readGroupHandlers, type GroupHandler } from '../formatGroups';
import { tomlLocator } from '../tomlLocator';
import { checkTextFields, handlerType, positiveNumberField, readFormatJson, stringField, warnUnknownKeys } from '../formatJson';
import type { FormatBinding, FormatFileContent, FormatHookEntry, HookFormatAdapter } from '../hookFormat';
import { codexInput, codexVerdict } from './codexRuntime';
import { codexMatchNames } from './codexTools';

/** Codex's default time limit (600 s) and SessionEnd's (1 s, at most 3). */
const CODEX_DEFAULT_TIMEOUT_MS = 600_000;
const SESSION_END_DEFAULT_MS = 1_000;
const SESSION_END_MAX_MS = 3_000;

/** What a Codex matcher tests on an event (absent: Codex ignores the matcher there). */
type MatchOn = 'tool' | 'source' | 'trigger' | 'agent';

/** Codex's events (Claude Code's names), the Hookwise events each fires on, and what its matcher tests. */
const EVENTS: Readonly<Record<string, { readonly events: readonly HookEvent[]; readonly on?: MatchOn }>> = {
  SessionStart: { events: ['SessionStart'], on: 'source' },
  SessionEnd: { events: ['SessionEnd'] },
  UserPromptSubmit: { events: ['UserPromptSubmit'] },
  PreToolUse: { events: ['PreToolUse'], on: 'tool' },
  PermissionRequest: { events: ['PermissionRequest'], on: 'tool' },
  // Codex's PostToolUse also fires for a Bash command that exited non-zero (Hookwise: PostToolUseFailure).
  PostToolUse: { events: ['PostToolUse', 'PostToolUseFailure'], on: 'tool' },
  PreCompact: { events: ['PreCompact'], on: 'trigger' },
  PostCompact: { events: ['PostCompact'], on: 'trigger' },
  SubagentStart: { events: ['SubagentStart'], on: 'agent' },
  SubagentStop: { events: ['SubagentStop'], on: 'agent' },
  Stop: { events: ['Stop'] },
};

const HANDLER_KEYS = new Set(['type', 'command', 'commandWindows', 'timeout', 'statusMessage', 'async', 'additionalContextLimit']);
const GROUP_KEYS = new Set(['matcher', 'hooks', 'description']);
/** Most characters of a config.toml read (a hand-written config is far smaller). */
const MAX_TOML_CHARS = 1024 * 1024;

/** Reads `.codex/hooks.json` or the `[hooks]` tables of `.codex/config.toml` (project or `~/.codex`). */
function parseCodex(text: string, where: { readonly file: string; readonly displayFile: string }): FormatFileContent {
  const toml = path.extname(where.file).toLowerCase() === '.toml';
  const read = toml ? readToml(text, where) : readFormatJson(text, where, 'Codex hooks file');
  if (!read.ok) return { hooks: [], diagnostics: read.sink.diagnostics };
  const { value, sink } = read;
  if (toml && hooksTurnedOff(value.features, sink)) {
    sink.report(
      'warning',
      'notCarriedOver',
      ['features'],
      'hooks are turned off in this Codex config ([features] hooks = false): its hooks do not run, as in Codex',
      { key: true },
    );
    return { hooks: [], diagnostics: sink.diagnostics };
  }
  const handlers = readGroupHandlers(value, sink, 'Codex', (list) => {
    if (EVENTS[list.name] !== undefined) return true;
    sink.report('warning', 'unknownEvent', ['hooks', list.name], `"${list.name}" is not a Codex hook event Hookwise runs; its hooks do not run`, { key: true });
    return false;
  });
  const hooks: FormatHookEntry[] = [];
  const seenGroups = new Set<string>();
  for (const h of handlers) {
    const groupPath = h.path.slice(0, -2);
    const key = JSON.stringify(groupPath);
    if (!seenGroups.has(key)) {
      seenGroups.add(key);
      warnUnknownKeys(h.group, GROUP_KEYS, groupPath, sink, 'Codex');
      checkTextFields(h.group, ['description'], groupPath, sink);
      if (h.matcher !== undefined && EVENTS[h.eventName]?.on === undefined)
        sink.report(
          'warning',
          'ignoredMatcher',
          [...groupPath, 'matcher'],
          `Codex ignores "matcher" on ${h.eventName}; so does Hookwise (the hook runs every time)`,
          { key: true },
        );
    }
    hooks.push(...readHandler(h, sink));
  }
  return { hooks, diagnostics: sink.diagnostics };
}

/** `[features] hooks = false` (or `codex_hooks`); a `features` or switch of the wrong type is an error and does not turn hooks off. */
function hooksTurnedOff(features: unknown, sink: DiagnosticSink): boolean {
  if (features === undefined) return false;
  if (!isPlainObject(features)) {
    sink.report('error', 'wrongType', ['features'], `"features" must be a table, got ${describeValue(features)}; it is ignored`);
    return false;
  }
  let off = false;
  for (const key of ['hooks', 'codex_hooks'])
    if (features[key] !== undefined && typeof features[key] !== 'boolean')
      sink.report('error', 'wrongType', ['features', key], `must be true or false, got ${describeValue(features[key])}; it is ignored`);
    else if (features[key] === false) off = true;
  return off;
}

/** A config.toml as an object, bounded like the JSON files; a syntax error names its line, and so does a diagnostic at a path. */
function readToml(
  text: string,
  where: { readonly file: string; readonly displayFile: string },
): { ok: true; value: Record<string, unknown>; sink: DiagnosticSink } | { ok: false; sink: DiagnosticSink } {
  // Schema diagnostics name their line too: the locator finds each path in the text once it parsed.
  const sink = new DiagnosticSink({ ...where, text, locator: tomlLocator(text) });
  if (text.length > MAX_TOML_CHARS) {
    sink.reportAt('error', 'tooLarge', 0, 0, `${text.length} characters, over ${MAX_TOML_CHARS}; this Codex config is ignored entirely`);
    return { ok: false, sink };
  }
  try {
    return { ok: true, value: parseToml(text, { maxDepth: MAX_CONFIG_DEPTH }) as Record<string, unknown>, sink };
  } catch (error) {
    const offset = error instanceof TomlError ? lineOffset(text, error.line, error.column) : 0;
    const message = error instanceof TomlError ? error.message.split('\n')[0] : thrownMessage(error);
    sink.reportAt('error', 'syntaxError', offset, 1, `TOML syntax error: ${message}; this Codex config is ignored entirely until it is fixed`);
    return { ok: false, sink };
  }
}

function lineOffset(text: string, line: number, column: number): number {
  let offset = 0;
  for (let l = 1; l < line && offset >= 0; l++) offset = text.indexOf('\n', offset) + 1;
  return Math.max(0, Math.min(text.length, offset + Math.max(0, column - 1)));
}

function readHandler(h: GroupHandler, sink: DiagnosticSink): FormatHookEntry[] {
  const at = h.path;
  const mapped = EVENTS[h.eventName];
  if (mapped === undefined) return [];
  const type = handlerType(h.handler, at, sink);
  if (type === undefined) return [];
  if (type !== 'command') {
    const why = type === 'mcp_tool' ? 'Codex "mcp_tool" hooks are not carried over yet' : `Codex parses "${String(type)}" hooks and skips them`;
    sink.report('warning', 'notCarriedOver', [...at, 'type'], `${why}; it does not run in Hookwise`);
    return [];
  }
  warnUnknownKeys(h.handler, HANDLER_KEYS, at, sink, 'Codex');
  for (const key of ['async', 'additionalContextLimit', 'statusMessage'] as const)
    if (h.handler[key] !== undefined)
      sink.report(
        'warning',
        'notCarriedOver',
        [...at, key],
        `"${key}" is not carried over: the hook runs and its context is used as Hookwise does for every hook`,
        { key: true },
      );
  const windows = process.platform === 'win32';
  const forWindows = windows ? stringField(h.handler, 'commandWindows', at, sink) : undefined;
  const command = forWindows ?? stringField(h.handler, 'command', at, sink);
  // The command of the other platform is not read here; a wrong type in it is still an error.
  checkTextFields(h.handler, windows ? (forWindows !== undefined ? ['command'] : []) : ['commandWindows'], at, sink);
  if (command === undefined || command.trim() === '') {
    sink.report('error', 'wrongType', at, `${describeValue(h.handler.command)} is not a command to run; the hook is skipped`);
    return [];
  }
  const seconds = positiveNumberField(h.handler, 'timeout', at, sink);
  let timeoutMs = seconds !== undefined ? Math.round(seconds * 1000) : undefined;
  if (h.eventName === 'SessionEnd' && timeoutMs !== undefined && timeoutMs > SESSION_END_MAX_MS) timeoutMs = SESSION_END_MAX_MS;
  const matcher = mapped.on !== undefined && h.matcher !== undefined && h.matcher !== '' && h.matcher !== '*' ? h.matcher : undefined;
  const binding: FormatBinding = {
    format: 'codex',
    nativeEvent: h.eventName,
    ...(matcher !== undefined ? { matcher } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(mapped.on !== undefined ? { options: { on: mapped.on } } : {}),
  };
  return mapped.events.map((event) => ({ event, binding, command, path: at }));
}

/** Codex's matcher: an unanchored regex; on tools, `Edit`/`Write` also name `apply_patch` and `Agent` names `spawn_agent`. */
function compileCodexMatcher(binding: FormatBinding, event: HookEvent): HookMatcher | string {
  const on = binding.options?.on;
  // Codex's PostToolUse sees failures of Bash only (a non-zero exit), not of other tools.
  const failureGuard = (input: Readonly<Record<string, unknown>>): boolean => event !== 'PostToolUseFailure' || input.tool_name === 'Bash';
  const pattern = binding.matcher;
  if (pattern === undefined) return event === 'PostToolUseFailure' ? { description: 'Bash', matches: (t) => failureGuard(t.input) } : MATCH_ALL;
  let re: RegExp;
  try {
    re = new RegExp(pattern);
  } catch (error) {
    return `invalid Codex matcher regex ${JSON.stringify(pattern)}: ${thrownMessage(error)}`;
  }
  return {
    description: pattern,
    matches: ({ input }) => {
      if (!failureGuard(input)) return false;
      if (on === 'tool') return typeof input.tool_name === 'string' && codexMatchNames(input.tool_name).some((n) => re.test(n));
      const value = on === 'source' ? input.source : on === 'trigger' ? input.trigger : input.agent_type;
      return typeof value === 'string' && re.test(value);
    },
  };
}

/** OpenAI Codex hooks: `.codex/hooks.json` and `[hooks]` in `.codex/config.toml` (docs/formats/codex.md). */
export const codexFormat: HookFormatAdapter = {
  id: 'codex',
  displayName: 'Codex',
  locations: [
    { scope: 'project', kind: 'file', path: '.codex/hooks.json' },
    { scope: 'project', kind: 'file', path: '.codex/config.toml' },
    { scope: 'user', kind: 'file', path: '.codex/hooks.json' },
    { scope: 'user', kind: 'file', path: '.codex/config.toml' },
  ],
  parse: parseCodex,
  compileMatcher: compileCodexMatcher,
  translateInput: codexInput,
  interpret: codexVerdict,
  defaultTimeoutMs: (binding) => (binding.nativeEvent === 'SessionEnd' ? SESSION_END_DEFAULT_MS : CODEX_DEFAULT_TIMEOUT_MS),
  failClosed: () => false,
};
