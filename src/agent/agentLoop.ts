import type { AgentRef, HookEventResult } from '../hooks/hookRunTypes';
import { collectResponse } from '../model/modelClient';
import type { ModelResponse } from '../model/modelClient';
import type { AgentRunResult } from './agentEvents';
import { emitSystemMessages } from './agentEvents';
import { EventInputs } from './eventInputs';
import type { BatchToolCall } from './eventInputs';
import { hookSpecificValues } from './hookSpecificFields';
import { stopFailureError } from './stopFailure';
import { randomUUID } from 'node:crypto';
import { ContextBuffer } from './contextBuffer';
import type { Conversation } from './conversation';
import type { HookDispatcher } from './hookDispatcher';
import { HookInputs } from './hookInputs';
import type { PermissionRules } from '../permissions/permissionMode';
import { PermissionGate } from './permissionGate';
import type { RunContext } from './runContext';
import { RunMetadata, withRunMetadata } from './runMetadata';
import { runToolCall } from './toolCallRunner';
import type { ToolCallScope } from './toolCallRunner';
import type { AnyAgentTool, ToolContext } from './tools/tool';
import type { TaskHook } from './tools/taskTools';
import { thrownMessage, thrownStack } from '../shared/describeThrown';
import { parseBoundedJson } from '../shared/boundedJson';

/** Consecutive Stop blocks after which the agent stops anyway (Claude Code's cap on forced continuations). */
export const MAX_CONSECUTIVE_STOP_BLOCKS = 8;

/** One agent's run: what differs per agent, beside the shared {@link RunContext}. The session owns `conversation`; the run appends to it. */
export interface AgentRunOptions {
  readonly ctx: RunContext;
  readonly agent: AgentRef;
  /** For subagents: the task description and the Agent tool call it runs under (UI nesting). */
  readonly description?: string;
  readonly parentToolUseId?: string;
  /** This agent's transcript (hooks read it as `transcript_path`). */
  readonly transcriptPath: string;
  /** Overrides the context's model name for this agent (a subagent type's `model`). */
  readonly modelName?: string;
  readonly systemPrompt: string;
  /** The conversation so far, ending with the new user message; the run appends to it. */
  readonly conversation: Conversation;
  readonly tools: readonly AnyAgentTool[];
  /** Tools that may change between steps (MCP servers' `tools/list_changed`), read before every model call; same array = unchanged. */
  readonly moreTools?: () => readonly AnyAgentTool[];
  readonly signal: AbortSignal;
  /** `Stop` for the main agent, `SubagentStop` inside a subagent. */
  readonly stopEvent: 'Stop' | 'SubagentStop';
  /** Called before each model call (the session compacts here when over budget). */
  readonly beforeInference?: () => Promise<void>;
  /** Called before every hook dispatch so hooks can read the transcript so far. */
  readonly beforeHooks?: () => Promise<void>;
  readonly maxTokens?: number;
  /** The run's metadata at the start; a subagent gets its parent's. Default empty. */
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/**
 * Runs one agent turn as a skeleton of hooks (every lifecycle point is a hook event):
 * ExecutionStart → [BeforeStep → BeforeInference → model → AfterInference → per tool call:
 * PreToolUse → permission → tool → PostToolUse | PostToolUseFailure → AfterStep →
 * Stop]* → ExecutionEnd, and AgentFailed on an unrecoverable error. Limits (max steps,
 * tokens, time) are hooks too (see defaultLimits.ts). Never throws.
 */
export async function runAgent(o: AgentRunOptions): Promise<AgentRunResult> {
  const started = Date.now();
  const { ctx } = o;
  const emit = ctx.emit;
  const modelName = o.modelName ?? ctx.modelName;
  // Inside a subagent `transcript_path` is the session's; SubagentStop adds the agent's own (Claude Code).
  const inputs = new HookInputs({
    ...o.agent,
    sessionId: ctx.sessionId,
    transcriptPath: ctx.sessionTranscriptPath,
    ...(o.agent.parentAgentId !== null ? { agentTranscriptPath: o.transcriptPath } : {}),
    cwd: ctx.cwd,
    permissionMode: ctx.permissionMode,
    promptId: ctx.promptId,
  });
  const events = new EventInputs(inputs);
  const background = new Set<Promise<unknown>>();
  const track = (work: Promise<unknown>): void => {
    background.add(work);
    void work.finally(() => background.delete(work));
  };
  const hooks = ctx.hooks;
  // What the run's hooks merge is kept and shown to every later event of this agent.
  const metadata = new RunMetadata(o.metadata);
  const dispatcher: HookDispatcher = withRunMetadata(
    {
      hasHooks: (event) => hooks.hasHooks?.(event) ?? true,
      run: async (event, input, options) => {
        await o.beforeHooks?.();
        return hooks.run(event, input, options);
      },
      ...(hooks.recordAskAnswer ? { recordAskAnswer: (result, answer) => hooks.recordAskAnswer?.(result, answer) ?? result } : {}),
    },
    metadata,
    (event, why) => emit({ type: 'systemMessage', agent: o.agent, text: `The metadata merged by ${event} hooks was not kept: ${why}.`, source: event }),
  );
  const gate = PermissionGate.forAgent(ctx, o.agent, inputs, dispatcher, track);
  // Every event's ask goes through the gate (PermissionRequest, Notification, the person, the fallback).
  const dispatch = (event: Parameters<HookDispatcher['run']>[0], input: Record<string, unknown>): Promise<HookEventResult> => gate.run(event, input, o.signal);

  const context = new ContextBuffer();
  let tools = new Map(o.tools.map((t) => [t.name, t] as const));
  const toolContext = withReadDenials(
    {
      cwd: ctx.cwd,
      workspaceRoot: ctx.projectDir,
      sessionId: ctx.sessionId,
      agentId: o.agent.agentId,
      todos: ctx.todos,
      ...(ctx.envFile ? { envFile: ctx.envFile } : {}),
      ...(ctx.shellCwd ? { shellCwd: ctx.shellCwd } : {}),
      ...(ctx.tasks ? { tasks: ctx.tasks, taskHook: (event, task) => taskHook(event, task) } : {}),
    },
    ctx.rules,
  );
  let toolSpecs = o.tools.map((t) => ({ name: t.name, description: t.description, parameters: t.jsonSchema }));
  let extra: readonly AnyAgentTool[] | undefined;
  const refreshTools = (): void => {
    const now = o.moreTools?.();
    if (now === undefined || now === extra) return;
    extra = now;
    // A built-in keeps its name: an MCP tool can never shadow it.
    const all = [...o.tools, ...now.filter((t) => !o.tools.some((b) => b.name === t.name))];
    tools = new Map(all.map((t) => [t.name, t] as const));
    toolSpecs = all.map((t) => ({ name: t.name, description: t.description, parameters: t.jsonSchema }));
  };

  const turnId = randomUUID();
  let step = 0;
  let inputTokens = 0;
  let outputTokens = 0;
  let finalText = '';
  // Stop blocks in this run. Not reset by tool steps: a block sets stop_hook_active on the
  // *next* Stop (Claude Code keeps it true for the whole forced continuation, tool calls
  // included), and every Stop of one run that did not end it is a consecutive block, so the
  // cap of 8 also holds for a model that runs a tool between Stops.
  let stopBlocks = 0;
  const usageTotal = (): number => inputTokens + outputTokens;
  const lastUserPrompt = [...o.conversation.messages].reverse().find((m) => m.role === 'user')?.content ?? '';

  emit({
    type: 'runStarted',
    agent: o.agent,
    ...(o.description ? { description: o.description } : {}),
    ...(o.parentToolUseId ? { parentToolUseId: o.parentToolUseId } : {}),
  });
  const end = async (status: AgentRunResult['status'], reason?: string): Promise<AgentRunResult> => {
    const result: AgentRunResult = { status, finalText, steps: step, inputTokens, outputTokens, ...(reason ? { reason } : {}) };
    if (status === 'failed') {
      await dispatch('AgentFailed', inputs.agentFailed(reason ?? 'unknown error')).catch(() => undefined);
      // A failed subagent still ends: SubagentStop observes it, with the error (it cannot continue).
      if (o.stopEvent === 'SubagentStop') {
        const stopped = await dispatch('SubagentStop', inputs.stop('SubagentStop', stopBlocks > 0, finalText, reason ?? 'unknown error')).catch(
          () => undefined,
        );
        if (stopped) showSystemMessages(stopped);
      }
    }
    // ExecutionEnd is observation only; it runs even after a Stop so audits see every run.
    await gate.run('ExecutionEnd', inputs.executionEnd(status, finalText, step)).catch(() => undefined);
    await Promise.allSettled([...background]);
    emit({ type: 'runEnded', agent: o.agent, result });
    return result;
  };
  const showSystemMessages = (result: HookEventResult): void => emitSystemMessages(emit, o.agent, result);
  /** Applies an observation-point result; returns a stop reason when a hook said stop. */
  const observe = (result: HookEventResult, hookName: string): string | undefined => {
    showSystemMessages(result);
    if (result.decision === 'stop') return result.reason ?? `${hookName} hook stopped the agent`;
    context.collect(result, hookName);
    return undefined;
  };

  /** TaskCreated / TaskCompleted for a task tool: a block (exit 2) undoes the change and its reason goes to the model. */
  const taskHook: TaskHook = async (event, task) => {
    if (dispatcher.hasHooks?.(event) === false) return {};
    const result = await dispatch(event, events.task(event, task.id, task.subject, task.description || undefined));
    showSystemMessages(result);
    context.collect(result, event);
    if (result.decision === 'deny' || result.decision === 'stop') return { blocked: result.reason ?? `${event} hook blocked it` };
    return {};
  };
  /** CwdChanged: the Bash tool's directory moved; hooks may add paths to the FileChanged watch. */
  const cwdChanged = async (from: string, to: string): Promise<void> => {
    if (dispatcher.hasHooks?.('CwdChanged') === false) return;
    const result = await dispatcher.run('CwdChanged', events.withCwd(to).cwdChanged(from, to), {
      signal: o.signal,
      ...(ctx.envFile ? { env: { CLAUDE_ENV_FILE: ctx.envFile } } : {}),
    });
    showSystemMessages(result);
    ctx.watchPaths?.(
      hookSpecificValues(result, 'watchPaths')
        .flat()
        .filter((p): p is string => typeof p === 'string'),
    );
  };

  try {
    const startStop = observe(await dispatch('ExecutionStart', inputs.executionStart(lastUserPrompt)), 'ExecutionStart');
    if (startStop) return await end('stopped', startStop);

    for (;;) {
      if (o.signal.aborted) return await end('cancelled', 'Stopped by the user');
      step++;
      const beforeStep = observe(await dispatch('BeforeStep', inputs.beforeStep(step, Date.now() - started, usageTotal())), 'BeforeStep');
      if (beforeStep) return await end('stopped', beforeStep);
      const beforeInference = observe(await dispatch('BeforeInference', inputs.beforeInference(step, o.conversation.length)), 'BeforeInference');
      if (beforeInference) return await end('stopped', beforeInference);

      await o.beforeInference?.();
      refreshTools();
      // Background (async) hooks that finished since the last call speak now, as in Claude Code.
      for (const output of hooks.takeBackgroundOutput?.(ctx.sessionId) ?? []) {
        if (output.systemMessage) emit({ type: 'systemMessage', agent: o.agent, text: output.systemMessage, source: output.event });
        if (output.additionalContext) context.add(`${output.event} hook additional context: ${output.additionalContext}`);
      }
      context.flushInto(o.conversation);
      let response: ModelResponse;
      try {
        response = await collectResponse(
          ctx.model,
          {
            messages: [{ role: 'system', content: o.systemPrompt }, ...o.conversation.messages],
            tools: toolSpecs,
            ...(modelName ? { model: modelName } : {}),
            ...(o.maxTokens ? { maxTokens: o.maxTokens } : {}),
          },
          o.signal,
          (delta) => emit({ type: 'text', agent: o.agent, delta }),
          (delta) => emit({ type: 'reasoning', agent: o.agent, delta }),
        );
      } catch (error) {
        if (o.signal.aborted) return await end('cancelled', 'Stopped by the user');
        // The turn ends on the model error: StopFailure instead of Stop (its output is ignored, as in Claude Code).
        if (o.stopEvent === 'Stop' && dispatcher.hasHooks?.('StopFailure') !== false) {
          await dispatch('StopFailure', events.stopFailure(stopFailureError(error), thrownMessage(error), finalText)).catch(() => undefined);
        }
        return await end('failed', thrownMessage(error));
      }
      if (response.usage) {
        inputTokens += response.usage.inputTokens;
        outputTokens += response.usage.outputTokens;
        emit({ type: 'usage', agent: o.agent, inputTokens: response.usage.inputTokens, outputTokens: response.usage.outputTokens });
      }
      o.conversation.append(
        response.toolCalls.length > 0
          ? { role: 'assistant', content: response.text, toolCalls: response.toolCalls }
          : { role: 'assistant', content: response.text },
      );
      emit({ type: 'assistantMessage', agent: o.agent, text: response.text, step });
      // Once per shown message, in the background: display hooks never hold up the turn (and cost nothing when none is configured).
      if (response.text !== '' && dispatcher.hasHooks?.('MessageDisplay') !== false) {
        track(dispatch('MessageDisplay', events.messageDisplay(turnId, randomUUID(), 0, true, response.text)).then(showSystemMessages, () => undefined));
      }
      if (response.text.trim() !== '') finalText = response.text;

      const afterInference = observe(
        await dispatch(
          'AfterInference',
          inputs.afterInference(
            step,
            response.text,
            response.toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: c.argumentsText })),
            response.finishReason,
          ),
        ),
        'AfterInference',
      );
      if (afterInference) {
        closeUnansweredCalls(o.conversation, response, 0, afterInference);
        return await end('stopped', afterInference);
      }

      if (response.toolCalls.length > 0) {
        const calls = response.toolCalls;
        const scope: ToolCallScope = {
          ctx,
          agent: o.agent,
          tools,
          hooks: dispatcher,
          inputs,
          gate,
          context,
          toolContext: { ...toolContext, runMetadata: () => metadata.current },
          signal: o.signal,
        };
        // Built only when a PostToolBatch hook listens: parsing every call's arguments again costs.
        const batchCalls: BatchToolCall[] | undefined = dispatcher.hasHooks?.('PostToolBatch') !== false ? [] : undefined;
        for (let i = 0; i < calls.length;) {
          if (o.signal.aborted) {
            closeUnansweredCalls(o.conversation, response, i, 'Stopped by the user');
            return await end('cancelled', 'Stopped by the user');
          }
          // Consecutive Agent calls run concurrently (independent subagents); everything else
          // runs in order, as the model wrote it. Results are appended in call order.
          let j = i + 1;
          if (calls[i]!.name === 'Agent') while (j < calls.length && calls[j]!.name === 'Agent') j++;
          const batch = calls.slice(i, j);
          const cwdBefore = ctx.shellCwd?.current;
          const outcomes = await Promise.all(batch.map((call) => runToolCall(call, scope)));
          outcomes.forEach((outcome, k) => {
            o.conversation.append({ role: 'tool', toolCallId: batch[k]!.id, content: outcome.content, ...(outcome.isError ? { isError: true } : {}) });
            batchCalls?.push({
              tool_name: batch[k]!.name,
              tool_input: argumentsValue(batch[k]!.argumentsText),
              tool_use_id: batch[k]!.id,
              tool_response: outcome.content,
            });
          });
          if (ctx.shellCwd && cwdBefore !== undefined && ctx.shellCwd.current !== cwdBefore) await cwdChanged(cwdBefore, ctx.shellCwd.current);
          const stopped = outcomes.find((outcome) => outcome.stopReason);
          if (stopped?.stopReason) {
            closeUnansweredCalls(o.conversation, response, j, stopped.stopReason);
            return await end('stopped', stopped.stopReason);
          }
          i = j;
        }
        // Every call of the response has its result: PostToolBatch sees them in order, before the next model call.
        if (batchCalls) {
          const batchResult = await dispatch('PostToolBatch', events.postToolBatch(batchCalls));
          const batchStop = observe(batchResult, 'PostToolBatch');
          if (batchStop) return await end('stopped', batchStop);
          if (batchResult.decision === 'deny' && batchResult.reason) context.add(`PostToolBatch hook blocking error: ${batchResult.reason}`);
        }
        const afterStep = observe(
          await dispatch('AfterStep', inputs.afterStep(step, response.toolCalls.length, Date.now() - started, usageTotal())),
          'AfterStep',
        );
        if (afterStep) return await end('stopped', afterStep);
        continue;
      }

      const afterStep = observe(await dispatch('AfterStep', inputs.afterStep(step, 0, Date.now() - started, usageTotal())), 'AfterStep');
      if (afterStep) return await end('stopped', afterStep);
      if (o.signal.aborted) return await end('cancelled', 'Stopped by the user');

      // About to finish: Stop (or SubagentStop) may force one more step.
      const stopResult = await dispatch(o.stopEvent, inputs.stop(o.stopEvent, stopBlocks > 0, response.text));
      showSystemMessages(stopResult);
      if (stopResult.decision === 'stop') return await end('stopped', stopResult.reason ?? `${o.stopEvent} hook stopped the agent`);
      if (stopResult.decision === 'deny' || stopResult.decision === 'continue') {
        stopBlocks++;
        if (stopBlocks >= MAX_CONSECUTIVE_STOP_BLOCKS) {
          const why = `A ${o.stopEvent} hook blocked the turn from ending ${stopBlocks} consecutive times; stopping anyway.`;
          emit({ type: 'systemMessage', agent: o.agent, text: why, source: o.stopEvent });
          return await end('completed', why);
        }
        context.collect(stopResult, o.stopEvent);
        o.conversation.append({ role: 'user', content: `${o.stopEvent} hook feedback:\n${stopResult.reason ?? 'Continue working.'}` });
        continue;
      }
      // Claude Code (since 2.1.163): a Stop hook's additionalContext continues the turn with that context,
      // counted against the same cap as blocks so a hook that always adds context cannot loop forever.
      if (stopResult.additionalContext.some((c) => c.trim() !== '') && stopBlocks + 1 < MAX_CONSECUTIVE_STOP_BLOCKS) {
        stopBlocks++;
        context.collect(stopResult, o.stopEvent);
        continue;
      }
      return await end('completed');
    }
  } catch (error) {
    // Only a bug gets here: the runner, tools and model adapter return failures as data.
    if (o.signal.aborted) return end('cancelled', 'Stopped by the user');
    return end('failed', `internal error: ${thrownStack(error)}`);
  }
}

/** Every tool call needs a tool message, or the next request is invalid (and resume breaks). */
function closeUnansweredCalls(conversation: Conversation, response: ModelResponse, from: number, why: string): void {
  for (const call of response.toolCalls.slice(from)) conversation.append({ role: 'tool', toolCallId: call.id, content: `Not run: ${why}`, isError: true });
}

/** The tool context with the session's Read deny rules as a per-file check for Grep and Glob. */
function withReadDenials(toolContext: Omit<ToolContext, 'signal'>, rules: PermissionRules | undefined): Omit<ToolContext, 'signal'> {
  if (toolContext.readDeniedBy || !rules?.readDeniedBy) return toolContext;
  const cwd = toolContext.cwd;
  return { ...toolContext, readDeniedBy: (absPath, realPath) => rules.readDeniedBy?.(absPath, realPath, cwd) };
}

/** A call's arguments as the model wrote them, parsed when they are JSON (PostToolBatch's `tool_input`). */
function argumentsValue(text: string): unknown {
  if (text.trim() === '') return {};
  const parsed = parseBoundedJson(text);
  return parsed.ok ? parsed.value : text;
}
