import path from 'node:path';
import { describeValue, type DiagnosticSink } from '../../../configFiles/diagnosticSink';
import type { JsonSegment } from '../../../configFiles/jsonPath';
import { isPlainObject } from '../../../shared/jsonObject';
import type { HookEvent } from '../../hookEvent';
import { positiveNumberField, readEventLists, readFormatJson, stringField, stringMapField, warnUnknownKeys } from '../formatJson';
import { claudePatternMatcher, regexMatcher } from '../formatMatchers';
import type { FormatBinding, FormatFileContent, FormatHookEntry, HookFormatAdapter } from '../hookFormat';
import { copilotInput, copilotToolName, copilotVerdict, isPascalBinding } from './copilotRuntime';

/** Copilot's default hook time limit (its `timeoutSec` default). */
const COPILOT_DEFAULT_TIMEOUT_MS = 30_000;

/** Copilot's events: the Hookwise event each fires on, and what its matcher tests (absent = Copilot ignores a matcher there). */
const EVENTS: Readonly<
  Record<string, { readonly event: HookEvent; readonly matches?: 'tool' | 'notification' | 'trigger' | 'agent'; readonly note?: string }>
> = {
  sessionStart: { event: 'SessionStart' },
  sessionEnd: { event: 'SessionEnd' },
  userPromptSubmitted: { event: 'UserPromptSubmit', note: 'Copilot drops its output (it cannot block the prompt or add context); Hookwise does the same' },
  preToolUse: { event: 'PreToolUse', matches: 'tool' },
  permissionRequest: { event: 'PermissionRequest', matches: 'tool' },
  postToolUse: { event: 'PostToolUse', matches: 'tool' },
  postToolUseFailure: { event: 'PostToolUseFailure', matches: 'tool' },
  agentStop: { event: 'Stop' },
  subagentStart: { event: 'SubagentStart', matches: 'agent' },
  subagentStop: { event: 'SubagentStop' },
  preCompact: { event: 'PreCompact', matches: 'trigger' },
  notification: { event: 'Notification', matches: 'notification' },
  errorOccurred: {
    event: 'StopFailure',
    note: 'it fires when the agent run fails; tool errors reach postToolUseFailure hooks instead, and its output is ignored as in Copilot',
  },
  // PascalCase: the VS Code compatible names, with Claude's input and matcher rules.
  SessionStart: { event: 'SessionStart' },
  SessionEnd: { event: 'SessionEnd' },
  UserPromptSubmit: { event: 'UserPromptSubmit' },
  PreToolUse: { event: 'PreToolUse', matches: 'tool' },
  PermissionRequest: { event: 'PermissionRequest', matches: 'tool' },
  PostToolUse: { event: 'PostToolUse', matches: 'tool' },
  Stop: { event: 'Stop' },
  SubagentStop: { event: 'SubagentStop' },
  PreCompact: { event: 'PreCompact', matches: 'trigger' },
};

/** Copilot events with no Hookwise equivalent, and why. */
const NO_EQUIVALENT: Readonly<Record<string, string>> = {
  userPromptTransformed: 'Hookwise has no event that rewrites the model-facing prompt text',
};

const ENTRY_KEYS = new Set([
  'type',
  'bash',
  'powershell',
  'command',
  'exec',
  'args',
  'cwd',
  'env',
  'timeoutSec',
  'timeout',
  'matcher',
  'comment',
  'description',
]);
const TOP_KEYS = new Set(['version', 'hooks', 'disableAllHooks', '$schema']);

/** Reads a `.github/hooks/*.json` file, `~/.copilot/hooks/*.json`, or a `.github/copilot/settings*.json` (only its `hooks`). */
function parseCopilot(text: string, where: { readonly file: string; readonly displayFile: string }): FormatFileContent {
  const settingsFile = /^settings(\.local)?\.json$/i.test(path.basename(where.file));
  const read = readFormatJson(text, where, 'Copilot hooks file');
  if (!read.ok) return { hooks: [], diagnostics: read.sink.diagnostics };
  const { value, sink } = read;
  if (!settingsFile) {
    if (value.version !== undefined && value.version !== 1) {
      sink.report(
        'error',
        'wrongType',
        ['version'],
        `Copilot reads only "version": 1, got ${describeValue(value.version)}; Copilot drops this file, and so does Hookwise`,
      );
      return { hooks: [], diagnostics: sink.diagnostics };
    }
    for (const key of Object.keys(value))
      if (!TOP_KEYS.has(key)) sink.report('warning', 'notCarriedOver', [key], `"${key}" is not a Copilot hooks file key; it is ignored`, { key: true });
  }
  if (value.disableAllHooks === true) {
    sink.report(
      'warning',
      'notCarriedOver',
      ['disableAllHooks'],
      'turns off only the hooks of this file in Hookwise (in Copilot it turns off every hook); use hookwise.hooks.formats or hookwise.hooks.enabled for more',
      { key: true },
    );
    return { hooks: [], diagnostics: sink.diagnostics };
  }
  const hooks: FormatHookEntry[] = [];
  for (const list of readEventLists(value, sink)) {
    const mapped = EVENTS[list.name];
    if (mapped === undefined) {
      const why = NO_EQUIVALENT[list.name];
      sink.report(
        'warning',
        why !== undefined ? 'notCarriedOver' : 'unknownEvent',
        ['hooks', list.name],
        why !== undefined
          ? `Copilot's ${list.name} is not carried over: ${why}; its hooks do not run`
          : `"${list.name}" is not a Copilot hook event; its hooks do not run`,
        { key: true },
      );
      continue;
    }
    if (mapped.note !== undefined) sink.report('warning', 'notCarriedOver', ['hooks', list.name], `${list.name}: ${mapped.note}`, { key: true });
    for (const { value: raw, path: at } of list.entries) {
      const entry = readEntry(raw, list.name, mapped, at, sink);
      if (entry !== undefined) hooks.push(entry);
    }
  }
  return { hooks, diagnostics: sink.diagnostics };
}

function readEntry(raw: unknown, nativeEvent: string, mapped: (typeof EVENTS)[string], at: JsonSegment[], sink: DiagnosticSink): FormatHookEntry | undefined {
  if (!isPlainObject(raw)) {
    sink.report(
      'error',
      'wrongType',
      at,
      `a Copilot hook must be an object like {"type": "command", "bash": "./check.sh"}, got ${describeValue(raw)}; it is skipped`,
    );
    return undefined;
  }
  const type = raw.type ?? 'command';
  if (type === 'prompt') {
    sink.report(
      'warning',
      'notCarriedOver',
      [...at, 'type'],
      'a Copilot "prompt" hook submits its text as if the user typed it; Hookwise has no such hook, so it does not run (a Hookwise prompt hook asks a model instead)',
    );
    return undefined;
  }
  if (type !== 'command') {
    sink.report(
      'warning',
      'notCarriedOver',
      [...at, 'type'],
      `Copilot "${String(type)}" hooks are not carried over yet; it does not run (write it as a command hook, or as an http hook in .claude/settings.json)`,
    );
    return undefined;
  }
  warnUnknownKeys(raw, ENTRY_KEYS, at, sink, 'Copilot');
  if (raw.exec !== undefined)
    sink.report('warning', 'notCarriedOver', [...at, 'exec'], '"exec" (no shell) is not carried over; the shell command ("bash"/"command") runs instead', {
      key: true,
    });
  const windows = process.platform === 'win32';
  const command = windows
    ? (stringField(raw, 'powershell', at, sink) ?? stringField(raw, 'command', at, sink))
    : (stringField(raw, 'bash', at, sink) ?? stringField(raw, 'command', at, sink));
  if (command === undefined || command.trim() === '') {
    sink.report(
      'warning',
      'notCarriedOver',
      at,
      `no ${windows ? '"powershell"' : '"bash"'} or "command" to run on this platform; Copilot skips this hook here, and so does Hookwise`,
    );
    return undefined;
  }
  const seconds = positiveNumberField(raw, raw.timeoutSec !== undefined ? 'timeoutSec' : 'timeout', at, sink);
  const matcher = stringField(raw, 'matcher', at, sink);
  if (matcher !== undefined && mapped.matches === undefined)
    sink.report('warning', 'ignoredMatcher', [...at, 'matcher'], `Copilot ignores "matcher" on ${nativeEvent}; so does Hookwise (the hook runs every time)`, {
      key: true,
    });
  const cwd = stringField(raw, 'cwd', at, sink);
  const env = stringMapField(raw, 'env', at, sink);
  const binding: FormatBinding = {
    format: 'copilot',
    nativeEvent,
    ...(matcher !== undefined && mapped.matches !== undefined ? { matcher } : {}),
    ...(seconds !== undefined ? { timeoutMs: Math.round(seconds * 1000) } : {}),
    ...(mapped.matches !== undefined ? { options: { matches: mapped.matches } } : {}),
  };
  return { event: mapped.event, binding, command, ...(cwd !== undefined ? { cwd } : {}), ...(env !== undefined ? { env } : {}), path: at };
}

/** GitHub Copilot CLI and cloud agent hook files (docs/formats/copilot.md). */
export const copilotFormat: HookFormatAdapter = {
  id: 'copilot',
  displayName: 'Copilot',
  locations: [
    { scope: 'project', kind: 'directory', path: '.github/hooks' },
    { scope: 'project', kind: 'file', path: '.github/copilot/settings.json' },
    { scope: 'project', kind: 'file', path: '.github/copilot/settings.local.json' },
    { scope: 'user', kind: 'directory', path: '.copilot/hooks' },
  ],
  parse: parseCopilot,
  compileMatcher(binding) {
    const matches = binding.options?.matches;
    if (binding.matcher === undefined || matches === undefined) return regexMatcher(undefined, true, () => undefined);
    // PascalCase tool events follow Claude's matcher rules on Claude's tool names.
    if (isPascalBinding(binding) && matches === 'tool')
      return claudePatternMatcher(binding.matcher, ({ input }) => (typeof input.tool_name === 'string' ? input.tool_name : undefined));
    return regexMatcher(binding.matcher, true, ({ input }) => {
      const value =
        matches === 'tool' ? input.tool_name : matches === 'agent' ? input.agent_type : matches === 'trigger' ? input.trigger : input.notification_type;
      if (typeof value !== 'string') return undefined;
      return matches === 'tool' ? copilotToolName(value) : value;
    });
  },
  translateInput: copilotInput,
  interpret: copilotVerdict,
  defaultTimeoutMs: () => COPILOT_DEFAULT_TIMEOUT_MS,
  failClosed: () => false,
};
