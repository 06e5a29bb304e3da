import path from 'node:path';
import type { AgentEventListener } from './agentEvents';
import type { LazyMemory } from './memory/lazyMemory';
import { askPolicy } from './permissionGate';
import type { RunContext } from './runContext';
import type { SessionOptions } from './sessionOptions';
import { BUILTIN_AGENTS } from './subagents/agentDefinitions';
import { DEFAULT_MAX_SUBAGENT_DEPTH } from './subagents/agentTool';
import { ProtectedSnapshots } from './protectedSnapshot';
import { ShellCwd } from './tools/shellCwd';
import { createTaskStore } from './tools/taskStore';
import { createTodoStore } from './tools/todoStore';
import type { AnyAgentTool } from './tools/tool';
import type { TranscriptWriter } from './transcript';

const NONE: ReadonlySet<string> = new Set();

/** The session's own parts its agents share (the session owns them). */
export interface SessionRunContextParts {
  readonly sessionId: string;
  readonly transcriptPath: string;
  readonly envFile: string;
  readonly transcript: TranscriptWriter;
  /** The session's tools (Write and Edit recording into its checkpoints). */
  readonly tools: readonly AnyAgentTool[];
  readonly promptId: () => string | undefined;
  /** Where every agent event goes (the session looks at the main agent's usage first). */
  readonly emit: AgentEventListener;
  readonly watchPaths: (paths: readonly string[]) => void;
  readonly lazyMemory: LazyMemory;
}

/**
 * The one {@link RunContext} a session's main agent and all its subagents share: fresh todo and
 * task lists and shell working directory, subagent transcripts beside the session's, and lazy
 * memory only when the session loads memory at all (`promptContext`).
 */
export function sessionRunContext(o: SessionOptions, p: SessionRunContextParts): RunContext {
  return {
    sessionId: p.sessionId,
    cwd: o.cwd,
    projectDir: o.projectDir,
    model: o.model,
    modelName: o.modelName,
    hooks: o.hooks,
    permissionMode: o.permissionMode,
    restricted: o.restricted === true,
    promptId: p.promptId,
    rules: o.rules,
    sessionRules: o.sessionRules,
    asks: o.asks ?? askPolicy(undefined, undefined),
    emit: p.emit,
    todos: createTodoStore(),
    tasks: createTaskStore(),
    shellCwd: new ShellCwd(o.cwd),
    watchPaths: p.watchPaths,
    envFile: p.envFile,
    sessionTranscriptPath: p.transcriptPath,
    subagents: {
      agents: o.agents ?? BUILTIN_AGENTS,
      maxDepth: o.maxSubagentDepth ?? DEFAULT_MAX_SUBAGENT_DEPTH,
      baseTools: p.tools,
      ...(o.mcp ? { moreTools: () => o.mcp?.tools() ?? [] } : {}),
      transcriptDir: path.join(o.transcriptDir, p.sessionId, 'subagents'),
    },
    parentTranscript: p.transcript,
    hookInputMaxBytes: o.hookInputMaxBytes,
    lazyMemory: o.promptContext ? p.lazyMemory : undefined,
    protectedSnapshots: new ProtectedSnapshots({
      roots: () => [o.projectDir, o.cwd],
      hookScripts: () => o.rules?.hookScripts?.() ?? NONE,
      configFiles: () => o.rules?.configFiles?.() ?? NONE,
      ...(o.hookActivity ? { hookActivity: o.hookActivity } : {}),
    }),
  };
}
