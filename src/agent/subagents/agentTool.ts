import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { forEvent, withContextMetadata } from '../../hooks/hookContext';
import type { AgentRef } from '../../hooks/hookRunTypes';
import { runAgent } from '../agentLoop';
import { Conversation } from '../conversation';
import type { HookDispatcher } from '../hookDispatcher';
import { HookInputs } from '../hookInputs';
import { PermissionGate } from '../permissionGate';
import { deriveRunContext } from '../runContext';
import type { RunContext } from '../runContext';
import { NO_RUN_METADATA, RunMetadata } from '../runMetadata';
import type { AnyAgentTool } from '../tools/tool';
import { defineTool, toolError } from '../tools/tool';
import { TranscriptWriter } from '../transcript';

/** Default nesting limit of subagents (setting hookwise.agent.maxSubagentDepth). */
export const DEFAULT_MAX_SUBAGENT_DEPTH = 2;

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
 * child's final answer is the tool result. Nesting is limited to `ctx.subagents.maxDepth`.
 * The child runs with a context derived from the parent's `ctx` (same session, hooks, rules,
 * mode, asks, todos and env file).
 */
export function createAgentTool(ctx: RunContext, parent: AgentRef, depth: number): AnyAgentTool {
  const { agents, maxDepth, baseTools, transcriptDir } = ctx.subagents;
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
      const child: AgentRef = { agentId: `agent-${randomBytes(4).toString('hex')}`, parentAgentId: parent.agentId, agentType: type.name };
      const transcriptPath = path.join(transcriptDir, `${child.agentId}.jsonl`);
      const env = {
        session_id: ctx.sessionId,
        transcript_path: transcriptPath,
        cwd: ctx.cwd,
        permission_mode: ctx.permissionMode,
        prompt_id: ctx.promptId,
        agent_id: child.agentId,
        parent_agent_id: parent.agentId,
        agent_type: type.name,
      };

      // The child starts from the parent's metadata as it is now; SubagentStart sees it and
      // what SubagentStart merges is the child's alone.
      const inherited = new RunMetadata(toolCtx.runMetadata?.() ?? NO_RUN_METADATA);
      const startMetadata = inherited.current;
      // The child's transcript does not exist before the spawn is allowed, so SubagentStart
      // reads the session's (as in Claude Code), which has the Agent call being run.
      const startInput = withContextMetadata(
        forEvent('SubagentStart', { ...env, transcript_path: ctx.sessionTranscriptPath }, { description: input.description, prompt: input.prompt }),
        startMetadata,
      );
      const startInputs = new HookInputs({
        ...child,
        sessionId: ctx.sessionId,
        transcriptPath: ctx.sessionTranscriptPath,
        cwd: ctx.cwd,
        permissionMode: ctx.permissionMode,
        promptId: ctx.promptId,
      });
      const hooks = ctx.hooks;
      const startHooks: HookDispatcher =
        startMetadata === NO_RUN_METADATA
          ? hooks
          : {
              hasHooks: (event) => hooks.hasHooks?.(event) ?? true,
              run: (event, hookInput, options) => hooks.run(event, hookInput, { ...options, metadata: startMetadata }),
              ...(hooks.recordAskAnswer ? { recordAskAnswer: (result, answer) => hooks.recordAskAnswer?.(result, answer) ?? result } : {}),
            };
      const start = await PermissionGate.forAgent(ctx, child, startInputs, startHooks).run('SubagentStart', startInput, toolCtx.signal);
      const refused = inherited.apply(start.metadata);
      if (refused !== undefined)
        ctx.emit({
          type: 'systemMessage',
          agent: child,
          text: `The metadata merged by SubagentStart hooks was not kept: ${refused}.`,
          source: 'SubagentStart',
        });
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
      const conversation = new Conversation([], (m) => transcript.writeMessage(m, child.agentId));
      if (context.length > 0)
        conversation.append({ role: 'user', content: `<system-reminder>\nSubagentStart hook additional context: ${context.join('\n')}\n</system-reminder>` });
      conversation.append({ role: 'user', content: input.prompt });

      const allowed = type.tools ? baseTools.filter((t) => type.tools?.includes(t.name)) : [...baseTools];
      const canNest = depth + 1 < maxDepth && (type.tools === undefined || type.tools.includes('Agent'));
      const childCtx = deriveRunContext(ctx, transcript);
      const tools = canNest ? [...allowed, createAgentTool(childCtx, child, depth + 1)] : allowed;
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
          metadata: inherited.current,
        });
        // Claude Code's Agent tool_response (its usage object has no counterpart here).
        const data = {
          status: result.status,
          prompt: input.prompt,
          agentId: child.agentId,
          content: [{ type: 'text', text: result.finalText }],
          totalDurationMs: Date.now() - started,
          totalTokens: result.inputTokens + result.outputTokens,
          usage: { input_tokens: result.inputTokens, output_tokens: result.outputTokens },
        };
        if (result.status === 'completed') return { content: result.finalText.trim() || '(the subagent finished without an answer)', isError: false, data };
        return toolError(
          `The subagent ${result.status}${result.reason ? `: ${result.reason}` : ''}.${result.finalText ? `\nIts last message: ${result.finalText}` : ''}`,
          data,
        );
      } finally {
        transcript.close();
      }
    },
  });
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
