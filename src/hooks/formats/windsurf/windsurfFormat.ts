import path from 'node:path';
import type { HookActionContext } from '../../hookAction';
import type { HookEvent } from '../../hookEvent';
import { booleanField, readCommandEntries, readFormatJson, stringField, type CommandEntryRules } from '../formatJson';
import { stderrReason } from '../formatOutput';
import { toolInputOf, toolMatcher } from '../formatMatchers';
import { MATCH_ALL } from '../../matchers/hookMatcher';
import type { FormatBinding, FormatFileContent, FormatFileWhere, FormatInput, FormatRun, FormatVerdict, HookFormatAdapter } from '../hookFormat';

/**
 * Windsurf (Cascade) hook files (docs/formats/windsurf.md): `{"hooks": {"pre_run_command": [{"command": …}]}}`.
 * Each event names what it covers (no matchers); the input is `{agent_action_name, trajectory_id,
 * execution_id, timestamp, tool_info}`; a pre-hook blocks with exit code 2 (stderr is the reason);
 * there are no JSON decisions, so stdout is shown to the user only with `show_output`.
 */

/** Windsurf does not document a time limit; Hookwise's own 60 s applies. */
const WINDSURF_DEFAULT_TIMEOUT_MS = 60_000;

type Covers = 'read' | 'write' | 'command' | 'mcp';

const EVENTS: Readonly<Record<string, { readonly event: HookEvent; readonly covers?: Covers; readonly pre?: true; readonly note?: string }>> = {
  pre_read_code: { event: 'PreToolUse', covers: 'read', pre: true },
  post_read_code: { event: 'PostToolUse', covers: 'read' },
  pre_write_code: { event: 'PreToolUse', covers: 'write', pre: true },
  post_write_code: { event: 'PostToolUse', covers: 'write' },
  pre_run_command: { event: 'PreToolUse', covers: 'command', pre: true },
  post_run_command: { event: 'PostToolUse', covers: 'command' },
  pre_mcp_tool_use: { event: 'PreToolUse', covers: 'mcp', pre: true },
  post_mcp_tool_use: { event: 'PostToolUse', covers: 'mcp' },
  pre_user_prompt: { event: 'UserPromptSubmit', pre: true },
  post_cascade_response: {
    event: 'Stop',
    note: 'it runs when the agent finishes its answer, observe only, as in Windsurf (Hookwise waits for it; Windsurf does not)',
  },
  post_cascade_response_with_transcript: {
    event: 'Stop',
    note: 'it runs when the agent finishes its answer, observe only; the transcript is the Hookwise transcript path',
  },
};

const NO_EQUIVALENT: Readonly<Record<string, string>> = {
  post_setup_worktree: 'Hookwise does not create git worktrees for the agent',
};

const ENTRY_KEYS = new Set(['command', 'powershell', 'show_output', 'working_directory', 'description']);

const COVERS: Readonly<Record<Covers, (tool: string) => boolean>> = {
  read: (tool) => tool === 'Read',
  write: (tool) => tool === 'Edit' || tool === 'Write' || tool === 'MultiEdit',
  command: (tool) => tool === 'Bash',
  mcp: (tool) => tool.startsWith('mcp__'),
};

function parseWindsurf(text: string, where: FormatFileWhere): FormatFileContent {
  const read = readFormatJson(text, where, 'Windsurf hooks file');
  if (!read.ok) return { hooks: [], diagnostics: read.sink.diagnostics };
  const { value, sink } = read;
  for (const key of Object.keys(value))
    if (key !== 'hooks' && key !== '$schema')
      sink.report('warning', 'notCarriedOver', [key], `"${key}" is not a Windsurf hooks file key; it is ignored`, { key: true });
  return { hooks: readCommandEntries(value, sink, windsurfEntries(where)), diagnostics: sink.diagnostics };
}

/** How Windsurf's entries differ from the other `{"hooks": {...}}` formats' (no type, time limit or matcher). */
function windsurfEntries(where: FormatFileWhere): CommandEntryRules<(typeof EVENTS)[string]> {
  return {
    format: 'windsurf',
    name: 'Windsurf',
    events: EVENTS,
    noEquivalent: NO_EQUIVALENT,
    keys: ENTRY_KEYS,
    example: '{"command": "python3 guard.py"}',
    command: (windows) => ({
      keys: windows ? ['powershell', 'command'] : ['command'],
      missing: ['error', 'wrongType', 'missing "command"; this hook is skipped'],
    }),
    textKeys: ['description'],
    extras(raw, _nativeEvent, mapped, at, sink) {
      const showOutput = booleanField(raw, 'show_output', at, sink);
      const dir = stringField(raw, 'working_directory', at, sink);
      // Relative to the workspace root (resolved when the hook runs, FormatCommandAction), as written: the approval does not depend on where the clone is.
      const cwd = dir !== undefined ? (path.isAbsolute(dir) || where.scope === 'project' ? dir : path.resolve(path.dirname(where.file), dir)) : undefined;
      const options: Record<string, string | boolean> = {};
      if (mapped.covers !== undefined) options.covers = mapped.covers;
      if (mapped.pre === true) options.pre = true;
      if (showOutput === true) options.showOutput = true;
      return { options, ...(cwd !== undefined ? { cwd } : {}) };
    },
  };
}

function windsurfInput(binding: FormatBinding, event: HookEvent, input: Readonly<Record<string, unknown>>, ctx: HookActionContext): FormatInput {
  const args = toolInputOf(input);
  const cwd = typeof input.cwd === 'string' ? input.cwd : ctx.cwd;
  const tool = typeof input.tool_name === 'string' ? input.tool_name : '';
  const file = typeof args.file_path === 'string' ? path.resolve(cwd, args.file_path) : '';
  let toolInfo: Record<string, unknown> = {};
  switch (binding.options?.covers) {
    case 'command':
      toolInfo = { command_line: typeof args.command === 'string' ? args.command : '', cwd };
      break;
    case 'read':
      toolInfo = { file_path: file };
      break;
    case 'write':
      toolInfo = {
        file_path: file,
        edits:
          typeof args.old_string === 'string'
            ? [{ old_string: args.old_string, new_string: args.new_string ?? '' }]
            : [{ old_string: '', new_string: args.content ?? '' }],
      };
      break;
    case 'mcp':
      toolInfo = { mcp_server_name: tool.split('__')[1] ?? '', mcp_tool_name: tool.split('__').slice(2).join('__'), mcp_tool_arguments: args };
      break;
    default:
      if (event === 'UserPromptSubmit') toolInfo = { user_prompt: typeof input.prompt === 'string' ? input.prompt : '' };
      else if (event === 'Stop')
        toolInfo = {
          response: typeof input.last_assistant_message === 'string' ? input.last_assistant_message : '',
          ...(binding.nativeEvent.endsWith('_transcript') ? { transcript_path: input.transcript_path ?? '' } : {}),
        };
  }
  if (event === 'PostToolUse' && binding.options?.covers === 'mcp') toolInfo.mcp_result = input.tool_response;
  const stdin = {
    agent_action_name: binding.nativeEvent,
    trajectory_id: ctx.sessionId,
    execution_id: `${ctx.sessionId}-${Date.now()}`,
    timestamp: new Date().toISOString(),
    tool_info: toolInfo,
  };
  return { stdin, env: {} };
}

function windsurfVerdict(run: FormatRun): FormatVerdict {
  const { binding, exitCode, stdout, stderr } = run;
  const shown = binding.options?.showOutput === true && stdout.trim() !== '' ? { systemMessage: stdout.trim() } : {};
  if (exitCode === 2) {
    const reason = stderrReason(stderr, 'Blocked by a Windsurf hook (exit code 2)');
    if (binding.options?.pre === true) return { status: 'ok', outcome: { decision: 'deny', reason, ...shown } };
    return { status: 'ok', outcome: shown, warnings: [`exit code 2 on ${binding.nativeEvent} cannot block in Windsurf (post-hooks only observe)`] };
  }
  if (exitCode !== 0)
    return { status: 'failed', error: `exited with code ${exitCode ?? 'none (signal)'}${stderr.trim() ? `: ${stderrReason(stderr, '')}` : ''}` };
  return { status: 'ok', outcome: shown };
}

/** Windsurf (Cascade) hook files (docs/formats/windsurf.md). */
export const windsurfFormat: HookFormatAdapter = {
  id: 'windsurf',
  displayName: 'Windsurf',
  locations: [
    { scope: 'project', kind: 'file', path: '.windsurf/hooks.json' },
    { scope: 'user', kind: 'file', path: '.codeium/windsurf/hooks.json' },
  ],
  parse: parseWindsurf,
  compileMatcher(binding) {
    const covers = binding.options?.covers;
    return typeof covers === 'string' && covers in COVERS ? toolMatcher(covers, COVERS[covers as Covers]) : MATCH_ALL;
  },
  translateInput: windsurfInput,
  interpret: windsurfVerdict,
  defaultTimeoutMs: () => WINDSURF_DEFAULT_TIMEOUT_MS,
  failClosed: () => false,
};
