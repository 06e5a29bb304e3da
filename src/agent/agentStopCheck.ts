import type { ModelResponse } from '../model/modelClient';
import type { AgentRunResult } from './agentEvents';
import type { AgentRun } from './agentRun';

/** Consecutive Stop blocks after which the agent stops anyway (Claude Code's cap on forced continuations). */
export const MAX_CONSECUTIVE_STOP_BLOCKS = 8;

/**
 * The agent is about to finish: Stop (or SubagentStop) may force one more step, with its
 * reason as feedback or its additionalContext as context. Returns `continue`, or the end of
 * the run. At most {@link MAX_CONSECUTIVE_STOP_BLOCKS} continuations in a row.
 */
export async function stopCheck(run: AgentRun, response: ModelResponse): Promise<'continue' | AgentRunResult> {
  const { o } = run;
  const event = o.stopEvent;
  const stopResult = await run.dispatch(event, run.inputs.stop(event, run.stopBlocks > 0, response.text));
  run.show(stopResult);
  if (stopResult.decision === 'stop') return run.end('stopped', stopResult.reason ?? `${event} hook stopped the agent`);
  if (stopResult.decision === 'deny' || stopResult.decision === 'continue') {
    run.stopBlocks++;
    if (run.stopBlocks >= MAX_CONSECUTIVE_STOP_BLOCKS) {
      const why = `A ${event} hook blocked the turn from ending ${run.stopBlocks} consecutive times; stopping anyway.`;
      o.ctx.emit({ type: 'systemMessage', agent: o.agent, text: why, source: event });
      return run.end('completed', why);
    }
    run.context.collect(stopResult, event);
    o.conversation.append({ role: 'user', content: `${event} hook feedback:\n${stopResult.reason ?? 'Continue working.'}` });
    return 'continue';
  }
  // Claude Code (since 2.1.163): a Stop hook's additionalContext continues the turn with that context,
  // counted against the same cap as blocks so a hook that always adds context cannot loop forever.
  if (stopResult.additionalContext.some((c) => c.trim() !== '') && run.stopBlocks + 1 < MAX_CONSECUTIVE_STOP_BLOCKS) {
    run.stopBlocks++;
    run.context.collect(stopResult, event);
    return 'continue';
  }
  return run.end('completed');
}
