import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { HookActionContext } from '../../hookAction';
import type { HookEvent } from '../../hookEvent';
import type { HookOutcome } from '../../hookOutcome';
import type { FormatBinding, FormatInput, FormatRun, FormatVerdict } from '../hookFormat';
import { finalJsonObject, outObject, outString, stderrReason } from '../formatOutput';
import { toolInputOf } from '../formatMatchers';

/**
 * Cursor's hook semantics at run time (docs/formats/cursor.md): its snake_case input
 * (`conversation_id`, `workspace_roots`, `tool_name` in Cursor's vocabulary: `Shell`, `Read`,
 * `Write`, `MCP:<tool>`; `command` for the shell events), its output (`permission`,
 * `user_message`, `agent_message`, `updated_input`, `additional_context`, `followup_message`, and
 * Claude's nested form), exit 2 = deny, any other failure fail-open unless `failClosed`.
 */

/** Largest file content sent to a beforeReadFile hook (Cursor sends the file; Hookwise bounds it). */
const MAX_READ_CONTENT = 1024 * 1024;

/** Cursor's name of a Hookwise tool (Cursor's own Claude import maps Edit and Write to Write). */
export function cursorToolName(hookwiseName: string): string {
  if (hookwiseName.startsWith('mcp__')) return `MCP:${hookwiseName.split('__').slice(2).join('__')}`;
  const names: Readonly<Record<string, string>> = { Bash: 'Shell', Edit: 'Write', MultiEdit: 'Write', Agent: 'Task' };
  return names[hookwiseName] ?? hookwiseName;
}

/** The shell command of a Bash tool input, or undefined. */
export function shellCommandOf(input: Readonly<Record<string, unknown>>): string | undefined {
  const command = toolInputOf(input).command;
  return input.tool_name === 'Bash' && typeof command === 'string' ? command : undefined;
}

/** The stdin JSON and env of a Cursor hook. */
export function cursorInput(binding: FormatBinding, event: HookEvent, input: Readonly<Record<string, unknown>>, ctx: HookActionContext): FormatInput {
  const cwd = typeof input.cwd === 'string' ? input.cwd : ctx.cwd;
  const out: Record<string, unknown> = {
    conversation_id: ctx.sessionId,
    generation_id: `${ctx.sessionId}-${Date.now()}`,
    model: typeof input.model === 'string' ? input.model : '',
    hook_event_name: binding.nativeEvent,
    cursor_version: 'hookwise',
    workspace_roots: [ctx.projectDir],
    user_email: null,
    transcript_path: typeof input.transcript_path === 'string' && input.transcript_path !== '' ? input.transcript_path : null,
  };
  Object.assign(out, eventFields(binding.nativeEvent, event, input, cwd));
  const env = { CURSOR_PROJECT_DIR: ctx.projectDir, CURSOR_VERSION: 'hookwise', CLAUDE_PROJECT_DIR: ctx.projectDir };
  return { stdin: out, env };
}

function eventFields(nativeEvent: string, event: HookEvent, input: Readonly<Record<string, unknown>>, cwd: string): Record<string, unknown> {
  const tool = typeof input.tool_name === 'string' ? input.tool_name : '';
  const args = toolInputOf(input);
  switch (nativeEvent) {
    case 'beforeShellExecution':
      return { command: shellCommandOf(input) ?? '', cwd };
    case 'afterShellExecution':
      return { command: shellCommandOf(input) ?? '', output: text(input.tool_response), duration: 0 };
    case 'beforeMCPExecution':
      return { tool_name: tool.split('__').slice(2).join('__'), tool_input: JSON.stringify(args), server: tool.split('__')[1] ?? '' };
    case 'afterMCPExecution':
      return { tool_name: tool.split('__').slice(2).join('__'), tool_input: JSON.stringify(args), result_json: text(input.tool_response), duration: 0 };
    case 'beforeReadFile':
      return { file_path: filePath(args, cwd), content: readBounded(filePath(args, cwd)), attachments: [] };
    case 'afterFileEdit':
      return { file_path: filePath(args, cwd), edits: editsOf(args) };
    case 'beforeSubmitPrompt':
      return { prompt: typeof input.prompt === 'string' ? input.prompt : '', attachments: [] };
    case 'stop':
      return { status: 'completed', loop_count: input.stop_hook_active === true ? 1 : 0 };
    case 'sessionStart':
      return { session_id: input.session_id, is_background_agent: false, composer_mode: 'agent' };
    case 'sessionEnd':
      return { session_id: input.session_id, reason: input.reason ?? 'completed' };
    case 'subagentStart':
    case 'subagentStop':
      return {
        subagent_type: input.agent_type ?? '',
        ...(event === 'SubagentStop' ? { status: 'completed', result: input.last_assistant_message ?? '' } : {}),
      };
    case 'preCompact':
      return { trigger: input.trigger ?? 'auto' };
    default: {
      // preToolUse, postToolUse, postToolUseFailure: the generic tool events.
      const base = { tool_name: cursorToolName(tool), tool_input: args, tool_use_id: input.tool_use_id ?? '', cwd };
      if (event === 'PostToolUse') return { ...base, tool_output: text(input.tool_response), duration: 0 };
      if (event === 'PostToolUseFailure') return { ...base, error_message: text(input.error), failure_type: 'error' };
      return base;
    }
  }
}

function filePath(args: Record<string, unknown>, cwd: string): string {
  const p = args.file_path ?? args.path;
  return typeof p === 'string' ? path.resolve(cwd, p) : '';
}

function editsOf(args: Record<string, unknown>): { old_string: string; new_string: string }[] {
  if (typeof args.old_string === 'string' && typeof args.new_string === 'string') return [{ old_string: args.old_string, new_string: args.new_string }];
  if (typeof args.content === 'string') return [{ old_string: '', new_string: args.content }];
  return [];
}

function readBounded(file: string): string {
  if (file === '') return '';
  try {
    const content = readFileSync(file, 'utf8');
    return content.length > MAX_READ_CONTENT ? content.slice(0, MAX_READ_CONTENT) : content;
  } catch {
    return '';
  }
}

function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

const PRE_TOOL = new Set(['preToolUse', 'beforeShellExecution', 'beforeMCPExecution', 'beforeReadFile']);

/** How Cursor reads a finished hook. */
export function cursorVerdict(run: FormatRun): FormatVerdict {
  const { event, binding, exitCode, stdout, stderr } = run;
  if (exitCode === 2) {
    const reason = stderrReason(stderr, 'Denied by a Cursor hook (exit code 2)');
    if (PRE_TOOL.has(binding.nativeEvent) || event === 'UserPromptSubmit' || event === 'SubagentStart')
      return { status: 'ok', outcome: { decision: 'deny', reason } };
    return { status: 'ok', outcome: { systemMessage: reason }, warnings: [`exit code 2 on ${binding.nativeEvent} cannot block in Cursor`] };
  }
  if (exitCode !== 0)
    return { status: 'failed', error: `exited with code ${exitCode ?? 'none (signal)'}${stderr.trim() ? `: ${stderrReason(stderr, '')}` : ''}` };
  const read = finalJsonObject(stdout);
  if (read.malformed) return { status: 'failed', error: 'stdout is not a JSON object' };
  if (read.json === undefined) return { status: 'ok', outcome: {} };
  return outcomeOf(run, normalise(read.json));
}

/** Claude's nested form, accepted by Cursor, in Cursor's flat names. */
function normalise(json: Record<string, unknown>): Record<string, unknown> {
  const nested = outObject(json, 'hookSpecificOutput');
  if (nested === undefined) return json;
  const decision = outString(nested, 'permissionDecision');
  const reason = outString(nested, 'permissionDecisionReason');
  return {
    ...json,
    ...(decision !== undefined && json.permission === undefined ? { permission: decision } : {}),
    ...(reason !== undefined && json.user_message === undefined ? { user_message: reason } : {}),
    ...(nested.updatedInput !== undefined && json.updated_input === undefined ? { updated_input: nested.updatedInput } : {}),
    ...(typeof nested.additionalContext === 'string' && json.additional_context === undefined ? { additional_context: nested.additionalContext } : {}),
  };
}

function outcomeOf(run: FormatRun, json: Record<string, unknown>): FormatVerdict {
  const { event, binding } = run;
  const warnings: string[] = [];
  const permission = outString(json, 'permission');
  const reason = outString(json, 'agent_message') ?? outString(json, 'user_message') ?? outString(json, 'reason');
  const context = outString(json, 'additional_context');
  const out: { -readonly [K in keyof HookOutcome]: HookOutcome[K] } = {};
  if (PRE_TOOL.has(binding.nativeEvent)) {
    if (permission === 'deny') out.decision = 'deny';
    else if (permission === 'allow') out.decision = 'allow';
    else if (permission === 'ask') {
      // Cursor enforces ask on its shell and MCP events only.
      if (binding.nativeEvent === 'beforeShellExecution' || binding.nativeEvent === 'beforeMCPExecution') out.decision = 'ask';
      else warnings.push(`Cursor does not enforce "ask" on ${binding.nativeEvent}; the call proceeds`);
    }
    if (out.decision !== undefined) out.reason = reason ?? (out.decision === 'deny' ? 'Denied by a Cursor hook' : 'Cursor hook');
    const updated = outObject(json, 'updated_input');
    if (updated !== undefined && out.decision !== 'deny') out.updatedInput = updated;
  } else if (event === 'UserPromptSubmit') {
    if (json.continue === false || permission === 'deny') out.decision = 'deny';
    if (out.decision !== undefined) out.reason = reason ?? 'Blocked by a Cursor hook';
  } else if (event === 'SubagentStart') {
    // Cursor reads ask as deny here.
    if (permission === 'deny' || permission === 'ask') out.decision = 'deny';
    if (out.decision !== undefined) out.reason = reason ?? 'Denied by a Cursor hook';
  } else if (event === 'Stop' || event === 'SubagentStop') {
    const followup = outString(json, 'followup_message') ?? (json.decision === 'block' ? (outString(json, 'reason') ?? 'Continue') : undefined);
    if (followup !== undefined && followup !== '') {
      out.decision = 'continue';
      out.reason = followup;
    }
  } else if (binding.nativeEvent === 'afterMCPExecution' && json.updated_mcp_tool_output !== undefined) {
    out.updatedResult = json.updated_mcp_tool_output;
  }
  if (context !== undefined && context !== '') out.additionalContext = context;
  if (json.env !== undefined) warnings.push('"env" from a sessionStart hook is not carried over: Hookwise does not pass it to later hooks');
  return warnings.length > 0 ? { status: 'ok', outcome: out, warnings } : { status: 'ok', outcome: out };
}
