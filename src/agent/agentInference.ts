import { randomUUID } from 'node:crypto';
import { isContextTooLong } from '../model/contextLengthError';
import { collectResponse } from '../model/modelClient';
import type { ModelRequest, ModelResponse } from '../model/modelClient';
import { thrownMessage } from '../shared/describeThrown';
import type { AgentRunResult } from './agentEvents';
import type { AgentRun } from './agentRun';
import { toLlmRequest, toLlmResponse } from './llmRequest';
import type { PreparedCall } from './modelHooks';
import { markAnswered } from './modelHookMarkers';
import { modelNameOf, prepareCall, rewrittenReply } from './modelHooks';
import { stopFailureError } from './stopFailure';

/** What one inference step gave: the model's response, or the end of the run. */
export type InferenceOutcome = { readonly response: ModelResponse } | { readonly ended: AgentRunResult };

/** Most times AfterInference hooks may send the model back with feedback in one step (like the Stop block cap). */
export const MAX_REPLY_RETRIES = 3;

/**
 * One model call: the session's preparation (compaction), the changing tools read again, the
 * background hooks' output and the collected context flushed into the conversation, then
 * BeforeInference and BeforeToolSelection (which may rewrite the request or answer in the
 * model's place), the streamed response, AfterInference (which may replace the reply or send
 * the model back with feedback), its usage, the assistant message and MessageDisplay. A
 * model error ends the run (StopFailure instead of Stop).
 */
export async function infer(run: AgentRun): Promise<InferenceOutcome> {
  const { o } = run;
  const { ctx } = o;
  run.tools.refresh();
  // Background (async) hooks that finished since the last call speak now, as in Claude Code.
  for (const output of ctx.hooks.takeBackgroundOutput?.(ctx.sessionId) ?? []) {
    if (output.systemMessage) ctx.emit({ type: 'systemMessage', agent: o.agent, text: output.systemMessage, source: output.event });
    if (output.additionalContext) run.context.add(`${output.event} hook additional context: ${output.additionalContext}`);
  }
  run.context.flushInto(o.conversation);
  for (let retries = 0; ; retries++) {
    const called = await callOnce(run);
    if ('ended' in called) return called;
    const { call, response } = called;
    const after = await afterInference(run, call, response);
    // Streamed already only when the model answered and no AfterInference hook held the text.
    const streamed = call.answer === undefined && !run.gate.hasHooks('AfterInference');
    if ('stopped' in after) {
      record(run, after.reply, streamed);
      run.closeUnansweredCalls(after.reply, 0, after.stopped);
      return { ended: await run.end('stopped', after.stopped) };
    }
    if ('feedback' in after && retries < MAX_REPLY_RETRIES) {
      // The rejected reply is dropped (it may be what the hook objects to); the model hears why and answers again.
      run.context.add(`AfterInference hook feedback on your last reply (it was discarded): ${after.feedback}`);
      run.context.flushInto(o.conversation);
      continue;
    }
    record(run, after.reply, streamed);
    return { response: after.reply };
  }
}

/** BeforeInference / BeforeToolSelection, then the model call (or a hook's answer). */
async function callOnce(run: AgentRun): Promise<{ readonly call: PreparedCall; readonly response: ModelResponse } | { readonly ended: AgentRunResult }> {
  const { o } = run;
  let call = await prepareCall(run);
  try {
    if ('stopped' in call) return { ended: await run.end('stopped', call.stopped) };
    try {
      return { call, response: await answerOrCall(run, call) };
    } catch (error) {
      // Too long for the model: compacted once, the call is prepared and sent again (as Claude Code does).
      if (o.signal.aborted || !isContextTooLong(error) || !o.onContextTooLong || !(await o.onContextTooLong())) throw error;
    }
    call = await prepareCall(run);
    if ('stopped' in call) return { ended: await run.end('stopped', call.stopped) };
    return { call, response: await answerOrCall(run, call) };
  } catch (error) {
    if (o.signal.aborted) return { ended: await run.end('cancelled', 'Stopped by the user') };
    // The turn ends on the model error: StopFailure instead of Stop (its output is ignored, as in Claude Code).
    if (o.stopEvent === 'Stop' && run.gate.hasHooks('StopFailure')) {
      await run.dispatch('StopFailure', run.events.stopFailure(stopFailureError(error), thrownMessage(error), run.finalText)).catch(() => undefined);
    }
    return { ended: await run.end('failed', thrownMessage(error)) };
  }
}

/** A hook's answer (marked on the reply), or the model's. */
function answerOrCall(run: AgentRun, call: PreparedCall): Promise<ModelResponse> {
  if (call.answer === undefined) return callModel(run, call.request);
  markAnswered(run, call.answer.hookLabel);
  return Promise.resolve(call.answer.response);
}

type AfterInference = { readonly reply: ModelResponse } & ({ readonly stopped: string } | { readonly feedback: string } | object);

/** AfterInference on the reply: the reply as the hooks left it, a stop, or feedback to send the model back with. */
async function afterInference(run: AgentRun, call: PreparedCall, response: ModelResponse): Promise<AfterInference> {
  const reads = run.gate.hasHooks('AfterInference');
  const model = {
    name: modelNameOf(run),
    ...(reads
      ? { request: call.llmRequest ?? toLlmRequest(call.request, modelNameOf(run), run.o.ctx.hookInputMaxBytes), response: toLlmResponse(response) }
      : {}),
    ...(call.answer ? { answeredBy: call.answer.hookLabel } : {}),
  };
  const calls = response.toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: c.argumentsText }));
  const result = await run.dispatch('AfterInference', run.inputs.afterInference(run.step, response.text, calls, response.finishReason, model));
  const reply = rewrittenReply(run, response, result, call.request.tools ?? []);
  const stopped = run.observe(result, 'AfterInference');
  if (stopped !== undefined) return { reply, stopped };
  if (result.decision === 'deny') return { reply, feedback: result.reason ?? 'AfterInference hook rejected the reply' };
  return { reply };
}

/**
 * The model call itself. While an AfterInference hook listens (it may rewrite the reply), the
 * text is held back and shown once the hooks are done ({@link record}), so a redacted original
 * never reaches the screen.
 */
function callModel(run: AgentRun, request: ModelRequest): Promise<ModelResponse> {
  const { o } = run;
  const { ctx } = o;
  const hold = run.gate.hasHooks('AfterInference');
  return collectResponse(ctx.model, request, o.signal, hold ? undefined : (delta) => ctx.emit({ type: 'text', agent: o.agent, delta }), (delta) =>
    ctx.emit({ type: 'reasoning', agent: o.agent, delta }),
  );
}

/** The response's usage, its assistant message and (in the background) MessageDisplay. */
function record(run: AgentRun, response: ModelResponse, streamed: boolean): void {
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
  // Held text (an AfterInference hook listens, or a hook answered): shown now, as the hooks left it.
  if (response.text !== '' && !streamed) emit({ type: 'text', agent: o.agent, delta: response.text });
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
