/**
 * The VS Code Language Model adapter of the ModelClient port, for users who have a chat model
 * provider installed (GitHub Copilot Chat or any extension that contributes one). Uses only
 * the 1.95 API: `vscode.lm.selectChatModels`, `LanguageModelChat.sendRequest` with tools, and
 * the text/tool-call parts of `response.stream`. That API reports no token usage and has no
 * structured output, so no `usage` event is sent and `responseSchema` becomes an instruction.
 */
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { ModelClient, ModelRequest, ModelStreamEvent, ModelToolCall } from '../../model/modelClient';
import { responseSchemaInstruction, toLmMessages, toLmTools } from './lmMessageMapping';
import { toLmModelError } from './lmModelError';
import { raceAbort } from '../../shared/raceAbort';
import { checkValueBounds } from '../../shared/boundedJson';

/** Suffix of every label, so the UI says where the model comes from. */
export const vscodeLmLabelSuffix = '(VS Code Language Model)';

/** Shown in VS Code's consent dialog the first time Hookwise uses a model. */
const defaultJustification = 'Hookwise sends your chat prompts, the results of the tools its agent runs, and context added by your hooks to this model.';

/** A model as a picker shows it. */
export interface LanguageModelInfo {
  readonly id: string;
  readonly name: string;
  readonly vendor: string;
  readonly family: string;
  readonly version: string;
  readonly maxInputTokens: number;
}

/** Every chat model VS Code offers right now (possibly none), for a quick pick. */
export async function listLanguageModels(): Promise<LanguageModelInfo[]> {
  const models = await vscode.lm.selectChatModels();
  return models.map(({ id, name, vendor, family, version, maxInputTokens }) => ({ id, name, vendor, family, version, maxInputTokens }));
}

/** Whether `model` is what `wanted` names: its id, family or (case-insensitively) its name. */
function isNamed(model: vscode.LanguageModelChat, wanted: string): boolean {
  return model.id === wanted || model.family === wanted || model.name.toLowerCase() === wanted.toLowerCase();
}

/**
 * The model `name` refers to — an id (what "Select Model…" stores), else a family, else a
 * display name; `''` means the first available model. Undefined when there is none.
 */
export async function findLanguageModel(name: string): Promise<vscode.LanguageModelChat | undefined> {
  const wanted = name.trim();
  if (wanted !== '') {
    const [byId] = await vscode.lm.selectChatModels({ id: wanted });
    if (byId) return byId;
    const [byFamily] = await vscode.lm.selectChatModels({ family: wanted });
    if (byFamily) return byFamily;
  }
  const all = await vscode.lm.selectChatModels();
  return wanted === '' ? all[0] : all.find((m) => isNamed(m, wanted));
}

/**
 * A client for the model `name` (see `findLanguageModel`), or the problem to show in the chat
 * when VS Code has no such model. Shaped like `ModelResolution` of modelFromSettings.ts.
 */
export async function resolveVscodeLmModelClient(
  name: string,
): Promise<{ readonly ok: true; readonly client: VscodeLmModelClient } | { readonly ok: false; readonly problem: string }> {
  const model = await findLanguageModel(name);
  if (model) return { ok: true, client: new VscodeLmModelClient(model) };
  const available = await listLanguageModels();
  if (available.length === 0) {
    return {
      ok: false,
      problem:
        'VS Code has no language model available. Install and sign in to an extension that provides one (for example GitHub Copilot Chat), or choose another provider with "Hookwise: Select Model…".',
    };
  }
  const names = available.map((m) => `${m.name} (${m.id})`).join(', ');
  return { ok: false, problem: `The VS Code language model "${name}" is not available. Available: ${names}. Choose one with "Hookwise: Select Model…".` };
}

/** A streamed part as a port event; unknown part kinds (future data parts) give undefined. */
function toEvent(part: unknown): ModelStreamEvent | undefined {
  if (part instanceof vscode.LanguageModelTextPart) return part.value === '' ? undefined : { type: 'text', delta: part.value };
  if (part instanceof vscode.LanguageModelToolCallPart) {
    // The id pairs the call with its result in the next request; never leave it empty.
    const id = part.callId || `call_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
    // JSON.stringify overflows the stack on an input thousands of levels deep: refuse it first.
    const tooBig = checkValueBounds(part.input);
    if (tooBig !== undefined) return { type: 'toolCall', call: { id, name: part.name, argumentsText: '{}', argumentsError: `tool arguments ${tooBig}` } };
    const call: ModelToolCall = { id, name: part.name, argumentsText: JSON.stringify(part.input ?? {}) };
    return { type: 'toolCall', call };
  }
  return undefined;
}

/** The port over one `vscode.LanguageModelChat`. Label: `<model.name> (VS Code Language Model)`. */
export class VscodeLmModelClient implements ModelClient {
  readonly label: string;
  readonly model: vscode.LanguageModelChat;
  readonly #justification: string;

  constructor(model: vscode.LanguageModelChat, options: { readonly justification?: string } = {}) {
    this.model = model;
    this.label = `${model.name} ${vscodeLmLabelSuffix}`;
    this.#justification = options.justification ?? defaultJustification;
  }

  /**
   * Streams one response: text deltas and tool calls in arrival order, then `done`
   * (`tool_calls` when the model called tools, else `stop`). The abort signal cancels the
   * request's CancellationToken and rejects with the signal's reason; failures are ModelErrors.
   */
  async *stream(request: ModelRequest, signal: AbortSignal): AsyncGenerator<ModelStreamEvent, void, undefined> {
    signal.throwIfAborted();
    const model = await this.#modelFor(request.model);
    const messages = toLmMessages(request.messages, request.responseSchema ? responseSchemaInstruction(request.responseSchema) : undefined);
    const options: vscode.LanguageModelChatRequestOptions = { justification: this.#justification };
    // Some providers reject an empty tool list; send the key only when there are tools.
    if (request.tools !== undefined && request.tools.length > 0) options.tools = toLmTools(request.tools);

    const cancellation = new vscode.CancellationTokenSource();
    const onAbort = (): void => cancellation.cancel();
    signal.addEventListener('abort', onAbort, { once: true });
    let toolCalls = 0;
    try {
      try {
        const response = await raceAbort(model.sendRequest(messages, options, cancellation.token), signal);
        for await (const part of response.stream) {
          if (signal.aborted) break;
          const event = toEvent(part);
          if (event === undefined) continue;
          if (event.type === 'toolCall') toolCalls++;
          yield event;
        }
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        throw toLmModelError(error, model.name);
      }
      // A cancelled stream may just end; the port wants the abort reason, not a short answer.
      if (signal.aborted) throw signal.reason;
      yield { type: 'done', finishReason: toolCalls > 0 ? 'tool_calls' : 'stop' };
    } finally {
      signal.removeEventListener('abort', onAbort);
      // Stops the provider on every exit path, including a consumer that stopped iterating.
      cancellation.cancel();
      cancellation.dispose();
    }
  }

  /**
   * The model for a request's `model` override: this one when it matches, else the named one
   * if VS Code has it, else this one — a prompt hook naming e.g. "haiku" should still run.
   */
  async #modelFor(requested: string | undefined): Promise<vscode.LanguageModelChat> {
    if (requested === undefined || requested.trim() === '' || isNamed(this.model, requested)) return this.model;
    return (await findLanguageModel(requested)) ?? this.model;
  }
}
