import { z } from 'zod';
import { HookEvent } from '../hookEvent';
import { eventSchema } from './hookEnvelope';
import { lazySchema } from '../../shared/lazySchema';

/**
 * The inputs of events from the agent's surroundings, with Claude Code's field names: the
 * configuration and instruction files, the working directory and watched files, MCP
 * elicitations, the task list.
 */

/** ConfigChange's `source` (the matcher value): Claude Code's config sources. */
export const configChangeSourceSchema = z.enum(['user_settings', 'project_settings', 'local_settings', 'policy_settings', 'skills']);

const taskShape = { task_id: z.string(), task_subject: z.string(), task_description: z.string().optional() };
const elicitationModeSchema = z.enum(['form', 'url']);

/** The strict schema of each surroundings event's input. */
export const environmentEventSchemas = {
  ConfigChange: lazySchema(() => eventSchema(HookEvent.ConfigChange, { source: configChangeSourceSchema, file_path: z.string().optional() })),
  InstructionsLoaded: lazySchema(() =>
    eventSchema(HookEvent.InstructionsLoaded, {
      file_path: z.string(),
      memory_type: z.enum(['User', 'Project', 'Local', 'Managed']),
      load_reason: z.enum(['session_start', 'nested_traversal', 'path_glob_match', 'include', 'compact']),
      globs: z.array(z.string()).optional(),
      trigger_file_path: z.string().optional(),
      parent_file_path: z.string().optional(),
    }),
  ),
  CwdChanged: lazySchema(() => eventSchema(HookEvent.CwdChanged, { old_cwd: z.string(), new_cwd: z.string() })),
  FileChanged: lazySchema(() => eventSchema(HookEvent.FileChanged, { file_path: z.string(), event: z.enum(['change', 'add', 'unlink']) })),
  DirectoryAdded: lazySchema(() => eventSchema(HookEvent.DirectoryAdded, { directory: z.string(), source: z.string() })),
  Elicitation: lazySchema(() =>
    eventSchema(HookEvent.Elicitation, {
      mcp_server_name: z.string(),
      message: z.string(),
      mode: elicitationModeSchema.optional(),
      url: z.string().optional(),
      elicitation_id: z.string().optional(),
      requested_schema: z.record(z.string(), z.unknown()).optional(),
    }),
  ),
  ElicitationResult: lazySchema(() =>
    eventSchema(HookEvent.ElicitationResult, {
      mcp_server_name: z.string(),
      elicitation_id: z.string().optional(),
      mode: elicitationModeSchema.optional(),
      action: z.enum(['accept', 'decline', 'cancel']),
      content: z.record(z.string(), z.unknown()).optional(),
    }),
  ),
  TaskCreated: lazySchema(() => eventSchema(HookEvent.TaskCreated, taskShape)),
  TaskCompleted: lazySchema(() => eventSchema(HookEvent.TaskCompleted, taskShape)),
};
