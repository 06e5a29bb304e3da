/**
 * The OpenAI-compatible adapter of the ModelClient port: Chat Completions through the
 * `openai` SDK, streaming, against any compatible endpoint (OpenAI, Azure's /v1 endpoint,
 * Ollama, LM Studio, vLLM, OpenRouter).
 *
 * Retries are done here, not by the SDK (its maxRetries is 0), so they are observable
 * (`onRetry`), honour the caller's abort while waiting, and never repeat a stream that has
 * already delivered text. Optional parameters a server rejects with 400/422 are dropped and
 * the request is sent once more; the client remembers that for its later calls.
 */
import { randomUUID } from 'node:crypto';
import type OpenAI from 'openai';
import type { ModelClient, ModelRequest, ModelStreamEvent, ModelUsage } from './modelClient';
import { ModelError } from './modelError';
import { serverMessageOf, toModelError } from './openAiErrorMapping';
import type { ModelErrorContext } from './openAiErrorMapping';
import { buildChatRequestBody, requestFallbacks } from './openAiRequest';
import type { ChatRequestBody, RequestFallback } from './openAiRequest';
import { backoffDelayMs, defaultRetryPolicy, retryAfterMs, sleepWithAbort } from './retryPolicy';
import type { RetryPolicy } from './retryPolicy';
import { ToolCallAssembler } from './toolCallAssembler';
import { MAX_TIMER_DELAY_MS, safeTimerDelay } from '../shared/timerDelay';
import { nodeHttpFetch } from './nodeHttpFetch';
import { openAiSdk } from './openAiSdk';

/** Options of `OpenAiModelClient`. */
export interface OpenAiModelClientOptions {
  /** e.g. `http://localhost:11434/v1`. Default: OPENAI_BASE_URL, else https://api.openai.com/v1. */
  readonly baseURL?: string;
  /** Default: OPENAI_API_KEY, else a placeholder for endpoints that need no key. */
  readonly apiKey?: string;
  /** The model name sent with each request (a request may override it). */
  readonly model: string;
  /** What the UI shows; default `<model> (OpenAI-compatible)`. */
  readonly label?: string;
  /** Retries on 429/5xx/connection errors (default 3). */
  readonly maxRetries?: number;
  /** Give up when the endpoint shows no progress — no headers, no stream chunk — for this long (default 300 000 ms). */
  readonly timeoutMs?: number;
  readonly defaultHeaders?: Readonly<Record<string, string>>;
  /** Backoff tuning (tests make it fast); `maxRetries` above wins over `retry.maxRetries`. */
  readonly retry?: Partial<RetryPolicy>;
  /** Called before each wait-and-retry, e.g. to log "retrying in 1.2 s". */
  readonly onRetry?: (info: RetryInfo) => void;
}

/** What `onRetry` is told. */
export interface RetryInfo {
  /** 1 for the first retry. */
  readonly retry: number;
  readonly delayMs: number;
  readonly error: ModelError;
}

/** Default `timeoutMs`: generous, because local servers may first load a model for minutes. */
export const defaultModelTimeoutMs = 300_000;

const noKeyPlaceholder = 'not-needed';

/** Chat Completions over the `openai` SDK. */
export class OpenAiModelClient implements ModelClient {
  readonly label: string;
  readonly model: string;
  /** The effective base URL (after env/default resolution), as error messages show it. */
  readonly baseURL: string;
  readonly #sdk: OpenAI;
  readonly #policy: RetryPolicy;
  readonly #timeoutMs: number;
  readonly #onRetry: ((info: RetryInfo) => void) | undefined;
  /** Optional parameters this endpoint turned out to reject; left out of later requests. */
  readonly #rejected = new Set<RequestFallback['name']>();

  constructor(options: OpenAiModelClientOptions) {
    this.model = options.model;
    this.label = options.label ?? `${options.model} (OpenAI-compatible)`;
    this.#policy = { ...defaultRetryPolicy, ...options.retry, maxRetries: options.maxRetries ?? options.retry?.maxRetries ?? defaultRetryPolicy.maxRetries };
    this.#timeoutMs = safeTimerDelay(options.timeoutMs ?? defaultModelTimeoutMs, defaultModelTimeoutMs);
    this.#onRetry = options.onRetry;
    const { OpenAI: Sdk } = openAiSdk();
    this.#sdk = new Sdk({
      baseURL: options.baseURL,
      // The SDK refuses to start without a key; local servers (Ollama, LM Studio) ignore it.
      apiKey: options.apiKey || process.env.OPENAI_API_KEY || noKeyPlaceholder,
      maxRetries: 0,
      // Our own idle timer (below) decides; the SDK's only guards against it failing to.
      timeout: Math.min(this.#timeoutMs + 5_000, MAX_TIMER_DELAY_MS),
      defaultHeaders: options.defaultHeaders ? { ...options.defaultHeaders } : undefined,
      fetch: nodeHttpFetch,
    });
    this.baseURL = this.#sdk.baseURL.replace(/\/+$/, '');
  }

  /** Streams one response; see the ModelClient port for the event order. */
  async *stream(request: ModelRequest, signal: AbortSignal): AsyncGenerator<ModelStreamEvent, void, undefined> {
    signal.throwIfAborted();
    let body = buildChatRequestBody(request, this.model);
    for (const fallback of requestFallbacks) {
      if (this.#rejected.has(fallback.name) && fallback.applies(body)) body = fallback.drop(body);
    }
    const context: ModelErrorContext = { baseURL: this.baseURL, model: body.model };
    const dropped: RequestFallback['name'][] = [];
    let retries = 0;
    for (;;) {
      let delivered = false;
      try {
        for await (const event of this.#attempt(body, signal, context)) {
          delivered = true;
          yield event;
        }
        // Remember rejections only once a request without the parameter went through.
        for (const name of dropped) this.#rejected.add(name);
        return;
      } catch (raw) {
        if (signal.aborted) throw signal.reason;
        const error = toModelError(raw, context);
        // Text already shown cannot be taken back; a retry would repeat it.
        if (delivered) throw error;
        const fallback = error.status === 400 || error.status === 422 ? this.#fallbackFor(body, error, dropped) : undefined;
        if (fallback !== undefined) {
          dropped.push(fallback.name);
          body = fallback.drop(body);
          continue;
        }
        const delayMs = this.#retryDelay(error, retries);
        if (delayMs === undefined) throw retries === 0 ? this.#explainNoRetry(error) : gaveUp(error, retries + 1);
        retries++;
        this.#onRetry?.({ retry: retries, delayMs, error });
        await sleepWithAbort(delayMs, signal);
      }
    }
  }

  /** Model ids the endpoint lists (`GET /models`), for a model picker. */
  async listModels(signal: AbortSignal): Promise<string[]> {
    try {
      const ids: string[] = [];
      for await (const model of this.#sdk.models.list({ signal, maxRetries: 0, timeout: this.#timeoutMs })) ids.push(model.id);
      return ids;
    } catch (raw) {
      if (signal.aborted) throw signal.reason;
      throw toModelError(raw, { baseURL: this.baseURL, model: this.model });
    }
  }

  /** One HTTP request and its stream, with an idle timeout and the caller's abort. */
  async *#attempt(body: ChatRequestBody, signal: AbortSignal, context: ModelErrorContext): AsyncGenerator<ModelStreamEvent, void, undefined> {
    const controller = new AbortController();
    const timeoutError = new ModelError(
      'timeout',
      `The model endpoint ${context.baseURL} sent nothing for ${Math.round(this.#timeoutMs / 1000)} s (model "${context.model}"). Is the server overloaded or the model still loading?`,
    );
    let timedOut = false;
    let timer: NodeJS.Timeout | undefined;
    const arm = (): void => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        timedOut = true;
        controller.abort(timeoutError);
      }, this.#timeoutMs);
    };
    const pause = (): void => clearTimeout(timer);
    const onAbort = (): void => controller.abort(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    arm();
    try {
      const stream = await this.#sdk.chat.completions.create(body, { signal: controller.signal, maxRetries: 0 });
      const toolCalls = new ToolCallAssembler(() => `call_${randomUUID().replace(/-/g, '').slice(0, 24)}`);
      let usage: ModelUsage | undefined;
      let finishReason: string | undefined;
      let chunks = 0;
      for await (const chunk of stream) {
        chunks++;
        if (chunk.usage) usage = { inputTokens: chunk.usage.prompt_tokens ?? 0, outputTokens: chunk.usage.completion_tokens ?? 0 };
        for (const choice of chunk.choices ?? []) {
          // n > 1 is never requested; ignore stray choices rather than mixing them in.
          if ((choice.index ?? 0) !== 0) continue;
          const delta = choice.delta ?? {};
          if (delta.tool_calls) toolCalls.add(delta.tool_calls);
          if (choice.finish_reason) finishReason = choice.finish_reason;
          // OpenAI-compatible servers that stream reasoning (DeepSeek, vLLM, Ollama, LM Studio) send it
          // as `reasoning_content`; OpenRouter as `reasoning`. Not in the SDK's types.
          const extra = delta as { reasoning_content?: unknown; reasoning?: unknown };
          const reasoning = typeof extra.reasoning_content === 'string' ? extra.reasoning_content : typeof extra.reasoning === 'string' ? extra.reasoning : '';
          if (reasoning !== '') {
            pause();
            yield { type: 'reasoning', delta: reasoning };
            arm();
          }
          const text = (delta.content ?? '') + (delta.refusal ?? '');
          if (text !== '') {
            pause(); // the consumer's time is not the server's silence
            yield { type: 'text', delta: text };
            arm();
          }
        }
      }
      // The SDK ends the iteration quietly on abort; make it an error again.
      if (controller.signal.aborted) throw timedOut ? timeoutError : signal.reason;
      if (chunks === 0) {
        throw new ModelError('protocol', `The model endpoint ${context.baseURL} returned an empty stream. Is it an OpenAI-compatible Chat Completions server?`);
      }
      pause();
      for (const call of toolCalls.finish()) yield { type: 'toolCall', call };
      if (usage !== undefined) yield { type: 'usage', usage };
      yield { type: 'done', finishReason: finishReason ?? (toolCalls.size > 0 ? 'tool_calls' : 'stop') };
    } catch (error) {
      if (timedOut) throw timeoutError;
      throw error;
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      // Closes the connection on every exit path (consumer break, parse error, abort).
      controller.abort();
    }
  }

  /** The fallback to try for a 400/422, if any parameter is to blame and was not dropped yet. */
  #fallbackFor(body: ChatRequestBody, error: ModelError, dropped: readonly string[]): RequestFallback | undefined {
    const message = serverMessageOf(error);
    return requestFallbacks.find((f) => !dropped.includes(f.name) && f.applies(body) && f.matches(message));
  }

  /** How long to wait before retry number `retries` (0-based), or undefined to give up. */
  #retryDelay(error: ModelError, retries: number): number | undefined {
    if (!error.retryable || retries >= this.#policy.maxRetries) return undefined;
    const asked = retryAfterMs(headersOf(error));
    if (asked !== undefined) return asked <= this.#policy.maxRetryAfterMs ? asked : undefined;
    return backoffDelayMs(this.#policy, retries);
  }

  /** A retryable error we did not retry because the server asked for too long a wait: say so. */
  #explainNoRetry(error: ModelError): ModelError {
    const asked = retryAfterMs(headersOf(error));
    if (!error.retryable || asked === undefined || asked <= this.#policy.maxRetryAfterMs || this.#policy.maxRetries === 0) return error;
    return new ModelError(error.reason, `${error.message} The server asks to wait ${Math.ceil(asked / 1000)} s before retrying; try again later.`, {
      ...(error.status === undefined ? {} : { status: error.status }),
      retryable: true,
      cause: error.cause,
    });
  }
}

function headersOf(error: ModelError): { get(name: string): string | null } | undefined {
  return (error.cause as { headers?: { get(name: string): string | null } } | undefined)?.headers;
}

function gaveUp(error: ModelError, attempts: number): ModelError {
  return new ModelError(error.reason, `${error.message} (gave up after ${attempts} attempts)`, {
    ...(error.status === undefined ? {} : { status: error.status }),
    retryable: error.retryable,
    cause: error.cause,
  });
}
