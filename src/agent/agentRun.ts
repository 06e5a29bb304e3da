import { randomUUID } from 'node:crypto';
import type { HookEvent } from '../hooks/hookEvent';
import type { HookEventResult } from '../hooks/hookRunTypes';
import type { ModelResponse } from '../model/modelClient';
import type { PermissionRules } from '../permissions/permissionMode';
import type { AgentRunResult } from './agentEvents';
import { emitSystemMessages } from './agentEvents';
import type { AgentRunOptions } from './agentLoop';
import { ContextBuffer } from './contextBuffer';
import { HookInputs } from './hookInputs';
import { PermissionGate } from './permissionGate';
import { runDispatcher } from './runDispatcher';
import { RunMetadata } from './runMetadata';
import { RunTools } from './runTools';
import type { ToolCallScope } from './toolCallScope';
import type { TaskHook } from './tools/taskTools';
import type { ToolContext } from './tools/tool';

/**
 * The state of one agent run and what every step of it shares: the hook inputs, the one route
 * of its events to the hooks (`gate`), the context waiting for the model, its tools, and the
 * counters the result reports. The steps (agentInference.ts, agentToolBatch.ts,
 * agentStopCheck.ts) read and advance it; {@link end} finishes it.
 */
export class AgentRun {
  readonly started = Date.now();
  readonly turnId = randomUUID();
  readonly inputs: HookInputs;
  readonly events: HookInputs;
  /** The agent's permission gate: every event of the run goes through its `run`. */
  readonly gate: PermissionGate;
  /** What the run's hooks merge is kept and shown to every later event of this agent. */
  readonly metadata: RunMetadata;
  readonly context = new ContextBuffer();
  readonly tools: RunTools;
  step = 0;
  inputTokens = 0;
  outputTokens = 0;
  /** The last non-empty answer of the model. */
  finalText = '';
  /**
   * Stop blocks in this run. Not reset by tool steps: a block sets stop_hook_active on the
   * *next* Stop (Claude Code keeps it true for the whole forced continuation, tool calls
   * included), and every Stop of one run that did not end it is a consecutive block, so the
   * cap also holds for a model that runs a tool between Stops.
   */
  stopBlocks = 0;
  private readonly background = new Set<Promise<unknown>>();
  private readonly toolContext: Omit<ToolContext, 'signal'>;

  constructor(readonly o: AgentRunOptions) {
    const { ctx } = o;
    // Inside a subagent `transcript_path` is the session's; SubagentStop adds the agent's own (Claude Code).
    this.inputs = new HookInputs({
      ...o.agent,
      sessionId: ctx.sessionId,
      transcriptPath: ctx.sessionTranscriptPath,
      ...(o.agent.parentAgentId !== null ? { agentTranscriptPath: o.transcriptPath } : {}),
      cwd: ctx.cwd,
      permissionMode: ctx.permissionMode,
      promptId: ctx.promptId,
    });
    this.events = this.inputs;
    this.metadata = new RunMetadata(o.metadata);
    const dispatcher = runDispatcher(ctx, o.agent, { beforeHooks: o.beforeHooks, metadata: this.metadata });
    this.gate = PermissionGate.forAgent(ctx, o.agent, this.inputs, dispatcher, (work) => this.track(work));
    this.tools = new RunTools(o.tools, o.moreTools);
    this.toolContext = withReadDenials(
      {
        cwd: ctx.cwd,
        workspaceRoot: ctx.projectDir,
        sessionId: ctx.sessionId,
        agentId: o.agent.agentId,
        todos: ctx.todos,
        ...(ctx.envFile ? { envFile: ctx.envFile } : {}),
        ...(ctx.shellCwd ? { shellCwd: ctx.shellCwd } : {}),
        ...(ctx.tasks ? { tasks: ctx.tasks, taskHook: (event, task) => this.taskHook(event, task) } : {}),
      },
      ctx.rules,
    );
  }

  /** Runs one event of this agent through its gate (an ask is settled there), under the run's signal. */
  dispatch(event: HookEvent, input: Record<string, unknown>): Promise<HookEventResult> {
    return this.gate.run(event, input, this.o.signal);
  }

  /** Shows a result's system messages. */
  show(result: HookEventResult): void {
    emitSystemMessages(this.o.ctx.emit, this.o.agent, result);
  }

  /** Applies an observation-point result; returns a stop reason when a hook said stop. */
  observe(result: HookEventResult, hookName: string): string | undefined {
    this.show(result);
    if (result.decision === 'stop') return result.reason ?? `${hookName} hook stopped the agent`;
    this.context.collect(result, hookName);
    return undefined;
  }

  /** Keeps fire-and-forget work (display and Notification hooks) awaited before the run ends. */
  track(work: Promise<unknown>): void {
    this.background.add(work);
    void work.finally(() => this.background.delete(work));
  }

  /** Milliseconds since the run started. */
  elapsed(): number {
    return Date.now() - this.started;
  }

  /** Tokens used so far. */
  usageTotal(): number {
    return this.inputTokens + this.outputTokens;
  }

  /** What a tool call of the current step runs with (the tools as of the last refresh). */
  toolCallScope(): ToolCallScope {
    const { ctx, agent, signal } = this.o;
    const toolContext = { ...this.toolContext, runMetadata: () => this.metadata.current };
    return { ctx, agent, tools: this.tools.byName, inputs: this.inputs, gate: this.gate, context: this.context, toolContext, signal };
  }

  /** Every tool call needs a tool message, or the next request is invalid (and resume breaks). */
  closeUnansweredCalls(response: ModelResponse, from: number, why: string): void {
    for (const call of response.toolCalls.slice(from))
      this.o.conversation.append({ role: 'tool', toolCallId: call.id, content: `Not run: ${why}`, isError: true });
  }

  /** Says the run started (the UI nests a subagent under its Agent call). */
  announce(): void {
    const { o } = this;
    o.ctx.emit({
      type: 'runStarted',
      agent: o.agent,
      ...(o.description ? { description: o.description } : {}),
      ...(o.parentToolUseId ? { parentToolUseId: o.parentToolUseId } : {}),
    });
  }

  /**
   * Ends the run: AgentFailed (and a failed subagent's SubagentStop) on failure, ExecutionEnd
   * always, then waits for the background work and says the run ended.
   */
  async end(status: AgentRunResult['status'], reason?: string): Promise<AgentRunResult> {
    const { o, inputs } = this;
    const result: AgentRunResult = {
      status,
      finalText: this.finalText,
      steps: this.step,
      inputTokens: this.inputTokens,
      outputTokens: this.outputTokens,
      ...(reason ? { reason } : {}),
    };
    if (status === 'failed') {
      await this.dispatch('AgentFailed', inputs.agentFailed(reason ?? 'unknown error')).catch(() => undefined);
      // A failed subagent still ends: SubagentStop observes it, with the error (it cannot continue).
      if (o.stopEvent === 'SubagentStop') {
        const stopInput = inputs.stop('SubagentStop', this.stopBlocks > 0, this.finalText, reason ?? 'unknown error');
        const stopped = await this.dispatch('SubagentStop', stopInput).catch(() => undefined);
        if (stopped) this.show(stopped);
      }
    }
    // ExecutionEnd is observation only; it runs even after a Stop (and without the run's signal) so audits see every run.
    await this.gate.run('ExecutionEnd', inputs.executionEnd(status, this.finalText, this.step)).catch(() => undefined);
    await Promise.allSettled([...this.background]);
    o.ctx.emit({ type: 'runEnded', agent: o.agent, result });
    return result;
  }

  /** TaskCreated / TaskCompleted for a task tool: a block (exit 2) undoes the change and its reason goes to the model. */
  private readonly taskHook: TaskHook = async (event, task) => {
    if (!this.gate.hasHooks(event)) return {};
    const result = await this.dispatch(event, this.events.task(event, task.id, task.subject, task.description || undefined));
    this.show(result);
    this.context.collect(result, event);
    if (result.decision !== 'deny' && result.decision !== 'stop') return {};
    const by = result.decidedBy?.kind === 'hook' ? { blockedBy: result.decidedBy.hookLabel } : {};
    return { blocked: result.reason ?? `${event} hook blocked it`, ...by };
  };
}

/** The tool context with the session's Read deny rules as a per-file check for Grep and Glob. */
function withReadDenials(toolContext: Omit<ToolContext, 'signal'>, rules: PermissionRules | undefined): Omit<ToolContext, 'signal'> {
  if (toolContext.readDeniedBy || !rules?.readDeniedBy) return toolContext;
  const cwd = toolContext.cwd;
  return { ...toolContext, readDeniedBy: (absPath, realPath) => rules.readDeniedBy?.(absPath, realPath, cwd) };
}
