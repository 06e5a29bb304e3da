import { z } from 'zod';
import type { HookEvent } from '../hookEvent';
import { lazySchema } from '../../shared/lazySchema';

/** Permission modes, Claude Code's names. */
export const permissionModeSchema = z.enum(['default', 'plan', 'acceptEdits', 'bypassPermissions', 'dontAsk']);
/** One permission mode. */
export type PermissionMode = z.infer<typeof permissionModeSchema>;

/** Hookwise's own view of who is running: on every event, for the main agent too (docs/hooks.md §2). */
export const hookwiseAgentSchema = lazySchema(() =>
  z.strictObject({
    agent_id: z.string(),
    /** null for the main agent. */
    parent_agent_id: z.string().nullable(),
    /** `main` for the main agent, else the subagent type. */
    agent_type: z.string(),
    /** The permission mode, here on the events where Claude Code sends no top-level `permission_mode`. */
    permission_mode: permissionModeSchema.optional(),
  }),
);
/** The `hookwise` key of every input. */
export type HookwiseAgent = z.infer<typeof hookwiseAgentSchema>;

/**
 * The events on which Claude Code sends no top-level `permission_mode` (observed in Claude Code
 * 2.1.328's inputs); Hookwise puts the mode under `hookwise.permission_mode` there instead.
 */
export const EVENTS_WITHOUT_PERMISSION_MODE: ReadonlySet<string> = new Set([
  'SessionStart',
  'SessionEnd',
  'SubagentStart',
  'PreCompact',
  'PostCompact',
  'TaskCreated',
  'TaskCompleted',
  'MessageDisplay',
]);

/**
 * The events that carry `effort` when one is set: as in Claude Code, the hooks of a tool-use
 * context (tool calls, their batch, a stop) and Hookwise's own step and inference events.
 */
export const EVENTS_WITH_EFFORT: ReadonlySet<string> = new Set([
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'PostToolUseFailure',
  'PostToolBatch',
  'PermissionDenied',
  'Stop',
  'SubagentStop',
  'BeforeStep',
  'AfterStep',
  'BeforeInference',
  'BeforeToolSelection',
  'AfterInference',
]);

/** Claude Code's `effort` input field: the reasoning effort of the model call, when one is set. */
export const effortSchema = lazySchema(() => z.strictObject({ level: z.string() }));

/**
 * The fields every event shares except `hook_event_name` (which the builder sets): who is
 * running and where. As in Claude Code, `agent_id` / `agent_type` are present only inside a
 * subagent (scripts test `"agent_id" in input`); Hookwise's own agent fields are under `hookwise`.
 */
export const hookEnvelopeSchema = lazySchema(() =>
  z.strictObject({
    session_id: z.string(),
    /** A JSONL transcript that exists and is readable when the hook runs (inside a subagent: the session's). */
    transcript_path: z.string(),
    cwd: z.string(),
    /** Absent on the events Claude Code sends it on none of ({@link EVENTS_WITHOUT_PERMISSION_MODE}). */
    permission_mode: permissionModeSchema.optional(),
    /** One id per user prompt: every event caused by that prompt carries it. */
    prompt_id: z.string().optional(),
    effort: effortSchema.optional(),
    /** Subagents only. */
    agent_id: z.string().optional(),
    /** Subagents only. */
    agent_type: z.string().optional(),
    hookwise: hookwiseAgentSchema,
  }),
);
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
 * `hookwiseExtra`: the event's Hookwise-only fields, under `hookwise` (Claude Code sends no such key).
 */
export function eventSchema<E extends HookEvent, S extends z.ZodRawShape, H extends z.ZodRawShape = Record<never, never>>(
  event: E,
  extra: S,
  hookwiseExtra?: H,
) {
  return z.strictObject({
    ...hookEnvelopeSchema.shape,
    hook_event_name: z.literal(event),
    ...extra,
    ...runMetadataShape,
    hookwise: hookwiseAgentSchema.extend(hookwiseExtra ?? ({} as H)),
  });
}
