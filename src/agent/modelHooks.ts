import type { HookEvent } from '../hooks/hookEvent';
import type { HookEventResult, ModelEdit } from '../hooks/hookRunTypes';
import type { HookToolConfig } from '../hooks/inputs/llmShapes';
import type { LlmRequestInput } from '../hooks/inputs/loopEventSchemas';
import type { ModelMessage, ModelRequest, ModelResponse, ModelToolSpec } from '../model/modelClient';
import type { AgentRun } from './agentRun';
import { markRedacted, markRequestChanged } from './modelHookMarkers';
import { fromLlmMessages, fromLlmResponse, toLlmRequest, withConfig } from './llmRequest';

/**
 * The model-level hooks around one model call (docs/hooks.md "Model-level hooks"):
 * BeforeInference may rewrite the request or answer in the model's place, BeforeToolSelection
 * narrows the tools offered, AfterInference may replace the reply. A change that cannot be
 * used (invalid messages, a tool never offered) is reported naming its hook, and the call goes
 * on without it.
 */

/** The call to make: the request as the hooks left it, or a hook's answer in the model's place. */
export interface PreparedCall {
  readonly request: ModelRequest;
  /** The request as hooks saw it (built only when a hook reads it). */
  readonly llmRequest?: LlmRequestInput;
  readonly answer?: { readonly response: ModelResponse; readonly hookLabel: string };
}

/** The model name hooks see and match on. */
export function modelNameOf(run: AgentRun): string {
  return run.o.modelName ?? run.o.ctx.modelName ?? run.o.ctx.model.label;
}

/** The request from the run's state: the system prompt, the conversation, the tools, the settings. */
export function baseRequest(run: AgentRun): ModelRequest {
  const { o } = run;
  const modelName = o.modelName ?? o.ctx.modelName;
  return {
    messages: [{ role: 'system', content: o.systemPrompt }, ...o.conversation.messages],
    tools: run.tools.modelSpecs,
    ...(modelName ? { model: modelName } : {}),
    ...(o.maxTokens ? { maxTokens: o.maxTokens } : {}),
  };
}

/** The `source` of what the model-level hooks tell the user (the CLI prints it on stderr). */
export const MODEL_HOOK_SOURCE = 'modelHook';

/** Says, in the chat, that a hook's change was not used and why. */
export function reportUnused(run: AgentRun, event: HookEvent, hookLabel: string, error: string, kept: string): void {
  run.o.ctx.emit({ type: 'systemMessage', agent: run.o.agent, text: `${event} hook "${hookLabel}": ${error}; ${kept}`, source: MODEL_HOOK_SOURCE });
}

function llmRequestOf(run: AgentRun, request: ModelRequest): LlmRequestInput {
  return toLlmRequest(request, modelNameOf(run), run.o.ctx.hookInputMaxBytes);
}

/**
 * Dispatches `event` and applies its result as an observation point; returns the result, or
 * the stop reason. What its hooks added for the model is moved into the conversation and
 * appended to this call's messages (`tail`), also after a messages rewrite.
 */
async function fire(run: AgentRun, event: HookEvent, input: Record<string, unknown>): Promise<{ result: HookEventResult; tail: ModelMessage[] } | string> {
  const result = await run.dispatch(event, input);
  const stopped = run.observe(result, event);
  if (stopped !== undefined) return stopped;
  const before = run.o.conversation.length;
  run.context.flushInto(run.o.conversation);
  return { result, tail: run.o.conversation.messages.slice(before) };
}

/** One hook's `llm_request`, applied to `request`; an error text when it cannot be used as a whole. */
function applyRequestPatch(request: ModelRequest, edit: ModelEdit): ModelRequest | string {
  const patch = edit.llmRequest;
  if (patch === undefined) return request;
  let next = request;
  const [system, ...rest] = request.messages;
  if (patch.messages !== undefined) {
    const messages = fromLlmMessages(patch.messages, rest);
    if (typeof messages === 'string') return `invalid llm_request: ${messages}`;
    next = { ...next, messages: system === undefined ? messages : [system, ...messages] };
  }
  if (patch.config?.systemInstruction !== undefined) {
    const [, ...others] = next.messages;
    next = { ...next, messages: [{ role: 'system', content: patch.config.systemInstruction }, ...others] };
  }
  if (patch.config !== undefined) next = withConfig(next, patch.config);
  if (patch.model !== undefined) next = { ...next, model: patch.model };
  if (patch.toolConfig !== undefined) {
    const narrowed = narrowTools(next, [patch.toolConfig]);
    if (narrowed.stray.length > 0) return `llm_request.toolConfig names ${quoted(narrowed.stray)}, never offered on this call (a filter only narrows)`;
    next = narrowed.request;
  }
  return next;
}

function quoted(names: readonly string[]): string {
  return names.map((n) => `"${n}"`).join(', ');
}

/**
 * Gemini CLI's rule for several tool configurations: the union of their
 * `allowedFunctionNames`, `NONE` beats `ANY` beats `AUTO`; then intersected with what the
 * call offers, so a filter never offers a tool that rules, the mode or the agent took away.
 * `stray`: names that were never offered.
 */
export function narrowTools(request: ModelRequest, configs: readonly HookToolConfig[]): { request: ModelRequest; stray: string[] } {
  const offered: readonly ModelToolSpec[] = request.tools ?? [];
  if (configs.some((c) => c.mode === 'NONE')) {
    const { toolChoice: _none, ...rest } = request;
    return { request: { ...rest, tools: [] }, stray: [] };
  }
  const named = configs.filter((c) => c.allowedFunctionNames !== undefined && c.allowedFunctionNames.length > 0);
  const union = new Set(named.flatMap((c) => c.allowedFunctionNames ?? []));
  const offeredNames = new Set(offered.map((t) => t.name));
  const stray = [...union].filter((n) => !offeredNames.has(n)).sort();
  const tools = named.length > 0 ? offered.filter((t) => union.has(t.name)) : offered;
  const any = configs.some((c) => c.mode === 'ANY') && tools.length > 0;
  return { request: { ...request, tools, ...(any ? { toolChoice: 'required' as const } : {}) }, stray };
}

/** BeforeInference's edits in merge order: the request rewritten, or a hook's answer. */
function applyBeforeInference(
  run: AgentRun,
  request: ModelRequest,
  result: HookEventResult,
  tail: ModelMessage[],
  seen: LlmRequestInput | undefined,
): Omit<PreparedCall, 'llmRequest'> {
  let next = request;
  let answer: PreparedCall['answer'];
  let rewroteMessages = false;
  for (const edit of result.modelEdits ?? []) {
    const patched = applyRequestPatch(next, edit);
    if (typeof patched === 'string') reportUnused(run, 'BeforeInference', edit.hookLabel, patched, 'the request was sent without this change');
    else {
      rewroteMessages ||= edit.llmRequest?.messages !== undefined;
      next = patched;
      if (edit.llmRequest !== undefined) markRequestChanged(run, edit.hookLabel, seen, edit.llmRequest);
    }
    if (edit.llmResponse !== undefined) {
      const response = fromLlmResponse(edit.llmResponse, undefined, next.tools ?? []);
      if (typeof response === 'string')
        reportUnused(run, 'BeforeInference', edit.hookLabel, `invalid llm_response: ${response}`, 'the model is called instead');
      else answer = { response, hookLabel: edit.hookLabel };
    }
  }
  if (rewroteMessages && tail.length > 0) next = { ...next, messages: [...next.messages, ...tail] };
  return answer === undefined ? { request: next } : { request: next, answer };
}

/**
 * BeforeInference, then BeforeToolSelection, for the call about to be made (after compaction
 * and the pending context). Their inputs carry `llm_request` only when a hook listens.
 * Returns the stop reason when a hook stopped the run.
 */
export async function prepareCall(run: AgentRun): Promise<PreparedCall | { readonly stopped: string }> {
  const { o } = run;
  let request = baseRequest(run);
  const name = modelNameOf(run);
  const reads = run.gate.hasHooks('BeforeInference');
  const seen = reads ? llmRequestOf(run, request) : undefined;
  const before = await fire(run, 'BeforeInference', run.inputs.beforeInference(run.step, o.conversation.length, name, seen));
  if (typeof before === 'string') return { stopped: before };
  if (before.tail.length > 0) request = { ...request, messages: [...request.messages, ...before.tail] };
  const applied = applyBeforeInference(run, request, before.result, before.tail, seen);
  request = applied.request;
  if (applied.answer === undefined && run.gate.hasHooks('BeforeToolSelection')) {
    const selection = await fire(run, 'BeforeToolSelection', run.inputs.beforeToolSelection(run.step, name, llmRequestOf(run, request)));
    if (typeof selection === 'string') return { stopped: selection };
    const edits = (selection.result.modelEdits ?? []).filter((e) => e.toolConfig !== undefined);
    const narrowed = narrowTools(
      request,
      edits.map((e) => e.toolConfig as HookToolConfig),
    );
    for (const name of narrowed.stray) {
      const by = edits.find((e) => e.toolConfig?.allowedFunctionNames?.includes(name));
      reportUnused(run, 'BeforeToolSelection', by?.hookLabel ?? '?', `"${name}" was never offered on this call`, 'a filter only narrows; it stays off');
    }
    request = { ...narrowed.request, messages: [...narrowed.request.messages, ...selection.tail] };
  }
  const offered = request.tools ?? [];
  run.tools.narrow(offered.length !== run.tools.modelSpecs.length ? new Set(offered.map((t) => t.name)) : undefined);
  const withSeen = seen === undefined ? { request } : { request, llmRequest: seen };
  return applied.answer === undefined ? withSeen : { ...withSeen, answer: applied.answer };
}

/** AfterInference's reply edits in merge order (later wins); one that cannot be used is reported. */
export function rewrittenReply(run: AgentRun, response: ModelResponse, result: HookEventResult, offered: readonly ModelToolSpec[]): ModelResponse {
  let reply = response;
  for (const edit of result.modelEdits ?? []) {
    if (edit.llmResponse === undefined) continue;
    const next = fromLlmResponse(edit.llmResponse, response, offered);
    if (typeof next === 'string') reportUnused(run, 'AfterInference', edit.hookLabel, `invalid llm_response: ${next}`, "the model's reply was kept");
    else {
      reply = next;
      markRedacted(run, edit.hookLabel);
    }
  }
  return reply;
}
