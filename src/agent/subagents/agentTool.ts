import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { HookContext, withContextMetadata } from '../../hooks/hookContext';
import type { AgentRef, PermissionProvider } from '../../hooks/hookRunTypes';
import type { ModelClient } from '../../model/modelClient';
import type { AgentEventListener } from '../agentEvents';
import { runAgent } from '../agentLoop';
import { Conversation } from '../conversation';
import type { HookDispatcher } from '../hookDispatcher';
import type { PermissionMode, PermissionRules } from '../permissionMode';
import { NO_RUN_METADATA, RunMetadata } from '../runMetadata';
import type { AnyAgentTool } from '../tools/tool';
import { defineTool, toolError } from '../tools/tool';
import type { TodoStore } from '../tools/todoStore';
import { TranscriptWriter } from '../transcript';
import type { AgentDefinition } from './agentDefinitions';

/** Default nesting limit of subagents (setting hookwise.agent.maxSubagentDepth). */
export const DEFAULT_MAX_SUBAGENT_DEPTH = 2;

/** Everything a subagent shares with the session that spawns it. */
export interface SubagentHost {
  readonly sessionId: string;
  readonly cwd: string;
  readonly projectDir: string;
  /** Folder of subagent transcripts: `<dir>/agent-<id>.jsonl`. */
  readonly subagentTranscriptDir: string;
  readonly model: ModelClient;
  readonly modelName?: string;
  /** The same HookRunner as the main agent: subagents never escape hooks. */
  readonly hooks: HookDispatcher;
  readonly permissionMode: PermissionMode;
  readonly rules?: PermissionRules;
  readonly sessionRules?: PermissionRules & { grant(rule: string): void };
  readonly permissionProvider?: PermissionProvider;
  readonly askFallback: 'allow' | 'deny';
  readonly emit: AgentEventListener;
  readonly agents: readonly AgentDefinition[];
  readonly maxDepth: number;
  /** The tools a subagent may get (filtered by its type's `tools`); the Agent tool is added per depth. */
  readonly baseTools: readonly AnyAgentTool[];
  readonly todos: TodoStore;
  /** The session's CLAUDE_ENV_FILE: subagents' Bash sources it too. */
  readonly envFile?: string;
  /** The parent's transcript, which gets a line linking to the subagent's file. */
  readonly parentTranscript?: TranscriptWriter;
  readonly transcriptPath: string;
}

const agentInputSchema = z.object({
  description: z.string().trim().min(1, 'must not be empty').describe('A short (3–5 word) description of the task'),
  prompt: z.string().trim().min(1, 'must not be empty').describe('The task for the subagent: everything it needs to know, since it sees nothing else'),
  subagent_type: z.string().default('general-purpose').describe('Which kind of agent to use'),
});

/**
 * The `Agent` tool (Claude Code's; the `Task` matcher matches it too): spawns a child agent
 * with its own conversation and tool set, run by the same loop and the same HookRunner, with
 * `agent_id`, `parent_agent_id` and `agent_type` on every hook input inside it.
 * SubagentStart may deny the spawn or add context; SubagentStop may make it continue. The
 * child's final answer is the tool result. Nesting is limited to `host.maxDepth`.
 */
export function createAgentTool(host: SubagentHost, parent: AgentRef, depth: number): AnyAgentTool {
  const types = host.agents.map((a) => `- ${a.name}: ${a.description}`).join('\n');
  return defineTool({
    name: 'Agent',
    description: `Launch a subagent to handle a self-contained task with its own context; its final answer comes back as this tool's result. Several Agent calls in one message run concurrently.\nAvailable subagent types:\n${types}`,
    inputSchema: agentInputSchema,
    // Spawning changes nothing by itself: the child's own tool calls go through hooks and permissions.
    readOnly: true,
    needsApproval: false,
    summarize: (input) => `${input.subagent_type}: ${input.description}`,
    execute: async (input, ctx) => {
      const type = host.agents.find((a) => a.name === input.subagent_type);
      if (!type) return toolError(`Unknown subagent_type "${input.subagent_type}". Available: ${host.agents.map((a) => a.name).join(', ')}.`);
      if (depth + 1 > host.maxDepth) {
        return toolError(`Subagents may nest at most ${host.maxDepth} level(s) deep (setting hookwise.agent.maxSubagentDepth); do this task yourself instead of spawning another agent.`);
      }
      const child: AgentRef = { agentId: `agent-${randomBytes(4).toString('hex')}`, parentAgentId: parent.agentId, agentType: type.name };
      const transcriptPath = path.join(host.subagentTranscriptDir, `${child.agentId}.jsonl`);
      const env = { session_id: host.sessionId, transcript_path: transcriptPath, cwd: host.cwd, agent_id: child.agentId, parent_agent_id: parent.agentId, agent_type: type.name };

      // The child starts from the parent's metadata as it is now; SubagentStart sees it and
      // what SubagentStart merges is the child's alone.
      const inherited = new RunMetadata(ctx.runMetadata?.() ?? NO_RUN_METADATA);
      const startMetadata = inherited.current;
      // The child's transcript does not exist before the spawn is allowed, so SubagentStart
      // reads the session's (as in Claude Code), which has the Agent call being run.
      const startInput = withContextMetadata(HookContext.forSubagentStart({ ...env, transcript_path: host.transcriptPath }, { description: input.description, prompt: input.prompt }), startMetadata);
      const start = await host.hooks.run('SubagentStart', startInput, startMetadata === NO_RUN_METADATA ? { signal: ctx.signal } : { signal: ctx.signal, metadata: startMetadata });
      const refused = inherited.apply(start.metadata);
      if (refused !== undefined) host.emit({ type: 'systemMessage', agent: child, text: `The metadata merged by SubagentStart hooks was not kept: ${refused}.`, source: 'SubagentStart' });
      if (start.decision === 'deny' || start.decision === 'stop') {
        return toolError(`The subagent was not started: a SubagentStart hook refused it${start.reason ? `: ${start.reason}` : '.'}`, { agent_id: child.agentId, agent_type: type.name, status: 'refused' });
      }

      const transcript = new TranscriptWriter(transcriptPath);
      host.parentTranscript?.write({ type: 'subagent', agent_id: parent.agentId, subagent_id: child.agentId, agent_type: type.name, description: input.description, tool_use_id: ctx.toolUseId ?? null, transcript_path: transcriptPath });
      const context = [...start.plainOutputs, ...start.additionalContext].filter((c) => c.trim() !== '');
      const conversation = new Conversation([], (m) => transcript.writeMessage(m, child.agentId));
      if (context.length > 0) conversation.append({ role: 'user', content: `<system-reminder>\nSubagentStart hook additional context: ${context.join('\n')}\n</system-reminder>` });
      conversation.append({ role: 'user', content: input.prompt });

      const allowed = type.tools ? host.baseTools.filter((t) => type.tools?.includes(t.name)) : [...host.baseTools];
      const canNest = depth + 1 < host.maxDepth && (type.tools === undefined || type.tools.includes('Agent'));
      const tools = canNest ? [...allowed, createAgentTool({ ...host, parentTranscript: transcript }, child, depth + 1)] : allowed;
      try {
        const result = await runAgent({
          agent: child,
          description: input.description,
          ...(ctx.toolUseId ? { parentToolUseId: ctx.toolUseId } : {}),
          sessionId: host.sessionId,
          transcriptPath,
          cwd: host.cwd,
          model: host.model,
          ...(type.model ? { modelName: type.model } : host.modelName ? { modelName: host.modelName } : {}),
          systemPrompt: type.systemPrompt,
          conversation,
          tools,
          hooks: host.hooks,
          permissionMode: host.permissionMode,
          ...(host.rules ? { rules: host.rules } : {}),
          ...(host.sessionRules ? { sessionRules: host.sessionRules } : {}),
          ...(host.permissionProvider ? { permissionProvider: host.permissionProvider } : {}),
          askFallback: host.askFallback,
          toolContext: { cwd: host.cwd, workspaceRoot: host.projectDir, sessionId: host.sessionId, agentId: child.agentId, todos: host.todos, ...(host.envFile ? { envFile: host.envFile } : {}) },
          signal: ctx.signal,
          emit: host.emit,
          stopEvent: 'SubagentStop',
          metadata: inherited.current,
        });
        const data = { agent_id: child.agentId, agent_type: type.name, status: result.status, result: result.finalText, transcript_path: transcriptPath };
        if (result.status === 'completed') return { content: result.finalText.trim() || '(the subagent finished without an answer)', isError: false, data };
        return toolError(`The subagent ${result.status}${result.reason ? `: ${result.reason}` : ''}.${result.finalText ? `\nIts last message: ${result.finalText}` : ''}`, data);
      } finally {
        transcript.close();
      }
    },
  });
}
