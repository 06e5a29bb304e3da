import type { HookActionContext } from '../../hookAction';
import type { HookEvent } from '../../hookEvent';
import type { HookOutcome } from '../../hookOutcome';
import type { FormatBinding, FormatInput, FormatRun, FormatVerdict } from '../hookFormat';
import { finalJsonObject, outObject, outString, stderrReason } from '../formatOutput';
import { toolInputOf } from '../formatMatchers';

/**
 * GitHub Copilot CLI's hook semantics at run time (docs/formats/copilot.md): its camelCase input
 * (`toolName` in its own vocabulary, `toolArgs` as a JSON string, epoch-ms `timestamp`), its flat
 * output (`permissionDecision`, `modifiedArgs`, `behavior`, `decision`), and its exit codes (2
 * denies preToolUse and permissionRequest; any other failure of preToolUse denies too, fail closed).
 * PascalCase events (`PreToolUse`) get the snake_case "VS Code compatible" input with Claude names.
 */

/** Hookwise tool name → Copilot's, and the argument keys each renames (Hookwise key → Copilot key). */
const TOOLS: Readonly<Record<string, { readonly name: string; readonly args?: Readonly<Record<string, string>> }>> = {
  Bash: { name: 'bash' },
  Read: { name: 'view', args: { file_path: 'path' } },
  Write: { name: 'create', args: { file_path: 'path', content: 'file_text' } },
  Edit: { name: 'edit', args: { file_path: 'path', old_string: 'old_str', new_string: 'new_str' } },
  Glob: { name: 'glob' },
  Grep: { name: 'grep' },
  WebFetch: { name: 'web_fetch' },
  WebSearch: { name: 'web_search' },
  Agent: { name: 'task' },
  AskUserQuestion: { name: 'ask_user' },
  TodoWrite: { name: 'update_todo' },
};

/** Copilot's name of a Hookwise tool (others, e.g. MCP tools, keep their name). */
export function copilotToolName(hookwiseName: string): string {
  return TOOLS[hookwiseName]?.name ?? hookwiseName;
}

/** The tool's arguments with Copilot's key names. */
export function copilotToolArgs(toolName: string, args: Record<string, unknown>): Record<string, unknown> {
  const renames = TOOLS[toolName]?.args;
  if (renames === undefined) return args;
  return Object.fromEntries(Object.entries(args).map(([k, v]) => [renames[k] ?? k, v]));
}

/** `modifiedArgs` back to Hookwise's key names. */
function hookwiseToolArgs(toolName: string, args: Record<string, unknown>): Record<string, unknown> {
  const renames = TOOLS[toolName]?.args;
  if (renames === undefined) return args;
  const back = Object.fromEntries(Object.entries(renames).map(([from, to]) => [to, from]));
  return Object.fromEntries(Object.entries(args).map(([k, v]) => [back[k] ?? k, v]));
}

/** True for a PascalCase event name in a Copilot file (Claude's names: the VS Code compatible input). */
export function isPascalBinding(binding: FormatBinding): boolean {
  return /^[A-Z]/.test(binding.nativeEvent);
}

/** The stdin JSON and env of a Copilot hook. */
export function copilotInput(binding: FormatBinding, event: HookEvent, input: Readonly<Record<string, unknown>>, ctx: HookActionContext): FormatInput {
  const cwd = typeof input.cwd === 'string' ? input.cwd : ctx.cwd;
  if (isPascalBinding(binding))
    return { stdin: { ...input, hook_event_name: binding.nativeEvent, session_id: ctx.sessionId, timestamp: new Date().toISOString(), cwd }, env: {} };
  const out: Record<string, unknown> = { sessionId: ctx.sessionId, timestamp: Date.now(), cwd };
  if (typeof input.transcript_path === 'string' && input.transcript_path !== '') out.transcriptPath = input.transcript_path;
  const tool = typeof input.tool_name === 'string' ? input.tool_name : undefined;
  if (tool !== undefined) {
    out.toolName = copilotToolName(tool);
    out.toolArgs = JSON.stringify(copilotToolArgs(tool, toolInputOf(input)));
  }
  if (event === 'PostToolUse') out.toolResult = { resultType: 'success', textResultForLlm: resultText(input.tool_response) };
  if (event === 'PostToolUseFailure') {
    out.toolResult = { resultType: 'failure', textResultForLlm: resultText(input.error) };
    out.error = { message: resultText(input.error), name: 'ToolError' };
  }
  if (event === 'UserPromptSubmit' && typeof input.prompt === 'string') out.prompt = input.prompt;
  if (event === 'SessionStart') {
    out.source = input.source === 'resume' ? 'resume' : input.source === 'startup' ? 'startup' : 'new';
    if (typeof input.prompt === 'string') out.initialPrompt = input.prompt;
  }
  if (event === 'SessionEnd') out.reason = typeof input.reason === 'string' ? copilotEndReason(input.reason) : 'complete';
  if (event === 'Stop' || event === 'SubagentStop') out.stopHookActive = input.stop_hook_active === true;
  if (event === 'SubagentStart' || event === 'SubagentStop') out.agentName = typeof input.agent_type === 'string' ? input.agent_type : '';
  if (event === 'SubagentStop' && typeof input.last_assistant_message === 'string') out.response = input.last_assistant_message;
  if (event === 'Notification') {
    out.notificationType = input.notification_type;
    out.message = input.message;
  }
  if (event === 'PreCompact') out.trigger = input.trigger;
  if (event === 'StopFailure') out.error = { message: resultText(input.error), name: 'Error' };
  return { stdin: out, env: {} };
}

function copilotEndReason(reason: string): string {
  return reason === 'prompt_input_exit' || reason === 'logout' ? 'user_exit' : reason === 'error' ? 'error' : 'complete';
}

function resultText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

/** Events whose output Copilot drops: the hook only observes. */
const OBSERVE_ONLY = new Set([
  'userPromptSubmitted',
  'UserPromptSubmit',
  'preCompact',
  'PreCompact',
  'notification',
  'errorOccurred',
  'sessionEnd',
  'SessionEnd',
]);
const DENY_EVENTS = new Set<HookEvent>(['PreToolUse', 'PermissionRequest']);

/** How Copilot reads a finished hook. */
export function copilotVerdict(run: FormatRun): FormatVerdict {
  const { event, binding, exitCode, stdout, stderr } = run;
  if (exitCode === 2) {
    if (DENY_EVENTS.has(event)) return ok({ decision: 'deny', reason: stderrReason(stderr, 'Denied by a Copilot hook (exit code 2)') });
    if (event === 'PostToolUseFailure') return ok({ additionalContext: stderrReason(stderr, '') });
    return ok({ systemMessage: stderrReason(stderr, 'Copilot hook exited with code 2') }, [`exit code 2 on ${binding.nativeEvent} is a warning in Copilot`]);
  }
  if (exitCode !== 0) {
    const why = `exited with code ${exitCode ?? 'none (signal)'}${stderr.trim() ? `: ${stderrReason(stderr, '')}` : ''}`;
    // Copilot fails closed on a crashed preToolUse hook, open everywhere else.
    if (event === 'PreToolUse') return ok({ decision: 'deny', reason: `Copilot preToolUse hook ${why} (Copilot denies when this hook fails)` });
    return { status: 'failed', error: why };
  }
  if (OBSERVE_ONLY.has(binding.nativeEvent)) return ok({});
  const read = finalJsonObject(stdout, (obj) => obj.type === 'progress');
  if (read.malformed) {
    if (event === 'PreToolUse') return ok({ decision: 'deny', reason: 'Copilot preToolUse hook printed output that is not JSON (Copilot denies)' });
    return { status: 'failed', error: 'stdout is not a JSON object' };
  }
  const json = read.json;
  if (json === undefined) return ok({});
  // VS Code compatible hooks may answer in Claude's nested form.
  const nested = outObject(json, 'hookSpecificOutput');
  const flat = nested !== undefined && isPascalBinding(binding) ? { ...json, ...nested } : json;
  return ok(outcomeOf(event, run, flat));
}

function outcomeOf(event: HookEvent, run: FormatRun, json: Record<string, unknown>): HookOutcome {
  const context = outString(json, 'additionalContext');
  const withContext = (o: HookOutcome): HookOutcome => (context !== undefined && context !== '' ? { ...o, additionalContext: context } : o);
  if (event === 'PreToolUse') {
    const decision = outString(json, 'permissionDecision');
    const reason = outString(json, 'permissionDecisionReason');
    const modified = outObject(json, 'modifiedArgs') ?? outObject(json, 'updatedInput');
    const tool = typeof run.input.tool_name === 'string' ? run.input.tool_name : '';
    const out: { -readonly [K in keyof HookOutcome]: HookOutcome[K] } = {};
    if (decision === 'deny' || decision === 'allow' || decision === 'ask') out.decision = decision;
    if (reason !== undefined) out.reason = reason;
    else if (decision === 'deny') out.reason = 'Denied by a Copilot hook';
    if (modified !== undefined && decision !== 'deny') out.updatedInput = isPascalBinding(run.binding) ? modified : hookwiseToolArgs(tool, modified);
    return withContext(out);
  }
  if (event === 'PermissionRequest') {
    const behavior = outString(json, 'behavior') ?? outString(outObject(json, 'decision'), 'behavior');
    const message = outString(json, 'message');
    if (behavior === 'deny') return { decision: 'deny', reason: message ?? 'Denied by a Copilot hook' };
    if (behavior === 'allow') return { decision: 'allow', ...(message !== undefined ? { reason: message } : {}) };
    return {};
  }
  if (event === 'Stop' || event === 'SubagentStop') {
    const decision = outString(json, 'decision');
    if (decision === 'block') return { decision: 'continue', reason: outString(json, 'reason') ?? 'A Copilot hook asked to continue' };
    return {};
  }
  if (event === 'PostToolUse') {
    const modified = json.modifiedResult;
    return withContext(modified !== undefined ? { updatedResult: modified } : {});
  }
  if (event === 'SessionStart' || event === 'SubagentStart') return withContext({});
  return {};
}

function ok(outcome: HookOutcome, warnings?: readonly string[]): FormatVerdict {
  return warnings !== undefined ? { status: 'ok', outcome, warnings } : { status: 'ok', outcome };
}
