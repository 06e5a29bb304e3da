import type { AgentRef } from '../hooks/hookRunTypes';
import { thrownStack } from '../shared/describeThrown';
import type { AgentRunResult } from './agentEvents';
import { infer } from './agentInference';
import { AgentRun } from './agentRun';
import { stopCheck } from './agentStopCheck';
import { runToolBatch } from './agentToolBatch';
import type { Conversation } from './conversation';
import type { RunContext } from './runContext';
import type { AnyAgentTool } from './tools/tool';

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
  /**
   * Called when the model refuses a call's prompt as longer than its context (the session
   * compacts here); true = the call is sent once more. Absent = the refusal ends the run.
   */
  readonly onContextTooLong?: () => Promise<boolean>;
  /** Called before every hook dispatch so hooks can read the transcript so far. */
  readonly beforeHooks?: () => Promise<void>;
  readonly maxTokens?: number;
  /** The run's metadata at the start; a subagent gets its parent's. Default empty. */
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/**
 * Runs one agent turn as a skeleton of hooks (every lifecycle point is a hook event):
 * ExecutionStart → [BeforeStep → BeforeInference → BeforeToolSelection → model (or a hook's
 * answer) → AfterInference → per tool call:
 * PreToolUse → permission → tool → PostToolUse | PostToolUseFailure → AfterStep →
 * Stop]* → ExecutionEnd, and AgentFailed on an unrecoverable error. Limits (max steps,
 * tokens, time) are hooks too (see defaultLimits.ts). Never throws.
 */
export async function runAgent(o: AgentRunOptions): Promise<AgentRunResult> {
  const run = new AgentRun(o);
  run.announce();
  try {
    return await steps(run);
  } catch (error) {
    // Only a bug gets here: the runner, tools and model adapter return failures as data.
    if (o.signal.aborted) return run.end('cancelled', 'Stopped by the user');
    return run.end('failed', `internal error: ${thrownStack(error)}`);
  }
}

/** The steps of one run, until a hook, the user, an error or the model's last answer ends it. */
async function steps(run: AgentRun): Promise<AgentRunResult> {
  const { o, inputs } = run;
  const lastUserPrompt = [...o.conversation.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  const startStop = run.observe(await run.dispatch('ExecutionStart', inputs.executionStart(lastUserPrompt)), 'ExecutionStart');
  if (startStop) return await run.end('stopped', startStop);

  for (;;) {
    if (o.signal.aborted) return await run.end('cancelled', 'Stopped by the user');
    run.step++;
    const beforeStep = run.observe(await run.dispatch('BeforeStep', inputs.beforeStep(run.step, run.elapsed(), run.usageTotal())), 'BeforeStep');
    if (beforeStep) return await run.end('stopped', beforeStep);
    // BeforeInference and BeforeToolSelection fire inside `infer`, on the request as it will be sent.
    const inferred = await infer(run);
    if ('ended' in inferred) return inferred.ended;
    const { response } = inferred;
    const toolCalls = response.toolCalls.length;
    if (toolCalls > 0) {
      const ended = await runToolBatch(run, response);
      if (ended) return ended;
    }
    const afterStep = run.observe(await run.dispatch('AfterStep', inputs.afterStep(run.step, toolCalls, run.elapsed(), run.usageTotal())), 'AfterStep');
    if (afterStep) return await run.end('stopped', afterStep);
    if (toolCalls > 0) continue;
    if (o.signal.aborted) return await run.end('cancelled', 'Stopped by the user');

    const stop = await stopCheck(run, response);
    if (stop !== 'continue') return stop;
  }
}
