import type { HookActivity } from './hookActivity';
import type { ModelClient, ModelMessage } from '../model/modelClient';
import type { AgentEventListener } from './agentEvents';
import type { SlashCommandSet } from './commands/slashCommands';
import type { ActiveCompaction } from './compactionProvider';
import type { HookDispatcher } from './hookDispatcher';
import type { MemoryAccess } from './memory/memoryAccess';
import type { MemorySnapshot } from './memory/memoryFiles';
import type { PermissionMode, PermissionRules } from '../permissions/permissionMode';
import type { AskPolicy, SessionRules } from './permissionGate';
import type { SkillDefinition } from './skills/skillDefinitions';
import type { AgentDefinition } from './subagents/agentDefinitions';
import type { AnyAgentTool } from './tools/tool';

/** What builds a session. */
export interface SessionOptions {
  readonly sessionId?: string;
  readonly cwd: string;
  readonly projectDir: string;
  /** Folder of transcripts; the file is `<dir>/<sessionId>.jsonl`. */
  readonly transcriptDir: string;
  readonly model: ModelClient;
  readonly modelName?: string;
  readonly hooks: HookDispatcher;
  readonly tools: readonly AnyAgentTool[];
  /** MCP servers: started before the first model call of a prompt, their tools re-read every step. */
  readonly mcp?: SessionToolSource;
  readonly permissionMode: PermissionMode;
  /** Restricted Mode (an untrusted workspace): every tool call asks a person, whatever the rules, mode or hooks allow. */
  readonly restricted?: boolean;
  /** Hook runs in flight (the runtime's runner), for the self-protection backstop. */
  readonly hookActivity?: HookActivity;
  readonly rules?: PermissionRules;
  readonly sessionRules?: SessionRules;
  /** Who answers an ask; absent = nobody (headless), and the default fallback (deny) applies. */
  readonly asks?: AskPolicy;
  readonly systemPrompt: string;
  readonly emit: AgentEventListener;
  /** Conversation to continue (resume). */
  readonly history?: readonly ModelMessage[];
  /** Subagent types for the Agent tool; absent or maxSubagentDepth 0 = no Agent tool. */
  readonly agents?: readonly AgentDefinition[];
  readonly maxSubagentDepth?: number;
  /** Cap of the message text in a model-level hook's `llm_request` (hookwise.hooks.maxInputBytes). */
  readonly hookInputMaxBytes?: number;
  /** File names FileChanged matchers list literally (`.envrc|.env`): watched in `cwd` from SessionStart on, as in Claude Code. */
  readonly fileChangedNames?: () => readonly string[];
  /** Compact automatically when the conversation's estimated tokens exceed this; 0/absent = never. */
  readonly compactionBudgetTokens?: number;
  /**
   * The compaction provider in effect, for `/compact` and the retry after a context-length
   * refusal (compactionProvider.ts); undefined = none installed, they do not compact. Absent =
   * always the built-in summarizer (a session made without a runtime).
   */
  readonly activeCompaction?: () => ActiveCompaction | undefined;
  /**
   * The model's context window in tokens; absent/0 = the model's known window, else 200,000.
   * Over its threshold (window − reply room − 13,000) the conversation compacts on its own.
   */
  readonly contextWindowTokens?: number;
  /** Fire Notification `idle_prompt` when a finished agent waits this long for the user; 0/absent = never. */
  readonly idleNotificationMs?: number;
  /**
   * Loaded at each start: the environment block and memory files (CLAUDE.md…) appended to the
   * system prompt. Absent = the system prompt alone.
   */
  readonly promptContext?: (signal?: AbortSignal) => Promise<PromptContext>;
  /** Which project memory nested (lazy) loads may read: the same check as the start's. Absent = unchecked. */
  readonly memoryAccess?: MemoryAccess;
  /** False while the built-in memory provider is switched off: a prompt's attached files load no nested memory. Absent = on. */
  readonly lazyMemoryOn?: () => boolean;
  /** Custom slash commands (`.claude/commands`), read at each prompt that starts with `/`. Absent = prompts go as typed. */
  readonly slashCommands?: () => Promise<SlashCommandSet>;
  /** Skills the main agent can load with the Skill tool; none = no Skill tool. */
  readonly skills?: readonly SkillDefinition[];
}

/** What a session appends to its system prompt, and the memory it came from. */
export interface PromptContext {
  readonly text: string;
  readonly memory?: MemorySnapshot;
}

/** Tools from outside (the MCP servers): started when a prompt needs them, re-read before every model call. */
export interface SessionToolSource {
  readonly hasServers: boolean;
  /** Starts what is not running; never throws (a server that fails offers no tools). */
  ensureStarted(signal: AbortSignal): Promise<void>;
  tools(): readonly AnyAgentTool[];
}
