import type { ModelClient } from '../model/modelClient';
import type { LazyMemory } from './memory/lazyMemory';
import type { AgentEventListener } from './agentEvents';
import type { HookDispatcher } from './hookDispatcher';
import type { PermissionMode, PermissionRules } from '../permissions/permissionMode';
import type { AskPolicy, SessionRules } from './permissionGate';
import type { AgentDefinition } from './subagents/agentDefinitions';
import type { AnyAgentTool } from './tools/tool';
import type { ShellCwd } from './tools/shellCwd';
import type { TaskStore } from './tools/taskStore';
import type { TodoStore } from './tools/todoStore';
import type { TranscriptWriter } from './transcript';
import type { ProtectedSnapshots } from './protectedSnapshot';

/**
 * Everything a run shares, stated once: the Session builds one; `runAgent`, `runToolCall`
 * and subagents take it; a subagent derives its own with {@link deriveRunContext}. Only
 * what differs per agent (its id, conversation, tools, transcript) travels beside it.
 */
export interface RunContext {
  readonly sessionId: string;
  /** The session's working directory (hook `cwd`, tool base). */
  readonly cwd: string;
  /** Workspace root (CLAUDE_PROJECT_DIR, the file tools' boundary). */
  readonly projectDir: string;
  readonly model: ModelClient;
  /** Model name sent with requests (a subagent type's `model` overrides it for that agent's run). */
  readonly modelName?: string | undefined;
  /** The HookRunner (an `ask` comes back as data; the agent's permission gate settles it). */
  readonly hooks: HookDispatcher;
  readonly permissionMode: PermissionMode;
  /** Restricted Mode (an untrusted workspace): every tool call asks a person; only a deny skips the question. */
  readonly restricted?: boolean | undefined;
  /** The id of the user prompt being answered (hook input `prompt_id`); undefined outside a prompt. */
  readonly promptId?: (() => string | undefined) | undefined;
  readonly rules?: PermissionRules | undefined;
  readonly sessionRules?: SessionRules | undefined;
  /** Who answers an ask that reaches a person, and what applies when nobody can. */
  readonly asks: AskPolicy;
  readonly emit: AgentEventListener;
  readonly todos: TodoStore;
  /** The session's task list (Task tools), shared by its agents. */
  readonly tasks?: TaskStore | undefined;
  /** The session's Bash working directory (`cd` carries over between calls; CwdChanged reports it). */
  readonly shellCwd?: ShellCwd | undefined;
  /** Adds absolute paths to the session's FileChanged watch (a CwdChanged hook's `watchPaths`). */
  readonly watchPaths?: ((paths: readonly string[]) => void) | undefined;
  /** The session's CLAUDE_ENV_FILE: every agent's Bash sources it. */
  readonly envFile?: string | undefined;
  /** The session's transcript (SubagentStart reads it: the child's does not exist yet). */
  readonly sessionTranscriptPath: string;
  /** Subagents: their types, nesting limit, the tools they may get, and where their transcripts go. */
  readonly subagents: {
    readonly agents: readonly AgentDefinition[];
    readonly maxDepth: number;
    readonly baseTools: readonly AnyAgentTool[];
    /** Tools that change while the session runs (the MCP servers'), offered to subagents too, as in Claude Code. */
    readonly moreTools?: () => readonly AnyAgentTool[];
    readonly transcriptDir: string;
  };
  /** Nested CLAUDE.md and `paths:` rules, loaded when a file tool works on a file (lazyMemory.ts); absent = none. */
  readonly lazyMemory?: LazyMemory | undefined;
  /** The protected set's snapshots: a tool that can write is compared before and after (protectedBackstop.ts); absent = no backstop. */
  readonly protectedSnapshots?: ProtectedSnapshots | undefined;
  /** The transcript of the agent that spawns subagents from this context (gets a link line per child). */
  readonly parentTranscript?: TranscriptWriter;
  /** Cap of the message text in a model-level hook's `llm_request` (`hookwise.hooks.maxInputBytes`); absent = 4 MiB. */
  readonly hookInputMaxBytes?: number | undefined;
}

/** A subagent's context: the parent's, with the child's transcript as the one its own subagents link from. */
export function deriveRunContext(parent: RunContext, childTranscript: TranscriptWriter): RunContext {
  return { ...parent, parentTranscript: childTranscript };
}
