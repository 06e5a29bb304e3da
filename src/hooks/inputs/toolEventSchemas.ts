import { z } from 'zod';
import { HookEvent } from '../hookEvent';
import { eventSchema, permissionModeSchema } from './hookEnvelope';
import { lazySchema } from '../../shared/lazySchema';

/**
 * The inputs of the events around one tool call or one batch of them, with Claude Code's
 * field names: before it, its permission, after it (success or failure), the batch, a denial.
 */

const toolShape = {
  tool_name: z.string(),
  tool_input: z.record(z.string(), z.unknown()),
  tool_use_id: z.string(),
};

/** The strict schema of each tool event's input. */
export const toolEventSchemas = {
  PreToolUse: lazySchema(() => eventSchema(HookEvent.PreToolUse, toolShape)),
  PermissionRequest: lazySchema(() => eventSchema(HookEvent.PermissionRequest, toolShape)),
  /** `tool_input` is the input after any PreToolUse rewrite. */
  PostToolUse: lazySchema(() => eventSchema(HookEvent.PostToolUse, { ...toolShape, tool_response: z.unknown(), duration_ms: z.number() })),
  PostToolUseFailure: lazySchema(() =>
    eventSchema(HookEvent.PostToolUseFailure, {
      ...toolShape,
      error: z.string(),
      duration_ms: z.number().optional(),
      is_interrupt: z.boolean().optional(),
    }),
  ),
  PostToolBatch: lazySchema(() =>
    eventSchema(HookEvent.PostToolBatch, {
      permission_mode: permissionModeSchema.optional(),
      tool_calls: z.array(z.object({ tool_name: z.string(), tool_input: z.unknown(), tool_use_id: z.string(), tool_response: z.unknown().optional() })),
    }),
  ),
  PermissionDenied: lazySchema(() =>
    eventSchema(HookEvent.PermissionDenied, {
      permission_mode: permissionModeSchema.optional(),
      tool_name: z.string(),
      tool_input: z.record(z.string(), z.unknown()),
      tool_use_id: z.string(),
      reason: z.string(),
    }),
  ),
};
