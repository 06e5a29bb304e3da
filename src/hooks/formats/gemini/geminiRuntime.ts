import type { HookActionContext } from '../../hookAction';
import type { HookEvent } from '../../hookEvent';
import type { HookOutcome } from '../../hookOutcome';
import { parseJsonObject } from '../../../shared/jsonObject';
import {
  hookToolConfigSchema,
  llmRequestPatchSchema,
  llmResponseSchema,
  type HookToolConfig,
  type LlmRequestPatch,
  type LlmResponse,
} from '../../inputs/llmShapes';
import { toolInputOf } from '../formatMatchers';
import { outObject, outString } from '../formatOutput';
import type { FormatBinding, FormatInput, FormatRun, FormatVerdict } from '../hookFormat';
import { geminiToolArgs, geminiToolName, hookwiseToolArgs, hookwiseToolName } from './geminiTools';

/**
 * Gemini CLI's hook semantics at run time (docs/formats/gemini.md), as its hookRunner.ts and
 * types.ts implement them: snake_case input with Gemini's event and tool names; JSON read from
 * stdout (or, when stdout is empty, stderr) and honoured whatever the exit code; plain text is
 * a message on exit 0, a warning on exit 1 and a deny on any other code; a timeout or a crash
 * without output is a warning (fail open).
 */

/** Largest JSON text read from a hook. */
const MAX_JSON_CHARS = 1024 * 1024;

/** The stdin JSON and env of a Gemini hook. */
export function geminiInput(binding: FormatBinding, event: HookEvent, input: Readonly<Record<string, unknown>>, ctx: HookActionContext): FormatInput {
  const cwd = typeof input.cwd === 'string' ? input.cwd : ctx.cwd;
  const out: Record<string, unknown> = {
    session_id: ctx.sessionId,
    transcript_path: typeof input.transcript_path === 'string' ? input.transcript_path : '',
    cwd,
    hook_event_name: binding.nativeEvent,
    timestamp: new Date().toISOString(),
  };
  const tool = typeof input.tool_name === 'string' ? input.tool_name : undefined;
  if (tool !== undefined) {
    out.tool_name = geminiToolName(tool);
    out.tool_input = geminiToolArgs(tool, toolInputOf(input));
  }
  if (event === 'PostToolUse') out.tool_response = { llmContent: text(input.tool_response), returnDisplay: text(input.tool_response) };
  if (event === 'PostToolUseFailure')
    out.tool_response = { llmContent: text(input.error), returnDisplay: text(input.error), error: { message: text(input.error) } };
  if (event === 'UserPromptSubmit') out.prompt = typeof input.prompt === 'string' ? input.prompt : '';
  if (event === 'Stop') {
    out.prompt = '';
    out.prompt_response = typeof input.last_assistant_message === 'string' ? input.last_assistant_message : '';
    out.stop_hook_active = input.stop_hook_active === true;
  }
  if (event === 'SessionStart') out.source = input.source;
  if (event === 'SessionEnd') out.reason = input.reason;
  if (event === 'PreCompact') out.trigger = input.trigger;
  // Model-level events: the request and reply in Gemini's shapes, as Hookwise builds them.
  if (input.llm_request !== undefined) out.llm_request = input.llm_request;
  if (event === 'AfterInference' && input.llm_response !== undefined) out.llm_response = input.llm_response;
  if (event === 'Notification') {
    out.notification_type = input.notification_type === 'permission_prompt' ? 'ToolPermission' : input.notification_type;
    out.message = input.message;
    out.details = {};
  }
  const env = { GEMINI_PROJECT_DIR: ctx.projectDir, GEMINI_CWD: cwd, GEMINI_SESSION_ID: ctx.sessionId, CLAUDE_PROJECT_DIR: ctx.projectDir };
  return { stdin: out, env };
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

/** How Gemini CLI reads a finished hook. */
export function geminiVerdict(run: FormatRun): FormatVerdict {
  const { exitCode } = run;
  const raw = run.stdout.trim() || run.stderr.trim();
  const json = raw === '' ? undefined : readJson(raw);
  if (json !== undefined) return outcomeOf(run, json);
  if (raw === '') return exitCode === 0 ? { status: 'ok', outcome: {} } : { status: 'failed', error: exitText(exitCode) };
  const shown = raw.length > 2000 ? `${raw.slice(0, 2000)}…` : raw;
  if (exitCode === 0) return { status: 'ok', outcome: { systemMessage: shown } };
  if (exitCode === 1 || exitCode === null)
    return { status: 'ok', outcome: { systemMessage: `Warning: ${shown}` }, warnings: [`${exitText(exitCode)}: a warning in Gemini`] };
  return { status: 'ok', outcome: { decision: blockDecision(run.event), reason: shown } };
}

function exitText(code: number | null): string {
  return code === null ? 'ended by a signal' : `exited with code ${code}`;
}

/** A JSON object, or a JSON string holding one (Gemini parses twice). */
function readJson(raw: string): Record<string, unknown> | undefined {
  const direct = parseJsonObject(raw, MAX_JSON_CHARS);
  if (direct !== undefined) return direct;
  try {
    const inner: unknown = JSON.parse(raw);
    return typeof inner === 'string' ? parseJsonObject(inner, MAX_JSON_CHARS) : undefined;
  } catch {
    return undefined;
  }
}

/** Gemini's deny on an event, in Hookwise's terms: AfterAgent's deny asks for one more turn. */
function blockDecision(event: HookEvent): 'deny' | 'continue' {
  return event === 'Stop' ? 'continue' : 'deny';
}

function outcomeOf(run: FormatRun, json: Record<string, unknown>): FormatVerdict {
  const { event } = run;
  const out: { -readonly [K in keyof HookOutcome]: HookOutcome[K] } = {};
  const warnings: string[] = [];
  const systemMessage = outString(json, 'systemMessage');
  if (systemMessage !== undefined) out.systemMessage = systemMessage;
  if (json.suppressOutput === true) out.suppressOutput = true;
  const reason = outString(json, 'reason');
  const decision = outString(json, 'decision');
  const specific = outObject(json, 'hookSpecificOutput');
  if (json.continue === false) {
    out.decision = 'stop';
    out.reason = outString(json, 'stopReason') ?? reason ?? 'A Gemini hook stopped the agent';
    return { status: 'ok', outcome: out };
  }
  if (decision === 'deny' || decision === 'block') {
    out.decision = blockDecision(event);
    out.reason = reason ?? 'Blocked by a Gemini hook';
  } else if (event === 'PreToolUse' && decision === 'ask') {
    out.decision = 'ask';
    if (reason !== undefined) out.reason = reason;
  } else if (event === 'PreToolUse' && (decision === 'allow' || decision === 'approve')) {
    out.decision = 'allow';
    if (reason !== undefined) out.reason = reason;
  }
  const toolInput = outObject(specific, 'tool_input');
  if (toolInput !== undefined) {
    if (event === 'PreToolUse' && out.decision !== 'deny') {
      const tool = typeof run.input.tool_name === 'string' ? run.input.tool_name : '';
      out.updatedInput = hookwiseToolArgs(tool, toolInput);
    } else if (event !== 'PreToolUse') warnings.push(`hookSpecificOutput.tool_input is read only on BeforeTool; it is ignored on ${run.binding.nativeEvent}`);
  }
  const context = outString(specific, 'additionalContext');
  if (context !== undefined && context !== '') out.additionalContext = context;
  readModelFields(event, specific, out, warnings);
  for (const key of ['tailToolCallRequest', 'clearContext'])
    if (specific?.[key] !== undefined) warnings.push(`hookSpecificOutput.${key} is not carried over by Hookwise; it is ignored`);
  return warnings.length > 0 ? { status: 'ok', outcome: out, warnings } : { status: 'ok', outcome: out };
}

/** Which model-level field each event reads (Gemini's BeforeModel, AfterModel, BeforeToolSelection). */
const MODEL_FIELDS: Readonly<Partial<Record<HookEvent, readonly ('llm_request' | 'llm_response' | 'toolConfig')[]>>> = {
  BeforeInference: ['llm_request', 'llm_response'],
  AfterInference: ['llm_response'],
  BeforeToolSelection: ['toolConfig'],
};

/**
 * `hookSpecificOutput.llm_request`, `llm_response` and `toolConfig`, checked against the shapes the
 * model-level hooks take; one that does not fit (or on an event that does not read it) is a
 * warning and is ignored, so the call goes on unmodified.
 */
function readModelFields(
  event: HookEvent,
  specific: Record<string, unknown> | undefined,
  out: { -readonly [K in keyof HookOutcome]: HookOutcome[K] },
  warnings: string[],
): void {
  const reads = MODEL_FIELDS[event] ?? [];
  for (const key of ['llm_request', 'llm_response', 'toolConfig'] as const) {
    const value = specific?.[key];
    if (value === undefined) continue;
    if (!reads.includes(key)) {
      warnings.push(`hookSpecificOutput.${key} is not read on this event; it is ignored`);
      continue;
    }
    const schema = key === 'llm_request' ? llmRequestPatchSchema : key === 'llm_response' ? llmResponseSchema : hookToolConfigSchema;
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      warnings.push(`hookSpecificOutput.${key} does not fit Gemini's shape (${parsed.error.issues[0]?.message ?? 'invalid'}); it is ignored`);
      continue;
    }
    if (key === 'llm_request') out.llmRequest = parsed.data as LlmRequestPatch;
    else if (key === 'llm_response') out.llmResponse = parsed.data as LlmResponse;
    else {
      // Gemini names the tools its own way (`read_file`): the filter speaks Hookwise's names.
      const config = parsed.data as HookToolConfig;
      out.toolConfig =
        config.allowedFunctionNames === undefined ? config : { ...config, allowedFunctionNames: config.allowedFunctionNames.map(hookwiseToolName) };
    }
  }
}
