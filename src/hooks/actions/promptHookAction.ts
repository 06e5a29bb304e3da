import type { HookAction, HookActionContext, HookActionResult } from '../hookAction';
import { proceed } from '../hookOutcome';
import { collectResponse, type ModelClient, type ModelRequest } from '../../model/modelClient';
import { ModelError } from '../../model/modelError';
import { blockingOutcome } from './interpretCommandResult';
import { parsePromptHookAnswer, promptHookAnswerJsonSchema } from './parsePromptHookAnswer';
import { thrownMessage } from '../../shared/describeThrown';

/** A model client, or a factory that picks one for the hook's `model` field. */
export type PromptHookModel = ModelClient | ((modelName?: string) => ModelClient);

/** Options of a {@link PromptHookAction}: the config fields besides `prompt`. */
export interface PromptHookOptions {
  /** The hook's `model` field (Claude Code: a small fast model when absent). */
  readonly model?: string;
}

/** Claude Code's default prompt-hook timeout (docs/hooks.md §4.7: 30 s). */
export const PROMPT_HOOK_DEFAULT_TIMEOUT_MS = 30_000;

/** System prompt in the spirit of Claude Code's (SRC `sW9`), adapted to a plain chat endpoint. */
export const PROMPT_HOOK_SYSTEM_PROMPT = [
  'You are evaluating a hook in a coding agent (Hookwise, compatible with Claude Code hooks).',
  'The user message is the hook condition, followed by the JSON input of the event that fired.',
  'Decide whether the condition is met, using only that information.',
  'Return ONLY valid JSON, with no other text and no Markdown:',
  '- {"ok": true} if the condition is met',
  '- {"ok": false, "reason": "<short explanation>"} if it is not',
].join('\n');

/**
 * Builds the user prompt: every `$ARGUMENTS` is replaced by the input JSON; without one the
 * JSON is appended as `\n\nARGUMENTS: <json>` (Claude Code, SRC `oI1`).
 */
export function buildPromptHookPrompt(prompt: string, inputJson: string): string {
  return prompt.includes('$ARGUMENTS') ? prompt.split('$ARGUMENTS').join(inputJson) : `${prompt}\n\nARGUMENTS: ${inputJson}`;
}

/**
 * A `"type": "prompt"` hook (docs/hooks.md §3, Claude Code): one model call through the ModelClient
 * port, asking for structured output `{ok, reason?}` (parsed tolerantly where the endpoint
 * ignores the response format). `ok:false` blocks like exit 2 does: deny, or continue on
 * Stop/SubagentStop, with `Prompt hook condition was not met: <reason>`. Prose, model errors
 * and timeouts are failures; an aborted signal gives `cancelled`. Never throws.
 */
export class PromptHookAction implements HookAction {
  readonly kind = 'prompt';
  readonly label: string;
  /** Claude Code dedups prompt hooks by their prompt text. */
  readonly dedupKey: string;
  readonly defaultTimeoutMs = PROMPT_HOOK_DEFAULT_TIMEOUT_MS;

  constructor(
    readonly prompt: string,
    private readonly model: PromptHookModel,
    private readonly options: PromptHookOptions = {},
  ) {
    const oneLine = prompt.trim().replace(/\s+/g, ' ');
    this.label = oneLine.length > 120 ? `${oneLine.slice(0, 120)}…` : oneLine;
    this.dedupKey = `prompt:${prompt}`;
  }

  async run(input: Readonly<Record<string, unknown>>, ctx: HookActionContext): Promise<HookActionResult> {
    if (ctx.signal.aborted) return cancelled();
    let inputJson: string;
    try {
      inputJson = JSON.stringify(input);
    } catch (error) {
      return { ...failed(`could not serialize the hook input as JSON: ${thrownMessage(error)}`), failureReason: 'inputNotSerializable' };
    }
    let request: ModelRequest;
    let client: ModelClient;
    try {
      client = typeof this.model === 'function' ? this.model(this.options.model) : this.model;
      request = {
        messages: [
          { role: 'system', content: PROMPT_HOOK_SYSTEM_PROMPT },
          { role: 'user', content: buildPromptHookPrompt(this.prompt, inputJson) },
        ],
        responseSchema: { name: 'hook_condition', schema: promptHookAnswerJsonSchema },
        // A factory already chose the client for this model name; a plain client gets it per request.
        ...(typeof this.model !== 'function' && this.options.model !== undefined ? { model: this.options.model } : {}),
      };
    } catch (error) {
      return failed(`could not prepare the prompt hook: ${thrownMessage(error)}`);
    }

    let text: string;
    try {
      text = (await collectResponse(client, request, ctx.signal)).text;
    } catch (error) {
      if (ctx.signal.aborted) return cancelled();
      if (ModelError.is(error, 'timeout')) return failed(`prompt hook model timed out: ${error.message}`);
      return failed(`prompt hook model call failed: ${thrownMessage(error)}`);
    }
    if (ctx.signal.aborted) return cancelled();

    const parsed = parsePromptHookAnswer(text);
    if (!parsed.ok) {
      const head = text.trim().slice(0, 200);
      return failed(`prompt hook answer was not JSON {ok, reason}: ${head || '(empty answer)'}`);
    }
    if (parsed.answer.ok) return { status: 'ok', outcome: proceed() };
    const why = parsed.answer.reason?.trim();
    return { status: 'ok', outcome: blockingOutcome(ctx.event, why ? `Prompt hook condition was not met: ${why}` : 'Prompt hook condition was not met') };
  }
}

function failed(error: string): HookActionResult {
  return { status: 'failed', outcome: proceed(), error };
}

function cancelled(): HookActionResult {
  return { status: 'cancelled', outcome: proceed(), error: 'cancelled: the prompt hook was stopped (timeout or Stop)' };
}
