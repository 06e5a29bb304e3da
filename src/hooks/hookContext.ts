import { z } from 'zod';
import { HookEvent } from './hookEvent';

/**
 * The input of one hook execution (docs/hooks.md §2): the stdin JSON of a command hook and the context
 * object of an in-process hook are the same snake_case object, so a Claude Code hook script
 * parses it unchanged. One strict zod schema per event (no field more, no field less than
 * §2 lists) and one constructor per event, so no caller assembles an input by hand.
 *
 * Claude Code's fields keep Claude's names and meaning (`agent_id` / `agent_type` only inside a
 * subagent); Hookwise's own agent fields are under `hookwise` on every input. Additions beyond
 * docs/hooks.md §2, all optional and only on Hookwise's lifecycle events (docs/hooks.md §1; §2 leaves
 * them open): `step_index` on BeforeStep/AfterStep, `step_type` on AfterStep (for the StepType
 * matcher), `error` on AgentFailed. Two more, absent unless they carry something: `error` on
 * SubagentStop (the subagent failed; see `forSubagentStop`) and `metadata` on every event (the
 * agent run's state as merged by earlier hooks, see {@link withContextMetadata}).
 */

/** Permission modes, Claude Code's names. */
export const permissionModeSchema = z.enum(['default', 'plan', 'acceptEdits', 'bypassPermissions', 'dontAsk']);
/** One permission mode. */
export type PermissionMode = z.infer<typeof permissionModeSchema>;

/** What kind of step just ended (what the StepType matcher selects on: a final response or tool execution). */
export const stepTypeSchema = z.enum(['tool_execution', 'final_response']);
/** One step type. */
export type StepType = z.infer<typeof stepTypeSchema>;

/** Hookwise's own view of who is running: on every event, for the main agent too (docs/hooks.md §2). */
export const hookwiseAgentSchema = z.strictObject({
  agent_id: z.string(),
  /** null for the main agent. */
  parent_agent_id: z.string().nullable(),
  /** `main` for the main agent, else the subagent type. */
  agent_type: z.string(),
});
/** The `hookwise` key of every input. */
export type HookwiseAgent = z.infer<typeof hookwiseAgentSchema>;

/** Claude Code's `effort` input field: the reasoning effort of the model call, when one is set. */
export const effortSchema = z.strictObject({ level: z.string() });

/**
 * The fields every event shares except `hook_event_name` (which the constructor sets): who
 * is running and where. The agent loop builds one per agent and reuses it. As in Claude Code,
 * `agent_id` / `agent_type` are present only inside a subagent (scripts test `"agent_id" in
 * input`); Hookwise's own agent fields are under `hookwise`.
 */
export const hookEnvelopeSchema = z.strictObject({
  session_id: z.string(),
  /** A JSONL transcript that exists and is readable when the hook runs (inside a subagent: the session's). */
  transcript_path: z.string(),
  cwd: z.string(),
  permission_mode: permissionModeSchema,
  /** One id per user prompt: every event caused by that prompt carries it. */
  prompt_id: z.string().optional(),
  effort: effortSchema.optional(),
  /** Subagents only. */
  agent_id: z.string().optional(),
  /** Subagents only. */
  agent_type: z.string().optional(),
  hookwise: hookwiseAgentSchema,
});
/** Shared fields of every context, as a hook sees them, minus `hook_event_name`. */
type EnvelopeFields = z.infer<typeof hookEnvelopeSchema>;

/**
 * What the agent loop hands the constructors: where and who. The constructors turn it into
 * the fields above (Claude's names for Claude's fields, the rest under `hookwise`).
 */
export interface HookEnvelope {
  readonly session_id: string;
  readonly transcript_path: string;
  readonly cwd: string;
  /** `default` when not given. */
  readonly permission_mode?: PermissionMode | undefined;
  readonly agent_id: string;
  /** null for the main agent. */
  readonly parent_agent_id: string | null;
  /** `main` for the main agent, else the subagent type. */
  readonly agent_type: string;
  /** Read for every input built, so all events of one prompt share the prompt's id. */
  readonly prompt_id?: (() => string | undefined) | undefined;
  readonly effort?: string | undefined;
}

const envelopeShape = hookEnvelopeSchema.shape;

/**
 * The agent run's metadata: what earlier hooks of this agent run merged (`metadataToMerge`),
 * JSON only. Absent while nothing was merged, so Claude Code scripts see their usual input.
 */
const runMetadataShape = { metadata: z.record(z.string(), z.unknown()).optional() };

function eventSchema<E extends HookEvent, S extends z.ZodRawShape>(event: E, extra: S) {
  return z.strictObject({ ...envelopeShape, hook_event_name: z.literal(event), ...extra, ...runMetadataShape });
}

const toolShape = {
  tool_name: z.string(),
  tool_input: z.record(z.string(), z.unknown()),
  tool_use_id: z.string(),
};

/** How far an agent run has got: what the built-in limit hooks read. */
const runProgressShape = {
  elapsed_ms: z.number().nonnegative().optional(),
  total_tokens: z.number().int().nonnegative().optional(),
};

/** SessionStart: `source` is startup | resume | clear | compact. */
export const sessionStartContextSchema = eventSchema(HookEvent.SessionStart, {
  source: z.enum(['startup', 'resume', 'clear', 'compact']),
  model: z.string().optional(),
});
export const userPromptSubmitContextSchema = eventSchema(HookEvent.UserPromptSubmit, { prompt: z.string() });
export const preToolUseContextSchema = eventSchema(HookEvent.PreToolUse, toolShape);
export const permissionRequestContextSchema = eventSchema(HookEvent.PermissionRequest, toolShape);
export const postToolUseContextSchema = eventSchema(HookEvent.PostToolUse, { ...toolShape, tool_response: z.unknown(), duration_ms: z.number() });
export const postToolUseFailureContextSchema = eventSchema(HookEvent.PostToolUseFailure, {
  ...toolShape,
  error: z.string(),
  duration_ms: z.number().optional(),
  is_interrupt: z.boolean().optional(),
});
export const notificationContextSchema = eventSchema(HookEvent.Notification, { message: z.string(), notification_type: z.string() });
export const stopContextSchema = eventSchema(HookEvent.Stop, {
  stop_hook_active: z.boolean(),
  last_assistant_message: z.string(),
});
export const subagentStartContextSchema = eventSchema(HookEvent.SubagentStart, { description: z.string().optional(), prompt: z.string().optional() });
export const subagentStopContextSchema = eventSchema(HookEvent.SubagentStop, {
  stop_hook_active: z.boolean(),
  last_assistant_message: z.string(),
  agent_transcript_path: z.string().optional(),
  error: z.string().optional(),
});
export const preCompactContextSchema = eventSchema(HookEvent.PreCompact, { trigger: z.enum(['manual', 'auto']), custom_instructions: z.string().nullable() });
export const sessionEndContextSchema = eventSchema(HookEvent.SessionEnd, { reason: z.string() });
export const executionStartContextSchema = eventSchema(HookEvent.ExecutionStart, { prompt: z.string().optional() });
export const executionEndContextSchema = eventSchema(HookEvent.ExecutionEnd, {
  status: z.enum(['completed', 'stopped', 'failed', 'cancelled']).optional(),
  final_text: z.string().optional(),
  steps: z.number().int().nonnegative().optional(),
});
export const beforeStepContextSchema = eventSchema(HookEvent.BeforeStep, { step_index: z.number().int().nonnegative().optional(), ...runProgressShape });
export const afterStepContextSchema = eventSchema(HookEvent.AfterStep, {
  step_index: z.number().int().nonnegative().optional(),
  step_type: stepTypeSchema.optional(),
  tool_calls: z.number().int().nonnegative().optional(),
  ...runProgressShape,
});
export const beforeInferenceContextSchema = eventSchema(HookEvent.BeforeInference, {
  step_index: z.number().int().nonnegative().optional(),
  message_count: z.number().int().nonnegative().optional(),
});
export const afterInferenceContextSchema = eventSchema(HookEvent.AfterInference, {
  step_index: z.number().int().nonnegative().optional(),
  assistant_text: z.string().optional(),
  tool_calls: z.array(z.object({ id: z.string(), name: z.string(), arguments: z.string() })).optional(),
  finish_reason: z.string().optional(),
});
export const agentFailedContextSchema = eventSchema(HookEvent.AgentFailed, { error: z.string().optional() });

// Claude Code's 2026 events (docs/hooks.md §1), with Claude's field names.
export const postToolBatchContextSchema = eventSchema(HookEvent.PostToolBatch, {
  permission_mode: permissionModeSchema.optional(),
  tool_calls: z.array(z.object({ tool_name: z.string(), tool_input: z.unknown(), tool_use_id: z.string(), tool_response: z.unknown().optional() })),
});
export const userPromptExpansionContextSchema = eventSchema(HookEvent.UserPromptExpansion, {
  expansion_type: z.enum(['slash_command', 'mcp_prompt']),
  command_name: z.string(),
  command_args: z.string(),
  command_source: z.string().optional(),
  prompt: z.string(),
});
/** StopFailure's `error`: Claude Code's error types (the matcher value). */
export const stopFailureErrorSchema = z.enum([
  'authentication_failed',
  'billing_error',
  'rate_limit',
  'overloaded',
  'invalid_request',
  'model_not_found',
  'server_error',
  'max_output_tokens',
  'unknown',
]);
export const stopFailureContextSchema = eventSchema(HookEvent.StopFailure, {
  error: stopFailureErrorSchema,
  error_details: z.string().optional(),
  last_assistant_message: z.string().optional(),
});
export const postCompactContextSchema = eventSchema(HookEvent.PostCompact, { trigger: z.enum(['manual', 'auto']), compact_summary: z.string() });
export const permissionDeniedContextSchema = eventSchema(HookEvent.PermissionDenied, {
  permission_mode: permissionModeSchema.optional(),
  tool_name: z.string(),
  tool_input: z.record(z.string(), z.unknown()),
  tool_use_id: z.string(),
  reason: z.string(),
});
export const setupContextSchema = eventSchema(HookEvent.Setup, { trigger: z.enum(['init', 'maintenance']) });
const taskShape = { task_id: z.string(), task_subject: z.string(), task_description: z.string().optional() };
export const taskCreatedContextSchema = eventSchema(HookEvent.TaskCreated, taskShape);
export const taskCompletedContextSchema = eventSchema(HookEvent.TaskCompleted, taskShape);
export const elicitationContextSchema = eventSchema(HookEvent.Elicitation, {
  mcp_server_name: z.string(),
  message: z.string(),
  mode: z.enum(['form', 'url']).optional(),
  url: z.string().optional(),
  elicitation_id: z.string().optional(),
  requested_schema: z.record(z.string(), z.unknown()).optional(),
});
export const elicitationResultContextSchema = eventSchema(HookEvent.ElicitationResult, {
  mcp_server_name: z.string(),
  elicitation_id: z.string().optional(),
  mode: z.enum(['form', 'url']).optional(),
  action: z.enum(['accept', 'decline', 'cancel']),
  content: z.record(z.string(), z.unknown()).optional(),
});
/** ConfigChange's `source` (the matcher value): Claude Code's config sources. */
export const configChangeSourceSchema = z.enum(['user_settings', 'project_settings', 'local_settings', 'policy_settings', 'skills']);
export const configChangeContextSchema = eventSchema(HookEvent.ConfigChange, { source: configChangeSourceSchema, file_path: z.string().optional() });
export const instructionsLoadedContextSchema = eventSchema(HookEvent.InstructionsLoaded, {
  file_path: z.string(),
  memory_type: z.enum(['User', 'Project', 'Local', 'Managed']),
  load_reason: z.enum(['session_start', 'nested_traversal', 'path_glob_match', 'include', 'compact']),
  globs: z.array(z.string()).optional(),
  trigger_file_path: z.string().optional(),
  parent_file_path: z.string().optional(),
});
export const cwdChangedContextSchema = eventSchema(HookEvent.CwdChanged, { old_cwd: z.string(), new_cwd: z.string() });
export const fileChangedContextSchema = eventSchema(HookEvent.FileChanged, { file_path: z.string(), event: z.enum(['change', 'add', 'unlink']) });
export const directoryAddedContextSchema = eventSchema(HookEvent.DirectoryAdded, { directory: z.string(), source: z.string() });
export const messageDisplayContextSchema = eventSchema(HookEvent.MessageDisplay, {
  turn_id: z.string(),
  message_id: z.string(),
  index: z.number().int().nonnegative(),
  final: z.boolean(),
  delta: z.string(),
});

export type SessionStartContext = z.infer<typeof sessionStartContextSchema>;
export type UserPromptSubmitContext = z.infer<typeof userPromptSubmitContextSchema>;
export type PreToolUseContext = z.infer<typeof preToolUseContextSchema>;
export type PermissionRequestContext = z.infer<typeof permissionRequestContextSchema>;
export type PostToolUseContext = z.infer<typeof postToolUseContextSchema>;
export type PostToolUseFailureContext = z.infer<typeof postToolUseFailureContextSchema>;
export type NotificationContext = z.infer<typeof notificationContextSchema>;
export type StopContext = z.infer<typeof stopContextSchema>;
export type SubagentStartContext = z.infer<typeof subagentStartContextSchema>;
export type SubagentStopContext = z.infer<typeof subagentStopContextSchema>;
export type PreCompactContext = z.infer<typeof preCompactContextSchema>;
export type SessionEndContext = z.infer<typeof sessionEndContextSchema>;
export type ExecutionStartContext = z.infer<typeof executionStartContextSchema>;
export type ExecutionEndContext = z.infer<typeof executionEndContextSchema>;
export type BeforeStepContext = z.infer<typeof beforeStepContextSchema>;
export type AfterStepContext = z.infer<typeof afterStepContextSchema>;
export type BeforeInferenceContext = z.infer<typeof beforeInferenceContextSchema>;
export type AfterInferenceContext = z.infer<typeof afterInferenceContextSchema>;
export type AgentFailedContext = z.infer<typeof agentFailedContextSchema>;

/** Context type per event. */
export interface HookContextMap {
  SessionStart: SessionStartContext;
  UserPromptSubmit: UserPromptSubmitContext;
  PreToolUse: PreToolUseContext;
  PermissionRequest: PermissionRequestContext;
  PostToolUse: PostToolUseContext;
  PostToolUseFailure: PostToolUseFailureContext;
  Notification: NotificationContext;
  Stop: StopContext;
  SubagentStart: SubagentStartContext;
  SubagentStop: SubagentStopContext;
  PreCompact: PreCompactContext;
  SessionEnd: SessionEndContext;
  ExecutionStart: ExecutionStartContext;
  ExecutionEnd: ExecutionEndContext;
  BeforeStep: BeforeStepContext;
  AfterStep: AfterStepContext;
  BeforeInference: BeforeInferenceContext;
  AfterInference: AfterInferenceContext;
  AgentFailed: AgentFailedContext;
  PostToolBatch: z.infer<typeof postToolBatchContextSchema>;
  UserPromptExpansion: z.infer<typeof userPromptExpansionContextSchema>;
  StopFailure: z.infer<typeof stopFailureContextSchema>;
  PostCompact: z.infer<typeof postCompactContextSchema>;
  PermissionDenied: z.infer<typeof permissionDeniedContextSchema>;
  Setup: z.infer<typeof setupContextSchema>;
  TaskCreated: z.infer<typeof taskCreatedContextSchema>;
  TaskCompleted: z.infer<typeof taskCompletedContextSchema>;
  Elicitation: z.infer<typeof elicitationContextSchema>;
  ElicitationResult: z.infer<typeof elicitationResultContextSchema>;
  ConfigChange: z.infer<typeof configChangeContextSchema>;
  InstructionsLoaded: z.infer<typeof instructionsLoadedContextSchema>;
  CwdChanged: z.infer<typeof cwdChangedContextSchema>;
  FileChanged: z.infer<typeof fileChangedContextSchema>;
  DirectoryAdded: z.infer<typeof directoryAddedContextSchema>;
  MessageDisplay: z.infer<typeof messageDisplayContextSchema>;
}

/** The context of event `E`. */
export type HookContextFor<E extends HookEvent> = HookContextMap[E];

/** The context of any event (discriminated by `hook_event_name`). */
export type HookContext = HookContextMap[HookEvent];

/** The strict schema of each event's context, e.g. to check what a test or a replay feeds in. */
export const hookContextSchemas: { readonly [E in HookEvent]: z.ZodType<HookContextMap[E]> } = {
  SessionStart: sessionStartContextSchema,
  UserPromptSubmit: userPromptSubmitContextSchema,
  PreToolUse: preToolUseContextSchema,
  PermissionRequest: permissionRequestContextSchema,
  PostToolUse: postToolUseContextSchema,
  PostToolUseFailure: postToolUseFailureContextSchema,
  Notification: notificationContextSchema,
  Stop: stopContextSchema,
  SubagentStart: subagentStartContextSchema,
  SubagentStop: subagentStopContextSchema,
  PreCompact: preCompactContextSchema,
  SessionEnd: sessionEndContextSchema,
  ExecutionStart: executionStartContextSchema,
  ExecutionEnd: executionEndContextSchema,
  BeforeStep: beforeStepContextSchema,
  AfterStep: afterStepContextSchema,
  BeforeInference: beforeInferenceContextSchema,
  AfterInference: afterInferenceContextSchema,
  AgentFailed: agentFailedContextSchema,
  PostToolBatch: postToolBatchContextSchema,
  UserPromptExpansion: userPromptExpansionContextSchema,
  StopFailure: stopFailureContextSchema,
  PostCompact: postCompactContextSchema,
  PermissionDenied: permissionDeniedContextSchema,
  Setup: setupContextSchema,
  TaskCreated: taskCreatedContextSchema,
  TaskCompleted: taskCompletedContextSchema,
  Elicitation: elicitationContextSchema,
  ElicitationResult: elicitationResultContextSchema,
  ConfigChange: configChangeContextSchema,
  InstructionsLoaded: instructionsLoadedContextSchema,
  CwdChanged: cwdChangedContextSchema,
  FileChanged: fileChangedContextSchema,
  DirectoryAdded: directoryAddedContextSchema,
  MessageDisplay: messageDisplayContextSchema,
};

/** Parses an unknown value as the context of `event` (never throws). */
export function parseHookContext<E extends HookEvent>(event: E, value: unknown): z.ZodSafeParseResult<HookContextMap[E]> {
  return (hookContextSchemas[event] as z.ZodType<HookContextMap[E]>).safeParse(value);
}

/**
 * Event-specific fields of `E`: its context minus the envelope, the event name and the run's
 * metadata; `permission_mode` may be given here to override the envelope's.
 */
export type HookContextFields<E extends HookEvent> = Omit<HookContextMap[E], keyof EnvelopeFields | 'hook_event_name' | 'metadata'> & {
  readonly permission_mode?: PermissionMode;
};

// Claude's shared fields first, then the event name, then the event's own fields, then
// `hookwise`: the key order a Claude Code script sees on stdin. Frozen (shallowly, and
// tool_input too) because in-process hooks share one object; a rewrite must go through
// updatedInput, never through mutation.
function build<E extends HookEvent>(event: E, env: HookEnvelope, fields: object): HookContextMap[E] {
  const ctx: Record<string, unknown> = {
    session_id: env.session_id,
    transcript_path: env.transcript_path,
    cwd: env.cwd,
    permission_mode: env.permission_mode ?? 'default',
  };
  const promptId = env.prompt_id?.();
  if (promptId !== undefined) ctx.prompt_id = promptId;
  if (env.effort !== undefined) ctx.effort = { level: env.effort };
  if (env.parent_agent_id !== null) {
    ctx.agent_id = env.agent_id;
    ctx.agent_type = env.agent_type;
  }
  ctx.hook_event_name = event;
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue; // optional lifecycle fields stay absent, as in JSON
    ctx[key] = key === 'tool_input' && value !== null && typeof value === 'object' ? Object.freeze({ ...value }) : value;
  }
  ctx.hookwise = Object.freeze({ agent_id: env.agent_id, parent_agent_id: env.parent_agent_id, agent_type: env.agent_type });
  return Object.freeze(ctx) as HookContextMap[E];
}

/** Builds the context of any event from its own fields (the 2026 events' builders in src/agent/eventInputs.ts use it). */
export function forEvent<E extends HookEvent>(event: E, env: HookEnvelope, fields: HookContextFields<E>): HookContextMap[E] {
  return build(event, env, fields);
}

/** Hookwise's agent fields of an input (`hookwise` key), or undefined for an input built elsewhere. */
export function hookwiseAgentOf(input: Readonly<Record<string, unknown>>): HookwiseAgent | undefined {
  const value = input['hookwise'];
  return value !== null && typeof value === 'object' ? (value as HookwiseAgent) : undefined;
}

/** Builds the context of SessionStart. */
export function forSessionStart(env: HookEnvelope, fields: HookContextFields<'SessionStart'>): SessionStartContext {
  return build(HookEvent.SessionStart, env, fields);
}
/** Builds the context of UserPromptSubmit. */
export function forUserPromptSubmit(env: HookEnvelope, fields: HookContextFields<'UserPromptSubmit'>): UserPromptSubmitContext {
  return build(HookEvent.UserPromptSubmit, env, fields);
}
/** Builds the context of PreToolUse (input already validated by the tool's schema). */
export function forPreToolUse(env: HookEnvelope, fields: HookContextFields<'PreToolUse'>): PreToolUseContext {
  return build(HookEvent.PreToolUse, env, fields);
}
/** Builds the context of PermissionRequest. */
export function forPermissionRequest(env: HookEnvelope, fields: HookContextFields<'PermissionRequest'>): PermissionRequestContext {
  return build(HookEvent.PermissionRequest, env, fields);
}
/** Builds the context of PostToolUse (`tool_input` is the input after any PreToolUse rewrite). */
export function forPostToolUse(env: HookEnvelope, fields: HookContextFields<'PostToolUse'>): PostToolUseContext {
  return build(HookEvent.PostToolUse, env, fields);
}
/** Builds the context of PostToolUseFailure. */
export function forPostToolUseFailure(env: HookEnvelope, fields: HookContextFields<'PostToolUseFailure'>): PostToolUseFailureContext {
  return build(HookEvent.PostToolUseFailure, env, fields);
}
/** Builds the context of Notification. */
export function forNotification(env: HookEnvelope, fields: HookContextFields<'Notification'>): NotificationContext {
  return build(HookEvent.Notification, env, fields);
}
/** Builds the context of Stop (main agent). */
export function forStop(env: HookEnvelope, fields: HookContextFields<'Stop'>): StopContext {
  return build(HookEvent.Stop, env, fields);
}
/** Builds the context of SubagentStart; `env` is the subagent's (its id, its type, the parent's id). */
export function forSubagentStart(env: HookEnvelope, fields: HookContextFields<'SubagentStart'> = {}): SubagentStartContext {
  return build(HookEvent.SubagentStart, env, fields);
}
/**
 * Builds the context of SubagentStop; `env` is the subagent's. `error` is set when the
 * subagent failed (model error, internal error): the hook then only observes, since a
 * failed run cannot be made to continue.
 */
export function forSubagentStop(env: HookEnvelope, fields: HookContextFields<'SubagentStop'>): SubagentStopContext {
  return build(HookEvent.SubagentStop, env, fields);
}
/** Builds the context of PreCompact. */
export function forPreCompact(env: HookEnvelope, fields: HookContextFields<'PreCompact'>): PreCompactContext {
  return build(HookEvent.PreCompact, env, fields);
}
/** Builds the context of SessionEnd. */
export function forSessionEnd(env: HookEnvelope, fields: HookContextFields<'SessionEnd'>): SessionEndContext {
  return build(HookEvent.SessionEnd, env, fields);
}
/** Builds the context of ExecutionStart. */
export function forExecutionStart(env: HookEnvelope, fields: HookContextFields<'ExecutionStart'> = {}): ExecutionStartContext {
  return build(HookEvent.ExecutionStart, env, fields);
}
/** Builds the context of ExecutionEnd. */
export function forExecutionEnd(env: HookEnvelope, fields: HookContextFields<'ExecutionEnd'> = {}): ExecutionEndContext {
  return build(HookEvent.ExecutionEnd, env, fields);
}
/** Builds the context of BeforeStep. */
export function forBeforeStep(env: HookEnvelope, fields: HookContextFields<'BeforeStep'> = {}): BeforeStepContext {
  return build(HookEvent.BeforeStep, env, fields);
}
/** Builds the context of AfterStep. */
export function forAfterStep(env: HookEnvelope, fields: HookContextFields<'AfterStep'> = {}): AfterStepContext {
  return build(HookEvent.AfterStep, env, fields);
}
/** Builds the context of BeforeInference. */
export function forBeforeInference(env: HookEnvelope, fields: HookContextFields<'BeforeInference'> = {}): BeforeInferenceContext {
  return build(HookEvent.BeforeInference, env, fields);
}
/** Builds the context of AfterInference. */
export function forAfterInference(env: HookEnvelope, fields: HookContextFields<'AfterInference'> = {}): AfterInferenceContext {
  return build(HookEvent.AfterInference, env, fields);
}
/** Builds the context of AgentFailed. */
export function forAgentFailed(env: HookEnvelope, fields: HookContextFields<'AgentFailed'> = {}): AgentFailedContext {
  return build(HookEvent.AgentFailed, env, fields);
}

/**
 * The constructors grouped, for `HookContext.forPreToolUse(env, {...})` call sites. Same
 * functions as the named exports.
 */
export const HookContext = {
  forSessionStart,
  forUserPromptSubmit,
  forPreToolUse,
  forPermissionRequest,
  forPostToolUse,
  forPostToolUseFailure,
  forNotification,
  forStop,
  forSubagentStart,
  forSubagentStop,
  forPreCompact,
  forSessionEnd,
  forExecutionStart,
  forExecutionEnd,
  forBeforeStep,
  forAfterStep,
  forBeforeInference,
  forAfterInference,
  forAgentFailed,
  parse: parseHookContext,
} as const;

/**
 * Returns a copy of `ctx` with `tool_input` (tool events) or `prompt` (UserPromptSubmit)
 * replaced: how the runner shows later priority tiers the input rewritten by earlier ones.
 */
export function withRewrittenInput<C extends Readonly<Record<string, unknown>>>(ctx: C, key: 'tool_input' | 'prompt', value: unknown): C {
  return Object.freeze({ ...ctx, [key]: key === 'tool_input' ? Object.freeze({ ...(value as object) }) : value }) as C;
}

/**
 * Returns a copy of `ctx` carrying the agent run's metadata (`metadata`, last key), or `ctx`
 * itself when there is none. `metadata` must already be frozen JSON (the run keeps it so):
 * in-process hooks share the object and must not be able to change the run's state by mutation.
 */
export function withContextMetadata<C extends Readonly<Record<string, unknown>>>(ctx: C, metadata: Readonly<Record<string, unknown>>): C {
  return Object.keys(metadata).length === 0 ? ctx : (Object.freeze({ ...ctx, metadata }) as C);
}
