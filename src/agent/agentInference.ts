import { randomUUID } from 'node:crypto';
import { isContextTooLong } from '../model/contextLengthError';
import { collectResponse } from '../model/modelClient';
import type { ModelResponse } from '../model/modelClient';
import { thrownMessage } from '../shared/describeThrown';
import type { AgentRunResult } from './agentEvents';
import type { AgentRun } from './agentRun';
import { stopFailureError } from './stopFailure';

/** What one inference step gave: the model's response, or the end of the run. */
export type InferenceOutcome = { readonly response: ModelResponse } | { readonly ended: AgentRunResult };

/**
 * One model call: the session's preparation (compaction), the changing tools read again, the
 * background hooks' output and the collected context flushed into the conversation, then the
 * streamed response, its usage, the assistant message, MessageDisplay and AfterInference. A
 * model error ends the run (StopFailure instead of Stop).
 */
export async function infer(run: AgentRun): Promise<InferenceOutcome> {
  const { o } = run;
  const { ctx } = o;
  await o.beforeInference?.();
  run.tools.refresh();
  // Background (async) hooks that finished since the last call speak now, as in Claude Code.
  for (const output of ctx.hooks.takeBackgroundOutput?.(ctx.sessionId) ?? []) {
    if (output.systemMessage) ctx.emit({ type: 'systemMessage', agent: o.agent, text: output.systemMessage, source: output.event });
    if (output.additionalContext) run.context.add(`${output.event} hook additional context: ${output.additionalContext}`);
  }
  run.context.flushInto(o.conversation);
  let response: ModelResponse;
  try {
    response = await callModel(run).catch(async (error: unknown) => {
      // Too long for the model: compacted once, the call is sent again (as Claude Code does).
      if (o.signal.aborted || !isContextTooLong(error) || !o.onContextTooLong || !(await o.onContextTooLong())) throw error;
      return callModel(run);
    });
  } catch (error) {
    if (o.signal.aborted) return { ended: await run.end('cancelled', 'Stopped by the user') };
    // The turn ends on the model error: StopFailure instead of Stop (its output is ignored, as in Claude Code).
    if (o.stopEvent === 'Stop' && run.gate.hasHooks('StopFailure')) {
      await run.dispatch('StopFailure', run.events.stopFailure(stopFailureError(error), thrownMessage(error), run.finalText)).catch(() => undefined);
    }
    return { ended: await run.end('failed', thrownMessage(error)) };
  }
  record(run, response);
  const afterInference = run.observe(
    await run.dispatch(
      'AfterInference',
      run.inputs.afterInference(
        run.step,
        response.text,
        response.toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: c.argumentsText })),
        response.finishReason,
      ),
    ),
    'AfterInference',
  );
  if (afterInference) {
    run.closeUnansweredCalls(response, 0, afterInference);
    return { ended: await run.end('stopped', afterInference) };
  }
  return { response };
}

/** The model call itself, with the conversation as it is now. */
function callModel(run: AgentRun): Promise<ModelResponse> {
  const { o } = run;
  const { ctx } = o;
  const modelName = o.modelName ?? ctx.modelName;
  return collectResponse(
    ctx.model,
    {
      messages: [{ role: 'system', content: o.systemPrompt }, ...o.conversation.messages],
      tools: run.tools.modelSpecs,
      ...(modelName ? { model: modelName } : {}),
      ...(o.maxTokens ? { maxTokens: o.maxTokens } : {}),
    },
    o.signal,
    (delta) => ctx.emit({ type: 'text', agent: o.agent, delta }),
    (delta) => ctx.emit({ type: 'reasoning', agent: o.agent, delta }),
  );
}

/** The response's usage, its assistant message and (in the background) MessageDisplay. */
function record(run: AgentRun, response: ModelResponse): void {
  const { o } = run;
  const emit = o.ctx.emit;
  if (response.usage) {
    run.inputTokens += response.usage.inputTokens;
    run.outputTokens += response.usage.outputTokens;
    emit({ type: 'usage', agent: o.agent, inputTokens: response.usage.inputTokens, outputTokens: response.usage.outputTokens });
  }
  o.conversation.append(
    response.toolCalls.length > 0
      ? { role: 'assistant', content: response.text, toolCalls: response.toolCalls }
      : { role: 'assistant', content: response.text },
  );
  emit({ type: 'assistantMessage', agent: o.agent, text: response.text, step: run.step });
  // Once per shown message, in the background: display hooks never hold up the turn (and cost nothing when none is configured).
  // The main agent's messages only: as in Claude Code, a subagent's text is its report, not a displayed message.
  if (response.text !== '' && o.agent.parentAgentId === null && run.gate.hasHooks('MessageDisplay')) {
    const input = run.events.messageDisplay(run.turnId, randomUUID(), 0, true, response.text);
    run.track(
      run.dispatch('MessageDisplay', input).then(
        (result) => run.show(result),
        () => undefined,
      ),
    );
  }
  if (response.text.trim() !== '') run.finalText = response.text;
}
