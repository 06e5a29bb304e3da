/**
 * The `ModelClient` port (docs/architecture.md): streaming chat with tool calls and an
 * AbortSignal. Adapters: the openai SDK (any OpenAI-compatible endpoint), the VS Code
 * Language Model API, and the offline playground. The core only ever sees this interface.
 */

/** A tool call the model asked for. `argumentsText` is the raw JSON text, not yet parsed. */
export interface ModelToolCall {
  readonly id: string;
  readonly name: string;
  readonly argumentsText: string;
  /**
   * Set by an adapter that received the arguments as an object it could not turn into text
   * (nested too deep): the loop answers the call with this error instead of running it.
   */
  readonly argumentsError?: string;
}

/** One message of the conversation sent to the model. */
export type ModelMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: string }
  | { readonly role: 'assistant'; readonly content: string; readonly toolCalls?: readonly ModelToolCall[] }
  | { readonly role: 'tool'; readonly toolCallId: string; readonly content: string; readonly isError?: boolean };

/** A tool offered to the model; `parameters` is a JSON Schema object. */
export interface ModelToolSpec {
  readonly name: string;
  readonly description: string;
  readonly parameters: Readonly<Record<string, unknown>>;
}

/** One request. `responseSchema` asks for structured JSON output where the endpoint supports it. */
export interface ModelRequest {
  readonly messages: readonly ModelMessage[];
  readonly tools?: readonly ModelToolSpec[];
  /** Overrides the client's default model name. */
  readonly model?: string;
  readonly maxTokens?: number;
  readonly temperature?: number;
  readonly topP?: number;
  readonly stopSequences?: readonly string[];
  readonly presencePenalty?: number;
  readonly frequencyPenalty?: number;
  /** `required`: the model must call one of `tools` (Gemini's tool mode ANY). Absent: the model chooses. */
  readonly toolChoice?: 'required';
  readonly responseSchema?: { readonly name: string; readonly schema: Readonly<Record<string, unknown>> };
}

/** Token usage of one call. */
export interface ModelUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** Events of one streamed response, in order; exactly one `done` ends a successful stream. */
export type ModelStreamEvent =
  | { readonly type: 'text'; readonly delta: string }
  /** Reasoning ("thinking") text some models stream before the answer; shown, never sent back. */
  | { readonly type: 'reasoning'; readonly delta: string }
  | { readonly type: 'toolCall'; readonly call: ModelToolCall }
  | { readonly type: 'usage'; readonly usage: ModelUsage }
  | { readonly type: 'done'; readonly finishReason: string };

/** The port. Errors are thrown as `ModelError` (see modelError.ts); aborts reject with the signal's reason. */
export interface ModelClient {
  /** What the UI shows as the model name, e.g. `gpt-4.1 (OpenAI-compatible)` or `Playground (scripted)`. */
  readonly label: string;
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelStreamEvent>;
}

/** A whole response, collected from a stream. */
export interface ModelResponse {
  readonly text: string;
  readonly toolCalls: readonly ModelToolCall[];
  readonly usage?: ModelUsage;
  readonly finishReason: string;
}

/**
 * Runs one request to completion, calling `onText` for each streamed text delta.
 * Rejects as the stream does (ModelError, or the abort reason).
 */
export async function collectResponse(
  client: ModelClient,
  request: ModelRequest,
  signal: AbortSignal,
  onText?: (delta: string) => void,
  onReasoning?: (delta: string) => void,
): Promise<ModelResponse> {
  let text = '';
  const toolCalls: ModelToolCall[] = [];
  let usage: ModelUsage | undefined;
  let finishReason = 'stop';
  for await (const event of client.stream(request, signal)) {
    switch (event.type) {
      case 'text':
        text += event.delta;
        onText?.(event.delta);
        break;
      case 'reasoning':
        onReasoning?.(event.delta);
        break;
      case 'toolCall':
        toolCalls.push(event.call);
        break;
      case 'usage':
        usage = event.usage;
        break;
      case 'done':
        finishReason = event.finishReason;
        break;
    }
  }
  return usage === undefined ? { text, toolCalls, finishReason } : { text, toolCalls, usage, finishReason };
}
