import { z } from 'zod';
import type { HookEvent } from '../hookEvent';

/** Permission modes, Claude Code's names. */
export const permissionModeSchema = z.enum(['default', 'plan', 'acceptEdits', 'bypassPermissions', 'dontAsk']);
/** One permission mode. */
export type PermissionMode = z.infer<typeof permissionModeSchema>;

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
 * The fields every event shares except `hook_event_name` (which the builder sets): who is
 * running and where. As in Claude Code, `agent_id` / `agent_type` are present only inside a
 * subagent (scripts test `"agent_id" in input`); Hookwise's own agent fields are under `hookwise`.
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
export type EnvelopeFields = z.infer<typeof hookEnvelopeSchema>;

/**
 * The agent run's metadata: what earlier hooks of this agent run merged (`metadataToMerge`),
 * JSON only. Absent while nothing was merged, so Claude Code scripts see their usual input.
 */
const runMetadataShape = { metadata: z.record(z.string(), z.unknown()).optional() };

/**
 * The strict schema of one event's input: the shared fields, the event name, the event's own
 * fields `extra`, then the run's metadata. No field more, no field less than the spec lists.
 */
export function eventSchema<E extends HookEvent, S extends z.ZodRawShape>(event: E, extra: S) {
  return z.strictObject({ ...hookEnvelopeSchema.shape, hook_event_name: z.literal(event), ...extra, ...runMetadataShape });
}
