import path from 'node:path';
import { describeValue } from '../../../configFiles/diagnosticSink';
import type { HookEvent } from '../../hookEvent';
import { readCommandEntries, readFormatJson, stringField, stringMapField, type CommandEntryRules } from '../formatJson';
import { claudePatternMatcher, regexMatcher } from '../formatMatchers';
import type { FormatFileContent, HookFormatAdapter } from '../hookFormat';
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
  return { hooks: readCommandEntries(value, sink, COPILOT_ENTRIES), diagnostics: sink.diagnostics };
}

/** How Copilot's entries differ from the other `{"hooks": {...}}` formats'. */
const COPILOT_ENTRIES: CommandEntryRules<(typeof EVENTS)[string]> = {
  format: 'copilot',
  name: 'Copilot',
  events: EVENTS,
  noEquivalent: NO_EQUIVALENT,
  keys: ENTRY_KEYS,
  example: '{"type": "command", "bash": "./check.sh"}',
  typeWarning(raw) {
    const type = raw ?? 'command';
    if (type === 'command') return undefined;
    return type === 'prompt'
      ? 'a Copilot "prompt" hook submits its text as if the user typed it; Hookwise has no such hook, so it does not run (a Hookwise prompt hook asks a model instead)'
      : `Copilot "${String(type)}" hooks are not carried over yet; it does not run (write it as a command hook, or as an http hook in .claude/settings.json)`;
  },
  command: (windows) => ({
    keys: windows ? ['powershell', 'command'] : ['bash', 'command'],
    missing: [
      'warning',
      'notCarriedOver',
      `no ${windows ? '"powershell"' : '"bash"'} or "command" to run on this platform; Copilot skips this hook here, and so does Hookwise`,
    ],
  }),
  textKeys: ['comment', 'description'],
  timeoutKeys: ['timeoutSec', 'timeout'],
  ignoredMatcher: (nativeEvent) => `Copilot ignores "matcher" on ${nativeEvent}; so does Hookwise (the hook runs every time)`,
  extras(raw, _nativeEvent, mapped, at, sink) {
    if (raw.exec !== undefined)
      sink.report('warning', 'notCarriedOver', [...at, 'exec'], '"exec" (no shell) is not carried over; the shell command ("bash"/"command") runs instead', {
        key: true,
      });
    const cwd = stringField(raw, 'cwd', at, sink);
    const env = stringMapField(raw, 'env', at, sink);
    return {
      ...(mapped.matches !== undefined ? { options: { matches: mapped.matches } } : {}),
      ...(cwd !== undefined ? { cwd } : {}),
      ...(env !== undefined ? { env } : {}),
    };
  },
};

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
