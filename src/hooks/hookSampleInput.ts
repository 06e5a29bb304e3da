import { MATCHER_FIELD, type HookEvent } from './hookEvent';
import type { LoadedFormatHook } from './config/loadedHook';
import { compileFormatMatcher } from './formats/formatRegistry';

/** Tool events: their input names a tool and carries a tool_use_id. */
const TOOL_EVENTS = new Set<string>(['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'PermissionRequest', 'PermissionDenied']);

const TOOL_INPUTS: Readonly<Record<string, Record<string, unknown>>> = {
  Bash: { command: 'npm test' },
  Read: { file_path: 'README.md' },
  Write: { file_path: 'example.txt', content: 'hello\n' },
  Edit: { file_path: 'README.md', old_string: 'a', new_string: 'b', replace_all: false },
  Glob: { pattern: '**/*.ts' },
  Grep: { pattern: 'TODO' },
  WebFetch: { url: 'https://example.com', prompt: 'summarise' },
};

/** A small request as model-level hooks get it (Gemini CLI's `llm_request`). */
const SAMPLE_LLM_REQUEST = {
  model: 'gpt-4.1',
  messages: [{ role: 'user', content: 'Explain this project' }],
  config: { systemInstruction: 'You are a coding agent.' },
  toolConfig: { mode: 'AUTO', allowedFunctionNames: ['Read', 'Grep', 'Bash'] },
  tools: [
    { name: 'Read', description: 'Reads a file.' },
    { name: 'Grep', description: 'Searches file contents.' },
    { name: 'Bash', description: 'Runs a shell command.' },
  ],
};

const EVENT_FIELDS: Readonly<Partial<Record<HookEvent, Record<string, unknown>>>> = {
  BeforeInference: { step_index: 1, message_count: 1, model: 'gpt-4.1', llm_request: SAMPLE_LLM_REQUEST },
  BeforeToolSelection: { step_index: 1, model: 'gpt-4.1', llm_request: SAMPLE_LLM_REQUEST },
  AfterInference: {
    step_index: 1,
    assistant_text: 'It is a VS Code extension.',
    tool_calls: [],
    finish_reason: 'stop',
    model: 'gpt-4.1',
    llm_request: SAMPLE_LLM_REQUEST,
    llm_response: {
      text: 'It is a VS Code extension.',
      candidates: [{ content: { role: 'model', parts: ['It is a VS Code extension.'] }, finishReason: 'stop' }],
      tool_calls: [],
    },
  },
  UserPromptSubmit: { prompt: 'Explain this project' },
  SessionStart: { source: 'startup' },
  SessionEnd: { reason: 'other' },
  Stop: { stop_hook_active: false, background_tasks: [], session_crons: [] },
  SubagentStop: { stop_hook_active: false, agent_type: 'general-purpose', background_tasks: [], session_crons: [] },
  Notification: { message: 'Hookwise needs your permission', notification_type: 'permission_prompt' },
  PreCompact: { trigger: 'manual', custom_instructions: '' },
};

/**
 * A plausible hook input for `event`, for "Run with Sample Input…" when the hook has not run yet:
 * the common fields, the event's own fields, and a matcher field value the hook's matcher accepts
 * when the matcher starts with a plain name (`Bash|Write` → `Bash`). The user edits it before it runs.
 */
export function sampleHookInput(event: HookEvent, matcher: string | undefined, cwd: string): Record<string, unknown> {
  const input: Record<string, unknown> = {
    session_id: 'sample',
    transcript_path: '',
    cwd,
    permission_mode: 'default',
    hook_event_name: event,
    ...(EVENT_FIELDS[event] ?? {}),
  };
  const field = MATCHER_FIELD[event];
  const named = /^[A-Za-z0-9_.-]+/.exec(matcher ?? '')?.[0];
  if (TOOL_EVENTS.has(event)) {
    const tool = named ?? 'Bash';
    Object.assign(input, { tool_name: tool, tool_input: TOOL_INPUTS[tool] ?? {}, tool_use_id: 'toolu_sample' });
    if (event === 'PostToolUse') input.tool_response = { success: true };
  } else if (field !== undefined && named !== undefined) {
    input[field] = named;
  }
  return input;
}

/**
 * The input "Run with Sample Input…" starts from: the hook's last run input when it ran, else a
 * sample for its event. Another agent's tool matcher is in that agent's words (Copilot `bash`), so
 * its sample names the first Hookwise tool its own matcher selects (else Bash): the input is Hookwise's,
 * the adapter turns it into the agent's.
 */
export function startingInput(
  hook: { readonly event: HookEvent; readonly matcher?: string; readonly format?: LoadedFormatHook },
  lastInput: Readonly<Record<string, unknown>> | undefined,
  cwd: string,
): Record<string, unknown> {
  if (lastInput !== undefined) return { ...lastInput };
  if (hook.format !== undefined && TOOL_EVENTS.has(hook.event)) return sampleHookInput(hook.event, formatSampleTool(hook.format, hook.event), cwd);
  return sampleHookInput(hook.event, hook.matcher, cwd);
}

function formatSampleTool(format: LoadedFormatHook, event: HookEvent): string {
  const compiled = compileFormatMatcher(format.binding, event);
  if (!compiled.ok) return 'Bash';
  const selected = Object.entries(TOOL_INPUTS).find(([tool, toolInput]) =>
    compiled.matcher.matches({ event, input: { tool_name: tool, tool_input: toolInput } }),
  );
  return selected?.[0] ?? 'Bash';
}
