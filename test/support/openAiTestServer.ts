/**
 * A real local HTTP server (node:http on 127.0.0.1, a free port) speaking the OpenAI Chat
 * Completions API, for unit tests, CLI integration tests, e2e tests and benchmarks. It
 * replays a script of replies — streamed text, tool calls split across SSE deltas (broken
 * JSON arguments included), usage, HTTP errors in OpenAI's error shape, hangs — and records
 * every request so tests can assert on what the client really sent.
 *
 * No vitest (or any other test framework) import: plain node scripts and esbuild bundles
 * use it too.
 *
 * @example
 *   const server = await startOpenAiTestServer({
 *     script: [{ error: { status: 500 } }, { text: 'Hello!' }, toolCallsReply([{ name: 'Bash', arguments: { command: 'ls' } }])],
 *   });
 *   const client = new OpenAiModelClient({ baseURL: server.url, model: 'test-model' });
 *   // ... server.requests[0].body.messages ...
 *   await server.close();
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openAiErrorBody, writeCompletion, writeStream } from './openAiTestServerWire';
import type { ReplyTiming } from './openAiTestServerWire';

/** A tool call the server answers with. `arguments` as a string is sent verbatim (may be broken JSON on purpose). */
export interface ScriptedToolCall {
  readonly id?: string;
  readonly name: string;
  readonly arguments?: string | Readonly<Record<string, unknown>>;
}

/** Token usage to report; `false` reports none. Omitted: a rough estimate (chars / 4). */
export interface ScriptedUsage {
  readonly promptTokens: number;
  readonly completionTokens: number;
}

/** A normal answer: text and/or tool calls. */
export interface ScriptedMessageReply {
  readonly text?: string;
  /** Streamed before the text as `reasoning_content` deltas (DeepSeek / vLLM style; streaming only). */
  readonly reasoning?: string;
  readonly toolCalls?: readonly ScriptedToolCall[];
  readonly usage?: ScriptedUsage | false;
  /** Default: `tool_calls` when there are tool calls, else `stop`. */
  readonly finishReason?: string;
  /** Characters per streamed text/argument piece (default 4). */
  readonly chunkSize?: number;
  /** Stream the deltas of several tool calls interleaved (legal, and a good test of assembly by index). */
  readonly interleaveToolCalls?: boolean;
  /** After streaming the text, send `data: {"error": ...}` and end the stream (streaming only). */
  readonly failMidStream?: string;
  /** Overrides the server's `delayMs` for this reply. */
  readonly delayMs?: number;
}

/** An HTTP error. Without `body`, OpenAI's error JSON is built from `message`/`type`/`code`. */
export interface ScriptedErrorReply {
  readonly error: {
    readonly status: number;
    readonly message?: string;
    readonly type?: string;
    readonly code?: string | null;
    readonly param?: string | null;
    /** Sent as is (JSON-encoded unless a string). */
    readonly body?: unknown;
    /** e.g. `{ 'retry-after': '1' }`. */
    readonly headers?: Readonly<Record<string, string>>;
  };
}

/**
 * Never finish: with `afterText`, send the headers and that text first (a stall mid-stream);
 * without, send nothing at all (a stall before the headers). The socket stays open until
 * the client gives up or the server closes.
 */
export interface ScriptedHangReply {
  readonly hang: true;
  readonly afterText?: string;
}

/** One scripted answer to one chat completion request. */
export type ScriptedReply = ScriptedMessageReply | ScriptedErrorReply | ScriptedHangReply;

/** A chat completion request as the server received it. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  /** Lower-cased header names, as node reports them. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The parsed JSON body (`undefined` when it was not JSON). */
  readonly body: ChatCompletionRequestBody;
  readonly rawBody: string;
  /** Set when the client closed the connection before the reply was complete (abort, timeout). */
  clientDisconnected: boolean;
  /** Set when the reply was written completely. */
  completed: boolean;
}

/** The fields of a request body the server looks at; everything else is kept as sent. */
export interface ChatCompletionRequestBody {
  readonly model?: string;
  readonly stream?: boolean;
  readonly stream_options?: { readonly include_usage?: boolean };
  readonly messages?: readonly Record<string, unknown>[];
  readonly tools?: readonly Record<string, unknown>[];
  readonly response_format?: Record<string, unknown>;
  readonly [key: string]: unknown;
}

/** Chooses the reply to the `n`-th (0-based) chat completion request. */
export type ScriptFunction = (request: RecordedRequest, n: number) => ScriptedReply | Promise<ScriptedReply>;

/** Options of `startOpenAiTestServer`. */
export interface OpenAiTestServerOptions {
  /** Replies in order (the n-th request gets `script[n]`), or a function choosing each one. */
  readonly script: readonly ScriptedReply[] | ScriptFunction;
  /** Delay before each SSE chunk (and before a non-streaming answer), in ms. Default 0. */
  readonly delayMs?: number;
  /** When set, requests without `Authorization: Bearer <apiKey>` get OpenAI's 401. */
  readonly apiKey?: string;
  /** Model ids listed by `GET /v1/models` (default `['test-model']`). */
  readonly models?: readonly string[];
  /** Answer 400 to any request carrying `stream_options`, like Ollama and older vLLM. */
  readonly rejectStreamOptions?: boolean;
  /** Answer 400 to any request carrying `response_format`, like servers without structured output. */
  readonly rejectResponseFormat?: boolean;
}

/** A running server. */
export interface OpenAiTestServer {
  /** Base URL including `/v1`, e.g. `http://127.0.0.1:53124/v1` — what an OpenAI client takes as `baseURL`. */
  readonly url: string;
  readonly port: number;
  /** Every `POST /v1/chat/completions`, in arrival order (rejected ones included). */
  readonly requests: RecordedRequest[];
  /** How many script replies were used so far. */
  readonly repliesUsed: () => number;
  /** Closes the server and every open connection (hangs included). */
  close(): Promise<void>;
}

/** Starts a server on 127.0.0.1 and a free port. */
export async function startOpenAiTestServer(options: OpenAiTestServerOptions): Promise<OpenAiTestServer> {
  const requests: RecordedRequest[] = [];
  let used = 0;
  const server = createServer({ noDelay: true, keepAlive: true }, (req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) {
        sendJson(res, 500, openAiErrorBody(`openAiTestServer: ${String(error)}`, 'server_error', null));
      } else {
        res.destroy();
      }
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawBody = await readBody(req);
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (req.method === 'GET' && /^\/v1\/models\/?$/.test(path)) {
      const data = (options.models ?? ['test-model']).map((id) => ({ id, object: 'model', created: 0, owned_by: 'test' }));
      sendJson(res, 200, { object: 'list', data });
      return;
    }
    if (req.method !== 'POST' || !/^\/v1\/chat\/completions\/?$/.test(path)) {
      sendJson(res, 404, openAiErrorBody(`Unknown request URL: ${req.method ?? '?'} ${path}`, 'invalid_request_error', 'unknown_url'));
      return;
    }
    let body: ChatCompletionRequestBody;
    try {
      body = JSON.parse(rawBody) as ChatCompletionRequestBody;
    } catch {
      body = {};
    }
    const record: RecordedRequest = {
      method: req.method,
      path,
      headers: { ...req.headers },
      body,
      rawBody,
      clientDisconnected: false,
      completed: false,
    };
    requests.push(record);
    res.on('close', () => {
      if (!res.writableFinished) record.clientDisconnected = true;
    });
    res.on('finish', () => {
      record.completed = true;
    });

    if (options.apiKey !== undefined && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      sendJson(res, 401, openAiErrorBody('Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key'));
      return;
    }
    if (options.rejectStreamOptions && body.stream_options !== undefined) {
      sendJson(res, 400, openAiErrorBody('Unrecognized request argument supplied: stream_options', 'invalid_request_error', null));
      return;
    }
    if (options.rejectResponseFormat && body.response_format !== undefined) {
      sendJson(res, 400, openAiErrorBody('response_format is not supported by this model', 'invalid_request_error', null));
      return;
    }

    // Claim n before any await: concurrent requests must never share a reply.
    const n = used;
    const script = options.script;
    const pick = typeof script === 'function' ? script(record, n) : script[n];
    if (pick !== undefined) used++;
    const reply = await pick;
    if (reply === undefined) {
      // 400, not 5xx: an exhausted script is a test bug, and retrying it only hides that.
      sendJson(
        res,
        400,
        openAiErrorBody(`openAiTestServer: script exhausted (request #${n + 1}, ${n} scripted replies)`, 'invalid_request_error', 'script_exhausted'),
      );
      return;
    }
    await answer(reply, body, res);
  }

  async function answer(reply: ScriptedReply, body: ChatCompletionRequestBody, res: ServerResponse): Promise<void> {
    if ('error' in reply) {
      const e = reply.error;
      const payload =
        e.body !== undefined
          ? e.body
          : openAiErrorBody(e.message ?? `Scripted error ${e.status}`, e.type ?? defaultErrorType(e.status), e.code ?? null, e.param ?? null);
      sendJson(res, e.status, payload, e.headers);
      return;
    }
    if ('hang' in reply) {
      if (reply.afterText === undefined) return; // keep the socket open, say nothing
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
      await writeStream(res, body, { text: reply.afterText }, { delayMs: 0 }, /* hang */ true);
      return;
    }
    const timing: ReplyTiming = { delayMs: reply.delayMs ?? options.delayMs ?? 0 };
    if (body.stream === true) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
      await writeStream(res, body, reply, timing, false);
    } else {
      await writeCompletion(res, body, reply, timing);
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    repliesUsed: () => used,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A text answer. */
export function textReply(text: string, extra: Omit<ScriptedMessageReply, 'text'> = {}): ScriptedMessageReply {
  return { ...extra, text };
}

/** A tool-call answer (several calls allowed). */
export function toolCallsReply(toolCalls: readonly ScriptedToolCall[], extra: Omit<ScriptedMessageReply, 'toolCalls'> = {}): ScriptedMessageReply {
  return { ...extra, toolCalls };
}

/** An HTTP error in OpenAI's shape, e.g. `errorReply(500)` or `errorReply(429, { headers: { 'retry-after': '1' } })`. */
export function errorReply(status: number, error: Omit<ScriptedErrorReply['error'], 'status'> = {}): ScriptedErrorReply {
  return { error: { ...error, status } };
}

/** OpenAI's 404 for an unknown model. */
export function modelNotFoundReply(model: string): ScriptedErrorReply {
  return errorReply(404, {
    message: `The model \`${model}\` does not exist or you do not have access to it.`,
    type: 'invalid_request_error',
    code: 'model_not_found',
  });
}

function defaultErrorType(status: number): string {
  if (status === 401) return 'invalid_request_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

function sendJson(res: ServerResponse, status: number, payload: unknown, headers: Readonly<Record<string, string>> = {}): void {
  const text = typeof payload === 'string' ? payload : JSON.stringify(payload);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
