import { z } from 'zod';
import { HookEvent } from '../hookEvent';
import { eventSchema } from './hookEnvelope';
import { lazySchema } from '../../shared/lazySchema';

/**
 * The inputs of a session's events, with Claude Code's field names: its start, setup and end,
 * the user's prompts (submitted, expanded from a command), notifications, compaction.
 */

const compactTriggerSchema = z.enum(['manual', 'auto']);

/** The strict schema of each session event's input. */
export const sessionEventSchemas = {
  /**
   * `source` is startup | resume | clear | compact. Claude Code sends `model` after a
   * compaction only; on the other sources Hookwise's model is `hookwise.model`.
   */
  SessionStart: lazySchema(() =>
    eventSchema(
      HookEvent.SessionStart,
      { source: z.enum(['startup', 'resume', 'clear', 'compact']), model: z.string().optional() },
      { model: z.string().optional() },
    ),
  ),
  Setup: lazySchema(() => eventSchema(HookEvent.Setup, { trigger: z.enum(['init', 'maintenance']) })),
  SessionEnd: lazySchema(() => eventSchema(HookEvent.SessionEnd, { reason: z.string() })),
  UserPromptSubmit: lazySchema(() => eventSchema(HookEvent.UserPromptSubmit, { prompt: z.string() })),
  UserPromptExpansion: lazySchema(() =>
    eventSchema(HookEvent.UserPromptExpansion, {
      expansion_type: z.enum(['slash_command', 'mcp_prompt']),
      command_name: z.string(),
      command_args: z.string(),
      command_source: z.string().optional(),
      prompt: z.string(),
    }),
  ),
  Notification: lazySchema(() => eventSchema(HookEvent.Notification, { message: z.string(), notification_type: z.string() })),
  PreCompact: lazySchema(() => eventSchema(HookEvent.PreCompact, { trigger: compactTriggerSchema, custom_instructions: z.string().nullable() })),
  PostCompact: lazySchema(() => eventSchema(HookEvent.PostCompact, { trigger: compactTriggerSchema, compact_summary: z.string() })),
};
