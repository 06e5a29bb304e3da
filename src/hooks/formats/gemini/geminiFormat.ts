import type { DiagnosticSink } from '../../../configFiles/diagnosticSink';
import { describeValue } from '../../../configFiles/diagnosticSink';
import { isPlainObject } from '../../../shared/jsonObject';
import type { HookEvent } from '../../hookEvent';
import type { HookMatcher, MatchTarget } from '../../matchers/hookMatcher';
import { MATCH_ALL } from '../../matchers/hookMatcher';
import { readGroupHandlers, type GroupHandler } from '../formatGroups';
import { booleanField, checkTextFields, handlerType, positiveNumberField, readFormatJson, stringField, stringMapField, warnUnknownKeys } from '../formatJson';
import type { FormatBinding, FormatFileContent, FormatHookEntry, HookFormatAdapter } from '../hookFormat';
import { geminiInput, geminiVerdict } from './geminiRuntime';
import { geminiToolName } from './geminiTools';

/** Gemini's default hook time limit (hookRunner.ts DEFAULT_HOOK_TIMEOUT). */
const GEMINI_DEFAULT_TIMEOUT_MS = 60_000;

/** What a Gemini matcher tests on an event: the tool name (regex), or a lifecycle field (exact string). */
type MatchOn = 'tool' | 'source' | 'reason' | 'trigger';

/** Gemini's events: the Hookwise events each fires on and what its matcher tests (absent: every occurrence). */
const EVENTS: Readonly<Record<string, { readonly events: readonly HookEvent[]; readonly on?: MatchOn }>> = {
  BeforeTool: { events: ['PreToolUse'], on: 'tool' },
  // AfterTool also fires for a failed tool (its tool_response.error is set).
  AfterTool: { events: ['PostToolUse', 'PostToolUseFailure'], on: 'tool' },
  BeforeAgent: { events: ['UserPromptSubmit'] },
  AfterAgent: { events: ['Stop'] },
  SessionStart: { events: ['SessionStart'], on: 'source' },
  SessionEnd: { events: ['SessionEnd'], on: 'reason' },
  PreCompress: { events: ['PreCompact'], on: 'trigger' },
  Notification: { events: ['Notification'] },
  // The model-level events, on Hookwise's model-level hooks (same llm_request/llm_response shapes).
  BeforeModel: { events: ['BeforeInference'] },
  AfterModel: { events: ['AfterInference'] },
  BeforeToolSelection: { events: ['BeforeToolSelection'] },
};

/** Gemini events Hookwise does not run, and why (none today; kept for the warning path). */
const NOT_CARRIED: Readonly<Record<string, string>> = {};

const HANDLER_KEYS = new Set(['type', 'command', 'name', 'timeout', 'description', 'env']);
const GROUP_KEYS = new Set(['matcher', 'sequential', 'hooks']);

/** Reads `.gemini/settings.json` or `~/.gemini/settings.json`: only `hooks` and `hooksConfig` are Gemini's hook settings. */
function parseGemini(text: string, where: { readonly file: string; readonly displayFile: string }): FormatFileContent {
  const read = readFormatJson(text, where, 'Gemini settings file');
  if (!read.ok) return { hooks: [], diagnostics: read.sink.diagnostics };
  const { value, sink } = read;
  const config = value.hooksConfig;
  let disabled: readonly string[] = [];
  if (config !== undefined) {
    if (!isPlainObject(config))
      sink.report('error', 'wrongType', ['hooksConfig'], `"hooksConfig" must be an object, got ${describeValue(config)}; it is ignored`);
    else {
      if (booleanField(config, 'enabled', ['hooksConfig'], sink) === false) return { hooks: [], diagnostics: sink.diagnostics };
      disabled = disabledNames(config.disabled, sink);
    }
  }
  const handlers = readGroupHandlers(value, sink, 'Gemini', (list) => {
    if (EVENTS[list.name] !== undefined) return true;
    const why = NOT_CARRIED[list.name];
    sink.report(
      'warning',
      why !== undefined ? 'notCarriedOver' : 'unknownEvent',
      ['hooks', list.name],
      why !== undefined ? `${list.name} is not carried over: ${why}; its hooks do not run` : `"${list.name}" is not a Gemini hook event; its hooks do not run`,
      { key: true },
    );
    return false;
  });
  const hooks: FormatHookEntry[] = [];
  const warnedGroups = new Set<string>();
  for (const h of handlers) {
    const groupPath = h.path.slice(0, -2);
    const groupKey = JSON.stringify(groupPath);
    if (!warnedGroups.has(groupKey)) {
      warnedGroups.add(groupKey);
      warnUnknownKeys(h.group, GROUP_KEYS, groupPath, sink, 'Gemini');
      if (booleanField(h.group, 'sequential', groupPath, sink) === true)
        sink.report(
          'warning',
          'notCarriedOver',
          [...groupPath, 'sequential'],
          '"sequential" is not carried over: each hook sees the original tool input, not the previous hook\'s rewrite',
          { key: true },
        );
    }
    hooks.push(...readHandler(h, disabled, sink));
  }
  return { hooks, diagnostics: sink.diagnostics };
}

/** `hooksConfig.disabled`: the names of hooks that do not run; what is not a list of strings is an error and ignored. */
function disabledNames(raw: unknown, sink: DiagnosticSink): string[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    sink.report('error', 'wrongType', ['hooksConfig', 'disabled'], `"disabled" must be a list of hook names, got ${describeValue(raw)}; it is ignored`);
    return [];
  }
  const names: string[] = [];
  raw.forEach((name: unknown, i) => {
    if (typeof name === 'string') names.push(name);
    else sink.report('error', 'wrongType', ['hooksConfig', 'disabled', i], `a hook name must be a string, got ${describeValue(name)}; it is ignored`);
  });
  return names;
}

function readHandler(h: GroupHandler, disabled: readonly string[], sink: DiagnosticSink): FormatHookEntry[] {
  const at = h.path;
  const mapped = EVENTS[h.eventName];
  if (mapped === undefined) return [];
  const type = handlerType(h.handler, at, sink);
  if (type === undefined) return [];
  if (type !== 'command') {
    sink.report(
      'warning',
      'notCarriedOver',
      [...at, 'type'],
      `Gemini "${String(type)}" hooks are not carried over; it does not run (only "command" hooks are)`,
    );
    return [];
  }
  warnUnknownKeys(h.handler, HANDLER_KEYS, at, sink, 'Gemini');
  const command = stringField(h.handler, 'command', at, sink);
  if (command === undefined || command.trim() === '') {
    sink.report('error', 'wrongType', at, 'a Gemini command hook needs a "command"; it is skipped (Gemini skips it too)');
    return [];
  }
  const name = stringField(h.handler, 'name', at, sink);
  checkTextFields(h.handler, ['description'], at, sink);
  // hooksConfig.disabled names a hook by its name, else its command (Gemini's getHookName).
  if (disabled.includes(name ?? command)) return [];
  const ms = positiveNumberField(h.handler, 'timeout', at, sink);
  const env = stringMapField(h.handler, 'env', at, sink);
  const binding: FormatBinding = {
    format: 'gemini',
    nativeEvent: h.eventName,
    ...(h.matcher !== undefined && h.matcher.trim() !== '' && h.matcher.trim() !== '*' && mapped.on !== undefined ? { matcher: h.matcher.trim() } : {}),
    ...(ms !== undefined ? { timeoutMs: Math.round(ms) } : {}),
    ...(mapped.on !== undefined ? { options: { on: mapped.on } } : {}),
  };
  return mapped.events.map((event) => ({ event, binding, command, ...(env !== undefined ? { env } : {}), path: at }));
}

/** Gemini's matcher: an unanchored regex on its tool name (a pattern that is not a valid regex matches that name exactly); an exact string on lifecycle events. */
function compileGeminiMatcher(binding: FormatBinding, event: HookEvent): HookMatcher | string {
  const on = binding.options?.on;
  // Gemini's SessionStart has no compaction source: its hooks do not fire after a compaction.
  const sessionGuard = (t: MatchTarget): boolean => event !== 'SessionStart' || t.input.source !== 'compact';
  const pattern = binding.matcher;
  if (pattern === undefined) return event === 'SessionStart' ? { description: '*', matches: sessionGuard } : MATCH_ALL;
  if (on === 'tool') {
    let test: (name: string) => boolean;
    try {
      const re = new RegExp(pattern);
      test = (n) => re.test(n);
    } catch {
      test = (n) => n === pattern;
    }
    return { description: pattern, matches: (t) => typeof t.input.tool_name === 'string' && test(geminiToolName(t.input.tool_name)) };
  }
  const field = on === 'source' ? 'source' : on === 'reason' ? 'reason' : 'trigger';
  return { description: pattern, matches: (t) => sessionGuard(t) && t.input[field] === pattern };
}

/** Gemini CLI hooks in `.gemini/settings.json` (docs/formats/gemini.md). */
export const geminiFormat: HookFormatAdapter = {
  id: 'gemini',
  displayName: 'Gemini',
  locations: [
    { scope: 'project', kind: 'file', path: '.gemini/settings.json' },
    { scope: 'user', kind: 'file', path: '.gemini/settings.json' },
  ],
  parse: parseGemini,
  compileMatcher: compileGeminiMatcher,
  translateInput: geminiInput,
  interpret: geminiVerdict,
  defaultTimeoutMs: () => GEMINI_DEFAULT_TIMEOUT_MS,
  failClosed: () => false,
};
