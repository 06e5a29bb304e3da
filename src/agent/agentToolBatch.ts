import type { ModelResponse } from '../model/modelClient';
import { parseBoundedJson } from '../shared/boundedJson';
import type { AgentRunResult } from './agentEvents';
import type { AgentRun } from './agentRun';
import type { BatchToolCall } from './hookInputs';
import { hookSpecificValues } from './hookSpecificFields';
import { runToolCall } from './toolCallRunner';

/**
 * Runs the tool calls of one response and appends their results in call order. Consecutive
 * Agent calls run concurrently (independent subagents); everything else runs in order, as the
 * model wrote it. CwdChanged fires when a batch moved the Bash directory; PostToolBatch sees
 * every call with its result, before the next model call. Returns the end of the run when a
 * hook stopped it or the user did, else undefined.
 */
export async function runToolBatch(run: AgentRun, response: ModelResponse): Promise<AgentRunResult | undefined> {
  const { o } = run;
  const { ctx } = o;
  const calls = response.toolCalls;
  const scope = run.toolCallScope();
  // Built only when a PostToolBatch hook listens: parsing every call's arguments again costs.
  const batchCalls: BatchToolCall[] | undefined = run.gate.hasHooks('PostToolBatch') ? [] : undefined;
  for (let i = 0; i < calls.length;) {
    if (o.signal.aborted) {
      run.closeUnansweredCalls(response, i, 'Stopped by the user');
      return run.end('cancelled', 'Stopped by the user');
    }
    let j = i + 1;
    if (calls[i]!.name === 'Agent') while (j < calls.length && calls[j]!.name === 'Agent') j++;
    const batch = calls.slice(i, j);
    const cwdBefore = ctx.shellCwd?.current;
    const outcomes = await Promise.all(batch.map((call) => runToolCall(call, scope)));
    outcomes.forEach((outcome, k) => {
      o.conversation.append({ role: 'tool', toolCallId: batch[k]!.id, content: outcome.content, ...(outcome.isError ? { isError: true } : {}) });
      batchCalls?.push({
        tool_name: batch[k]!.name,
        // As Claude Code: the input with the tool's defaults filled in (Edit's replace_all), else the model's text.
        tool_input: outcome.input ?? argumentsValue(batch[k]!.argumentsText),
        tool_use_id: batch[k]!.id,
        tool_response: outcome.content,
      });
    });
    if (ctx.shellCwd && cwdBefore !== undefined && ctx.shellCwd.current !== cwdBefore) await cwdChanged(run, cwdBefore, ctx.shellCwd.current);
    const stopped = outcomes.find((outcome) => outcome.stopReason);
    if (stopped?.stopReason) {
      run.closeUnansweredCalls(response, j, stopped.stopReason);
      return run.end('stopped', stopped.stopReason);
    }
    i = j;
  }
  if (batchCalls) {
    const batchResult = await run.dispatch('PostToolBatch', run.events.postToolBatch(batchCalls));
    const batchStop = run.observe(batchResult, 'PostToolBatch');
    if (batchStop) return run.end('stopped', batchStop);
    if (batchResult.decision === 'deny' && batchResult.reason) run.context.add(`PostToolBatch hook blocking error: ${batchResult.reason}`);
  }
  return undefined;
}

/** CwdChanged: the Bash tool's directory moved; hooks may add paths to the FileChanged watch. */
async function cwdChanged(run: AgentRun, from: string, to: string): Promise<void> {
  if (!run.gate.hasHooks('CwdChanged')) return;
  const { ctx } = run.o;
  const result = await run.gate.run(
    'CwdChanged',
    run.events.withCwd(to).cwdChanged(from, to),
    run.o.signal,
    // CwdChanged has no decision (as in Claude Code): the gate puts an ask from its hooks to nobody.
    ctx.envFile ? { env: { CLAUDE_ENV_FILE: ctx.envFile } } : {},
  );
  run.show(result);
  ctx.watchPaths?.(
    hookSpecificValues(result, 'watchPaths')
      .flat()
      .filter((p): p is string => typeof p === 'string'),
  );
}

/** A call's arguments as the model wrote them, parsed when they are JSON (PostToolBatch's `tool_input` for a call whose input was invalid). */
function argumentsValue(text: string): unknown {
  if (text.trim() === '') return {};
  const parsed = parseBoundedJson(text);
  return parsed.ok ? parsed.value : text;
}
