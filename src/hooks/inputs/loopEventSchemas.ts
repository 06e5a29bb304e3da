import { z } from 'zod';
import { HookEvent } from '../hookEvent';
import { eventSchema } from './hookEnvelope';
import { hookToolConfigSchema, llmConfigSchema, llmToolCallSchema } from './llmShapes';
import { lazySchema } from '../../shared/lazySchema';

/**
 * The inputs of the agent loop's events: an execution, its steps and model calls, how it
 * stops or fails, a subagent's start and stop, a displayed message. Additions beyond
 * docs/hooks.md §2, all optional and only on Hookwise's lifecycle events (which §2 leaves
 * open): `step_index` on BeforeStep/AfterStep, `step_type` on AfterStep (for the StepType
 * matcher), `error` on AgentFailed, and `error` on SubagentStop, absent unless the subagent
 * failed (model error, internal error): the hook then only observes, since a failed run
 * cannot be made to continue.
 */

/** What kind of step just ended (StepType matcher: FinalResponse vs ToolExecution). */
export const stepTypeSchema = lazySchema(() => z.enum(['tool_execution', 'final_response']));
/** One step type. */
export type StepType = z.infer<typeof stepTypeSchema>;

/** StopFailure's `error`: Claude Code's error types (the matcher value). */
export const stopFailureErrorSchema = lazySchema(() =>
  z.enum([
    'authentication_failed',
    'billing_error',
    'rate_limit',
    'overloaded',
    'invalid_request',
    'model_not_found',
    'server_error',
    'max_output_tokens',
    'unknown',
  ]),
);

/** How far an agent run has got: what the built-in limit hooks read. */
const runProgressShape = {
  elapsed_ms: z.number().nonnegative().optional(),
  total_tokens: z.number().int().nonnegative().optional(),
};

/**
 * Claude Code's background work at a stop: its running background tasks and the session's cron
 * jobs. Hookwise runs neither, so both are always `[]` (the value Claude Code sends when idle).
 */
const stopShape = {
  stop_hook_active: z.boolean(),
  last_assistant_message: z.string(),
  background_tasks: z.array(z.record(z.string(), z.unknown())),
  session_crons: z.array(z.record(z.string(), z.unknown())),
};

/**
 * `llm_request` as the model-level events send it: the request exactly as it will go to the
 * model (docs/hooks.md "Model-level hooks"). `truncated` is set when the hook input cap cut
 * the oldest messages' content.
 */
export const llmRequestInputSchema = lazySchema(() =>
  z.object({
    model: z.string(),
    messages: z.array(
      z.object({
        role: z.enum(['user', 'model', 'system', 'tool']),
        content: z.string(),
        tool_calls: z.array(llmToolCallSchema).optional(),
        tool_call_id: z.string().optional(),
      }),
    ),
    config: llmConfigSchema,
    toolConfig: hookToolConfigSchema,
    tools: z.array(z.object({ name: z.string(), description: z.string() })),
    truncated: z.object({ messages_cut: z.number().int().nonnegative(), max_bytes: z.number().int().positive() }).optional(),
  }),
);
/** One request as hooks see it. */
export type LlmRequestInput = z.infer<typeof llmRequestInputSchema>;

/** `llm_response` as AfterInference sends it: Gemini's shape plus the reply's tool calls. */
export const llmResponseInputSchema = lazySchema(() =>
  z.object({
    text: z.string(),
    candidates: z.array(z.object({ content: z.object({ role: z.literal('model'), parts: z.array(z.string()) }), finishReason: z.string() })),
    tool_calls: z.array(llmToolCallSchema),
    usageMetadata: z.object({ promptTokenCount: z.number(), candidatesTokenCount: z.number(), totalTokenCount: z.number() }).optional(),
  }),
);
/** One reply as hooks see it. */
export type LlmResponseInput = z.infer<typeof llmResponseInputSchema>;

/** The strict schema of each loop event's input. */
export const loopEventSchemas = {
  ExecutionStart: lazySchema(() => eventSchema(HookEvent.ExecutionStart, { prompt: z.string().optional() })),
  ExecutionEnd: lazySchema(() =>
    eventSchema(HookEvent.ExecutionEnd, {
      status: z.enum(['completed', 'stopped', 'failed', 'cancelled']).optional(),
      final_text: z.string().optional(),
      steps: z.number().int().nonnegative().optional(),
    }),
  ),
  BeforeStep: lazySchema(() => eventSchema(HookEvent.BeforeStep, { step_index: z.number().int().nonnegative().optional(), ...runProgressShape })),
  AfterStep: lazySchema(() =>
    eventSchema(HookEvent.AfterStep, {
      step_index: z.number().int().nonnegative().optional(),
      step_type: stepTypeSchema.optional(),
      tool_calls: z.number().int().nonnegative().optional(),
      ...runProgressShape,
    }),
  ),
  BeforeInference: lazySchema(() =>
    eventSchema(HookEvent.BeforeInference, {
      step_index: z.number().int().nonnegative().optional(),
      message_count: z.number().int().nonnegative().optional(),
      /** The model called (the matcher value). */
      model: z.string().optional(),
      llm_request: llmRequestInputSchema.optional(),
    }),
  ),
  /** Gemini CLI's BeforeToolSelection: the request, to choose which tools it offers. */
  BeforeToolSelection: lazySchema(() =>
    eventSchema(HookEvent.BeforeToolSelection, {
      step_index: z.number().int().nonnegative().optional(),
      model: z.string().optional(),
      llm_request: llmRequestInputSchema.optional(),
    }),
  ),
  AfterInference: lazySchema(() =>
    eventSchema(HookEvent.AfterInference, {
      step_index: z.number().int().nonnegative().optional(),
      assistant_text: z.string().optional(),
      tool_calls: z.array(z.object({ id: z.string(), name: z.string(), arguments: z.string() })).optional(),
      finish_reason: z.string().optional(),
      model: z.string().optional(),
      llm_request: llmRequestInputSchema.optional(),
      llm_response: llmResponseInputSchema.optional(),
      /** Set when a BeforeInference hook answered in the model's place: its label. */
      answered_by_hook: z.string().optional(),
    }),
  ),
  AgentFailed: lazySchema(() => eventSchema(HookEvent.AgentFailed, { error: z.string().optional() })),
  /** The main agent's stop. */
  Stop: lazySchema(() => eventSchema(HookEvent.Stop, stopShape)),
  StopFailure: lazySchema(() =>
    eventSchema(HookEvent.StopFailure, {
      error: stopFailureErrorSchema,
      error_details: z.string().optional(),
      last_assistant_message: z.string().optional(),
    }),
  ),
  /**
   * Built on the subagent's envelope (its id, its type, the parent's id). Claude Code sends the
   * Agent call's description and prompt nowhere here; Hookwise keeps them under `hookwise`.
   */
  SubagentStart: lazySchema(() => eventSchema(HookEvent.SubagentStart, {}, { description: z.string().optional(), prompt: z.string().optional() })),
  /** Built on the subagent's envelope. */
  SubagentStop: lazySchema(() =>
    eventSchema(HookEvent.SubagentStop, {
      ...stopShape,
      agent_transcript_path: z.string().optional(),
      error: z.string().optional(),
    }),
  ),
  MessageDisplay: lazySchema(() =>
    eventSchema(HookEvent.MessageDisplay, {
      turn_id: z.string(),
      message_id: z.string(),
      index: z.number().int().nonnegative(),
      final: z.boolean(),
      delta: z.string(),
    }),
  ),
};
