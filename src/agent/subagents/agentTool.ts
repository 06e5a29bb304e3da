import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { forEvent } from '../../hooks/hookContext';
import type { AgentRef, HookEventResult } from '../../hooks/hookRunTypes';
import { runAgent } from '../agentLoop';
import type { AgentRunResult } from '../agentEvents';
import { Conversation } from '../conversation';
import { HookInputs } from '../hookInputs';
import { PermissionGate } from '../permissionGate';
import { runDispatcher } from '../runDispatcher';
import { deriveRunContext } from '../runContext';
import type { RunContext } from '../runContext';
import { NO_RUN_METADATA, RunMetadata } from '../runMetadata';
import type { AnyAgentTool, ToolContext, ToolResult } from '../tools/tool';
import { defineTool, toolError } from '../tools/tool';
import { TranscriptWriter } from '../transcript';
import type { AgentDefinition } from './agentDefinitions';
import { AgentToolTally } from './agentToolStats';
import type { ToolStats } from './agentToolStats';

/** Default nesting limit of subagents (setting hookwise.agent.maxSubagentDepth). */
export const DEFAULT_MAX_SUBAGENT_DEPTH = 2;

const agentInputSchema = z.object({
  description: z.string().trim().min(1, 'must not be empty').describe('A short (3–5 word) description of the task'),
  prompt: z.string().trim().min(1, 'must not be empty').describe('The task for the subagent: everything it needs to know, since it sees nothing else'),
  subagent_type: z.string().default('general-purpose').describe('Which kind of agent to use'),
  // Claude Code's flag; Hookwise runs every subagent in the foreground, so hooks see false unless the model set it.
  run_in_background: z.boolean().default(false).describe('Ignored: every subagent runs in the foreground and its answer is the result of this call'),
});

type AgentInput = z.output<typeof agentInputSchema>;

/**
 * The `Agent` tool (Claude Code's; the `Task` matcher matches it too): spawns a child agent
 * with its own conversation and tool set, run by the same loop and the same HookRunner, with
 * `agent_id`, `parent_agent_id` and `agent_type` on every hook input inside it.
 * SubagentStart may deny the spawn or add context; SubagentStop may make it continue. The
 * child's final answer is the tool result. Nesting is limited to `ctx.subagents.maxDepth`.
 * The child runs with a context derived from the parent's `ctx` (same session, hooks, rules,
 * mode, asks, todos and env file).
 */
export function createAgentTool(ctx: RunContext, parent: AgentRef, depth: number, onStats?: (stats: ToolStats) => void): AnyAgentTool {
  const { agents, maxDepth } = ctx.subagents;
  const types = agents.map((a) => `- ${a.name}: ${a.description}`).join('\n');
  return defineTool({
    name: 'Agent',
    description: `Launch a subagent to handle a self-contained task with its own context; its final answer comes back as this tool's result. Several Agent calls in one message run concurrently.\nAvailable subagent types:\n${types}`,
    inputSchema: agentInputSchema,
    // Spawning changes nothing by itself: the child's own tool calls go through hooks and permissions.
    readOnly: true,
    needsApproval: false,
    summarize: (input) => `${input.subagent_type}: ${input.description}`,
    execute: async (input, toolCtx) => {
      const type = agents.find((a) => a.name === input.subagent_type);
      if (!type) return toolError(`Unknown subagent_type "${input.subagent_type}". Available: ${agents.map((a) => a.name).join(', ')}.`);
      if (depth + 1 > maxDepth) {
        return toolError(
          `Subagents may nest at most ${maxDepth} level(s) deep (setting hookwise.agent.maxSubagentDepth); do this task yourself instead of spawning another agent.`,
        );
      }
      const result = await spawn({ ctx, parent, depth, type, input, toolCtx });
      const stats = (result.data as { toolStats?: ToolStats } | undefined)?.toolStats;
      if (stats) onStats?.(stats);
      return result;
    },
  });
}

/** One spawn of a subagent of a known type, within the nesting limit. */
interface Spawn {
  readonly ctx: RunContext;
  readonly parent: AgentRef;
  readonly depth: number;
  readonly type: AgentDefinition;
  readonly input: AgentInput;
  readonly toolCtx: ToolContext;
}

/** SubagentStart, then the child's run; the child's answer (or why it ended) is the tool result. */
async function spawn(s: Spawn): Promise<ToolResult> {
  const { ctx, parent, type, input, toolCtx } = s;
  const child: AgentRef = { agentId: `agent-${randomBytes(4).toString('hex')}`, parentAgentId: parent.agentId, agentType: type.name };
  const transcriptPath = path.join(ctx.subagents.transcriptDir, `${child.agentId}.jsonl`);
  // The child starts from the parent's metadata as it is now; SubagentStart sees it and
  // what SubagentStart merges is the child's alone.
  const metadata = new RunMetadata(toolCtx.runMetadata?.() ?? NO_RUN_METADATA);
  const start = await subagentStart(s, child, metadata);
  if (start.decision === 'deny' || start.decision === 'stop') {
    return toolError(`The subagent was not started: a SubagentStart hook refused it${start.reason ? `: ${start.reason}` : '.'}`, {
      agent_id: child.agentId,
      agent_type: type.name,
      status: 'refused',
    });
  }

  const transcript = new TranscriptWriter(transcriptPath, { sessionId: ctx.sessionId, cwd: ctx.cwd, agentId: child.agentId });
  ctx.parentTranscript?.write({
    type: 'subagent',
    agent_id: parent.agentId,
    subagent_id: child.agentId,
    agent_type: type.name,
    description: input.description,
    tool_use_id: toolCtx.toolUseId ?? null,
    transcript_path: transcriptPath,
  });
  const context = [...start.plainOutputs, ...start.additionalContext].filter((c) => c.trim() !== '');
  const tally = new AgentToolTally();
  const conversation = new Conversation([], (m) => {
    transcript.writeMessage(m, child.agentId);
    tally.note(m);
  });
  if (context.length > 0)
    conversation.append({ role: 'user', content: `<system-reminder>\nSubagentStart hook additional context: ${context.join('\n')}\n</system-reminder>` });
  conversation.append({ role: 'user', content: input.prompt });

  const { baseTools, maxDepth } = ctx.subagents;
  const allowed = type.tools ? baseTools.filter((t) => type.tools?.includes(t.name)) : [...baseTools];
  const canNest = s.depth + 1 < maxDepth && (type.tools === undefined || type.tools.includes('Agent'));
  const childCtx = deriveRunContext(ctx, transcript);
  const tools = canNest ? [...allowed, createAgentTool(childCtx, child, s.depth + 1, (nested) => tally.addNested(nested))] : allowed;
  const started = Date.now();
  const moreTools = subagentMoreTools(ctx.subagents.moreTools, type.tools);
  try {
    const result = await runAgent({
      ctx: childCtx,
      agent: child,
      description: input.description,
      ...(toolCtx.toolUseId ? { parentToolUseId: toolCtx.toolUseId } : {}),
      transcriptPath,
      ...(type.model ? { modelName: type.model } : {}),
      systemPrompt: type.systemPrompt,
      conversation,
      tools,
      ...(moreTools ? { moreTools } : {}),
      signal: toolCtx.signal,
      stopEvent: 'SubagentStop',
      metadata: metadata.current,
    });
    const resolvedModel = type.model ?? ctx.modelName ?? ctx.model.label;
    return childResult({ input, child, result, durationMs: Date.now() - started, resolvedModel, tally });
  } finally {
    transcript.close();
  }
}

/**
 * SubagentStart, through the child's own gate and dispatcher (the same route as every agent
 * event): it sees the parent's metadata, and what it merges goes into `metadata`, the child's.
 * The child's transcript does not exist before the spawn is allowed, so it reads the
 * session's (as in Claude Code), which has the Agent call being run.
 */
function subagentStart(s: Spawn, child: AgentRef, metadata: RunMetadata): Promise<HookEventResult> {
  const { ctx, input } = s;
  const env = {
    session_id: ctx.sessionId,
    transcript_path: ctx.sessionTranscriptPath,
    cwd: ctx.cwd,
    permission_mode: ctx.permissionMode,
    prompt_id: ctx.promptId,
    agent_id: child.agentId,
    parent_agent_id: child.parentAgentId,
    agent_type: child.agentType,
  };
  const startInput = forEvent('SubagentStart', env, {}, { description: input.description, prompt: input.prompt });
  const inputs = new HookInputs({
    ...child,
    sessionId: ctx.sessionId,
    transcriptPath: ctx.sessionTranscriptPath,
    cwd: ctx.cwd,
    permissionMode: ctx.permissionMode,
    promptId: ctx.promptId,
  });
  const gate = PermissionGate.forAgent(ctx, child, inputs, runDispatcher(ctx, child, { metadata }));
  return gate.run('SubagentStart', startInput, s.toolCtx.signal);
}

/** What the Agent tool_response is made of. */
interface ChildOutcome {
  readonly input: AgentInput;
  readonly child: AgentRef;
  readonly result: AgentRunResult;
  readonly durationMs: number;
  readonly resolvedModel: string;
  readonly tally: AgentToolTally;
}

/**
 * Claude Code's Agent tool_response of a foreground run, key for key, with the answer or why
 * the child ended. Not sent: Claude Code's `harnessNoteCount`, `harnessTailCount` and
 * `harnessSectionHash` (its hand-back framing, which Hookwise has not); `usage` has the token
 * counts only; `canContinueAgent` is false (no tool here continues a finished subagent).
 */
function childResult(o: ChildOutcome): ToolResult {
  const { input, child, result, tally } = o;
  const data = {
    status: result.status,
    prompt: input.prompt,
    agentId: child.agentId,
    agentType: child.agentType,
    toolsUsed: tally.toolsUsed,
    content: [{ type: 'text', text: result.finalText }],
    resolvedModel: o.resolvedModel,
    totalDurationMs: o.durationMs,
    totalTokens: result.inputTokens + result.outputTokens,
    totalToolUseCount: tally.totalToolUseCount,
    usage: { input_tokens: result.inputTokens, output_tokens: result.outputTokens },
    toolStats: tally.toolStats,
    canContinueAgent: false,
  };
  if (result.status === 'completed') return { content: result.finalText.trim() || '(the subagent finished without an answer)', isError: false, data };
  return toolError(
    `The subagent ${result.status}${result.reason ? `: ${result.reason}` : ''}.${result.finalText ? `\nIts last message: ${result.finalText}` : ''}`,
    data,
  );
}

/** The changing tools (MCP) a subagent type may use: all of them, or those its `tools` list names (same result while the source is unchanged). */
function subagentMoreTools(
  source: (() => readonly AnyAgentTool[]) | undefined,
  allowed: readonly string[] | undefined,
): (() => readonly AnyAgentTool[]) | undefined {
  if (!source || !allowed) return source;
  let seen: readonly AnyAgentTool[] | undefined;
  let filtered: readonly AnyAgentTool[] = [];
  return () => {
    const now = source();
    if (now !== seen) {
      seen = now;
      filtered = now.filter((t) => allowed.includes(t.name));
    }
    return filtered;
  };
}
