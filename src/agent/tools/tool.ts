import { z } from 'zod';
import type { ShellCwd } from './shellCwd';
import type { TaskStore } from './taskStore';
import type { TaskHook } from './taskTools';
import type { TodoStore } from './todoStore';
import { thrownMessage } from '../../shared/describeThrown';
import { oneLine } from '../../shared/oneLine';

/** Longest tool summary: one UI line. */
const MAX_SUMMARY = 200;

/**
 * What a tool hands back. `content` is what the model sees; `data` is the structured
 * result that becomes PostToolUse's `tool_response`, shaped like Claude Code's where its
 * shape is known (Write → `{filePath, success: true}`, Bash → `{stdout, stderr, exitCode,
 * interrupted}`), so hook scripts written for Claude Code read it unchanged.
 */
export interface ToolResult {
  readonly content: string;
  /** True for a failure the model should see as one (PostToolUseFailure, not PostToolUse). */
  readonly isError: boolean;
  readonly data?: unknown;
}

/**
 * Everything a tool may use besides its input. Tools resolve relative paths against
 * `cwd` and refuse anything outside `workspaceRoot` unless `allowOutsideWorkspace` approves.
 */
export interface ToolContext {
  /** Absolute directory relative paths are resolved against (the session's cwd). */
  readonly cwd: string;
  /** Absolute workspace root: file tools refuse paths whose real location is outside it. */
  readonly workspaceRoot: string;
  /** Aborted when the user pressed Stop or the run ended; tools release everything and return. */
  readonly signal: AbortSignal;
  readonly sessionId: string;
  readonly agentId: string;
  /**
   * Approval for a path outside the workspace. Called with the real (symlink-resolved)
   * absolute path that would be touched; true lets the tool go on. Absent → always refused.
   */
  readonly allowOutsideWorkspace?: (absPath: string) => boolean | Promise<boolean>;
  /**
   * The session's Read deny rules, per file: Grep and Glob skip (and count) the files for
   * which this returns a rule, so a search over `.` cannot show what `Read(.env)` denies.
   * `realPath` is the file's symlink-resolved path when the tool knows it. Absent → none.
   */
  readonly readDeniedBy?: (absPath: string, realPath?: string) => string | undefined;
  /** Where TodoWrite keeps each agent's list. */
  readonly todos: TodoStore;
  /** Id of the tool call being executed (the Agent tool nests its subagent's events under it). */
  readonly toolUseId?: string;
  /**
   * The session's `CLAUDE_ENV_FILE`: what SessionStart hooks append there (`export K=V`) is
   * sourced before every Bash command, as in Claude Code.
   */
  readonly envFile?: string;
  /** The session's Bash working directory, kept between calls (`cd` carries over). Absent → every command starts in `cwd`. */
  readonly shellCwd?: ShellCwd;
  /** The session's task list (TaskCreate, TaskUpdate, TaskGet, TaskList). */
  readonly tasks?: TaskStore;
  /** Runs TaskCreated / TaskCompleted hooks for a task tool; `blocked` undoes the change. */
  readonly taskHook?: TaskHook;
  /** The calling agent's run metadata now (what its hooks merged): a subagent starts from it. */
  readonly runMetadata?: () => Readonly<Record<string, unknown>>;
}

/**
 * A tool the agent can call. Names and input keys are Claude Code's (docs/hooks.md §2) so hook
 * matchers and scripts carry over. Contract: `execute` never throws — every failure,
 * including an unexpected exception, is an `isError` result whose message the model can
 * act on — and it honours `ctx.signal`.
 */
export interface AgentTool<I = unknown> {
  readonly name: string;
  /** Told to the model: what the tool does and how to use its inputs. */
  readonly description: string;
  /** Validates raw arguments; unknown keys are stripped (Claude Code tolerates them). */
  readonly inputSchema: z.ZodType<I>;
  /** JSON Schema of the input for the model, generated once from `inputSchema`. */
  readonly jsonSchema: Readonly<Record<string, unknown>>;
  /** True when the tool changes nothing on disk or elsewhere (runs in plan mode, never asks). */
  readonly readOnly: boolean;
  /** True when, by default, the user is asked before it runs (hooks, rules and modes may override). */
  readonly needsApproval: boolean;
  /** One line for the UI: the command, the path, the pattern. */
  summarize(input: I): string;
  execute(input: I, ctx: ToolContext): Promise<ToolResult>;
}

/** Any tool, whatever its input type: what registries and the loop hold. */
export type AnyAgentTool = AgentTool<unknown>;

/** What `defineTool` needs: a tool minus the derived JSON Schema. */
export interface ToolDefinition<S extends z.ZodType> {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: S;
  readonly readOnly: boolean;
  readonly needsApproval: boolean;
  summarize(input: z.output<S>): string;
  execute(input: z.output<S>, ctx: ToolContext): Promise<ToolResult>;
}

/** An error result with the given message. */
export function toolError(content: string, data?: unknown): ToolResult {
  return data === undefined ? { content, isError: true } : { content, isError: true, data };
}

/**
 * Builds an `AgentTool` from a definition: generates the JSON Schema once and wraps
 * `execute` so the never-throw contract holds even for bugs — an unexpected exception
 * becomes an error result naming the tool — and so an already-aborted call does nothing.
 */
export function defineTool<S extends z.ZodType>(def: ToolDefinition<S>): AgentTool<z.output<S>> {
  const jsonSchema = toModelJsonSchema(def.inputSchema);
  return {
    name: def.name,
    description: def.description,
    // z.ZodType<z.output<S>> is what S is; TS cannot see it through the generic.
    inputSchema: def.inputSchema as unknown as z.ZodType<z.output<S>>,
    jsonSchema,
    readOnly: def.readOnly,
    needsApproval: def.needsApproval,
    summarize: (input) => {
      try {
        return oneLine(def.summarize(input), MAX_SUMMARY);
      } catch {
        return def.name;
      }
    },
    execute: async (input, ctx) => {
      if (ctx.signal.aborted) return toolError(`${def.name} was interrupted before it started.`);
      try {
        return await def.execute(input, ctx);
      } catch (err) {
        return toolError(`${def.name} failed unexpectedly: ${thrownMessage(err)}`);
      }
    },
  };
}

/** The input schema as JSON Schema for a model's function declaration (input side: defaults are optional). */
function toModelJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  // The dialect marker is noise to a model and some endpoints reject unknown top-level keys.
  delete json.$schema;
  return json;
}
