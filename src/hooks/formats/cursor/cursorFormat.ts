import path from 'node:path';
import { describeValue } from '../../../configFiles/diagnosticSink';
import type { HookEvent } from '../../hookEvent';
import { booleanField, readCommandEntries, readFormatJson, type CommandEntryRules } from '../formatJson';
import { bothMatch, regexMatcher, toolMatcher } from '../formatMatchers';
import type { FormatFileContent, FormatFileWhere, HookFormatAdapter } from '../hookFormat';
import { cursorInput, cursorToolName, cursorVerdict, shellCommandOf } from './cursorRuntime';

/** Cursor does not document a default time limit; Hookwise's own 60 s applies. */
const CURSOR_DEFAULT_TIMEOUT_MS = 60_000;

type Implied = 'shell' | 'mcp' | 'read' | 'edit';

/** Cursor's events: the Hookwise event, the tool the event implies, and what its matcher tests. */
const EVENTS: Readonly<Record<string, { readonly event: HookEvent; readonly implies?: Implied; readonly matches?: 'tool' | 'command' | 'mcp' | 'agent' }>> = {
  sessionStart: { event: 'SessionStart' },
  sessionEnd: { event: 'SessionEnd' },
  preToolUse: { event: 'PreToolUse', matches: 'tool' },
  postToolUse: { event: 'PostToolUse', matches: 'tool' },
  postToolUseFailure: { event: 'PostToolUseFailure', matches: 'tool' },
  subagentStart: { event: 'SubagentStart', matches: 'agent' },
  subagentStop: { event: 'SubagentStop', matches: 'agent' },
  beforeShellExecution: { event: 'PreToolUse', implies: 'shell', matches: 'command' },
  afterShellExecution: { event: 'PostToolUse', implies: 'shell', matches: 'command' },
  beforeMCPExecution: { event: 'PreToolUse', implies: 'mcp', matches: 'mcp' },
  afterMCPExecution: { event: 'PostToolUse', implies: 'mcp', matches: 'mcp' },
  beforeReadFile: { event: 'PreToolUse', implies: 'read' },
  afterFileEdit: { event: 'PostToolUse', implies: 'edit' },
  beforeSubmitPrompt: { event: 'UserPromptSubmit' },
  preCompact: { event: 'PreCompact' },
  stop: { event: 'Stop' },
};

/** Cursor events with no Hookwise equivalent, and why. */
const NO_EQUIVALENT: Readonly<Record<string, string>> = {
  afterAgentResponse: 'Hookwise has no event after each model response that a hook only observes',
  afterAgentThought: 'Hookwise has no event for model thinking',
  beforeTabFileRead: 'Tab completions are Cursor editor features, not agent actions',
  afterTabFileEdit: 'Tab completions are Cursor editor features, not agent actions',
  workspaceOpen: 'Hookwise has no event for opening a workspace',
};

const ENTRY_KEYS = new Set(['command', 'type', 'timeout', 'loop_limit', 'failClosed', 'matcher', 'description']);
const TOP_KEYS = new Set(['version', 'hooks', '$schema']);

/** Reads `.cursor/hooks.json` or `~/.cursor/hooks.json`. */
function parseCursor(text: string, where: FormatFileWhere): FormatFileContent {
  const read = readFormatJson(text, where, 'Cursor hooks file');
  if (!read.ok) return { hooks: [], diagnostics: read.sink.diagnostics };
  const { value, sink } = read;
  if (value.version !== undefined && value.version !== 1)
    sink.report(
      'warning',
      'wrongType',
      ['version'],
      `Cursor documents only "version": 1, got ${describeValue(value.version)}; the hooks are read as version 1`,
    );
  for (const key of Object.keys(value))
    if (!TOP_KEYS.has(key)) sink.report('warning', 'notCarriedOver', [key], `"${key}" is not a Cursor hooks file key; it is ignored`, { key: true });
  // Project hooks run from the project root, user hooks from ~/.cursor (Cursor's rule).
  // Relative to the project root (resolved when the hook runs), so the approval does not depend on where the clone is.
  const cwd = where.scope === 'user' ? path.dirname(where.file) : '.';
  return { hooks: readCommandEntries(value, sink, cursorEntries(cwd)), diagnostics: sink.diagnostics };
}

/** How Cursor's entries differ from the other `{"hooks": {...}}` formats'; `cwd` is where its hooks run. */
function cursorEntries(cwd: string): CommandEntryRules<(typeof EVENTS)[string]> {
  return {
    format: 'cursor',
    name: 'Cursor',
    events: EVENTS,
    noEquivalent: NO_EQUIVALENT,
    keys: ENTRY_KEYS,
    example: '{"command": "./hooks/guard.sh"}',
    typeWarning: (type) =>
      type === undefined || type === 'command'
        ? undefined
        : type === 'prompt'
          ? 'Cursor "prompt" hooks (an LLM answering {ok, reason}) are not carried over yet; it does not run (a Hookwise prompt hook in .claude/settings.json does the same job)'
          : `Cursor "${String(type)}" hooks are not carried over; it does not run`,
    command: () => ({ keys: ['command'], missing: ['error', 'wrongType', 'missing "command"; this hook is skipped'] }),
    textKeys: ['description'],
    timeoutKeys: ['timeout'],
    ignoredMatcher: (nativeEvent) => `a matcher on ${nativeEvent} has nothing to test in Hookwise; the hook runs every time`,
    extras(raw, nativeEvent, mapped, at, sink) {
      const failClosed = booleanField(raw, 'failClosed', at, sink);
      if (raw.loop_limit !== undefined && nativeEvent !== 'stop' && nativeEvent !== 'subagentStop')
        sink.report('warning', 'notCarriedOver', [...at, 'loop_limit'], '"loop_limit" applies to stop hooks only; it is ignored here', { key: true });
      else if (raw.loop_limit !== undefined)
        sink.report(
          'warning',
          'notCarriedOver',
          [...at, 'loop_limit'],
          '"loop_limit" is not carried over: Hookwise lets a stop hook continue the agent once per stop (stop_hook_active), and its own step limit bounds the run',
          { key: true },
        );
      const options: Record<string, string | boolean> = {};
      if (mapped.implies !== undefined) options.implies = mapped.implies;
      if (mapped.matches !== undefined) options.matches = mapped.matches;
      if (failClosed === true) options.failClosed = true;
      return { options, cwd };
    },
  };
}

const IMPLIED_TOOLS: Readonly<Record<Implied, (tool: string) => boolean>> = {
  shell: (tool) => tool === 'Bash',
  mcp: (tool) => tool.startsWith('mcp__'),
  read: (tool) => tool === 'Read',
  edit: (tool) => tool === 'Edit' || tool === 'Write' || tool === 'MultiEdit',
};

/** Cursor hook files (docs/formats/cursor.md). */
export const cursorFormat: HookFormatAdapter = {
  id: 'cursor',
  displayName: 'Cursor',
  locations: [
    { scope: 'project', kind: 'file', path: '.cursor/hooks.json' },
    { scope: 'user', kind: 'file', path: '.cursor/hooks.json' },
  ],
  parse: parseCursor,
  compileMatcher(binding) {
    const implies = binding.options?.implies;
    const tool = typeof implies === 'string' && implies in IMPLIED_TOOLS ? toolMatcher(implies, IMPLIED_TOOLS[implies as Implied]) : undefined;
    const matches = binding.options?.matches;
    const own = regexMatcher(binding.matcher, false, ({ input }) => {
      const name = typeof input.tool_name === 'string' ? input.tool_name : undefined;
      if (matches === 'command') return shellCommandOf(input);
      if (matches === 'mcp') return name?.split('__').slice(2).join('__');
      if (matches === 'agent') return typeof input.agent_type === 'string' ? input.agent_type : undefined;
      return name !== undefined ? cursorToolName(name) : undefined;
    });
    if (typeof own === 'string') return own;
    return tool !== undefined ? bothMatch(tool, own) : own;
  },
  translateInput: cursorInput,
  interpret: cursorVerdict,
  defaultTimeoutMs: () => CURSOR_DEFAULT_TIMEOUT_MS,
  failClosed: (binding) => binding.options?.failClosed === true,
};
