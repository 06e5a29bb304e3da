import type { HookActionContext } from '../../hookAction';
import type { HookEvent } from '../../hookEvent';
import type { HookOutcome } from '../../hookOutcome';
import { toolInputOf } from '../formatMatchers';
import { finalJsonObject } from '../formatOutput';
import type { FormatBinding, FormatInput, FormatRun, FormatVerdict } from '../hookFormat';

/**
 * Cline's hook semantics at run time (docs/formats/cline.md), as its hook-factory.ts and
 * hooks.proto define them: camelCase input with one object per event (`preToolUse{toolName,
 * parameters}` with every parameter as a string), Cline's tool names; output `{cancel,
 * contextModification, errorMessage}` honoured whatever the exit code; no JSON and a non-zero
 * exit is an error the task goes on after (fail open); context is cut at 50,000 characters.
 */

/** Cline's cut of contextModification. */
const MAX_CONTEXT_CHARS = 50_000;

/** Hookwise tool → Cline's name, and its parameters as Cline names them. */
function clineTool(name: string, args: Record<string, unknown>): { toolName: string; parameters: Record<string, unknown> } {
  const file = args.file_path;
  switch (name) {
    case 'Bash':
      return { toolName: 'execute_command', parameters: { command: args.command, requires_approval: 'false' } };
    case 'Read':
      return { toolName: 'read_file', parameters: { path: file } };
    case 'Write':
      return { toolName: 'write_to_file', parameters: { path: file, content: args.content } };
    case 'Edit':
      return {
        toolName: 'replace_in_file',
        parameters: { path: file, diff: `------- SEARCH\n${String(args.old_string ?? '')}\n=======\n${String(args.new_string ?? '')}\n+++++++ REPLACE` },
      };
    case 'Grep':
      return { toolName: 'search_files', parameters: { path: args.path ?? '.', regex: args.pattern, file_pattern: args.glob } };
    case 'Glob':
      return { toolName: 'list_files', parameters: { path: args.path ?? '.', recursive: 'true' } };
    case 'WebFetch':
      return { toolName: 'web_fetch', parameters: { url: args.url } };
    default: {
      const mcp = /^mcp__(.+?)__(.+)$/.exec(name);
      if (mcp) return { toolName: 'use_mcp_tool', parameters: { server_name: mcp[1], tool_name: mcp[2], arguments: args } };
      return { toolName: name, parameters: args };
    }
  }
}

/** Cline sends every parameter as a string (a protobuf `map<string, string>`); absent ones are left out. */
function asStrings(parameters: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(parameters)) if (v !== undefined && v !== null) out[k] = typeof v === 'string' ? v : JSON.stringify(v);
  return out;
}

/** The stdin JSON of a Cline hook. */
export function clineInput(binding: FormatBinding, event: HookEvent, input: Readonly<Record<string, unknown>>, ctx: HookActionContext): FormatInput {
  const out: Record<string, unknown> = {
    clineVersion: 'hookwise',
    hookName: binding.nativeEvent,
    timestamp: String(Date.now()),
    taskId: ctx.sessionId,
    workspaceRoots: [ctx.projectDir],
    userId: '',
  };
  const tool = typeof input.tool_name === 'string' ? clineTool(input.tool_name, toolInputOf(input)) : undefined;
  if (event === 'PreToolUse' && tool) out.preToolUse = { toolName: tool.toolName, parameters: asStrings(tool.parameters) };
  if ((event === 'PostToolUse' || event === 'PostToolUseFailure') && tool) {
    const failed = event === 'PostToolUseFailure';
    const result = failed ? input.error : input.tool_response;
    out.postToolUse = {
      toolName: tool.toolName,
      parameters: asStrings(tool.parameters),
      result: typeof result === 'string' ? result : JSON.stringify(result ?? ''),
      success: !failed,
      executionTimeMs: typeof input.duration_ms === 'number' ? input.duration_ms : 0,
    };
  }
  if (event === 'UserPromptSubmit') out.userPromptSubmit = { prompt: typeof input.prompt === 'string' ? input.prompt : '', attachments: [] };
  const metadata = { taskId: ctx.sessionId };
  if (binding.nativeEvent === 'TaskStart') out.taskStart = { taskMetadata: metadata };
  if (binding.nativeEvent === 'TaskResume') out.taskResume = { taskMetadata: metadata, previousState: {} };
  if (binding.nativeEvent === 'TaskCancel') out.taskCancel = { taskMetadata: metadata };
  if (binding.nativeEvent === 'TaskComplete') out.taskComplete = { taskMetadata: metadata };
  if (event === 'PreCompact') out.preCompact = { taskId: ctx.sessionId, compactionStrategy: typeof input.trigger === 'string' ? input.trigger : 'auto' };
  if (event === 'Notification') out.notification = { event: input.notification_type, source: 'hookwise', message: input.message, waitingForUserInput: true };
  return { stdin: out, env: {} };
}

/** How Cline reads a finished hook. */
export function clineVerdict(run: FormatRun): FormatVerdict {
  const read = finalJsonObject(run.stdout);
  const json = read.json;
  if (json === undefined) {
    if (run.exitCode === 0) return { status: 'ok', outcome: {} };
    return {
      status: 'failed',
      error: `exited with code ${run.exitCode ?? 'none (signal)'} without a JSON answer${run.stderr.trim() ? `: ${run.stderr.trim().slice(0, 2000)}` : ''}`,
    };
  }
  if (json.shouldContinue !== undefined) return { status: 'failed', error: "Cline removed 'shouldContinue'; it refuses this output (use cancel: true)" };
  if (json.cancel !== undefined && typeof json.cancel !== 'boolean')
    return { status: 'failed', error: "'cancel' must be true or false; Cline refuses this output" };
  const warnings: string[] = [];
  const out: { -readonly [K in keyof HookOutcome]: HookOutcome[K] } = {};
  let context = typeof json.contextModification === 'string' ? json.contextModification : '';
  if (context.length > MAX_CONTEXT_CHARS) {
    warnings.push(`contextModification of ${context.length} characters cut to ${MAX_CONTEXT_CHARS}, as Cline cuts it`);
    context = `${context.slice(0, MAX_CONTEXT_CHARS)}\n\n[... context truncated due to size limit ...]`;
  }
  if (context !== '') out.additionalContext = context;
  const message = typeof json.errorMessage === 'string' && json.errorMessage !== '' ? json.errorMessage : undefined;
  if (json.cancel === true) {
    // Before a tool, cancel stops that tool; elsewhere it cancels the task.
    if (run.event === 'PreToolUse' || run.event === 'UserPromptSubmit') {
      out.decision = 'deny';
      out.reason = message ?? 'Cancelled by a Cline hook';
    } else if (run.event !== 'SessionEnd') {
      out.decision = 'stop';
      out.reason = message ?? 'Cancelled by a Cline hook';
    }
  } else if (message !== undefined) out.systemMessage = message;
  return warnings.length > 0 ? { status: 'ok', outcome: out, warnings } : { status: 'ok', outcome: out };
}
